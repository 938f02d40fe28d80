"""User classes derived from str, tuple, int and float, and `__new__` for them.

An instance is a host value of its builtin type (so `+`, comparisons, hashing, slicing and
printing are that type's) that also carries its user class and attributes, as ContainerInstance
does for dict and list. `super().__new__(cls, value)` and `tuple.__new__(cls, value)` make one.
"""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.namespaces.builtins import FLOAT_TYPE, INT_TYPE, STR_TYPE, TUPLE_TYPE
from gradcli.language.runtime import classes
from gradcli.language.runtime.attributes import STR_METHODS, TUPLE_METHODS
from gradcli.language.runtime.pytypes import OBJECT
from gradcli.language.runtime.signatures import entry


class ValueInstance(classes.ContainerInstance):
    """An instance of a user class derived from an immutable builtin: made by __new__."""

    __slots__ = ()

    def __init__(self, *args) -> None:  # the value was made by __new__, Python's way
        pass

    @classmethod
    def make(cls, user_class, value):
        made = cls.HOST.__new__(cls, value)
        made.cls, made.attrs = user_class, {}
        return made

    def str(self, printer) -> str:
        method = self.dunder("__str__")
        if method is not None:
            return classes.text_of(self.cls.runtime.call(method, [], {}), "__str__")
        return str.__str__(self) if self.HOST is str else self.repr(printer)

    def __hash__(self):
        if self.cls.find("__hash__") is classes.MISSING and \
                self.cls.find("__eq__") is classes.MISSING:
            return self.HOST.__hash__(self)
        return classes.Instance.__hash__(self)


class StrInstance(ValueInstance, str):
    HOST = str


class TupleInstance(ValueInstance, tuple):
    HOST = tuple


class IntInstance(ValueInstance, int):
    HOST = int


class FloatInstance(ValueInstance, float):
    HOST = float


_KINDS = {STR_TYPE: StrInstance, TUPLE_TYPE: TupleInstance, INT_TYPE: IntInstance,
          FLOAT_TYPE: FloatInstance}


def _maker(base, kind):
    def new(cls, *args, **kwargs):
        """base.__new__(cls, ...): the builtin's value, as an instance of the user class."""
        if not isinstance(cls, classes.UserClass) or not cls.is_subclass_of(base):
            raise errors.type_error(f"{base.name}.__new__(X): X is not a subtype of {base.name}")
        return kind.make(cls, cls.runtime.call(base, list(args), kwargs))
    return new


def _object_new(cls, *args, **kwargs):
    """object.__new__(cls): a plain instance (extra arguments only when __init__ takes them)."""
    if not isinstance(cls, classes.UserClass):
        raise errors.type_error("object.__new__(X): X is not a type object")
    if (args or kwargs) and cls.find("__init__") is classes.MISSING:
        raise errors.type_error(f"{cls.name}() takes no arguments")
    return classes.Instance(cls)


classes.VALUE_KINDS.update(_KINDS.values())
classes.HOST_METHODS.update({str: STR_METHODS, tuple: TUPLE_METHODS, int: {}, float: {}})
classes.BASE_NEWS[OBJECT] = entry("__new__", _object_new, "*args, **kwargs",
                                  qualname="object.__new__")
for _base, _kind in _KINDS.items():
    classes.BASE_NEWS[_base] = entry("__new__", _maker(_base, _kind), "*args, **kwargs",
                                     qualname=f"{_base.name}.__new__")
    classes.BASE_INITS[_base] = entry("__init__", lambda self, *args, **kwargs: None,
                                      "self, *args, **kwargs", qualname="object.__init__")
