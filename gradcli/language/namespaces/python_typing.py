"""Python's typing module as scripts use it: the names annotations subscript (printed as
Python's), TypeVar, cast, TYPE_CHECKING, the decorators that change nothing at run time,
TypedDict (its classes make plain dicts) and Protocol (isinstance() by the members a
@runtime_checkable protocol names)."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.namespaces.python_collections_abc import ABC_TYPES
from gradcli.language.namespaces.python_namedtuple import TYPED_NAMEDTUPLE
from gradcli.language.namespaces.typing_protocols import runtime_checkable
from gradcli.language.runtime import classes, protocols
from gradcli.language.runtime.classes import OBJECT
from gradcli.language.runtime.frames import UserFunction
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


# typing's aliases of classes: what get_origin() gives for them, subscripted
_BUILTIN_ORIGINS = {"List": "list", "Dict": "dict", "Set": "set", "FrozenSet": "frozenset",
                    "Tuple": "tuple", "Type": "type"}
_COLLECTIONS_ORIGINS = {"DefaultDict": "defaultdict", "OrderedDict": "OrderedDict",
                        "Counter": "Counter", "Deque": "deque"}


def _get_origin(tp):
    """typing.get_origin: the class or typing form an annotation stands for (typing's aliases
    of classes, bare or subscripted), None for anything else."""
    if not isinstance(tp, TypeForm):
        return None
    collections = protocols.MODULES["collections"].table
    module, _, name = tp.name.rpartition(".")
    if name in _BUILTIN_ORIGINS and module == "typing":
        return protocols.BUILTINS[_BUILTIN_ORIGINS[name]]
    if name in _COLLECTIONS_ORIGINS and module == "typing":
        return collections[_COLLECTIONS_ORIGINS[name]]
    if name in ABC_TYPES and module == "typing":
        return ABC_TYPES[name]
    if tp.args is None:
        return None
    if tp.origin is not None:  # Dataset[int]
        return tp.origin
    if module == "":  # list[int]
        return protocols.BUILTINS[name]
    if module == "collections":  # collections.OrderedDict[str, int]
        return collections[name]
    return TYPING.table["Union" if name == "Optional" else name]


def _get_args(tp) -> tuple:
    """typing.get_args: a subscripted annotation's arguments."""
    if not isinstance(tp, TypeForm) or not tp.args:
        return ()
    if tp.name == "typing.Optional":
        return (tp.args[0], protocols.type_of(None))
    return tuple(tp.args)


def _get_type_hints(obj, globalns=None, localns=None, include_extras=False) -> dict:
    """typing.get_type_hints of a class (its own and its bases' annotations, the bases' first)
    or a function, None annotations as NoneType; annotations written as strings are refused."""
    if isinstance(obj, classes.UserClass):
        layers = [c.namespace.get("__annotations__", {}) for c in reversed(obj.mro)
                  if isinstance(c, classes.UserClass)]
    elif isinstance(obj, UserFunction):
        layers = [obj.annotations]
    else:
        return {}
    hints = {}
    for layer in layers:
        for name, annotation in layer.items():
            if isinstance(annotation, str):
                raise errors.TorchError("NotImplementedError", "typing.get_type_hints of an "
                                        "annotation written as a string is not supported by "
                                        "gradcli yet")
            hints[name] = protocols.type_of(None) if annotation is None else annotation
    return hints


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
    entry("get_origin", _get_origin, "tp", frames=0),
    entry("get_args", _get_args, "tp", frames=0),
    entry("get_type_hints", _get_type_hints, "obj, globalns=None, localns=None, "
          "include_extras=False", frames=0),
))
