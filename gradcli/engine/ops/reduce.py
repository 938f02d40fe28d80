"""Reduction rows: sum, mean, prod, amax/amin, max/min (whole and along a dim) and scatter."""

from __future__ import annotations

import numpy as np

from gradcli.engine import comparison as C, dtypes, functional as F, pointwise as P
from gradcli.engine import reductions as R, selection, shapes as S
from gradcli.engine.ops.registry import RESULT, defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor


def axis_of(a: np.ndarray, dims):
    """The numpy axis for torch dims: None (all) for a 0-dim array, None or ()."""
    return None if a.ndim == 0 or not dims else tuple(dims)


def unsqueeze_multiple(t: Tensor, dims, ndim: int) -> Tensor:
    """Put back the reduced dims (torch's unsqueeze_multiple)."""
    if not dims:
        return t
    if len(dims) == 1:
        return S.unsqueeze(t, dims[0])
    for d in range(ndim):
        if d in dims:
            t = S.unsqueeze(t, d)
    return t


def restore_reduced_dims(t: Tensor, dims, keepdim: bool) -> Tensor:
    """torch's restore_reduced_dims: reshape `t` so that the reduced dims are size 1."""
    if keepdim:
        return t
    sizes = iter(t.shape)
    target = tuple(1 if d in dims else next(sizes) for d in range(t.ndim + len(dims)))
    return S.reshape(t, target)


def sum_backward(g: Tensor, sizes: tuple, dims, keepdim: bool) -> Tensor:
    if not keepdim and sizes and dims:
        g = unsqueeze_multiple(g, dims, len(sizes))
    return S.expand(g, sizes)


def _accumulator(a: np.ndarray, out: dtypes.DType):
    return np.float32 if out is dtypes.float16 else out.np


def _sum(a, sizes, dtype=None, dim=None, keepdim=False):
    out = _sum_dtype(dtypes.from_numpy(a.dtype), {"dtype": dtype})
    total = np.sum(a, axis=axis_of(a, dim), keepdims=keepdim, dtype=_accumulator(a, out))
    return np.asarray(total).astype(out.np)


def _sum_dtype(dtype, params):
    if params.get("dtype") is not None:
        return params["dtype"]
    return dtype if dtype.is_floating_point else dtypes.int64


def _mean(a, sizes, dtype=None, dim=None, keepdim=False):
    out = dtype or dtypes.from_numpy(a.dtype)
    total = np.mean(a.astype(out.np), axis=axis_of(a, dim), keepdims=keepdim,
                    dtype=_accumulator(a, out))
    return np.asarray(total).astype(out.np)


defop("sum", "SumBackward0", _sum, promote="none", out_dtype=_sum_dtype,
      vjp=lambda g, a, sizes, dtype=None: S.expand(g, sizes))
defop("sum.dim_IntList", "SumBackward1", _sum, promote="none", out_dtype=_sum_dtype,
      vjp=lambda g, a, sizes, dtype=None, dim=(), keepdim=False:
          sum_backward(g, sizes, dim, keepdim))
defop("mean", "MeanBackward0", _mean, promote="none",
      out_dtype=lambda dtype, params: params.get("dtype") or dtype,
      vjp=lambda g, a, sizes, dtype=None: P.div_scalar(S.expand(g, sizes),
                                                        R.reduced_numel(sizes, None)))
defop("mean.dim", "MeanBackward1", _mean, promote="none",
      out_dtype=lambda dtype, params: params.get("dtype") or dtype,
      vjp=lambda g, a, sizes, dtype=None, dim=(), keepdim=False: P.div_scalar(
          sum_backward(g, sizes, dim, keepdim), R.reduced_numel(sizes, dim)))


# ---- prod ---------------------------------------------------------------------------------------

def _prod(a, dtype=None, dim=None, keepdim=False):
    out = _sum_dtype(dtypes.from_numpy(a.dtype), {"dtype": dtype})
    axis = None if dim is None or a.ndim == 0 else dim
    return np.asarray(np.prod(a, axis=axis, keepdims=keepdim, dtype=_accumulator(a, out))
                      ).astype(out.np)


def _prod_backward(g, a, out, dim=None, keepdim=False):
    from gradcli.engine import conversions
    a = conversions.to_dtype(a, g.dtype)
    if a.ndim == 0:
        return g
    if dim is None:
        zeros = int(np.count_nonzero(a.data == 0))
        if zeros == 0:
            return P.mul(g, P.div(out, a))
        if zeros > 1 and not STATE.grad_enabled:
            return P.full_like(a, 0)
        flat = S.reshape(a, (-1,))
        return S.reshape(_prod_safe_zeros_backward(g, flat, 0), a.shape)
    if not keepdim:
        g, out = S.unsqueeze(g, dim), S.unsqueeze(out, dim)
    if not np.any(a.data == 0):
        return P.mul(g, P.div(out, a))
    return _prod_safe_zeros_backward(g, a, dim)


