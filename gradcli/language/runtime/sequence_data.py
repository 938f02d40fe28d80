"""Data torch's tensor constructors read as sequences: besides lists and tuples, whatever Python's
sequence protocol covers (a range, a collections.deque, an instance of a user class with __len__
and __getitem__), read into lists as torch's PySequence calls read them."""

from __future__ import annotations

from collections import deque

from gradcli.language.runtime import classes

_ALWAYS = (range, deque)


def _user_sequence(value) -> bool:
    return classes.class_of(value) is not None and not isinstance(value, (list, tuple)) and \
        classes.special_method(value, "__len__") is not None and \
        classes.special_method(value, "__getitem__") is not None


def _items(value) -> list:
    if isinstance(value, _ALWAYS):
        return list(value)
    length = classes.call_bound(classes.special_method(value, "__len__"), [])
    get = classes.special_method(value, "__getitem__")
    return [classes.call_bound(get, [index]) for index in range(length)]


def as_lists(data):
    """`data` with each such sequence in it (at any depth of lists and tuples) read into a list;
    None when it holds none."""
    changed = False

    def read(value):
        nonlocal changed
        if isinstance(value, _ALWAYS) or _user_sequence(value):
            changed = True
            return [read(item) for item in _items(value)]
        if isinstance(value, (list, tuple)):
            return [read(item) for item in value]
        return value
    converted = read(data)
    return converted if changed else None
