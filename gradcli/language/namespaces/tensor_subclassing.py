"""What torch.Tensor gives a program's classes derived from it: its __new__ (the legacy
constructor, making an instance of the class), an __init__ taking any arguments, its class
attributes (__torch_function__, torch's own handler, bound to the class), and the ways to make
an instance of one from a tensor: Tensor.as_subclass and torch.Tensor._make_subclass."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.builtins import TENSOR_TYPE
from gradcli.language.namespaces.legacy_new import legacy_new
from gradcli.language.runtime import classes, protocols, subclass_protocol, tensor_subclasses
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import Builtin, entry
from gradcli.language.runtime.values import type_name


def _tensor_class(cls):
    """`cls` when it is torch.Tensor or a program's class derived from it, else torch's
    TypeError."""
    if cls is TENSOR_TYPE or isinstance(cls, classes.UserClass) and \
            cls.is_subclass_of(TENSOR_TYPE):
        return cls
    if not isinstance(cls, (classes.UserClass, PyType)):
        raise errors.type_error(f"cls must be a type (got {type_name(cls)})")
    raise errors.type_error("Creating a Tensor subclass from a class that does not inherit from "
                            "Tensor is not possible. Make sure your class inherits from Tensor.")


def _new(cls, *args, **kwargs) -> Tensor:
    """torch.Tensor.__new__(cls, ...): the legacy constructor's tensor (an alias of a tensor
    given), an instance of `cls`."""
    made = legacy_new(args, kwargs, None, False)
    return made if _tensor_class(cls) is TENSOR_TYPE else \
        subclass_protocol.register(made, cls)


def _as_subclass(t: Tensor, cls) -> Tensor:
    return subclass_protocol.as_subclass(t, _tensor_class(cls))


def _make_subclass(cls, data: Tensor, require_grad: bool = False, **_options) -> Tensor:
    """torch.Tensor._make_subclass: `data` detached (its storage shared) as an instance of
    `cls`, a leaf that requires grad when asked."""
    if not isinstance(data, Tensor):
        raise errors.type_error("_make_subclass(): argument 'data' (position 2) must be Tensor, "
                                f"not {type_name(data)}")
    made = F.detach(data)
    made.requires_grad = bool(require_grad)
    if _tensor_class(cls) is TENSOR_TYPE:
        return made
    return subclass_protocol.register(made, cls)


MAKE_SUBCLASS = entry("_make_subclass", _make_subclass,
                      "cls, data, require_grad=False, **options", qualname="_make_subclass")
AS_SUBCLASS = entry("as_subclass", _as_subclass, "self, cls", style="parser")


def _class_attribute(cls, name: str):
    """What a class derived from torch.Tensor finds in torch.Tensor: __torch_function__ bound
    to the class, else torch.Tensor's attribute as the class holds it."""
    if name == "__torch_function__":
        return BoundMethod(cls, subclass_protocol.DEFAULT_HANDLER)
    if name == "_make_subclass":
        return MAKE_SUBCLASS
    try:
        return protocols.CLASS_METHODS[Tensor][name]
    except KeyError:
        return classes.MISSING


classes.BASE_NEWS[TENSOR_TYPE] = entry("__new__", _new, "cls, *args, **kwargs",
                                       qualname="Tensor.__new__")
classes.BASE_INITS[TENSOR_TYPE] = entry("__init__", lambda self, *args, **kwargs: None,
                                        "self, *args, **kwargs", qualname="object.__init__")
classes.BASE_INIT_INHERITED.add(TENSOR_TYPE)
classes.BASE_CLASS_ATTRIBUTES[TENSOR_TYPE] = _class_attribute


def _enter_mode(mode):
    tensor_subclasses.enter_mode(mode)
    return mode


def _exit_mode(mode, exc_type=None, exc_value=None, traceback=None) -> None:
    tensor_subclasses.exit_mode(mode)


def _no_handler(mode, func, types, args=(), kwargs=None):
    raise errors.TorchError("NotImplementedError", "")


# torch.overrides.TorchFunctionMode: a base class whose instances, entered, see every call
MODE_TYPE = PyType("torch.overrides.TorchFunctionMode", ())
classes.BASE_CLASS_ATTRIBUTES[MODE_TYPE] = lambda cls, name: classes.MISSING
classes.BASE_SPECIALS[MODE_TYPE] = {
    "__enter__": entry("__enter__", _enter_mode, "self", qualname="TorchFunctionMode.__enter__"),
    "__exit__": entry("__exit__", _exit_mode, "self, exc_type, exc_val, exc_tb",
                      qualname="TorchFunctionMode.__exit__"),
    "__torch_function__": entry("__torch_function__", _no_handler,
                                "self, func, types, args=(), kwargs=None",
                                qualname="TorchFunctionMode.__torch_function__"),
}


def resolve_name(f) -> str | None:
    """torch.overrides.resolve_name: the dotted name of one of torch's overridable functions as
    handlers get it (torch.add, torch.Tensor.add, torch.Tensor.shape.__get__), else None."""
    from gradcli.language.runtime import torch_function
    if not isinstance(f, Builtin):
        return None
    getter = subclass_protocol.getter_name(f)
    if getter is not None:
        return f"torch.Tensor.{getter}.__get__"
    owner, _, name = f.qualname.rpartition(".")
    held = protocols.CLASS_METHODS[Tensor]
    for candidate in (name, f"__{name}__", f"__i{name[:-1]}__"):  # pow_ is held as __ipow__
        if owner in ("Tensor", "TensorBase") and held.get(candidate) is f:
            return f"torch.Tensor.{candidate}"
    if protocols.MODULES["torch.nn.functional"].table.get(f.name) is f:
        return f"torch.nn.functional.{f.name}"
    label = torch_function.label(f)
    return None if label is None else label[0]
