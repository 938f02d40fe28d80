"""torch-level functions: pick the op overload for the operands, normalise arguments, call `apply`."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.ops.registry import OPS, apply
from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor

Scalar = (bool, int, float)


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


# ---- arithmetic ---------------------------------------------------------------------------------

def broadcast_shape(a: tuple, b: tuple) -> tuple:
    """The broadcast of two shapes, failing with torch's message."""
    ndim = max(len(a), len(b))
    out = []
    for i in range(ndim):
        offset = ndim - 1 - i
        size_a = a[len(a) - 1 - offset] if len(a) - 1 - offset >= 0 else 1
        size_b = b[len(b) - 1 - offset] if len(b) - 1 - offset >= 0 else 1
        if size_a != size_b and size_a != 1 and size_b != 1:
            raise errors.runtime(
                f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) at "
                f"non-singleton dimension {i}")
        out.append(size_a if size_a != 1 else size_b)
    return tuple(out)


def _binary(key: str, a, b, **params):
    if isinstance(a, Tensor) and isinstance(b, Tensor) and a.shape != b.shape:
        broadcast_shape(a.shape, b.shape)
    return apply(OPS[key], a, b, **params)


def add(a, b, alpha=1):
    if not isinstance(a, Tensor):
        a, b = b, a
    return _binary("add.Tensor", a, b, **({"alpha": alpha} if alpha != 1 else {}))


def sub(a, b, alpha=1):
    extra = {"alpha": alpha} if alpha != 1 else {}
    if not isinstance(a, Tensor):
        return apply(OPS["rsub.Scalar"], b, a, **extra)
    return _binary("sub.Tensor", a, b, **extra)


def mul(a, b):
    if not isinstance(a, Tensor):
        a, b = b, a
    return _binary("mul.Tensor", a, b)


def div(a, b):
    if not isinstance(a, Tensor):
        return mul(reciprocal(b), a)
    return _binary("div.Tensor", a, b)


def pow(a, b):
    if not isinstance(a, Tensor):
        return apply(OPS["pow.Scalar"], a, b)
    if not isinstance(b, Tensor):
        return apply(OPS["pow.Tensor_Scalar"], a, b)
    return _binary("pow.Tensor_Tensor", a, b)


def _unary(key: str):
    def op(a: Tensor) -> Tensor:
        return apply(OPS[key], a)
    op.__name__ = key
    return op


neg, reciprocal, exp, log, sin, cos, sqrt, abs, sign = (
    _unary(k) for k in ("neg", "reciprocal", "exp", "log", "sin", "cos", "sqrt", "abs", "sign"))


def compare(name: str, a, b) -> Tensor:
    """a <name> b for name in eq, ne, lt, le, gt, ge: a bool tensor, never differentiable."""
    if not isinstance(a, Tensor):
        a, b = b, a
        name = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}.get(name, name)
    return _binary(f"{name}.Tensor", a, b)


def any(a: Tensor) -> Tensor:
    return apply(OPS["any"], a)


def where(condition: Tensor, a: Tensor, b: Tensor) -> Tensor:
    return apply(OPS["where.self"], condition, a, b)


# ---- reductions ---------------------------------------------------------------------------------

def normalize_dims(dim, ndim: int) -> tuple:
    """Dims as a tuple of non-negative ints, with torch's range error."""
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    rank = max(ndim, 1)
    out = []
    for d in dims:
        if not -rank <= d < rank:
            raise errors.index_error(
                f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], "
                f"but got {d})")
        out.append(d % rank)
    return tuple(out)


def _reduce(name: str, a: Tensor, dim, keepdim: bool, dtype):
    if dim is None:
        return apply(OPS[name], a, sizes=a.shape, dtype=dtype)
    dims = normalize_dims(dim, a.ndim) if a.ndim else ()
    key = "sum.dim_IntList" if name == "sum" else "mean.dim"
    return apply(OPS[key], a, dim=dims, keepdim=keepdim, sizes=a.shape, dtype=dtype)


def sum(a: Tensor, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    return _reduce("sum", a, dim, keepdim, dtype)


def mean(a: Tensor, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    return _reduce("mean", a, dim, keepdim, dtype)


# ---- shapes -------------------------------------------------------------------------------------

def expand(a: Tensor, size) -> Tensor:
    size = tuple(a.shape[i - (len(size) - a.ndim)] if s == -1 else s for i, s in enumerate(size))
    if size == a.shape:
        return a
    return apply(OPS["expand"], a, size=size, sizes=a.shape)


def unsqueeze(a: Tensor, dim: int) -> Tensor:
    return apply(OPS["unsqueeze"], a, dim=normalize_dims(dim, a.ndim + 1)[0])


def squeeze(a: Tensor, dim: int) -> Tensor:
    return apply(OPS["squeeze.dim"], a, dim=normalize_dims(dim, a.ndim)[0], sizes=a.shape)


def reshape(a: Tensor, shape) -> Tensor:
    return apply(OPS["view"], a, shape=tuple(shape), sizes=a.shape)


def alias(a: Tensor) -> Tensor:
    return apply(OPS["alias"], a)


def select(a: Tensor, dim: int, index: int) -> Tensor:
    return apply(OPS["select.int"], a, dim=dim, index=index, sizes=a.shape)


def slice_dim(a: Tensor, dim: int, start, end, step) -> Tensor:
    return apply(OPS["slice.Tensor"], a, dim=dim, start=start, end=end, step=step, sizes=a.shape)


def sum_to(grad: Tensor, shape: tuple) -> Tensor:
    """Sum `grad` down to `shape`, undoing broadcasting (leading dims, then size-1 dims)."""
    if grad.shape == shape:
        return grad
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

