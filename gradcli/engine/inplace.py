"""In-place ops: torch's checks first, then the write, the version bump and the history rebase."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors, functional as F
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor


def check_inplace(t: Tensor) -> None:
    """Refuse an in-place change to a leaf that requires grad, or to a view of one."""
    if not STATE.grad_enabled:
        return
    if t.grad_fn is None and t.requires_grad:
        raise errors.runtime("a leaf Variable that requires grad is being used in an in-place "
                             "operation.")
    base = t._base
    if base is not None and base.grad_fn is None and base.requires_grad:
        raise errors.runtime("a view of a leaf Variable that requires grad is being used in an "
                             "in-place operation.")


def _castable(result_dtype, target_dtype) -> None:
    if result_dtype.category > target_dtype.category:
        raise errors.runtime(
            f"result type {_scalar_name(result_dtype)} can't be cast to the desired output type "
            f"{_scalar_name(target_dtype)}")


def _scalar_name(dtype) -> str:
    return dtype.legacy_name.removesuffix("Tensor")


def write(t: Tensor, result: Tensor) -> Tensor:
    """Store `result` into `t` in place and take over its history (torch's rebase_history)."""
    _castable(result.dtype, t.dtype)
    np.copyto(t.data, np.broadcast_to(result.data, t.shape).astype(t.dtype.np, copy=False))
    t.bump_version()
    if result.grad_fn is not None:
        t.grad_fn, t.output_nr, t._requires_grad = result.grad_fn, result.output_nr, True
    return t


def apply_inplace(t: Tensor, compute) -> Tensor:
    """t.op_(...): check, compute out of place from `t`, then write back into `t`."""
    check_inplace(t)
    result = compute(t)
    if result.shape != t.shape:
        F.broadcast_shape(t.shape, result.shape)
        if np.broadcast_shapes(t.shape, result.shape) != t.shape:
            raise errors.runtime(
                f"output with shape [{', '.join(map(str, t.shape))}] doesn't match the broadcast "
                f"shape [{', '.join(map(str, np.broadcast_shapes(t.shape, result.shape)))}]")
    return write(t, result)


def zero_(t: Tensor) -> Tensor:
    return apply_inplace(t, F.zeros_like)


def assign_into(t: Tensor, key, value) -> None:
    """t[key] = value."""
    from gradcli.engine.indexing import numpy_key
    check_inplace(t)
    source = value.data if isinstance(value, Tensor) else value
    try:
        t.data[numpy_key(key)] = source
    except ValueError as error:
        raise errors.runtime(str(error)) from None
    t.bump_version()
