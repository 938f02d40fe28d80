"""User classes: `class` statements as Python runs them, as values of the interpreter.

A class is a UserClass (its namespace, bases and C3 method resolution order); an instance is an
Instance holding its attributes. Attribute lookup follows Python's order: the instance's own
attributes, then the class chain, where functions bind to the instance and staticmethod,
classmethod and property wrappers do what Python's descriptors do. No host Python class or
attribute is reachable: names resolve only through these dictionaries.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gradcli.engine import errors
from gradcli.language.runtime.frames import UserFunction
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import OBJECT, PyType

MISSING = _MISSING = object()


@dataclass(eq=False)
class StaticMethod:
    function: object


@dataclass(eq=False)
class ClassMethod:
    function: object


@dataclass(eq=False)
class Property:
    getter: object
    setter: object = None


@dataclass(eq=False)
class UserMethod:
    """A user function bound to its first argument (an instance, or a class for classmethod)."""

    receiver: object
    function: object


@dataclass(eq=False)
class UserClass:
    """A class made by a `class` statement; `base` is the builtin class it derives from, if any
    (nn.Module, an exception class...)."""

    name: str
    qualname: str
    bases: tuple
    namespace: dict
    runtime: object
    module: str = "__main__"
    mro: tuple = field(default=())
    base: object = None

    def __post_init__(self) -> None:
        self.mro = (self, *_linearize(self))
        self.base = next((b for b in self.bases if not isinstance(b, UserClass)),
                         next((b.base for b in self.bases if isinstance(b, UserClass)
                               and b.base is not None), None))

    def find(self, name: str, after: "UserClass | None" = None):
        """The first definition of `name` along the MRO (after `after`, for super())."""
        chain = self.mro
        if after is not None:
            chain = chain[chain.index(after) + 1:]
        for cls in chain:
            if name in cls.namespace:
                return cls.namespace[name]
        return _MISSING

    def is_subclass_of(self, other) -> bool:
        return other in self.mro or other is OBJECT or (
            other is self.base and other is not None)

    def attribute(self, name: str):
        """Cls.name: class attributes and functions (unbound), classmethods bound to the class."""
        found = self.find(name)
        if found is _MISSING and self.base in BASE_CLASS_ATTRIBUTES:
            found = BASE_CLASS_ATTRIBUTES[self.base](self, name)
        if found is _MISSING:
            if name == "__name__":
                return self.name
            if name == "__qualname__":
                return self.qualname
            raise errors.TorchError("AttributeError",
                                    f"type object '{self.name}' has no attribute '{name}'")
        return bind(found, None, self)


def _linearize(cls: UserClass) -> list:
    """C3 linearization of the user bases (Python's MRO), without `cls` itself."""
    sequences = [list(b.mro) for b in cls.bases if isinstance(b, UserClass)]
    sequences.append([b for b in cls.bases if isinstance(b, UserClass)])
    result = []
    while any(sequences):
        for sequence in sequences:
            if not sequence:
                continue
            head = sequence[0]
            if not any(head in s[1:] for s in sequences):
                break
        else:
            names = ", ".join(b.name for b in cls.bases if isinstance(b, UserClass))
            raise errors.type_error("Cannot create a consistent method resolution order (MRO) for "
                                    f"bases {names}")
        result.append(head)
        sequences = [s[1:] if s and s[0] is head else s for s in sequences]
    return result


def bind(found, instance, cls: UserClass):
    """What looking up `found` through an instance (or the class, instance None) gives."""
    if isinstance(found, StaticMethod):
        return found.function
    if isinstance(found, ClassMethod):
        return UserMethod(cls, found.function)
    if isinstance(found, Property):
        if instance is None:
            return found
        return cls.runtime.call(found.getter, [instance], {})
    if isinstance(found, UserFunction) and instance is not None:
        return UserMethod(instance, found)
    return found


class UserInstance:
    """What every instance of a user class answers about its class (mixed into table values)."""

    __slots__ = ()

    @property
    def language_type(self):
        return self.cls

    @property
    def class_name(self) -> str:
        return self.cls.name

    def user_class(self) -> UserClass:
        return self.cls


class Instance(UserInstance, TableObject):
    """An object of a user class: its own attributes, then its class's."""

    __slots__ = ("cls", "attrs")

    def __init__(self, cls: UserClass):
        self.cls = cls
        self.attrs: dict = {}

    def attribute(self, name: str):
        if name in self.attrs:
            return self.attrs[name]
        found = self.cls.find(name)
        if found is not _MISSING:
            return bind(found, self, self.cls)
        getattr_hook = self.cls.find("__getattr__")
        if getattr_hook is not _MISSING:
            return self.cls.runtime.call(getattr_hook, [self, name], {})
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        if not set_property(self.cls, self, name, value):
            self.attrs[name] = value

    def delete_attribute(self, name: str) -> None:
        if name not in self.attrs:
            raise self.missing(name)
        del self.attrs[name]

    def dunder(self, name: str):
        """The user's own special method `name`, bound, or None."""
        found = self.cls.find(name)
        return None if found is _MISSING else bind(found, self, self.cls)

    def repr(self, printer) -> str:
        method = self.dunder("__repr__")
        if method is None:
            return f"<{self.cls.module}.{self.cls.qualname} object at 0x{id(self):x}>"
        return _text_of(self.cls.runtime.call(method, [], {}), "__repr__")

    def str(self, printer) -> str:
        method = self.dunder("__str__")
        return self.repr(printer) if method is None else _text_of(
            self.cls.runtime.call(method, [], {}), "__str__")

    def forward(self):
        return self.dunder("__call__")


def _text_of(value, method: str) -> str:
    if not isinstance(value, str):
        raise errors.type_error(f"{method} returned non-string (type {_kind(value)})")
    return value


def set_property(cls: UserClass, instance, name: str, value) -> bool:
    """obj.name = value through a property of the class (its setter); False when `name` is not
    a property."""
    found = cls.find(name)
    if not isinstance(found, Property):
        return False
    if found.setter is None:
        raise errors.TorchError("AttributeError",
                                f"property '{name}' of '{cls.name}' object has no setter")
    cls.runtime.call(found.setter, [instance, value], {})
    return True


def _kind(value) -> str:
    return value.class_name if isinstance(value, TableObject) else type(value).__name__


@dataclass(eq=False)
class Super:
    """super(): attribute lookup along the instance's MRO after the given class."""

    cls: UserClass
    instance: object

    def attribute(self, name: str):
        owner = class_of(self.instance)
        if owner is None:
            raise errors.type_error("super(type, obj): obj must be an instance or subtype of type")
        found = owner.find(name, after=self.cls)
        if found is not _MISSING:
            return bind(found, self.instance, owner)
        return _MISSING


# What instantiating a class with a builtin base makes, and that base's __init__, by base
# (nn.Module registers here).
BASE_INSTANCES: dict = {}
BASE_INITS: dict = {}
# Class attributes a builtin base gives its subclasses (autograd.Function's apply), by base.
BASE_CLASS_ATTRIBUTES: dict = {}


def make_class(name: str, qualname: str, bases: list, namespace: dict, runtime) -> UserClass:
    """The value of a `class` statement, after Python's checks on its bases."""
    for base in bases:
        if not isinstance(base, (UserClass, PyType)):
            raise errors.type_error(f"{base.class_name}() takes no arguments" if isinstance(
                base, TableObject) else "bases must be types")
        if isinstance(base, PyType) and base not in BASE_INSTANCES and base is not OBJECT \
                and base not in BASE_CLASS_ATTRIBUTES:
            raise errors.TorchError("NotImplementedError", f"a class derived from {base.name} is "
                                    "not supported by gradcli yet")
    user_bases = tuple(b for b in bases if b is not OBJECT)
    return UserClass(name, qualname, user_bases, namespace, runtime)


def instantiate(cls: UserClass, args: list, kwargs: dict):
    """Cls(*args): a new instance, then its __init__ (Python's errors when there is none)."""
    make = BASE_INSTANCES.get(cls.base)
    instance = make(cls) if make is not None else Instance(cls)
    init = cls.find("__init__")
    if init is _MISSING:
        if (args or kwargs) and make is None:
            raise errors.type_error(f"{cls.name}() takes no arguments")
        return instance
    result = cls.runtime.call(init, [instance, *args], kwargs)
    if result is not None:
        raise errors.type_error(f"__init__() should return None, not '{_kind(result)}'")
    return instance


def class_of(value) -> UserClass | None:
    """The user class of an instance (plain or with a builtin base), else None."""
    return value.user_class() if isinstance(value, TableObject) else None


def special_method(value, name: str):
    """The user-defined special method `name` of a user class instance, bound, else None."""
    cls = class_of(value)
    if cls is None:
        return None
    found = cls.find(name)
    return None if found is _MISSING else bind(found, value, cls)


def call_bound(method, args: list):
    """Call a bound special method with the runtime of the class that defined it."""
    cls = method.receiver if isinstance(method.receiver, UserClass) else class_of(method.receiver)
    return cls.runtime.call(method, args, {})
