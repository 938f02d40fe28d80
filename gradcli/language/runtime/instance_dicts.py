"""Attributes a program sets on a host object that has a __dict__ in Python: a tensor
(`inp.g = ...`, which torch's properties come before and its methods after), an OrderedDict or a
Counter (a state dict's `_metadata`). Kept by identity while the object lives."""

from __future__ import annotations

import weakref

_DICTS: dict[int, tuple[weakref.ref, dict]] = {}
MISSING = object()


def _own(value) -> dict | None:
    found = _DICTS.get(id(value))
    return found[1] if found is not None and found[0]() is value else None


def lookup(value, name: str):
    """The value the program gave `value.name`, or MISSING."""
    own = _own(value)
    return MISSING if own is None else own.get(name, MISSING)


def store(value, name: str, item) -> None:
    own_dict(value)[name] = item


def own_dict(value) -> dict:
    """`value.__dict__` itself (made empty the first time)."""
    own = _own(value)
    if own is None:
        key = id(value)
        own = {}
        # (the table bound now: at interpreter exit the module's globals may be gone first)
        _DICTS[key] = (weakref.ref(value, lambda _, key=key, table=_DICTS: table.pop(key, None)),
                       own)
    return own


def remove(value, name: str) -> bool:
    """Forget `value.name`; False when the program never set it."""
    own = _own(value)
    if own is None or name not in own:
        return False
    del own[name]
    return True


def attributes(value) -> dict:
    """A copy of what the program set on `value` (copy.copy keeps them)."""
    return dict(_own(value) or {})
