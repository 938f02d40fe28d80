"""Python's `dataclasses` for the program's classes: @dataclass reads the class body's
annotations (in order, bases first) and adds __init__, __repr__, __eq__ (and the orderings,
frozen assignment and __hash__) as Python generates them; field, fields, asdict, astuple,
replace and is_dataclass. The generated methods are builtins bound as methods, never code."""

from __future__ import annotations

import dataclasses

from gradcli.engine import errors
from gradcli.language.runtime import classes, protocols
from gradcli.language.runtime.class_dicts import mapping_proxy
from gradcli.language.runtime.exceptions import register_exception
from gradcli.language.runtime.frames import UserFunction
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType, TypeForm
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import NamedTuple, Namespace, type_name

FIELDS = "__dataclass_fields__"  # where a dataclass keeps its fields (as Python's does)
FROZEN_ERROR = PyType("dataclasses.FrozenInstanceError", (dataclasses.FrozenInstanceError,))
register_exception(FROZEN_ERROR)


class _Missing(TableObject):
    """dataclasses.MISSING: no default given."""

    language_type = PyType("dataclasses._MISSING_TYPE", ())

    def attribute(self, name: str):
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"<dataclasses._MISSING_TYPE object at 0x{id(self):x}>"


MISSING = _Missing()
_READABLE = {"name": lambda f: f.name, "type": lambda f: f.type, "default": lambda f: f.default,
             "default_factory": lambda f: f.default_factory, "init": lambda f: f.init,
             "repr": lambda f: f.repr_, "hash": lambda f: f.hash, "compare": lambda f: f.compare,
             "kw_only": lambda f: f.kw_only, "metadata": lambda f: f.metadata}


class Field(TableObject):
    """What field() returns and fields() lists."""

    language_type = PyType("dataclasses.Field", ())

    def __init__(self, default, default_factory, init, repr_, hash_, compare, kw_only,
                 metadata=None):
        self.name = self.type = None
        self.metadata = mapping_proxy({} if metadata is None else metadata)
        self.default, self.default_factory = default, default_factory
        self.init, self.repr_, self.hash, self.compare = init, repr_, hash_, compare
        self.kw_only = kw_only

    def attribute(self, name: str):
        if name not in _READABLE:
            raise self.missing(name)
        return _READABLE[name](self)

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("AttributeError", f"gradcli's dataclass fields are read-only "
                                f"('{name}')")

    def repr(self, printer) -> str:
        shown = {"name": self.name, "type": self.type, "default": self.default,
                 "default_factory": self.default_factory, "init": self.init,
                 "repr": self.repr_, "hash": self.hash, "compare": self.compare}
        inner = ",".join(f"{k}={printer.repr(v)}" for k, v in shown.items())
        return (f"Field({inner},metadata={printer.repr(self.metadata)},"
                f"kw_only={printer.repr(self.kw_only)},"
                "_field_type=_FIELD)")


_FIELD_OPTIONS = {"default": MISSING, "default_factory": MISSING, "init": True, "repr": True,
                  "hash": None, "compare": True, "metadata": None, "kw_only": MISSING}


def field(**options):
    """field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None,
    compare=True, metadata=None, kw_only=MISSING)."""
    for name in options:
        if name not in _FIELD_OPTIONS:
            raise errors.type_error(f"field() got an unexpected keyword argument '{name}'")
    o = _FIELD_OPTIONS | options
    if o["default"] is not MISSING and o["default_factory"] is not MISSING:
        raise errors.value_error("cannot specify both default and default_factory")
    return Field(o["default"], o["default_factory"], o["init"], o["repr"], o["hash"],
                 o["compare"], o["kw_only"], o["metadata"])


def _is_class_var(annotation) -> bool:
    return isinstance(annotation, TypeForm) and annotation.name == "typing.ClassVar"


KW_ONLY = PyType("dataclasses.KW_ONLY", ())


def _own_fields(cls: classes.UserClass, kw_only: bool) -> list:
    """The fields the class body annotates, with their defaults, as Python's _process_class
    reads them (a default left as the class attribute, a Field replaced by its default)."""
    found, marked = [], None
    for name, annotation in cls.namespace.get("__annotations__", {}).items():
        if _is_class_var(annotation):
            continue
        if annotation is KW_ONLY:  # `_: KW_ONLY`: the fields after it are keyword-only
            if marked is not None:
                raise errors.type_error(f"{name!r} is KW_ONLY, but KW_ONLY has already been "
                                        "specified")
            marked = kw_only = True
            continue
        value = cls.namespace.get(name, MISSING)
        made = value if isinstance(value, Field) else Field(value, MISSING, True, True, None,
                                                              True, MISSING)
        made.name, made.type = name, annotation
        if made.kw_only is MISSING:
            made.kw_only = kw_only
        if isinstance(value, Field):
            if made.default is MISSING:
                del cls.namespace[name]
            else:
                cls.namespace[name] = made.default
        if made.default is not MISSING and _unhashable(made.default):
            raise errors.value_error(f"mutable default <class '{type_name(made.default)}'> for "
                                     f"field {name} is not allowed: use default_factory")
        found.append(made)
    return found


