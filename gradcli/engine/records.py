"""Record classes made without compiling code: gradcli's stand-in for `dataclasses`.

`dataclasses.dataclass` writes each class's methods as source text and compiles it when the class
is made, close to half a millisecond a class, and gradcli's start-up makes dozens of them.
`record` reads the same class body (annotated fields, defaults, `field(...)`, `__post_init__`) and
gives the same `__init__`, `__repr__`, `__eq__`, `__hash__` and frozenness from shared functions;
`replace` is `dataclasses.replace`. Methods the class body defines itself are kept. A record keeps
its fields in the instance's `__dict__`, set there directly (no record defines `__setattr__`).
"""

from __future__ import annotations

from operator import itemgetter

_MISSING = object()


class Field:
    """One field and its options, as `dataclasses.field` takes them."""

    __slots__ = ("name", "default", "default_factory", "init", "repr", "compare")

    def __init__(self, default=_MISSING, default_factory=_MISSING, init=True, repr=True,
                 compare=True):
        self.name = ""
        self.default, self.default_factory = default, default_factory
        self.init, self.repr, self.compare = init, repr, compare

    @property
    def has_default(self) -> bool:
        return self.default is not _MISSING or self.default_factory is not _MISSING

    def default_value(self):
        return self.default if self.default_factory is _MISSING else self.default_factory()


def field(*, default=_MISSING, default_factory=_MISSING, init=True, repr=True,
          compare=True) -> Field:
    """Options for one field, as `dataclasses.field`."""
    return Field(default, default_factory, init, repr, compare)


def record(cls=None, /, *, frozen: bool = False, eq: bool = True):
    """Make `cls` a record, as `@dataclass` / `@dataclass(frozen=..., eq=...)` would."""
    if cls is None:
        return lambda cls: _build(cls, frozen, eq)
    return _build(cls, frozen, eq)


def replace(obj, /, **changes):
    """A copy of the record `obj` with some fields changed, as `dataclasses.replace`."""
    values = obj.__dict__
    for each in obj.__record_fields__:
        if each.init and each.name not in changes:
            changes[each.name] = values[each.name]
    return obj.__class__(**changes)


def _build(cls, frozen: bool, eq: bool):
    fields = _fields(cls)
    own = cls.__dict__
    cls.__record_fields__ = fields
    if "__init__" not in own:
        cls.__init__ = _init(cls, fields)
    if "__repr__" not in own:
        cls.__repr__ = _repr(fields)
    if eq and "__eq__" not in own:
        cls.__eq__ = _eq(fields)
    if frozen:
        cls.__setattr__, cls.__delattr__ = _refusals(cls, fields)
    if own.get("__hash__") is None and eq:  # as dataclasses: hashable by value only if frozen
        cls.__hash__ = _hash(fields) if frozen else None
    return cls


def _fields(cls) -> tuple[Field, ...]:
    """Inherited fields first, then the class's own annotated names, as dataclasses orders them."""
    by_name: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for each in base.__dict__.get("__record_fields__", ()):
            by_name[each.name] = each
    own = cls.__dict__
    for name in own.get("__annotations__", {}):
        value = own.get(name, _MISSING)
        each = value if isinstance(value, Field) else Field(default=value)
        each.name = name
        by_name[name] = each
    return tuple(by_name.values())


def _init(cls, fields: tuple[Field, ...]):
    names = tuple(f.name for f in fields if f.init)
    known = frozenset(names)
    plain = {f.name: f.default for f in fields if f.init and f.default is not _MISSING}
    factories = tuple(f for f in fields if f.init and f.default_factory is not _MISSING)
    required = tuple(f.name for f in fields if f.init and not f.has_default)
    later = tuple(f for f in fields if not f.init and f.has_default)
    post_init = hasattr(cls, "__post_init__")
    title = cls.__qualname__

    def bind(values: dict, args: tuple, kwargs: dict) -> None:
        if len(args) > len(names):
            raise TypeError(f"{title}.__init__() takes {len(names) + 1} positional arguments "
                            f"but {len(args) + 1} were given")
        values.update(plain)
        values.update(zip(names, args))
        for name in kwargs:
            if name not in known or name in names[:len(args)]:
                raise TypeError(f"{title}.__init__() got an unexpected keyword argument "
                                f"'{name}'")
        values.update(kwargs)
        for each in factories:
            if each.name not in values:
                values[each.name] = each.default_factory()
        for name in required:
            if name not in values:
                raise TypeError(f"{title}.__init__() missing required argument: '{name}'")

    def __init__(self, *args, **kwargs):
        values = self.__dict__
        if kwargs or len(args) != len(names):
            bind(values, args, kwargs)
        else:
            values.update(zip(names, args))
        for each in later:
            values[each.name] = each.default_value()
        if post_init:
            self.__post_init__()

    return __init__


def _repr(fields: tuple[Field, ...]):
    shown = tuple(f.name for f in fields if f.repr)

    def __repr__(self):
        values = self.__dict__
        inner = ", ".join(f"{name}={values[name]!r}" for name in shown)
        return f"{type(self).__qualname__}({inner})"

    return __repr__


def _key(fields: tuple[Field, ...]):
    """The function giving an instance's compared fields (in a tuple, when more than one)."""
    names = [f.name for f in fields if f.compare]
    pick = itemgetter(*names) if names else (lambda values: ())
    return lambda obj: pick(obj.__dict__)


def _eq(fields: tuple[Field, ...]):
    key = _key(fields)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is other or key(self) == key(other)

    return __eq__


def _hash(fields: tuple[Field, ...]):
    key = _key(fields)

    def __hash__(self):
        return hash(key(self))

    return __hash__


def _refusals(cls, fields: tuple[Field, ...]):
    """A frozen record's __setattr__ and __delattr__: its fields, and any attribute of the class
    itself, cannot change (a subclass's own attributes can)."""
    names = frozenset(f.name for f in fields)

    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise AttributeError(f"cannot assign to field '{name}'")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise AttributeError(f"cannot delete field '{name}'")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__
