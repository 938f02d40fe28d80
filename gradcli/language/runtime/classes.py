"""User classes: `class` statements as Python runs them, as values of the interpreter.

A class is a UserClass (its namespace, bases and C3 method resolution order); an instance is an
Instance holding its attributes. Attribute lookup follows Python's order: the instance's own
attributes, then the class chain, where functions bind to the instance and staticmethod,
classmethod and property wrappers do what Python's descriptors do. No host Python class or
attribute is reachable: names resolve only through these dictionaries.
"""

from __future__ import annotations

import collections

from gradcli.engine.records import field, record

from gradcli.engine import errors
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime import protocols
from gradcli.language.runtime.tensor_subclasses import CLASSES as TENSOR_CLASSES
from gradcli.language.runtime.tensor_subclasses import STATUS as SUBCLASSES
from gradcli.language.runtime.frames import BoundMethod, GradRuntimeError, UserFunction
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import OBJECT, PyType, TypeForm

MISSING = _MISSING = object()


@record(eq=False)
class StaticMethod:
    function: object


@record(eq=False)
class ClassMethod:
    function: object


@record(eq=False)
class Property:
    getter: object
    setter: object = None
    deleter: object = None


@record(eq=False)
class CachedProperty:
    """functools.cached_property: computed on an instance's first read, then kept as its own
    attribute (which later reads find first)."""

    function: object


@record(eq=False)
class NativeMethod:
    """A method a library adds to a user class (functools.total_ordering's): a builtin that
    binds to the instance as a function does. `written` is the function Python would have
    written for it (a dataclass's __init__), whose parameters inspect.signature reports."""

    function: object
    written: object = None


@record(eq=False)
class UserMethod:
    """A user function bound to its first argument (an instance, or a class for classmethod)."""

    receiver: object
    function: object


@record(eq=False)
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
    behind_base: frozenset = field(default=frozenset())

    def __post_init__(self) -> None:
        self.mro = (self, *_linearize(self))
        self.base = next((b for b in self.bases if not isinstance(b, UserClass)),
                         next((b.base for b in self.bases if isinstance(b, UserClass)
                               and b.base is not None), None))
        if self.base in BASE_DEFINES:  # the classes C3 puts after the builtin base
            full = _full_mro(self)
            first = next(i for i, c in enumerate(full) if not isinstance(c, UserClass))
            self.behind_base = frozenset(full[first:])

    def find(self, name: str, after: "UserClass | None" = None):
        """The first definition of `name` along the MRO (after `after`, for super()); MISSING
        when the builtin base comes first with its own (nn.Module's train before a mixin's
        after it), for the caller to find there."""
        chain = self.mro
        if after is not None:
            chain = chain[chain.index(after) + 1:]
        for cls in chain:
            if name in cls.namespace:
                if cls in self.behind_base and BASE_DEFINES[self.base](name):
                    return _MISSING
                return cls.namespace[name]
        return _MISSING

    def slot_names(self) -> frozenset | None:
        """The attribute names an instance may hold when every class along the MRO declares
        __slots__ (without __dict__), else None: its instances have a __dict__."""
        if self.base is not None:  # a builtin base's instances (an exception's) have one
            return None
        names: set = set()
        for cls in self.mro:
            slots = cls.namespace.get("__slots__", _MISSING)
            if slots is _MISSING:
                return None
            if not isinstance(slots, (str, tuple, list)):
                return None  # (an iterable of another kind: not checked)
            slots = (slots,) if isinstance(slots, str) else slots
            if "__dict__" in slots:
                return None
            names.update(slots)
        return frozenset(names)

    def is_subclass_of(self, other) -> bool:
        return other in self.mro or other is OBJECT or (other is not None and (
            other is self.base or (isinstance(other, PyType) and isinstance(self.base, PyType)
                                   and bool(self.base.hosts) and bool(other.hosts)
                                   and issubclass(self.base.hosts[0], other.hosts))))

    def attribute(self, name: str):
        """Cls.name: class attributes and functions (unbound), classmethods bound to the class."""
        found = self.find(name)
        if found is _MISSING and self.base in BASE_CLASS_ATTRIBUTES:
            found = BASE_CLASS_ATTRIBUTES[self.base](self, name)
        if found is _MISSING:
            special = _CLASS_SPECIALS.get(name)
            if special is not None:
                return special(self)
            raise errors.TorchError("AttributeError",
                                    f"type object '{self.name}' has no attribute '{name}'")
        return bind(found, None, self)


