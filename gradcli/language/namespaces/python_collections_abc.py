"""collections.abc's classes for isinstance() checks (Sequence, Mapping, Iterable, Callable...):
Python's own checks of Python's values, and for the program's plain instances the special
methods their classes define, as Python's one-trick ABCs test them."""

from __future__ import annotations

import collections.abc as abc

from gradcli.language.runtime import classes, protocols
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.values import Namespace, abc_iterable

_NAMES = ("Hashable", "Iterable", "Iterator", "Reversible", "Generator", "Sized", "Container",
          "Callable", "Collection", "Set", "MutableSet", "Mapping", "MutableMapping",
          "Sequence", "MutableSequence", "KeysView", "ItemsView", "ValuesView", "Awaitable",
          "ByteString")
# the special methods an instance's class must define to pass (the one-trick ABCs)
_METHODS = {"Sized": ("__len__",), "Iterable": ("__iter__",), "Container": ("__contains__",),
            "Callable": ("__call__",), "Iterator": ("__iter__", "__next__"),
            "Reversible": ("__reversed__", "__iter__"),
            "Collection": ("__len__", "__iter__", "__contains__")}


def _hashable(cls: classes.UserClass) -> bool:
    found = cls.find("__hash__")
    return found is not None and not (found is classes.MISSING and
                                      cls.find("__eq__") is not classes.MISSING)


def _check(name: str):
    host = vars(abc)[name]

    def check(value) -> bool:
        if isinstance(value, classes.Instance):  # the program's plain instance
            if name == "Hashable":
                return _hashable(value.cls)
            return all(value.cls.find(m) not in (classes.MISSING, None)
                       for m in _METHODS.get(name, ("",)))
        if name == "Callable":
            return protocols.is_callable(value)
        if name == "Iterable":
            return abc_iterable(value)
        return isinstance(value, host)
    return check


ABC_TYPES = {name: PyType(f"collections.abc.{name}", (vars(abc)[name],)) for name in _NAMES}
classes.ABSTRACT_CHECKS.update({kind: _check(name) for name, kind in ABC_TYPES.items()})
COLLECTIONS_ABC = Namespace("collections.abc", dict(ABC_TYPES))
