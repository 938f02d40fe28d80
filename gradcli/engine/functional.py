"""torch-level functions: pick the op overload for the operands, normalise arguments, call `apply`."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes
from gradcli.engine.ops.registry import OPS, apply
from gradcli.engine.shapes import (  # noqa: F401  (re-exported: F.reshape etc.)
    expand, normalize_dims, reshape, squeeze, unsqueeze)
from gradcli.engine.state import grad_mode
# torch-level math lives in these modules; F.add, F.sum, F.matmul... reach it through here.
from gradcli.engine.activation import *  # noqa: E402,F401,F403
from gradcli.engine.comparison import *  # noqa: E402,F401,F403
from gradcli.engine.linalg import *  # noqa: E402,F401,F403
from gradcli.engine.pointwise import *  # noqa: E402,F401,F403
from gradcli.engine.reductions import *  # noqa: E402,F401,F403
from gradcli.engine.tensor import Tensor


def apply_op(key: str, *args, **params):
    """Run the op row `key` (for rules that name a backward op directly)."""
    return apply(OPS[key], *args, **params)


def tensor_from(array, dtype: dtypes.DType | None = None) -> Tensor:
    """A leaf tensor over a numpy array (no copy when the dtype already fits)."""
    array = np.asarray(array)
    return Tensor(array, dtype or dtypes.from_numpy(array.dtype))


def zeros_of(shape: tuple, dtype: dtypes.DType) -> Tensor:
    return Tensor(np.zeros(shape, dtype=dtype.np), dtype)


def zeros_like(t: Tensor) -> Tensor:
    return zeros_of(t.shape, t.dtype)


def ones_like(t: Tensor) -> Tensor:
    return Tensor(np.ones(t.shape, dtype=t.dtype.np), t.dtype)


# ---- broadcast reduction and casts (shape functions live in shapes.py) -------------------------

def sum_to(grad: Tensor, shape: tuple) -> Tensor:
    """Sum `grad` down to `shape`, undoing broadcasting (leading dims, then size-1 dims)."""
    if grad.shape == shape:
        return grad
    if not shape:
        return sum(grad)
    lead = grad.ndim - len(shape)
    dims = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(shape) if s == 1 and grad.shape[lead + i] != 1)
    if not dims:
        return grad
    reduced = sum(grad, dims, keepdim=True)
    return reshape(reduced, shape) if lead else reduced


def to_dtype(a: Tensor, dtype: dtypes.DType) -> Tensor:
    if a.dtype is dtype:
        return a
    return apply(OPS["_to_copy"], a, dtype=dtype)


def detach(a: Tensor) -> Tensor:
    """A leaf sharing `a`'s values and version counter, cut from the graph."""
    out = Tensor(a.data, a.dtype)
    out._version_counter = a._version_counter
    return out


def no_grad():
    return grad_mode(False)


def any_true(t: Tensor) -> bool:
    return bool(np.any(t.data))