def _full_mro(cls: UserClass) -> tuple:
    """Cls.__mro__: Python's C3 order over the user classes and the builtin bases with their
    ancestors (a mixin after nn.Module comes after it), then object."""
    sequences = [list(_full_mro(b)[:-1]) if isinstance(b, UserClass) else _builtin_chain(b)
                 for b in cls.bases]
    sequences.append([b for b in cls.bases if b is not OBJECT])
    merged = _merge(sequences)
    if merged is None:  # (an order Python refuses the class statement already)
        merged = [*cls.mro[1:], *_builtin_chain(cls.base)]
    return (cls, *merged, OBJECT)


def _builtin_chain(base) -> list:
    """A builtin class and its ancestors (known to the language) up to, not including, object."""
    if not isinstance(base, PyType):
        return []
    if base.hosts and base.hosts[0] in BUILTIN_ANCESTORS:
        return [BUILTIN_ANCESTORS[host] for host in base.hosts[0].__mro__[:-1]
                if host in BUILTIN_ANCESTORS]
    return [base]


def _merge(sequences: list) -> list | None:
    """C3's merge of `sequences`; None when no consistent order exists."""
    sequences = [list(s) for s in sequences if s]
    result = []
    while sequences:
        head = next((s[0] for s in sequences
                     if not any(s[0] in other[1:] for other in sequences)), None)
        if head is None:
            return None
        result.append(head)
        sequences = [t for t in ([x for x in s if x is not head] if s[0] is head else s
                                 for s in sequences) if t]
    return result


_CLASS_SPECIALS = {
    "__name__": lambda c: c.name, "__qualname__": lambda c: c.qualname,
    "__module__": lambda c: c.module, "__mro__": _full_mro,
    "mro": lambda c: _mro_method(c),
    "__bases__": lambda c: c.bases or (c.base or OBJECT,),
    "__base__": lambda c: c.bases[0] if c.bases else (c.base or OBJECT),
    "__doc__": lambda c: c.namespace.get("__doc__"),
    "__dict__": lambda c: _class_dict(c),
}


def _class_dict(cls: UserClass):
    from gradcli.language.runtime.class_dicts import ClassDict
    return ClassDict(cls)
# The language classes of builtin classes a program may derive from, by host class (the
# exception classes register here), for __mro__.
BUILTIN_ANCESTORS: dict = {}


def _mro_method(cls: UserClass):
    from gradcli.language.runtime.signatures import entry
    return entry("mro", lambda: list(_full_mro(cls)), "", qualname="type.mro")


def _linearize(cls: UserClass) -> list:
    """C3 linearization of the user bases (Python's MRO), without `cls` itself."""
    seen = set()
    for base in cls.bases:
        if id(base) in seen:
            raise errors.type_error(f"duplicate base class {base.name}")
        seen.add(id(base))
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
            raise errors.type_error("Cannot create a consistent method resolution\norder (MRO) "
                                    f"for bases {names}")
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
    if isinstance(found, CachedProperty) and instance is not None:
        value = cls.runtime.call(found.function, [instance], {})
        if isinstance(instance, Instance):  # into its __dict__, past any __setattr__
            instance.attrs[found.function.name] = value
        else:
            instance.set_attribute(found.function.name, value)
        return value
    if isinstance(found, NativeMethod):
        return found.function if instance is None else BoundMethod(instance, found.function)
    if isinstance(found, Instance):  # a descriptor of the program's (a class with __get__)
        getter = found.cls.find("__get__")
        if getter is not _MISSING:
            return found.cls.runtime.call(bind(getter, found, found.cls), [instance, cls], {})
    return found


