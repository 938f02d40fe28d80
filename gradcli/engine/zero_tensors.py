"""torch's efficient zero tensors: the zeros some backward formulas return (sgn's), held in a
read-only array, so that they and every view of them refuse in-place writes as torch's do."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.tensor import Tensor

IMMUTABLE = ("ZeroTensors are immutable. Please use the materialized zero tensor obtained using "
             ".clone() if you want a mutable tensor.")
IMMUTABLE_SETITEM = ("ZeroTensors are immutable. Please materialize the tensor using `.clone()`, "
                     "if you want a mutable zero tensor.")


def efficient_zeros(like: Tensor, shape: tuple | None = None) -> Tensor:
    """Zeros of `like`'s shape (or `shape`) and dtype that cannot be written to."""
    data = np.zeros(like.shape if shape is None else shape, like.dtype.np)
    data.flags.writeable = False
    return Tensor(data, like.dtype)


def check_mutable(t: Tensor, message: str = IMMUTABLE) -> None:
    """torch's refusal of an in-place write into a zero tensor (or a view of one)."""
    if not t.data.flags.writeable and not t.data.any():
        raise errors.runtime(message)
