"""dir(): the names CPython 3.11 lists for a scope, a program's own objects, Python's plain
values and the modules whose listing is recorded (dir_names.json, written by
tests/golden/record_dir_names.py); anything else is refused rather than listed wrongly."""

from __future__ import annotations

import os
from functools import cache

import numpy as np

from gradcli.engine import errors
from gradcli.language.runtime import classes
from gradcli.language.runtime.frames import UserFunction
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import OBJECT, PyType
from gradcli.language.runtime.values import Namespace, iterate, type_name

RECORD = os.path.join(os.path.dirname(__file__), "dir_names.json")
MODULE_CLASSES = "torch.nn classes"  # the record's parts of nn.Module.__dir__

# what a script's top level holds before its first statement
_SCRIPT_NAMES = ("__annotations__", "__builtins__", "__cached__", "__doc__", "__file__",
                 "__loader__", "__name__", "__package__", "__spec__")
_OBJECT_NAMES = frozenset(dir(object))
_FUNCTION_NAMES = frozenset(dir(lambda: None))
_PLAIN_TYPES = (int, float, complex, bool, str, bytes, list, tuple, dict, set, frozenset,
                range, slice, type(None))


@cache
def _recorded() -> dict:
    import json  # only when a program lists a module
    with open(RECORD, encoding="utf-8") as handle:
        return json.load(handle)


def scope_names(frame, top_level: bool) -> list:
    """dir() without an argument: the names bound in the running scope, sorted."""
    names = set(frame.vars)
    if top_level:
        names.update(_SCRIPT_NAMES)
    return sorted(names)


def _class_names(cls) -> set:
    names = set(_OBJECT_NAMES | {"__doc__", "__module__"})
    if any("__slots__" not in owner.namespace for owner in cls.mro):
        names.update(("__dict__", "__weakref__"))
    for owner in cls.mro:
        names.update(n for n in owner.namespace if n not in ("__qualname__", "__classcell__"))
        slots = owner.namespace.get("__slots__", ())
        names.update([slots] if isinstance(slots, str) else (
            s for s in iterate(slots) if isinstance(s, str)))
    return names


def _refuse(value):
    raise errors.TorchError("NotImplementedError", "gradcli cannot list dir() of a "
                            f"'{type_name(value)}' object yet")


def _plain_class(cls) -> bool:
    """A class that type made (no builtin base, no library metaclass such as enum's)."""
    return cls.base is None and not any(owner in classes.METACLASSES for owner in cls.mro)


def dir_of(value) -> list:
    """dir(value), as CPython 3.11 lists it."""
    if isinstance(value, classes.Instance) and _plain_class(value.cls):
        custom = classes.special_method(value, "__dir__")
        if custom is not None:
            return sorted(iterate(classes.call_bound(custom, [])))
        return sorted(_class_names(value.cls) | set(value.attrs))
    if isinstance(value, classes.UserClass) and _plain_class(value):
        return sorted(_class_names(value))
    if isinstance(value, UserFunction):
        return sorted(_FUNCTION_NAMES | set(value.attrs))
    if type(value) in _PLAIN_TYPES:
        return dir(type(value))
    if isinstance(value, PyType) and (value is OBJECT or (
            len(value.hosts) == 1 and value.hosts[0] in _PLAIN_TYPES
            and value.name == value.hosts[0].__name__)):
        return dir(object if value is OBJECT else value.hosts[0])
    if isinstance(value, Namespace) and value.name in _recorded():
        return list(_recorded()[value.name])
    if isinstance(value, TableObject) and (names := value.dir_names()) is not None:
        return names
    if isinstance(value, (np.ndarray, np.generic)):  # no instance __dict__: the class's names
        return dir(type(value))
    _refuse(value)


def module_dir(kind: str, user_class, attributes: list, registered: list) -> list:
    """nn.Module.__dir__ for a module of torch.nn's class `kind` (or of the user's class
    derived from it): its class's dir(), its __dict__ (torch's own entries, then `attributes`),
    then its `registered` parameters, children and buffers, sorted, less the names that start
    with a digit."""
    recorded = _recorded()[MODULE_CLASSES]
    names = set(recorded["Module"]) | set(recorded.get(kind, ()))
    if user_class is not None:
        names.update(name for owner in user_class.mro if isinstance(owner, classes.UserClass)
                     for name in owner.namespace if name not in ("__qualname__", "__classcell__"))
    own = recorded["Module()"]
    keys = [*sorted(names), *own, *(a for a in attributes if a not in own), *registered]
    return sorted(key for key in keys if not key[:1].isdigit())