def _descriptor_hook(cls: UserClass, name: str, hook: str):
    """The bound __set__ / __delete__ of a descriptor the class holds as `name`, or None."""
    found = cls.find(name)
    if not isinstance(found, Instance):
        return None
    method = found.cls.find(hook)
    return None if method is _MISSING else bind(method, found, found.cls)


def set_names(cls: UserClass) -> None:
    """type.__new__'s last step: each attribute with a __set_name__ learns its owner and name."""
    for name, value in list(cls.namespace.items()):
        if isinstance(value, Instance):
            hook = value.cls.find("__set_name__")
            if hook is not _MISSING:
                cls.runtime.call(bind(hook, value, value.cls), [cls, name], {})


def read_property(found: Property, instance, cls: UserClass, name: str, missing=None):
    """A property read through an instance: an AttributeError from its getter makes Python call
    the class's __getattr__ (nn.Module's says `missing(name)`), else it propagates."""
    try:
        return bind(found, instance, cls)
    except (errors.TorchError, GradRuntimeError) as error:
        if not protocols.is_attribute_error(error):
            raise
        hook = cls.find("__getattr__")
        if hook is not _MISSING:
            return cls.runtime.call(hook, [instance, name], {})
        if missing is None:
            raise
        raise missing(name) from None


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
        hook = self.cls.find("__getattribute__")
        if hook is not _MISSING:
            return self.hooked_attribute(hook, name)
        if name in self.attrs:
            return self.attrs[name]
        found = self.cls.find(name)
        if isinstance(found, Property):
            return read_property(found, self, self.cls, name)
        if found is not _MISSING:
            return bind(found, self, self.cls)
        found = self.host_attribute(name)
        if found is not _MISSING:
            return found
        if name == "__dict__" and isinstance(self, Instance):  # its own attributes, as vars()
            return self.attrs
        getattr_hook = self.cls.find("__getattr__")
        if getattr_hook is not _MISSING:
            return self.cls.runtime.call(getattr_hook, [self, name], {})
        raise self.missing(name)

    def hooked_attribute(self, hook, name: str):
        """The class's own __getattribute__, then its __getattr__ when that raises
        AttributeError, as Python reads an attribute."""
        runtime = self.cls.runtime
        try:
            return runtime.call(bind(hook, self, self.cls), [name], {})
        except (errors.TorchError, GradRuntimeError) as error:
            getattr_hook = self.cls.find("__getattr__")
            if getattr_hook is _MISSING or not protocols.is_attribute_error(error):
                raise
        return runtime.call(getattr_hook, [self, name], {})

    def host_attribute(self, name: str):
        """An attribute of the builtin base past the user's classes (list.append...)."""
        return _MISSING

    def set_attribute(self, name: str, value) -> None:
        hook = self.cls.find("__setattr__")
        if hook is not _MISSING:
            self.cls.runtime.call(bind(hook, self, self.cls), [name, value], {})
            return
        self.set_own_attribute(name, value)

    def set_own_attribute(self, name: str, value) -> None:
        """object.__setattr__(self, name, value): a property's setter, else the instance's own
        attribute."""
        if set_property(self.cls, self, name, value):
            return
        setter = _descriptor_hook(self.cls, name, "__set__")
        if setter is not None:
            self.cls.runtime.call(setter, [self, value], {})
            return
        slots = self.cls.slot_names()
        if slots is not None and name not in slots:
            raise errors.TorchError("AttributeError",
                                    f"'{self.cls.name}' object has no attribute '{name}'")
        self.attrs[name] = value

    def delete_attribute(self, name: str) -> None:
        hook = self.cls.find("__delattr__")
        if hook is not _MISSING:
            self.cls.runtime.call(bind(hook, self, self.cls), [name], {})
            return
        self.delete_own_attribute(name)

    def delete_own_attribute(self, name: str) -> None:
        """object.__delattr__(self, name): a property's deleter, a descriptor's __delete__,
        else the instance's own attribute."""
        deleter = _descriptor_hook(self.cls, name, "__delete__")
        if deleter is not None:
            self.cls.runtime.call(deleter, [self], {})
            return
        found = self.cls.find(name)
        if isinstance(found, Property):
            if found.deleter is None:
                raise errors.TorchError("AttributeError", f"property '{name}' of "
                                        f"'{self.cls.name}' object has no deleter")
            self.cls.runtime.call(found.deleter, [self], {})
            return
        if name not in self.attrs:
            raise self.missing(name)
        del self.attrs[name]

    # Host dicts and sets (and list.index, ==) reach the user's __hash__ and __eq__, as Python's.
    def __hash__(self):
        found = self.cls.find("__hash__")
        if found is None or (found is _MISSING and self.cls.find("__eq__") is not _MISSING):
            raise errors.type_error(f"unhashable type: '{self.cls.name}'")
        if found is _MISSING:
            return object.__hash__(self)
        value = self.cls.runtime.call(bind(found, self, self.cls), [], {})
        if not isinstance(value, int):
            raise errors.type_error("__hash__ method should return an integer")
        # as CPython takes it: as is when it fits a machine word (a str's hash), else reduced
        return int(value) if -2 ** 63 <= value < 2 ** 63 else hash(value)

    def __eq__(self, other):
        found = self.cls.find("__eq__")
        if found is _MISSING:
            return self is other
        result = self.cls.runtime.call(bind(found, self, self.cls), [other], {})
        if result is NotImplemented:
            return self is other
        return protocols.truth(result)

    def dunder(self, name: str):
        """The user's own special method `name`, bound, or None."""
        found = self.cls.find(name)
        return None if found is _MISSING else bind(found, self, self.cls)

    def repr(self, printer) -> str:
        method = self.dunder("__repr__")
        if method is None:
            return self.object_repr()
        return text_of(self.cls.runtime.call(method, [], {}), "__repr__")

    def object_repr(self) -> str:
        """object.__repr__: the class's qualified name and the address."""
        return f"<{self.cls.module}.{self.cls.qualname} object at 0x{id(self):x}>"

    def str(self, printer) -> str:
        method = self.dunder("__str__")
        return self.repr(printer) if method is None else text_of(
            self.cls.runtime.call(method, [], {}), "__str__")

    def forward(self):
        return self.dunder("__call__")


