"""Which state dicts carry torch's `_metadata` (each module's version): the ones Module.state_dict
makes, and their copies by torch.save/torch.load and the copy module, which keep an object's
attributes; a dict built from one (a comprehension, dict(), OrderedDict(), .copy()) has none.

A load without it takes a checkpoint from before BatchNorm's version 2, which had no
num_batches_tracked: torch's _NormBase then loads the module's own count in its place."""

from __future__ import annotations

import weakref

_CARRYING: dict[int, weakref.ref] = {}


def mark(state_dict) -> None:
    """Record that `state_dict` carries metadata."""
    key = id(state_dict)
    _CARRYING[key] = weakref.ref(state_dict, lambda _, key=key: _CARRYING.pop(key, None))


def carries(state_dict) -> bool:
    found = _CARRYING.get(id(state_dict))
    return found is not None and found() is state_dict


def carry(source, copied) -> None:
    """A copy keeps the metadata of what it copies."""
    if carries(source):
        mark(copied)