def _prod_safe_zeros_backward(g, a, dim):
    from gradcli.engine.creation import ones
    size = a.shape[dim]
    if a.numel() == 0:
        return S.expand(g, a.shape)
    if size == 1:
        return g
    ones_shape = tuple(1 if d == dim else s for d, s in enumerate(a.shape))
    one = ones(ones_shape, dtype=g.dtype)
    normal = R.cumprod(S.cat([one, S.narrow(a, dim, 0, size - 1)], dim), dim)
    reverse = S.cat([one, S.flip(S.narrow(a, dim, 1, size - 1), (dim,))], dim)
    reverse = S.flip(R.cumprod(reverse, dim), (dim,))
    return P.mul(g, P.mul(normal, reverse))


defop("prod", "ProdBackward0", _prod, promote="none", out_dtype=_sum_dtype, save=(0, RESULT),
      vjp=lambda g, a, dtype=None, out=None: _prod_backward(g, a, out))
defop("prod.dim_int", "ProdBackward1", _prod, promote="none", out_dtype=_sum_dtype,
      save=(0, RESULT),
      vjp=lambda g, a, dtype=None, dim=0, keepdim=False, out=None:
          _prod_backward(g, a, out, dim, keepdim))


# ---- amax / amin / max / min ------------------------------------------------------------------

def _amax_backward(g, a, dim, keepdim, out):
    grad = restore_reduced_dims(g, dim, keepdim)
    mask = C.compare("eq", restore_reduced_dims(out, dim, keepdim), a)
    return P.mul(P.div(grad, R.sum(mask, dim, True)), mask)


def _evenly_distribute_backward(g, a, out):
    if np.isnan(out.data).any():
        mask = C.isnan(a)
    else:
        mask = C.compare("eq", a, out)
    zeros = Tensor(np.zeros(a.shape, g.dtype.np), g.dtype)
    return P.masked_fill(zeros, mask, P.div(g, R.sum(mask)))


def _max_dim(a, indices, dim, keepdim, sizes):
    if a.ndim == 0:
        return a.copy(), indices
    values = np.take_along_axis(a, indices, axis=dim)
    if keepdim:
        return values, indices
    return np.squeeze(values, dim), np.squeeze(indices, dim)


def _value_selecting_backward(g, a, indices, dim, keepdim, sizes):
    """torch's value_selecting_reduction_backward: scatter the gradient at the indices."""
    grad = g[0] if isinstance(g, (list, tuple)) else g
    if not keepdim and sizes:
        grad = S.unsqueeze(grad, dim)
    return scatter(Tensor(np.zeros(sizes, grad.dtype.np), grad.dtype), dim, indices, grad)


def scatter(t: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """Tensor.scatter(dim, index, src) (ScatterBackward0)."""
    return F.apply_op("scatter.src", t, index, src, dim=dim)


def _scatter(a, index, src, dim):
    if a.ndim == 0:
        return np.array(src, dtype=a.dtype)
    out = a.copy()
    src = src[tuple(slice(0, s) for s in index.shape)]
    np.put_along_axis(out, index.astype(np.int64), src, axis=dim)
    return out


for _name, _reduce in (("amax", np.max), ("amin", np.min)):
    defop(_name, _name.capitalize() + "Backward0",
          lambda a, dim, keepdim, f=_reduce: f(a, axis=axis_of(a, dim), keepdims=keepdim),
          promote="none", save=(0, RESULT),
          vjp=lambda g, a, dim, keepdim, out: _amax_backward(g, a, dim, keepdim, out))
for _name, _reduce in (("max", np.max), ("min", np.min)):
    defop(_name, _name.capitalize() + "Backward1", lambda a, f=_reduce: f(a), promote="none",
          save=(0, RESULT), vjp=lambda g, a, out: _evenly_distribute_backward(g, a, out))
    defop(f"{_name}.dim", _name.capitalize() + "Backward0", _max_dim, promote="none",
          n_outputs=2, out_dtype=lambda dtype, params: (dtype, dtypes.int64), save=(1,),
          vjp=(lambda g, a, indices, dim, keepdim, sizes:
               _value_selecting_backward(g, a, indices, dim, keepdim, sizes), None))

defop("scatter.src", "ScatterBackward0", _scatter, promote="none", save=(1,),
      vjp=(lambda g, a, index, src, dim: scatter(g, dim, index, P.full_like(g, 0)), None,
           lambda g, a, index, src, dim: selection.gather(g, dim, index) if g.ndim else g))