class ContainerInstance(UserInstance, TableObject):
    """An instance of a user class derived from dict or list (`class Config(dict)`): a host dict
    or list, so that items, len, iteration and printing are the container's, with the user's
    attributes and methods found first and the container's methods after them."""

    __slots__ = ()
    HOST: type = object

    def __init__(self, cls: UserClass):
        self.HOST.__init__(self)
        self.cls, self.attrs = cls, {}

    attribute = Instance.attribute

    def host_attribute(self, name: str):
        method = HOST_METHODS[self.HOST].get(name) or CONTAINER_DUNDERS.get(name)
        if method is None:
            return _MISSING
        from gradcli.language.runtime.frames import BoundMethod
        return BoundMethod(self, method)

    def base_attribute(self, name: str):
        method = HOST_METHODS[self.HOST].get(name) or CONTAINER_DUNDERS.get(name)
        if method is None:
            raise errors.TorchError("AttributeError", f"'super' object has no attribute '{name}'")
        from gradcli.language.runtime.frames import BoundMethod
        return BoundMethod(self, method)

    set_attribute = Instance.set_attribute
    set_own_attribute = Instance.set_own_attribute
    delete_attribute = Instance.delete_attribute
    dunder = Instance.dunder
    forward = Instance.forward

    def repr(self, printer) -> str:
        method = self.dunder("__repr__")
        if method is None:
            return printer.repr(self.HOST(self))
        return text_of(self.cls.runtime.call(method, [], {}), "__repr__")

    def str(self, printer) -> str:
        method = self.dunder("__str__")
        return self.repr(printer) if method is None else text_of(
            self.cls.runtime.call(method, [], {}), "__str__")

    def __eq__(self, other):
        found = self.cls.find("__eq__")
        if found is _MISSING:
            return self.HOST.__eq__(self, other)
        return Instance.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = None


