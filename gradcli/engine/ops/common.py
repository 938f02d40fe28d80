"""Small tensor helpers the rules share: zeros and ones of a shape, sum_to, casts, detach."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors, vmap_batched
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import OPS, apply
from gradcli.engine.state import STATE, grad_mode
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


def zeros_for(t: Tensor) -> Tensor:
    return zeros_of(t.shape, t.dtype)


def ones_for(t: Tensor) -> Tensor:
    return Tensor(np.ones(t.shape, dtype=t.dtype.np), t.dtype)


# ---- broadcast reduction and casts (shape functions live in shapes.py) -------------------------

def sum_to(grad: Tensor, shape: tuple) -> Tensor:
    """Sum `grad` down to `shape`, undoing broadcasting (leading dims, then size-1 dims)."""
    if grad.shape == shape:
        return grad
    if not shape:
        return F.sum(grad)
    lead = grad.ndim - len(shape)
    dims = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(shape) if s == 1 and grad.shape[lead + i] != 1)
    if not dims:
        return grad
    reduced = F.sum(grad, dims, keepdim=True)
    return F.reshape(reduced, shape) if lead else reduced


def fit_grad(grad: Tensor, shape: tuple, node, index: int) -> Tensor:
    """`grad` summed to its input's `shape`, or torch's validate_outputs error when `shape`
    does not broadcast to it (a rule whose gradient is smaller than its input)."""
    lead = grad.ndim - len(shape)
    if lead < 0 or any(s != g and s != 1 for s, g in zip(shape, grad.shape[lead:])):
        raise errors.runtime(
            f"Function {node.name()} returned an invalid gradient at index {index} - got "
            f"{F.size_list(grad.shape)} but expected shape compatible with {F.size_list(shape)}")
    return sum_to(grad, shape)


def cast(a: Tensor, dtype: dtypes.DType) -> Tensor:
    if a.dtype is dtype:
        return a
    return apply(OPS["_to_copy"], a, dtype=dtype)


def detach(a: Tensor) -> Tensor:
    """A leaf sharing `a`'s values and version counter, cut from the graph."""
    out = Tensor(a.data, a.dtype)
    out._version_counter, out.inference, out.sparse = a.own_counter(), a.inference, a.sparse
    out._history = (("detached from the graph here", STATE.origin),)
    if STATE.vmap_batched is not None:
        vmap_batched.spread((a,), (out,))
    return out


def no_grad():
    return grad_mode(False)


def any_true(t: Tensor) -> bool:
    return bool(np.any(t.data))


export(__name__, globals())
