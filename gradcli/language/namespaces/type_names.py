"""torch.typename, which torch's messages about modules and optimizers quote."""

from __future__ import annotations

from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime import classes, protocols
from gradcli.language.runtime.frames import UserFunction
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import Builtin
from gradcli.language.runtime.torch_homes import home


def torch_typename(value) -> str:
    """torch.typename: a tensor's type(), else the module and qualified name of a class or
    function, or of the object's class (builtins' without their module)."""
    if isinstance(value, Tensor):
        return F.type_(value)
    if isinstance(value, UserFunction):
        return f"{value.attrs.get('__module__', '__main__')}.{value.qualname}"
    if isinstance(value, Builtin):  # a function: its module where known, its qualified name
        return value.title if home(value) is None else home(value).path
    cls = value if isinstance(value, (PyType, classes.UserClass)) else protocols.type_of(value)
    if isinstance(cls, classes.UserClass):
        return f"{cls.module}.{cls.qualname}"
    return cls.name