class DictInstance(ContainerInstance, dict):
    __slots__ = ("cls", "attrs")  # here, not in the mixin: dict's layout comes first
    HOST = dict


class OrderedDictInstance(ContainerInstance, collections.OrderedDict):
    """An instance of a user class derived from collections.OrderedDict (an LRU cache): printed
    as OrderedDict prints its subclasses, by the class's name."""

    __slots__ = ("cls", "attrs")
    HOST = collections.OrderedDict

    def repr(self, printer) -> str:
        if self.dunder("__repr__") is not None:
            return ContainerInstance.repr(self, printer)
        items = ", ".join(f"({printer.repr(k)}, {printer.repr(v)})" for k, v in self.items())
        return f"{self.cls.name}([{items}])" if items else f"{self.cls.name}()"


class ListInstance(ContainerInstance, list):
    __slots__ = ("cls", "attrs")
    HOST = list


# The host classes of instances of user classes derived from str, tuple, int and float (they
# meet the host's own operators first, so these are told apart by their exact type).
VALUE_KINDS: set = set()
# The builtin container classes' methods (dict.items, list.append...), registered by the
# attributes module, for the instances of user classes derived from them.
HOST_METHODS: dict = {dict: {}, list: {}, collections.OrderedDict: {}}
CONTAINER_DUNDERS: dict = {}  # their special methods, for super().__getitem__ (runtime.calls)


def text_of(value, method: str) -> str:
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


@record(eq=False)
class Super:
    """super(): attribute lookup along the instance's MRO after the given class (none for
    super(cls) alone, whose __init__ is object's)."""

    cls: UserClass
    instance: object

    def attribute(self, name: str):
        if self.instance is None:
            return _MISSING
        if isinstance(self.instance, UserClass) and self.instance.is_subclass_of(self.cls):
            owner, instance = self.instance, None  # super() in a classmethod
        else:
            owner, instance = class_of(self.instance), self.instance
        if owner is None:
            raise errors.type_error("super(type, obj): obj must be an instance or subtype of type")
        found = owner.find(name, after=self.cls)
        if found is not _MISSING:
            return bind(found, instance, owner)
        return _MISSING


# What instantiating a class with a builtin base makes (from the class and the positional
# arguments), and that base's __init__, by base (nn.Module and the exception classes register).
BASE_INSTANCES: dict = {}
BASE_INITS: dict = {}
# `base.__new__(cls, ...)` of the builtin classes a program may derive from (str, tuple, int,
# float) and of object, by class: what super().__new__ and a class without __new__ reach.
BASE_NEWS: dict = {}
# Class attributes a builtin base gives its subclasses (autograd.Function's apply), by base.
BASE_CLASS_ATTRIBUTES: dict = {}
# Whether a builtin base (or a builtin ancestor of it, short of object) defines a name, by
# base: a program's class after the base in the MRO gives only the names it lacks.
BASE_DEFINES: dict = {}
# Special methods a builtin base gives its subclasses' instances (Dataset.__getitem__, which
# raises), by base: name -> builtin taking the instance.
BASE_SPECIALS: dict = {}
# Builtin bases whose __init__ (in BASE_INITS) runs for a subclass that defines none.
BASE_INIT_INHERITED: set = set()
# Library values a class statement may name as a base that stand for a class the statement
# makes (typing.NamedTuple), by value: a function of the class's name and body namespace giving
# the base to derive from instead.
BASE_REWRITES: dict = {}
# Builtin bases that are generic in torch (typing.Generic): `Dataset[int]` is a base too.
GENERIC_BASES: set = set()


# What a library class (enum.Enum) does as its classes' metaclass, by the library class:
# "made" (a function of a new subclass, run once it is made), "repr" (a function giving a class's
# repr), "setattr" (a check of `cls.name = value`, raising to refuse it) and the metaclass's
# special methods (__call__, __getitem__, __iter__, __len__,
# __contains__), builtins taking the class.
METACLASSES: dict = {}
# classes whose isinstance() is a check of their own (collections.abc's): class -> check(value)
ABSTRACT_CHECKS: dict = {}


