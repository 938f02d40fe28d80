"""Hooks for values whose classes load on first use (torch.nn modules, optimizers)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Callable

from gradcli.engine import errors
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.pytypes import OBJECT, c_type


class TableObject(ABC):
    """A value of a class defined by a table: the interpreter reaches it only through these
    methods, and each resolves names through the class's explicit tables."""

    __slots__ = ()
    is_sequence = False  # when True: item(key), length() and members() as a Python sequence
    sized = False  # when True (and no sequence): len() gives length()
    # a sequence's special methods a program may call by name (`seq.__len__()`)
    item_methods = frozenset(("__getitem__", "__len__"))
    subscriptable = False  # when True (and no sequence): value[key] as item(key) (re's Match)
    own_dunders: frozenset = frozenset()  # dunder names attribute() answers (a wrapper's)

    @property
    @abstractmethod
    def language_type(self):
        """The PyType that `type(value)` returns."""

    @property
    def class_name(self) -> str:
        return self.language_type.name.rsplit(".", 1)[-1]

    @abstractmethod
    def attribute(self, name: str):
        """value.name (never a dunder name outside own_dunders)."""

    @abstractmethod
    def set_attribute(self, name: str, value) -> None:
        """value.name = value (never a dunder name)."""

    @abstractmethod
    def repr(self, printer) -> str:
        """repr(value), with `printer` for the values inside."""

    def str(self, printer) -> str:
        """str(value): its repr unless the class says otherwise."""
        return self.repr(printer)

    def set_item(self, key, value) -> None:
        """value[key] = item (a sequence value may allow it)."""
        raise errors.type_error(f"'{self.class_name}' object does not support item assignment")

    def delete_item(self, key) -> None:
        """del value[key]."""
        raise errors.type_error(f"'{self.class_name}' object doesn't support item deletion")

    def delete_attribute(self, name: str) -> None:
        """del value.name (a class may allow it)."""
        raise errors.TorchError("AttributeError",
                                f"'{self.class_name}' object attribute '{name}' is read-only")

    def forward(self):
        """What calling the value runs: a BoundMethod, or None when it is not callable."""
        return None

    def context(self):
        """What `with value:` does: a ContextManager, or None when the value is not one."""
        return None

    def operator(self, op: str, other, reflected: bool, inplace: bool = False):
        """`self op other` (`other op self` when reflected; `self op= other` when inplace) as
        the class's own special method gives it, or NotImplemented."""
        return NotImplemented

    def user_class(self):
        """The user class (a `class` statement's) this value is an instance of, if any."""
        return None

    def instance_dict(self):
        """What vars(value) gives (the instance's __dict__), or None when it has none."""
        return None

    def dir_names(self) -> list | None:
        """dir(value) as CPython lists it, where the class knows its listing; else None."""
        return None

    def base_attribute(self, name: str):
        """super().name past the user's classes: the builtin base's attribute."""
        raise errors.TorchError("AttributeError", f"'super' object has no attribute '{name}'")

    def missing(self, name: str) -> errors.TorchError:
        qualified = self.language_type.name
        shown = qualified if c_type(qualified) else self.class_name
        return errors.TorchError("AttributeError",
                                 f"'{shown}' object has no attribute '{name}'")


class BareObject(TableObject):
    """object(): a value with no attributes (a sentinel), equal only to itself."""

    __slots__ = ()

    @property
    def language_type(self):
        return OBJECT

    def attribute(self, name: str):
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"<object object at 0x{id(self):x}>"


def bare_object(*args, **kwargs) -> BareObject:
    if args or kwargs:
        raise errors.type_error("object() takes no arguments")
    return BareObject()


class TableIterator(TableObject):
    """A table object that is its own iterator (an io.StringIO, csv's readers): `for` walks it
    and next() steps it; `step` gives the next value or raises StopIteration."""

    __slots__ = ()

    def __iter__(self):
        return self

    def __next__(self):
        return self.step()

    @abstractmethod
    def step(self):
        """The next value (StopIteration after the last)."""


class TableInstance(TableObject):
    """A table object a program may set attributes on (kept in `attrs`), with read-only
    attributes in its class's PROPERTIES (name -> getter) and methods in its METHODS table."""

    __slots__ = ()
    PROPERTIES: dict = {}
    METHODS: dict = {}
    own_dict = False  # whether `attrs` is what vars() gives, as a plain instance's __dict__

    def attribute(self, name: str):
        if name in self.attrs:
            return self.attrs[name]
        if name == "__dict__" and self.own_dict:  # the attributes themselves, as vars() gives
            return self.attrs
        getter = self.PROPERTIES.get(name)
        if getter is not None:
            return getter(self)
        method = self.METHODS.get(name)
        if method is None:
            raise self.missing(name)
        return BoundMethod(self, method)

    def set_attribute(self, name: str, value) -> None:
        self.attrs[name] = value


class LazyTable(Mapping):
    """A namespace table whose entries beyond `eager` are loaded (imported) on first use."""

    def __init__(self, eager: dict, load: Callable[[], dict]):
        self._eager, self._load, self._loaded = eager, load, None

    def _all(self) -> dict:
        if self._loaded is None:
            self._loaded = self._eager | self._load()
        return self._loaded

    def __getitem__(self, name: str):
        if name in self._eager:
            return self._eager[name]
        return self._all()[name]

    def __contains__(self, name) -> bool:
        return name in self._eager or name in self._all()

    def __iter__(self):
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


class GroupedTable(Mapping):
    """A table whose names are all known at once but whose entries come in groups, each group
    loaded (imported) the first time one of its names is looked up: `groups` pairs the names of
    a group with the function returning its entries (and maybe other tables' too)."""

    def __init__(self, eager: dict, groups: tuple[tuple[tuple[str, ...], Callable[[], dict]], ...]):
        self._entries = dict(eager)
        self._pending = {name: load for names, load in groups for name in names}

    def __getitem__(self, name: str):
        load = self._pending.get(name)
        if load is not None:
            loaded = load()
            for each in [n for n, group in self._pending.items() if group is load]:
                del self._pending[each]
                self._entries[each] = loaded[each]
        return self._entries[name]

    def __contains__(self, name) -> bool:
        return name in self._entries or name in self._pending

    def __iter__(self):
        return iter([*self._entries, *self._pending])

    def __len__(self) -> int:
        return len(self._entries) + len(self._pending)