def _unhashable(value) -> bool:
    if isinstance(value, (list, dict, set)):
        return True
    owner = classes.class_of(value)
    return owner is not None and (owner.find("__hash__") is None or (
        owner.find("__hash__") is classes.MISSING and owner.find("__eq__") is not
        classes.MISSING))


def _all_fields(cls: classes.UserClass) -> dict:
    return cls.find(FIELDS) if cls.find(FIELDS) is not classes.MISSING else None


def _fields_of(value) -> dict:
    cls = value if isinstance(value, classes.UserClass) else classes.class_of(value)
    found = _all_fields(cls) if cls is not None else None
    if found is None:
        raise errors.type_error("must be called with a dataclass type or instance")
    return found


def _method(cls, name: str, function, spec: str, context: bool = False, written=None):
    cls.namespace[name] = classes.NativeMethod(entry(
        name, function, spec, context=context, qualname=f"{cls.qualname}.{name}"), written)


def _add_init(cls, fields: list) -> None:
    inits = [f for f in fields if f.init]
    positional = [f.name for f in inits if not f.kw_only]
    keyword = [f.name for f in inits if f.kw_only]
    seen_default = None
    for f in inits:
        if f.kw_only:
            continue
        if f.default is MISSING and f.default_factory is MISSING and seen_default:
            raise errors.type_error(f"non-default argument '{f.name}' follows default argument")
        seen_default = seen_default or f.default is not MISSING or \
            f.default_factory is not MISSING
    defaults = {f.name: f.default if f.default is not MISSING else _FACTORY for f in inits
                if f.default is not MISSING or f.default_factory is not MISSING}
    signature = UserFunction("__init__", f"{cls.qualname}.__init__", ("self", *positional),
                             defaults, None, None, kwonly=tuple(keyword))

    def init(ctx, self, *args, **kwargs):
        bound = signature.bind([self, *args], kwargs)
        for f in fields:
            value = bound[f.name] if f.init else f.default
            if value is _FACTORY or (not f.init and f.default_factory is not MISSING):
                value = ctx.call(f.default_factory, [], {})
            if value is MISSING:
                continue
            if _frozen(cls):  # object.__setattr__, past the refusal
                self.set_own_attribute(f.name, value)
            else:
                self.set_attribute(f.name, value)
        post = classes.special_method(self, "__post_init__")
        if post is not None:
            classes.call_bound(post, [])
    _method(cls, "__init__", init, "self, *args, **kwargs", context=True, written=signature)


_FACTORY = object()  # a default made by the field's default_factory at each call


def _frozen(cls) -> bool:
    params = cls.find("__dataclass_params__")
    return params is not classes.MISSING and params["frozen"]


def _values(instance, fields) -> tuple:
    """The fields an instance compares (and hashes) by."""
    return tuple(protocols.get_attribute(instance, f.name) for f in fields if f.compare)


def _add_repr(cls, fields) -> None:
    def represent(ctx, self):
        inner = ", ".join(f"{f.name}={ctx.printer.repr(protocols.get_attribute(self, f.name))}"
                          for f in fields if f.repr_)
        return f"{classes.class_of(self).qualname}({inner})"
    _method(cls, "__repr__", represent, "self", context=True)


def _add_comparisons(cls, fields, order: bool) -> None:
    ops = {"__eq__": "=="} | ({"__lt__": "<", "__le__": "<=", "__gt__": ">", "__ge__": ">="}
                             if order else {})
    for name, op in ops.items():
        def compare(self, other, op=op):
            if classes.class_of(other) is not classes.class_of(self):
                return NotImplemented
            return protocols.compare(op, _values(self, fields), _values(other, fields))
        if name not in cls.namespace:
            _method(cls, name, compare, "self, other")
        elif name != "__eq__":
            raise errors.type_error(f"Cannot overwrite attribute {name} in class {cls.name}. "
                                    "Consider using functools.total_ordering")


def _add_frozen(cls, fields) -> None:
    names = {f.name for f in fields}

    def refuse(self, name, *value):
        if classes.class_of(self) is cls or name in names:
            raise errors.TorchError("FrozenInstanceError", f"cannot assign to field '{name}'"
                                    if value else f"cannot delete field '{name}'")
        self.set_own_attribute(name, value[0])
    _method(cls, "__setattr__", refuse, "self, name, value")
    _method(cls, "__delattr__", refuse, "self, name")