def metaclass_method(cls: UserClass, name: str):
    """The special method `name` of `cls`'s metaclass, bound to `cls`, else None (a library's
    own class, which belongs to no run, keeps type's)."""
    if cls.runtime is None:
        return None
    for owner in cls.mro:
        found = METACLASSES.get(owner, {}).get(name)
        if found is not None:
            return BoundMethod(cls, found)
    return None


def class_repr(cls: UserClass) -> str:
    """repr(cls): its metaclass's, else type's."""
    shown = next((METACLASSES[owner].get("repr") for owner in cls.mro if owner in METACLASSES),
                 None)
    return f"<class '{cls.module}.{cls.qualname}'>" if shown is None else shown(cls)


ABC_META = PyType("abc.ABCMeta", ())  # the one metaclass besides type a class may name


def object_init_subclass(cls, **keywords) -> None:
    """object.__init_subclass__: a class keyword nothing took is an error."""
    if keywords:
        raise errors.type_error(f"{cls.name}.__init_subclass__() takes no keyword arguments")


def make_class(name: str, qualname: str, bases: list, namespace: dict, runtime,
               keywords: dict | None = None) -> UserClass:
    """The value of a `class` statement, after Python's checks on its bases; its keywords
    (`metaclass=ABCMeta`, others) go to the metaclass and to the bases' __init_subclass__."""
    keywords = dict(keywords or {})
    bases = [next((rewrite(name, namespace) for key, rewrite in BASE_REWRITES.items()
                   if key is base), base) for base in bases]
    metaclass = keywords.pop("metaclass", None)
    if metaclass is ABC_META:
        namespace.setdefault("__abstractmethods__", frozenset())
    elif metaclass is not None and not (isinstance(metaclass, PyType) and
                                        metaclass.name == "type"):
        raise errors.TorchError("NotImplementedError", "a class with a metaclass other than "
                                "type or ABCMeta is not supported by gradcli yet")
    generic = [base for base in bases if isinstance(base, TypeForm) and
               base.name == "typing.Generic" and base.args]
    if generic:  # class Box(Generic[T]): its type variables, which Box[int] fills
        namespace.setdefault("__parameters__", generic[0].args)
    if any(isinstance(base, TypeForm) and base.name == "typing.Protocol" for base in bases):
        namespace.setdefault("_is_protocol", True)  # a protocol class (typing checks members)
    bases = [base.origin if isinstance(base, TypeForm) and base.origin is not None else base
             for base in bases]
    for base in bases:
        if not isinstance(base, (UserClass, PyType)):
            raise errors.type_error(f"{base.class_name}() takes no arguments" if isinstance(
                base, TableObject) else "bases must be types")
        if isinstance(base, PyType) and base not in BASE_INSTANCES and base is not OBJECT \
                and base not in BASE_CLASS_ATTRIBUTES and base not in BASE_NEWS:
            raise errors.TorchError("NotImplementedError", f"a class derived from {base.name} is "
                                    "not supported by gradcli yet")
    user_bases = tuple(b for b in bases if b is not OBJECT)
    cls = UserClass(name, qualname, user_bases, namespace, runtime)
    if cls.find("__abstractmethods__") is not _MISSING:  # a subclass of abc.ABC
        namespace["__abstractmethods__"] = frozenset(_abstract_names(cls))
    set_names(cls)
    made = next((METACLASSES[owner]["made"] for owner in cls.mro[1:] if owner in METACLASSES),
                None)
    if made is not None:
        made(cls)
    hook = next((owner.namespace["__init_subclass__"] for owner in cls.mro[1:]
                 if isinstance(owner, UserClass) and "__init_subclass__" in owner.namespace),
                None)
    if hook is None:
        object_init_subclass(cls, **keywords)
    else:  # an implicit classmethod
        function = hook.function if isinstance(hook, ClassMethod) else hook
        runtime.call(function, [cls], keywords)
    return cls


