"""Attributes a program sets on a tensor (`inp.g = ...`): torch keeps them in the tensor's
__dict__, which its properties (grad, shape, ...) come before and its methods after."""

from __future__ import annotations

import weakref

_DICTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
MISSING = object()


def lookup(tensor, name: str):
    """The value the program gave `tensor.name`, or MISSING."""
    own = _DICTS.get(tensor)
    return MISSING if own is None else own.get(name, MISSING)


def store(tensor, name: str, value) -> None:
    _DICTS.setdefault(tensor, {})[name] = value


def remove(tensor, name: str) -> bool:
    """Forget `tensor.name`; False when the program never set it."""
    own = _DICTS.get(tensor)
    if own is None or name not in own:
        return False
    del own[name]
    return True
