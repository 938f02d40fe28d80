"""Python's typing module as scripts use it: the names annotations subscript (printed as
Python's), TypeVar, cast, TYPE_CHECKING, the decorators that change nothing at run time,
TypedDict (its classes make plain dicts) and Protocol (isinstance() by the members a
@runtime_checkable protocol names)."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.namespaces.python_namedtuple import TYPED_NAMEDTUPLE
from gradcli.language.namespaces.typing_protocols import runtime_checkable
from gradcli.language.runtime import classes
from gradcli.language.runtime.classes import OBJECT
from gradcli.language.runtime.pytypes import GENERIC, PyType, TypeForm
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, dict_from

PROTOCOL = TypeForm("typing.Protocol", origin=OBJECT)
TYPED_DICT = TypeForm("typing.TypedDict")
# what `class Batch(TypedDict)` derives from: calling the class makes a dict of its arguments
_TYPED_DICT_BASE = PyType("dict", (dict,))
classes.BASE_NEWS[_TYPED_DICT_BASE] = entry(
    "__new__", lambda cls, *args, **kwargs: dict_from(args[0] if args else (), **kwargs),
    "cls, /, *args, **kwargs",
    qualname="dict.__new__")
classes.BASE_REWRITES[TYPED_DICT] = lambda name, namespace: _TYPED_DICT_BASE

def _type_variable(name, covariant, contravariant) -> TypeForm:
    """TypeVar('T'): printed as typing prints it (~T, +T_co, -T_contra)."""
    if not isinstance(name, str):
        raise errors.type_error("TypeVar name must be a string")
    return TypeForm(("+" if covariant else "-" if contravariant else "~") + name)


def _new_type(name, tp):
    """NewType('UserId', int): a callable giving its argument back."""
    return entry(name, lambda x: x, "x, /", qualname=name, frames=0)


TYPING = Namespace("typing", {name: TypeForm(f"typing.{name}") for name in (
    "Any", "Callable", "Dict", "Iterable", "Iterator", "List", "Optional", "Sequence", "Set",
    "Tuple", "Type", "Union", "Generator", "Mapping", "Literal", "FrozenSet", "DefaultDict",
    "OrderedDict", "Counter", "Deque", "ClassVar", "Final", "Hashable", "Sized",
    "Collection", "Container", "MutableMapping", "MutableSequence", "AbstractSet", "NoReturn",
    "Annotated", "Self", "Never", "TypeAlias", "Awaitable", "Coroutine", "AsyncIterator",
    "Reversible", "SupportsInt", "SupportsFloat", "SupportsIndex", "ItemsView", "KeysView",
    "ValuesView", "ContextManager", "Pattern", "Match", "Text", "Required", "NotRequired")}
    | {"NamedTuple": TYPED_NAMEDTUPLE, "Generic": GENERIC,
       "Protocol": PROTOCOL, "TypedDict": TYPED_DICT, "TYPE_CHECKING": False} | table(
    entry("TypeVar", lambda name, *constraints, bound=None, covariant=False,
          contravariant=False: _type_variable(name, covariant, contravariant),
          "name, *constraints, bound=None, covariant=False, contravariant=False", frames=0),
    entry("cast", lambda typ, val: val, "typ, val", frames=0),
    entry("runtime_checkable", runtime_checkable, "cls", frames=0),
    entry("overload", lambda func: func, "func", frames=0),
    entry("final", lambda f: f, "f", frames=0),
    entry("no_type_check", lambda arg: arg, "arg", frames=0),
    entry("NewType", _new_type, "name, tp", frames=0),
))