def is_abstract(value) -> bool:
    """Whether a class attribute is abstract (abc.abstractmethod marks functions)."""
    if isinstance(value, UserFunction):
        return bool(value.attrs.get("__isabstractmethod__", False))
    if isinstance(value, (StaticMethod, ClassMethod)):
        return is_abstract(value.function)
    if isinstance(value, Property):
        return any(is_abstract(f) for f in (value.getter, value.setter, value.deleter))
    return False


def _abstract_names(cls: UserClass) -> set:
    """ABCMeta's __abstractmethods__: the class's own abstract attributes and those of its
    bases it leaves abstract."""
    names = {name for name, value in cls.namespace.items() if is_abstract(value)}
    for base in cls.bases:
        inherited = base.find("__abstractmethods__") if isinstance(base, UserClass) else ()
        names.update(n for n in (() if inherited is _MISSING else inherited)
                     if is_abstract(cls.find(n)))
    return names


def instantiate(cls: UserClass, args: list, kwargs: dict):
    """Cls(*args): a new instance (from the class's __new__, else its builtin base's), then its
    __init__ (Python's errors when there is none)."""
    construct = metaclass_method(cls, "__call__")
    if construct is not None:
        return cls.runtime.call(construct, args, kwargs)
    abstract = cls.find("__abstractmethods__")
    if abstract is not _MISSING and abstract:
        raise errors.type_error(f"Can't instantiate abstract class {cls.name} with abstract "
                                f"method{'s' if len(abstract) > 1 else ''} "
                                f"{', '.join(sorted(abstract))}")
    new = cls.find("__new__")
    if new is _MISSING:
        new = BASE_NEWS.get(cls.base, _MISSING)
    make = BASE_INSTANCES.get(cls.base)
    if new is not _MISSING:
        instance = cls.runtime.call(bind(new, None, cls), [cls, *args], kwargs)
        owner = class_of(instance)
        if owner is None or not owner.is_subclass_of(cls):
            return instance  # Python runs __init__ only on an instance of the class
    else:
        instance = make(cls, args) if make is not None else Instance(cls)
    init = cls.find("__init__")
    if init is _MISSING and (isinstance(instance, ContainerInstance)
                             or cls.base in BASE_INIT_INHERITED):
        cls.runtime.call(BASE_INITS[cls.base], [instance, *args], kwargs)
        return instance
    if init is _MISSING:
        # object.__init__ refuses arguments, unless a __new__ or a builtin base took them
        if (args or kwargs) and make is None and new is _MISSING:
            raise errors.type_error(f"{cls.name}() takes no arguments")
        return instance
    result = cls.runtime.call(bind(init, None, cls), [instance, *args], kwargs)
    if result is not None:
        raise errors.type_error(f"__init__() should return None, not '{_kind(result)}'")
    return instance


def class_of(value) -> UserClass | None:
    """The user class of an instance (plain or with a builtin base), else None."""
    if isinstance(value, TableObject):
        return value.user_class()
    return TENSOR_CLASSES.get(value) if SUBCLASSES.made and type(value) is Tensor else None


@record
class StaticSpecial:
    """A special method defined as a staticmethod: Python calls it without the instance."""

    owner: "UserClass"
    function: UserFunction


def special_method(value, name: str):
    """The user-defined special method `name` of a user class instance, bound, else None (for
    a user class, its metaclass's)."""
    if isinstance(value, UserClass):
        return metaclass_method(value, name)
    cls = class_of(value)
    if cls is None:
        return None
    found = cls.find(name)
    if found is _MISSING:
        inherited = BASE_SPECIALS.get(cls.base, {}).get(name)
        return None if inherited is None else BoundMethod(value, inherited)
    return StaticSpecial(cls, found.function) if isinstance(found, StaticMethod) else bind(
        found, value, cls)


def call_bound(method, args: list):
    """Call a bound special method with the runtime of the class that defined it."""
    if isinstance(method, StaticSpecial):
        return method.owner.runtime.call(method.function, args, {})
    cls = method.receiver if isinstance(method.receiver, UserClass) else class_of(method.receiver)
    return cls.runtime.call(method, args, {})
