"""torch.nn.UninitializedParameter and UninitializedBuffer: the tensors a lazy module holds
until its first call, marked here by their class name."""

from __future__ import annotations

import weakref

import numpy as np

from gradcli.engine import errors

KINDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # tensor -> its class name


def kind_of(t) -> str | None:
    """"UninitializedParameter" or "UninitializedBuffer" for an uninitialized tensor, else None."""
    return KINDS.get(t)


def materialize(t, shape: tuple) -> None:
    """UninitializedTensorMixin.materialize: the tensor given storage of `shape` (its values
    are whatever is copied in next) and made an ordinary parameter or buffer."""
    t.data = np.zeros(shape, t.data.dtype)
    del KINDS[t]


def check_shape(t) -> None:
    """UninitializedTensorMixin.shape: reading an uninitialized tensor's shape raises."""
    if t in KINDS:
        raise errors.runtime(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually "
            "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
            "initialized one. Call `forward` to initialize the parameters before accessing their "
            "attributes.")
