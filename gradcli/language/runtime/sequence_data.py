"""Data torch's tensor constructors read as sequences: besides lists and tuples, whatever Python's
sequence protocol covers (a range, a collections.deque, an instance of a user class with __len__
and __getitem__), read into lists as torch's PySequence calls read them."""

from __future__ import annotations

from collections import deque

from gradcli.engine import errors
from gradcli.engine.creation import MAX_NESTING
from gradcli.language.runtime import classes
from gradcli.language.runtime.coercions import length
from gradcli.language.runtime.frames import GradRuntimeError
from gradcli.language.runtime.values import type_name

_ALWAYS = (range, deque)


def _user_sequence(value) -> bool:
    return classes.class_of(value) is not None and not isinstance(value, (list, tuple)) and \
        classes.special_method(value, "__len__") is not None and \
        classes.special_method(value, "__getitem__") is not None


def _items(value) -> list:
    """The items as torch's PySequence calls read them: len(), then each index (an item that
    fails is torch's shape error)."""
    if isinstance(value, _ALWAYS):
        return list(value)
    get = classes.special_method(value, "__getitem__")
    items = []
    for position in range(length(value)):
        try:
            items.append(classes.call_bound(get, [position]))
        except (errors.TorchError, GradRuntimeError):
            raise errors.value_error("could not determine the shape of object type "
                                     f"'{type_name(value)}'") from None
    return items


def as_lists(data):
    """`data` with each such sequence in it (at any depth of lists and tuples) read into a list;
    None when it holds none. Deeper than torch's 128 dimensions is torch's error."""
    changed = False

    def read(value, depth: int):
        nonlocal changed
        read_in = isinstance(value, _ALWAYS) or _user_sequence(value)
        if not (read_in or isinstance(value, (list, tuple))):
            return value
        if depth >= MAX_NESTING:
            raise errors.value_error(f"too many dimensions '{type_name(value)}'")
        changed = changed or read_in
        return [read(item, depth + 1) for item in (_items(value) if read_in else value)]
    converted = read(data, 0)
    return converted if changed else None