def _process(cls, init, repr_, eq, order, unsafe_hash, frozen, kw_only, match_args=True):
    if not isinstance(cls, classes.UserClass):
        raise errors.type_error("dataclass() should be called on a class")
    if order and not eq:
        raise errors.value_error("eq must be true if order is true")
    fields = {}
    for base in reversed(cls.mro[1:]):
        fields.update(base.namespace.get(FIELDS, {}))
    for made in _own_fields(cls, kw_only):
        fields[made.name] = made
    cls.namespace["__dataclass_params__"] = {"frozen": frozen, "eq": eq, "order": order}
    cls.namespace[FIELDS] = fields  # (in Python's order of the names it adds)
    listed = list(fields.values())
    own = cls.namespace
    explicit_hash = "__hash__" in own
    if init and "__init__" not in own:
        _add_init(cls, listed)
    if repr_ and "__repr__" not in own:
        _add_repr(cls, listed)
    if eq:
        _add_comparisons(cls, listed, order)
    if frozen:
        _add_frozen(cls, listed)
    if unsafe_hash or (eq and frozen and not explicit_hash):
        _method(cls, "__hash__", lambda self: hash(_values(self, listed)), "self")
    elif eq and not explicit_hash:
        own["__hash__"] = None
    if match_args and "__match_args__" not in own:  # what a class pattern's positions name
        own["__match_args__"] = tuple(f.name for f in listed if f.init and not f.kw_only)
    return cls


def dataclass(cls=None, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False,
              frozen=False, match_args=True, kw_only=False, slots=False):
    """@dataclass or @dataclass(...)."""
    def wrap(target):
        return _process(target, init, repr, eq, order, unsafe_hash, frozen, kw_only, match_args)
    if cls is None:
        return entry("wrap", wrap, "cls", qualname="dataclass.<locals>.wrap")
    return wrap(cls)


def _convert(value, into):
    """asdict/astuple's copy: dataclasses within, and lists, tuples and dicts, converted."""
    owner = classes.class_of(value)
    if owner is not None and _all_fields(owner) is not None:
        return into([(f.name, _convert(protocols.get_attribute(value, f.name), into))
                     for f in _all_fields(owner).values()])
    if isinstance(value, NamedTuple):
        return type(value)(_convert(v, into) for v in value)
    if isinstance(value, (list, tuple)):
        return type(value)(_convert(v, into) for v in value)
    if isinstance(value, dict):
        return type(value)((_convert(k, into), _convert(v, into)) for k, v in value.items())
    return value


def _instance_check(value, name: str) -> None:
    if isinstance(value, classes.UserClass) or classes.class_of(value) is None or \
            _all_fields(classes.class_of(value)) is None:
        raise errors.type_error(f"{name}() should be called on dataclass instances")


def _asdict(obj):
    _instance_check(obj, "asdict")
    return _convert(obj, dict)


def _astuple(obj):
    _instance_check(obj, "astuple")
    return _convert(obj, lambda pairs: tuple(v for _, v in pairs))


def _replace(ctx, obj, **changes):
    _instance_check(obj, "replace")
    fields = _fields_of(obj)
    for f in fields.values():
        if not f.init and f.name in changes:
            raise errors.value_error(f"field {f.name} is declared with init=False, it cannot be "
                                     "specified with replace()")
    for f in fields.values():
        if f.init and f.name not in changes:
            changes[f.name] = protocols.get_attribute(obj, f.name)
    return ctx.call(classes.class_of(obj), [], changes)


def _is_dataclass(obj) -> bool:
    cls = obj if isinstance(obj, classes.UserClass) else classes.class_of(obj)
    return cls is not None and _all_fields(cls) is not None


DATACLASSES = Namespace("dataclasses", table(
    entry("dataclass", dataclass, "cls=None, /, *, init=True, repr=True, eq=True, order=False, "
          "unsafe_hash=False, frozen=False, match_args=True, kw_only=False, slots=False",
          frames=0),
    entry("field", field, "**options", frames=0),
    entry("fields", lambda obj: tuple(_fields_of(obj).values()), "class_or_instance", frames=0),
    entry("asdict", _asdict, "obj", frames=0),
    entry("astuple", _astuple, "obj", frames=0),
    entry("replace", _replace, "obj, /, **changes", context=True, frames=0),
    entry("is_dataclass", _is_dataclass, "obj", frames=0),
) | {"MISSING": MISSING, "FrozenInstanceError": FROZEN_ERROR, "KW_ONLY": KW_ONLY})
