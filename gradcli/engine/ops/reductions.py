"""Reductions (sum, mean, prod, max/min, norms, var/std, logsumexp, cumsum): functions and rows."""

from __future__ import annotations

import builtins
import math

import numpy as np

from gradcli.engine import declarations, dtypes, errors, layout, vmap_batched
from gradcli.engine.layout import c_ordered
from gradcli.engine.lazy_modules import vml_unary as _vml_unary
from gradcli.engine.cascade_sum import (full_sum, last_dim_sums, outer_dim_sums,
                                        strided_row_sums)
from gradcli.engine.norm_order import power_norm, two_norm
from gradcli.engine.product_order import dim_product, whole_product
from gradcli.engine.variance_order import DOF_WARNING, variance
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.pointwise import rounded_from_double
from gradcli.engine.ops.registry import (LINEAR, OPS, RESULT, apply, defop, not_differentiable,
                                         reduction_dtype)
from gradcli.engine.return_types import ReturnTypes
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
        return F.unsqueeze(t, dims[0])
    for d in range(ndim):
        if d in dims:
            t = F.unsqueeze(t, d)
    return t


def restore_reduced_dims(t: Tensor, dims, keepdim: bool) -> Tensor:
    """torch's restore_reduced_dims: reshape `t` so that the reduced dims are size 1."""
    if keepdim:
        return t
    sizes = iter(t.shape)
    target = tuple(1 if d in dims else next(sizes) for d in range(t.ndim + len(dims)))
    return F.reshape(t, target)


def sum_backward(g: Tensor, sizes: tuple, dims, keepdim: bool) -> Tensor:
    if not keepdim and sizes and dims:
        g = unsqueeze_multiple(g, dims, len(sizes))
    return F.expand(g, sizes)


def _accumulator(a: np.ndarray, out: dtypes.DType):
    return np.float32 if out is dtypes.float16 else out.np


def _sum(a, sizes, dtype=None, dim=None, keepdim=False):
    out = reduction_dtype(dtypes.from_numpy(a.dtype), {"dtype": dtype})
    if a.dtype.kind == "c" and not out.is_complex:
        a = F.cast_values(a, out.np)
    exact = _torch_order_sum(a, out, dim, keepdim)
    if exact is not None:
        return exact
    total = np.sum(a, axis=axis_of(a, dim), keepdims=keepdim, dtype=_accumulator(a, out))
    return np.asarray(total).astype(out.np)


def sum_values(a, sizes, dtype, dim, keepdim: bool):
    """torch's sum of an array over `dim` (() for all), in its order of additions."""
    return _sum(a, sizes, dtype, dim, keepdim)


def _torch_order_sum(a, out: dtypes.DType, dim, keepdim: bool):
    """A float sum in torch's order of additions (its last bits): over the whole tensor, or
    over some dimensions of a C-ordered one; else None."""
    if out.np != a.dtype:
        return None
    if dim and len(dim) != a.ndim:
        dim = [d % a.ndim for d in dim] if a.ndim else dim  # a 0-d tensor takes dim 0 or -1
        rows = _one_dim_sums(a, dim[0]) if len(dim) == 1 else _dims_sums(a, dim)
        if rows is None:
            return None
        return np.expand_dims(rows, tuple(dim)) if keepdim else rows
    total = full_sum(a)
    if total is None:
        return None
    return total.reshape((1,) * a.ndim) if keepdim else total


def _one_dim_sums(a, d: int):
    """Sums over dimension `d`, with the other size-1 dimensions dropped first as torch's
    TensorIterator drops them: a (40, 1) column summed over dim 0 is a contiguous run."""
    if a.ndim == 0:  # dim 0 of a 0-d tensor: the value itself
        return None
    if not a.flags.c_contiguous:
        return _memory_order_sums(a, d)
    kept = [i for i in range(a.ndim) if a.shape[i] != 1 or i == d]
    squeezed, at = a.reshape([a.shape[i] for i in kept]), kept.index(d)
    if len(kept) == 1:
        rows = full_sum(squeezed)
    else:
        rows = last_dim_sums(squeezed) if at == len(kept) - 1 else outer_dim_sums(squeezed, at)
    return None if rows is None else rows.reshape(a.shape[:d] + a.shape[d + 1:])


def _dims_sums(a, dims):
    """Sums over several dimensions of a C-ordered array, as torch's TensorIterator runs them:
    size-1 dimensions dropped, neighbours of one kind (reduced or kept) merged, and the reduced
    ones innermost. One reduced run is a one-dimension sum. With more, each row along the
    innermost reduced run is summed (with vector loads where that run is contiguous) and added
    into its output in turn, the next reduced run the fastest; split across threads, torch
    gives each thread whole outputs, which changes no output's additions."""
    if not a.flags.c_contiguous:
        return _memory_order_sums(a, dims)
    out_shape = tuple(size for i, size in enumerate(a.shape) if i not in dims)
    if a.size == 0:
        return np.zeros(out_shape, a.dtype)
    runs: list = []  # [size, reduced] of the merged dimensions, outermost first
    for i, size in enumerate(a.shape):
        if size != 1:
            if runs and runs[-1][1] == (i in dims):
                runs[-1][0] *= size
            else:
                runs.append([size, i in dims])
    reduced = [i for i, (_, is_reduced) in enumerate(runs) if is_reduced]
    merged = a.reshape([size for size, _ in runs])
    if len(reduced) == 1:
        rows = _one_dim_sums(merged, reduced[0]) if len(runs) > 1 else full_sum(merged)
        return None if rows is None else rows.reshape(out_shape)
    if not reduced:
        return merged.copy().reshape(out_shape)
    kept = [i for i in range(len(runs)) if i not in reduced]
    width = runs[reduced[-1]][0]
    rows = np.ascontiguousarray(merged.transpose(kept + reduced)).reshape(-1, width)
    sums = last_dim_sums(rows) if reduced[-1] == len(runs) - 1 else strided_row_sums(rows)
    steps = sums.reshape(int(np.prod(out_shape, dtype=np.int64)), -1)
    total = steps[:, 0]
    for j in range(1, steps.shape[1]):
        total = total + steps[:, j]
    return total.reshape(out_shape)
def _memory_order_sums(a, dims):
    """Sums over `dims` (one, or a list) of a dense array laid out in another order (a
    transpose, a batch-first RNN's output), or None where torch's order is not known.

    torch's TensorIterator puts a reduction's kept dimensions outside in the output's order
    (its logical one), merging neighbours whose strides allow, and the reduced ones inside by
    stride. SumKernel then sums each output's terms as a row when the reduced run is contiguous,
    runs across the innermost kept run (`_columns`, vectorised when contiguous) when that one's
    stride is the smaller, and else sums each output's terms alone. Reduced dimensions that do
    not merge into one run take the C-ordered view of the memory (known when it is dense).
    A slice (not dense) runs the same way: TensorIterator reads only the strides."""
    if any(stride <= 0 for size, stride in zip(a.shape, a.strides) if size != 1):
        return None
    dims = [dims] if type(dims) is int else list(dims)
    ones = [i for i in range(a.ndim) if a.shape[i] == 1]
    if ones:  # TensorIterator drops them (NumPy's flags already ignore them in dense arrays)
        left = [d - len([i for i in ones if i < d]) for d in dims if a.shape[d] != 1]
        rows = _memory_order_sums(np.squeeze(a, tuple(ones)), left) if left else None
        return None if rows is None else rows.reshape(
            [size for i, size in enumerate(a.shape) if i not in dims])
    kept = [i for i in range(a.ndim) if i not in dims and a.shape[i] != 1]
    reduced = sorted((d for d in dims if a.shape[d] != 1), key=lambda i: -a.strides[i])
    out_shape = tuple(size for i, size in enumerate(a.shape) if i not in dims)
    if not kept or not reduced:
        return None
    if _merges(a, reduced):
        count, reduced_stride = math.prod(a.shape[d] for d in reduced), a.strides[reduced[-1]]
        outer, columns = _columns(a, kept)
        if reduced_stride == a.itemsize or reduced_stride < a.strides[columns[-1]]:
            rows = np.ascontiguousarray(a.transpose(kept + reduced)).reshape(-1, count)
            sums = last_dim_sums(rows) if reduced_stride == a.itemsize else strided_row_sums(rows)
        else:
            across = np.ascontiguousarray(a.transpose(outer + reduced + columns))
            width = math.prod(a.shape[i] for i in columns)
            sums = outer_dim_sums(across.reshape(-1, count, width), 1,
                                  vectorized=a.strides[columns[-1]] == a.itemsize)
        if sums is None:
            return None
        return sums.reshape(math.prod(a.shape[i] for i in outer), -1).reshape(
            [a.shape[i] for i in outer + columns]).transpose(
            np.argsort(outer + columns)).reshape(out_shape)
    order = layout.dense_order(a)
    if order is None:
        return None
    rows = _dims_sums(a.transpose(order), sorted(order.index(d) for d in dims))
    if rows is None:
        return None
    return rows.transpose(np.argsort([i for i in order if i not in dims]))


def _merges(a, dims: list) -> bool:
    """Whether `dims` (outermost first) lie in `a`'s memory as one run, as TensorIterator merges
    them."""
    return all(a.strides[outer] == a.shape[inner] * a.strides[inner]
               for outer, inner in zip(dims, dims[1:]))


def _columns(a, kept: list) -> tuple[list, list]:
    """The kept dimensions split into the outer ones and the innermost run TensorIterator merges
    (the columns a reduction runs across)."""
    first = len(kept) - 1
    while first and _merges(a, kept[first - 1:first + 1]):
        first -= 1
    return kept[:first], kept[first:]


def _mean(a, sizes, dtype=None, dim=None, keepdim=False):
    out = dtype or dtypes.from_numpy(a.dtype)
    exact = _torch_order_sum(a, out, dim, keepdim)
    if exact is not None and a.size:  # torch's CPU mean is its sum divided by the count
        count = a.size // exact.size if exact.size else 1
        return (exact / a.dtype.type(count)).astype(out.np)
    if a.size == 0:  # 0 / 0, without NumPy's empty-slice warning
        return np.full(np.sum(a, axis=axis_of(a, dim), keepdims=keepdim).shape, np.nan, out.np)
    total = np.mean(a.astype(out.np), axis=axis_of(a, dim), keepdims=keepdim,
                    dtype=_accumulator(a, out))
    return np.asarray(total).astype(out.np)


defop("sum", "SumBackward0", _sum, promote="none", out_dtype=reduction_dtype, complex=True,
      vjp=lambda g, a, sizes, dtype=None: F.expand(g, sizes), jvp=LINEAR,
      rule=("grad expanded to self's shape",))
defop("sum.dim_IntList", "SumBackward1", _sum, promote="none", out_dtype=reduction_dtype,
      complex=True,
      vjp=lambda g, a, sizes, dtype=None, dim=(), keepdim=False:
          sum_backward(g, sizes, dim, keepdim), jvp=LINEAR,
      rule=("grad expanded to self's shape over dim",))
defop("mean", "MeanBackward0", _mean, promote="none", complex=True,
      out_dtype=lambda dtype, params: params.get("dtype") or dtype,
      vjp=lambda g, a, sizes, dtype=None: F.div_scalar(F.expand(g, sizes),
                                                        F.reduced_numel(sizes, None)), jvp=LINEAR,
      rule=("grad expanded to self's shape / self.numel()",))
defop("mean.dim", "MeanBackward1", _mean, promote="none", complex=True,
      out_dtype=lambda dtype, params: params.get("dtype") or dtype,
      vjp=lambda g, a, sizes, dtype=None, dim=(), keepdim=False: F.div_scalar(
          sum_backward(g, sizes, dim, keepdim), F.reduced_numel(sizes, dim)), jvp=LINEAR,
      rule=("grad expanded to self's shape over dim / size of dim",))


# ---- prod ---------------------------------------------------------------------------------------

def _prod(a, dtype=None, dim=None, keepdim=False):
    out = reduction_dtype(dtypes.from_numpy(a.dtype), {"dtype": dtype})
    axis = None if dim is None or a.ndim == 0 else dim
    if out.np == a.dtype or (dtype is not None and out.category == dtypes.FLOATING):
        a = a.astype(out.np, copy=False)  # (torch casts the input to `dtype` first)
        reduced = STATE.reduced_kernel if dtype is None else None
        exact = whole_product(a, reduced) if axis is None else dim_product(a, axis, reduced)
        if exact is not None:
            if keepdim:
                return exact.reshape((1,) * a.ndim) if axis is None else \
                    c_ordered(np.expand_dims(exact, axis))
            return c_ordered(exact)
    return c_ordered(np.asarray(np.prod(a, axis=axis, keepdims=keepdim,
                                        dtype=_accumulator(a, out))).astype(out.np))


def _prod_backward(g, a, out, dim=None, keepdim=False):
    a = F.to_dtype(a, g.dtype)
    if a.ndim == 0:
        return g
    if dim is None:
        zeros = int(np.count_nonzero(a.data == 0))
        if zeros == 0:
            return F.mul(g, F.div(out, a))
        if zeros > 1 and not STATE.grad_enabled:
            return F.filled_like(a, 0)
        flat = F.reshape(a, (-1,))
        return F.reshape(_prod_safe_zeros_backward(g, flat, 0), a.shape)
    if not keepdim:
        g, out = F.unsqueeze(g, dim), F.unsqueeze(out, dim)
    if not np.any(a.data == 0):
        return F.mul(g, F.div(out, a))
    return _prod_safe_zeros_backward(g, a, dim)


def _prod_safe_zeros_backward(g, a, dim):
    size = a.shape[dim]
    if a.numel() == 0:
        return F.expand(g, a.shape)
    if size == 1:
        return g
    ones_shape = tuple(1 if d == dim else s for d, s in enumerate(a.shape))
    one = F.ones(ones_shape, dtype=g.dtype)
    normal = F.cumprod(F.cat([one, F.narrow(a, dim, 0, size - 1)], dim), dim)
    reverse = F.cat([one, F.flip(F.narrow(a, dim, 1, size - 1), (dim,))], dim)
    reverse = F.flip(F.cumprod(reverse, dim), (dim,))
    return F.mul(g, F.mul(normal, reverse))


defop("prod", "ProdBackward0", _prod, promote="none", out_dtype=reduction_dtype, save=(0, RESULT),
      vjp=lambda g, a, dtype=None, out=None: _prod_backward(g, a, out),
      jvp=(lambda t, a, dtype=None, out=None: _prod_jvp(t, a, out),))
defop("prod.dim_int", "ProdBackward1", _prod, promote="none", out_dtype=reduction_dtype,
      save=(0, RESULT),
      vjp=lambda g, a, dtype=None, dim=0, keepdim=False, out=None:
          _prod_backward(g, a, out, dim, keepdim),
      jvp=(lambda t, a, dtype=None, dim=0, keepdim=False, out=None:
           _prod_jvp(t, a, out, dim, keepdim),))


def _prod_jvp(t, a, out, dim=None, keepdim=False):
    """torch's: (prod_backward(ones, self, result) * self_t).sum over the reduced dims."""
    ones = Tensor(np.ones(out.shape, out.dtype.np), out.dtype)
    scaled = F.mul(_prod_backward(ones, a, out, dim, keepdim), t)
    return F.sum(scaled) if dim is None else F.sum(scaled, dim, keepdim)


# ---- amax / amin / max / min ------------------------------------------------------------------

def _amax_backward(g, a, dim, keepdim, out):
    grad = restore_reduced_dims(g, dim, keepdim)
    mask = F.compare("eq", restore_reduced_dims(out, dim, keepdim), a)
    return F.mul(F.div(grad, F.sum(mask, dim, True)), mask)


def evenly_distribute_backward(g, a, out):
    if np.isnan(out.data).any():
        mask = F.isnan(a)
    else:
        mask = F.compare("eq", a, out)
    zeros = Tensor(np.zeros(a.shape, g.dtype.np), g.dtype)
    return F.masked_fill(zeros, mask, F.div(g, F.sum(mask)))


def _amaxamin_jvp(t, a, dim, keepdim, out):
    """torch's amaxamin_jvp: the mean of the tangents where the input reaches the result."""
    mask = F.compare("eq", a, restore_reduced_dims(out, dim, keepdim))
    picked = F.where(mask, t, F.scalar_tensor(0.0, t.dtype))
    return F.div(F.sum(picked, dim, keepdim), F.sum(mask, dim, keepdim))


def evenly_read_jvp(t, a, out):
    """torch's evenly_read_jvp: the tangents where the input equals the value, averaged."""
    mask = F.compare("eq", a, out)
    return F.sum(F.mul(mask, F.div(t, F.sum(mask))))


def gather_with_keepdimed_indices(t, indices, dim, keepdim):
    """The tangent of a value-selecting reduction: `t` at the (kept-dim) indices."""
    if t.ndim == 0:
        return t
    picked = F.gather(t, dim, indices)
    return picked if keepdim else F.squeeze(picked, dim)


def values_at_indices(a, indices, dim, keepdim, sizes):
    """The values at `indices` (shaped as with keepdim) along `dim`, and the indices, with the
    dim squeezed away unless `keepdim`: the forward of every value-selecting reduction."""
    if a.ndim == 0:
        return a.copy(), indices
    values = np.take_along_axis(a, indices, axis=dim)
    if keepdim:
        return values, indices
    return np.squeeze(values, dim), np.squeeze(indices, dim)


def value_selecting_backward(g, a, indices, dim, keepdim, sizes):
    """torch's value_selecting_reduction_backward: scatter the gradient at the indices."""
    grad = g[0] if isinstance(g, (list, tuple)) else g
    if not keepdim and sizes:
        grad = F.unsqueeze(grad, dim)
    return scatter(Tensor(np.zeros(sizes, grad.dtype.np), grad.dtype), dim, indices, grad)


def scatter(t: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """Tensor.scatter(dim, index, src) (ScatterBackward0)."""
    return F.apply_op("scatter.src", t, index, src, dim=dim)


def _scatter(a, index, src, dim):
    out = a.copy()
    F.scatter_into(out, index.astype(np.int64), dim, src)
    return out


for _name, _reduce in (("amax", np.max), ("amin", np.min)):
    defop(_name, _name.capitalize() + "Backward0",
          lambda a, dim, keepdim, f=_reduce: c_ordered(f(a, axis=axis_of(a, dim),
                                                         keepdims=keepdim)),
          promote="none", save=(0, RESULT),
          vjp=lambda g, a, dim, keepdim, out: _amax_backward(g, a, dim, keepdim, out),
          jvp=(lambda t, a, dim, keepdim, out: _amaxamin_jvp(t, a, dim, keepdim, out),))
for _name, _reduce in (("max", np.max), ("min", np.min)):
    defop(_name, _name.capitalize() + "Backward1", lambda a, f=_reduce: f(a), promote="none",
          save=(0, RESULT), vjp=lambda g, a, out: evenly_distribute_backward(g, a, out),
          jvp=(lambda t, a, out: evenly_read_jvp(t, a, out),))
    defop(f"{_name}.dim", _name.capitalize() + "Backward0", values_at_indices, promote="none",
          n_outputs=2, out_dtype=lambda dtype, params: (dtype, dtypes.int64), save=(1,),
          vjp=(lambda g, a, indices, dim, keepdim, sizes:
               value_selecting_backward(g, a, indices, dim, keepdim, sizes), None),
          jvp=lambda t, a, indices, dim, keepdim, sizes, out:
              gather_with_keepdimed_indices(t[0], indices, dim, keepdim))

defop("scatter.src", "ScatterBackward0", _scatter, promote="none", save=(1,),
      vjp=(lambda g, a, index, src, dim: scatter(g, dim, index, F.filled_like(g, 0)), None,
           lambda g, a, index, src, dim: F.gather(g, dim, index) if g.ndim else g), jvp=LINEAR)


def _vector_norm(a, ord, dim, keepdim):
    if np.iscomplexobj(a):  # the norm of the magnitudes, as ATen's kernels take std::abs
        return _vector_norm(np.abs(a), ord, dim, keepdim)
    axis = F.axis_of(a, dim)
    x = np.abs(a)
    if ord == 2:
        exact = two_norm(a, axis, keepdim)
        if exact is not None:
            return exact
        return np.sqrt(np.sum(x * x, axis=axis, keepdims=keepdim))
    if math.isinf(ord):
        pick = np.max if ord > 0 else np.min
        return pick(x, axis=axis, keepdims=keepdim)
    if ord == 0:
        return np.sum(x != 0, axis=axis, keepdims=keepdim).astype(a.dtype)
    exact = power_norm(a, ord, axis, keepdim)
    if exact is not None:
        return exact
    if ord == 1:
        return np.sum(x, axis=axis, keepdims=keepdim)
    return np.power(np.sum(np.power(x, ord), axis=axis, keepdims=keepdim), 1.0 / ord)


def _norm_backward(g, a, p, dim, keepdim, norm):
    """torch's norm_backward for linalg.vector_norm."""
    dims = dim or ()
    if not keepdim and a.ndim:
        g = F.unsqueeze_multiple(g, dims, a.ndim)
        norm = F.unsqueeze_multiple(norm, dims, a.ndim)
    if p == 0:
        return None
    if p == 1:
        return F.mul(F.sgn(a), g)
    if p == 2:
        return F.mul(g, F.masked_fill(F.div(a, norm), F.compare("eq", norm, 0), 0))
    if math.isinf(p):
        magnitude = F.abs(a)
        mask = F.logical_or(F.compare("eq", magnitude, norm), F.isnan(magnitude))
        return F.mul(F.sgn(a), F.mul(F.div(g, F.sum(mask, dims, True)), mask))
    if p < 1:
        scaled = F.mul(F.sgn(a), F.masked_fill(F.pow(F.abs(a), p - 1), F.compare("eq", a, 0), 0))
        return F.mul(F.mul(scaled, g), F.pow(norm, 1 - p))
    if p < 2:
        scaled = F.mul(F.sgn(a), F.pow(F.abs(a), p - 1))
    else:
        scaled = F.mul(a, F.pow(F.abs(a), p - 2))
    scale = F.masked_fill(F.div(g, F.pow(norm, p - 1)), F.compare("eq", norm, 0), 0)
    return F.mul(scaled, scale)


def _norm_jvp(t, a, p, dim, keepdim, norm):
    """torch's norm_jvp for linalg.vector_norm (a complex input's products with the tangent's
    conjugate, their real parts)."""
    dims = dim or ()
    t = F.conj(t)
    if p == 0:
        return F.zeros_like(norm)
    if p == 1:
        return F.sum(F.real(F.mul(F.sgn(a), t)), dims, keepdim)
    if p == 2:
        total = F.sum(F.real(F.mul(a, t)), dims, keepdim)
        return F.masked_fill(F.div(total, norm), F.compare("eq", norm, 0), 0)
    if math.isinf(p):
        if not keepdim and a.ndim:
            norm = F.unsqueeze_multiple(norm, dims, a.ndim)
        at_max = F.to_dtype(F.logical_or(F.compare("eq", F.abs(a), norm),
                                         F.logical_and(F.isnan(a), F.isnan(norm))), norm.dtype)
        count = F.count_nonzero(at_max, dims)
        if a.ndim:
            count = F.unsqueeze_multiple(count, dims, a.ndim)
        return F.sum(F.div(F.mul(F.real(F.mul(F.sgn(a), t)), at_max), count), dims, keepdim)
    if p < 1:
        powered = F.masked_fill(F.pow(F.abs(a), p - 1), F.compare("eq", a, 0), 0)
        return F.mul(F.sum(F.mul(powered, F.real(F.mul(F.sgn(a), t))), dims, keepdim),
                     F.pow(norm, 1 - p))
    if p < 2:
        total = F.sum(F.mul(F.pow(F.abs(a), p - 1), F.real(F.mul(F.sgn(a), t))), dims, keepdim)
    else:
        total = F.sum(F.mul(F.pow(F.abs(a), p - 2), F.real(F.mul(a, t))), dims, keepdim)
    return F.masked_fill(F.div(total, F.pow(norm, p - 1)), F.compare("eq", norm, 0), 0)


def _var(a, dim, correction, keepdim, root=False):
    axis = F.axis_of(a, dim)
    if a.size == 0:  # torch's trivial reduction: NaN whatever the correction
        return np.full(np.sum(a, axis=axis, keepdims=keepdim).shape, np.nan, a.dtype)
    exact = variance(a, axis, correction, keepdim, root, lambda values: _mean(values, ()))
    if exact is not None:
        return exact
    count = a.size if axis is None else math.prod(a.shape[d] for d in axis)
    centred = a - np.mean(a, axis=axis, keepdims=True)
    total = np.sum(centred * centred, axis=axis, keepdims=keepdim)
    result = total / a.dtype.type(builtins.max(count - correction, 0))
    return np.sqrt(result) if root else result


def _var_backward(g, a, dim, correction, keepdim):
    if a.ndim == 0 or dim is None:
        dof = a.numel() - correction
        if dof <= 0:
            return F.mul(g, F.where(F.compare("eq", a, F.mean(a)), math.nan, math.inf))
        return F.mul(F.mul_scalar(g, 2.0 / dof), F.sub(a, F.mean(a)))
    if not keepdim and a.ndim > 1:
        g = F.unsqueeze_multiple(g, dim, a.ndim)
    count = F.reduced_numel(a.shape, dim)
    return F.mul(F.mul_scalar(g, 2.0 / (count - correction)), F.sub(a, F.mean(a, dim, True)))


def _std_backward(g, a, dim, correction, keepdim, out):
    grad_var = F.masked_fill(F.div(g, F.mul_scalar(out, 2)), F.compare("eq", out, 0), 0)
    return _var_backward(grad_var, a, dim, correction, keepdim)


def _logsumexp(a, dim, keepdim):
    axis = F.axis_of(a, dim)
    if a.size == 0:  # torch: sum(exp(self)).log(), -inf over empty dims
        with np.errstate(divide="ignore"):
            return np.log(np.sum(np.exp(a), axis=axis, keepdims=keepdim))
    maxes = np.max(a, axis=axis, keepdims=True)
    maxes = np.where(np.isinf(maxes), 0, maxes)
    # torch: sum((self - maxes).exp_()).log_().add_(maxes), each step a tensor of self's dtype
    exps = _as_stored(_exp(_as_stored(a - maxes)))
    total = None
    if a.dtype in (np.float32, np.float64) and axis is not None:
        total = _torch_order_sum(exps, dtypes.from_numpy(a.dtype), list(axis), keepdim)
    if total is None:
        total = np.sum(exps, axis=axis, keepdims=keepdim)
    squeezed = maxes if keepdim else maxes.reshape(np.shape(total))
    return _as_stored(_log(_as_stored(total))) + squeezed


def _as_stored(values):
    """Values as a tensor of the dtype a forward computes holds them: rounded to bfloat16's or
    float16's (as float32) while the forward computes one of those, else as they are."""
    return dtypes.rounded_to(STATE.reduced_kernel, values) if STATE.reduced_kernel else values


_exp = _vml_unary("exp", rounded_from_double(np.exp))  # at::exp_
_log = _vml_unary("log", rounded_from_double(np.log))  # at::log_


def _logsumexp_backward(g, a, dim, keepdim, out):
    if not keepdim and a.ndim:
        g, out = F.unsqueeze_multiple(g, dim, a.ndim), F.unsqueeze_multiple(out, dim, a.ndim)
    return F.mul(g, F.exp(F.sub(a, out)))


def _scan(a, dim, dtype, accumulate):
    out = dtype or (dtypes.from_numpy(a.dtype) if a.dtype.kind in "fc" else dtypes.int64)
    if a.ndim == 0:
        return a.astype(out.np)
    # torch accumulates float and complex values in double precision
    wide = {"f": np.float64, "c": np.complex128}.get(out.np.kind, out.np)
    return c_ordered(accumulate(a.astype(wide), axis=dim).astype(out.np))


def _cumsum_from_zero(values: np.ndarray, axis: int) -> np.ndarray:
    """np.cumsum as torch's kernel runs it, from a zero accumulator: a running sum of negative
    zeros is 0.0, not -0.0 (adding 0 changes nothing else)."""
    return np.cumsum(values, axis=axis) + 0


def reversed_cumsum(t: Tensor, dim: int) -> Tensor:
    return F.flip(F.cumsum(F.flip(t, (dim,)), dim), (dim,))


def _cumsum_backward(g, dim):
    if g.numel() <= 1 or g.shape[dim] == 1:
        return g
    return reversed_cumsum(g, dim)


def _cumprod_backward(g, a, dim, out):
    if a.numel() <= 1 or a.shape[dim] == 1:
        return g
    w = F.mul(out, g)
    if not np.any(a.data == 0):
        return F.div(reversed_cumsum(w, dim), a)
    direct = Tensor(_cumprod_grad_values(g.data, a.data, dim), g.dtype)
    if STATE.grad_enabled:  # torch's O(n²) double-backward form is not built here
        return direct
    # torch's first-order form: before each slice's first zero, the quotient on masked values
    before = Tensor(np.cumsum(a.data == 0, axis=dim) == 0, dtypes.bool_)
    quotient = F.div(reversed_cumsum(F.masked_fill(w, F.logical_not(before), 0), dim),
                     F.masked_fill(a, F.logical_not(before), 1))
    return F.where(before, quotient, direct)


def _cumprod_grad_values(g, a, dim):
    """d/dx_k of sum_j g_j * prod_{i<=j} x_i, directly (inputs with zeros)."""
    g, a = np.moveaxis(g, dim, -1), np.moveaxis(a, dim, -1)
    n = a.shape[-1]
    result = np.zeros_like(g)
    for k in range(n):
        omitted = np.where(np.arange(n) == k, 1, a)
        products = np.cumprod(omitted, axis=-1)
        result[..., k] = np.sum((g * products)[..., k:], axis=-1)
    return np.moveaxis(result, -1, dim)


vector_norm_values, norm_backward = _vector_norm, _norm_backward  # dist and cdist share them
var_backward, std_backward = _var_backward, _std_backward  # var_mean and std_mean share them

defop("linalg_vector_norm", "LinalgVectorNormBackward0", _vector_norm, promote="none",
      save=(0, RESULT), complex=True, out_dtype=lambda dtype, params: dtypes.real_of(dtype),
      vjp=lambda g, a, ord, dim, keepdim, out: _norm_backward(g, a, ord, dim, keepdim, out),
      jvp=(lambda t, a, ord, dim, keepdim, out: _norm_jvp(t, a, ord, dim, keepdim, out),))
defop("var.correction", "VarBackward0", _var, promote="none", save=(0,),
      vjp=lambda g, a, dim, correction, keepdim: _var_backward(g, a, dim, correction, keepdim))
defop("std.correction", "StdBackward0",
      lambda a, dim, correction, keepdim: _var(a, dim, correction, keepdim, root=True),
      promote="none", save=(0, RESULT),
      vjp=lambda g, a, dim, correction, keepdim, out:
          _std_backward(g, a, dim, correction, keepdim, out))
defop("logsumexp", "LogsumexpBackward0", _logsumexp, promote="float", save=(0, RESULT),
      vjp=lambda g, a, dim, keepdim, out: _logsumexp_backward(g, a, dim, keepdim, out),
      jvp=(lambda t, a, dim, keepdim, out: logsumexp_jvp(a, t, dim, keepdim),))
defop("cumsum", "CumsumBackward0",
      lambda a, dim, dtype=None: _scan(a, dim, dtype, _cumsum_from_zero),
      promote="none", out_dtype=reduction_dtype, complex=True,
      vjp=lambda g, a, dim, dtype=None: _cumsum_backward(g, dim), jvp=LINEAR)
defop("cumprod", "CumprodBackward0", lambda a, dim, dtype=None: _scan(a, dim, dtype, np.cumprod),
      promote="none", out_dtype=reduction_dtype, save=(0, RESULT),
      vjp=lambda g, a, dim, dtype=None, out=None: _cumprod_backward(g, a, dim, out),
      jvp=(lambda t, a, dim, dtype=None, out=None: _cumprod_jvp(t, a, dim, out),))


def _cumprod_jvp(t, a, dim, out):
    """torch's cumprod_jvp: cumsum(t / a) * result, with the tangent after a first zero
    being the cumulative product with that zero's tangent in its place."""
    t = F.to_dtype(t, out.dtype)
    a = F.to_dtype(a, out.dtype)
    gradient = F.mul(F.cumsum(F.div(t, a), dim), out)
    zeros = F.compare("eq", a, F.scalar_tensor(0.0, a.dtype))
    if a.ndim == 0:
        return F.where(zeros, t, gradient)
    if not np.any(zeros.data):
        return gradient
    first = F.logical_and(zeros, F.compare("eq", F.cumsum(zeros, dim),
                                           F.scalar_tensor(1, dtypes.int64)))
    new_grad = F.cumprod(F.where(first, t, a), dim)
    after = F.cast(F.cumsum(first, dim), dtypes.bool_)
    return F.where(after, new_grad, gradient)


def logsumexp_jvp(a, t, dim, keepdim):
    """torch's logsumexp_jvp: sum(exp(a - amax) * t) / sum(exp(a - amax)) along `dim`."""
    exp = F.exp(F.sub(a, F.amax(a, dim, True))) if a.numel() else F.exp(a)
    total = F.sum(exp, dim, keepdim)
    return F.div(F.sum(F.mul(exp, t), dim, keepdim), total)


__all__ = ["sum", "mean", "prod", "amax", "amin", "max", "min", "argmax", "argmin", "norm",
           "vector_norm", "var", "std", "logsumexp", "cumsum", "cumprod", "ReturnTypes"]


def dims_of(dim, ndim: int) -> tuple:
    """`dim` (int or sequence) as sorted-as-given non-negative dims, with torch's range error."""
    return F.reduction_dims(dim, ndim)


def _all_dims(dim) -> bool:
    return dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0)


def sum(a: Tensor, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    if a.sparse is not None and dtype is None:
        return F.sparse_sum(a) if dim is None else F.sum_dims(a, dim, keepdim)
    if dim is None:
        return apply(OPS["sum"], a, sizes=a.shape, dtype=dtype)
    dims = () if _all_dims(dim) else dims_of(dim, a.ndim)
    return apply(OPS["sum.dim_IntList"], a, dim=dims, keepdim=keepdim, sizes=a.shape, dtype=dtype)


def check_mean_dtype(name: str, a: Tensor, dtype) -> None:
    """mean's (and nanmean's) output dtype: the given one, else the input's, must be floating
    point or complex."""
    out = dtype or a.dtype
    if not out.differentiable:
        raise errors.runtime(
            f"{name}(): could not infer output dtype. {'Input' if dtype is None else 'Optional'} "
            f"dtype must be either a floating point or complex dtype. Got: {out.scalar_name}")


def mean(a: Tensor, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    check_mean_dtype("mean", a, dtype)
    if dim is None:
        return apply(OPS["mean"], a, sizes=a.shape, dtype=dtype)
    dims = () if _all_dims(dim) else dims_of(dim, a.ndim)
    return apply(OPS["mean.dim"], a, dim=dims, keepdim=keepdim, sizes=a.shape, dtype=dtype)


def prod(a: Tensor, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    if dim is None:
        return apply(OPS["prod"], a, dtype=dtype)
    return apply(OPS["prod.dim_int"], a, dim=dims_of(dim, a.ndim)[0], keepdim=keepdim, dtype=dtype)


def _check_nonempty(name: str, a: Tensor, dim, dims: tuple) -> None:
    """torch's refusal to reduce an empty tensor over all its dims or over an empty dim (named
    as the call gave it)."""
    if a.numel() != 0:
        return
    if not dims:
        raise errors.runtime(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
            "the reduction dim with the 'dim' argument.")
    given = dim if isinstance(dim, (tuple, list)) else (dim,)
    empty = next((g for g, d in zip(given, dims) if a.ndim and a.shape[d] == 0), None)
    if empty is not None:
        raise errors.index_error(f"{name}(): Expected reduction dim {empty} to have non-zero "
                                 "size.")


def check_dim_nonempty(name: str, a: Tensor, axis: int) -> None:
    """max/min/argmax/argmin along a dim: torch refuses an empty one (named wrapped)."""
    if a.ndim and a.shape[axis] == 0:
        raise errors.index_error(f"{name}(): Expected reduction dim {axis} to have non-zero size.")


def amax(a: Tensor, dim=(), keepdim: bool = False) -> Tensor:
    dims = () if _all_dims(dim) else dims_of(dim, a.ndim)
    _check_nonempty("amax", a, dim, dims)
    return apply(OPS["amax"], a, dim=dims, keepdim=keepdim)


def amin(a: Tensor, dim=(), keepdim: bool = False) -> Tensor:
    dims = () if _all_dims(dim) else dims_of(dim, a.ndim)
    _check_nonempty("amin", a, dim, dims)
    return apply(OPS["amin"], a, dim=dims, keepdim=keepdim)


def max(a: Tensor, dim=None, keepdim: bool = False):
    return _extreme("max", a, dim, keepdim)


def min(a: Tensor, dim=None, keepdim: bool = False):
    return _extreme("min", a, dim, keepdim)


def _extreme(name: str, a: Tensor, dim, keepdim: bool):
    """max()/min(): the whole tensor, (values, indices) along `dim`, or elementwise with a
    tensor."""
    if isinstance(dim, Tensor):
        return F.maximum(a, dim) if name == "max" else F.minimum(a, dim)
    if dim is None:
        if a.numel() == 0:
            raise errors.runtime(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument.")
        return apply(OPS[name], a)
    axis = dims_of(dim, a.ndim)[0]
    check_dim_nonempty(name, a, axis)
    indices = Tensor(_arg_extreme(name, a.data, axis, True), dtypes.int64)
    values, indices = apply(OPS[f"{name}.dim"], a, indices, dim=axis, keepdim=keepdim,
                            sizes=a.shape)
    return ReturnTypes(name, values, indices)


def _arg_extreme(name: str, array: np.ndarray, axis, keepdim: bool) -> np.ndarray:
    """Index of the first max (min) along `axis`, NaN counting as the extreme, like torch."""
    if array.ndim == 0:
        return np.zeros((), dtype=np.int64)
    pick = np.argmax if name == "max" else np.argmin
    if array.dtype.kind == "f" and np.isnan(array).any():
        flagged = np.isnan(array) if axis is not None else np.isnan(array.reshape(-1))
        found = np.argmax(flagged, axis=axis if axis is not None else 0)
        plain = pick(np.where(np.isnan(array), 0, array), axis=axis)
        has_nan = np.any(flagged, axis=axis if axis is not None else 0)
        result = np.where(has_nan, found, plain)
    else:
        result = pick(array, axis=axis)
    result = np.asarray(result, dtype=np.int64)
    return np.expand_dims(result, axis) if keepdim and axis is not None else result


def argmax(a: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    return _noted_arg("max", a, dim, keepdim)


def argmin(a: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    return _noted_arg("min", a, dim, keepdim)


def _noted_arg(name: str, a: Tensor, dim, keepdim: bool) -> Tensor:
    """An index tensor, noted as not differentiable when `a` requires grad."""
    out = _arg(name, a, dim, keepdim)
    out._made_at = STATE.origin
    if a._requires_grad and STATE.grad_enabled:
        out._history = not_differentiable(f"arg{name}")
    if STATE.vmap_batched is not None:
        vmap_batched.spread((a,), (out,))
    return out


def _arg(name: str, a: Tensor, dim, keepdim: bool) -> Tensor:
    if a.dtype is dtypes.bool_ or a.dtype.is_complex:
        kind = "bool" if a.dtype is dtypes.bool_ else "complex"
        raise errors.runtime(f"arg{name}(): does not support {kind} input")
    if dim is None:
        if a.numel() == 0:
            raise errors.index_error(f"arg{name}(): Expected reduction dim to be specified for "
                                     "input.numel() == 0.")
        index = _arg_extreme(name, a.data, None, False)
        if keepdim:
            index = index.reshape((1,) * a.ndim)
        return Tensor(index, dtypes.int64)
    axis = dims_of(dim, a.ndim)[0]
    check_dim_nonempty(f"arg{name}", a, axis)
    if a.ndim == 0:
        return Tensor(np.zeros((), dtype=np.int64), dtypes.int64)
    return Tensor(_arg_extreme(name, a.data, axis, keepdim), dtypes.int64)


def vector_norm(a: Tensor, ord=2, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    if not (a.dtype.is_floating_point or a.dtype.is_complex):
        raise errors.runtime(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{a.dtype.scalar_name}")
    if dtype is not None:
        a = F.to_dtype(a, dtype)
    dims = None if _all_dims(dim) else dims_of(dim, a.ndim)
    return apply(OPS["linalg_vector_norm"], a, ord=float(ord), dim=dims, keepdim=keepdim)


def norm(a: Tensor, p="fro", dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    """torch.norm / Tensor.norm, Python in torch: an int dim as a list, then linalg.vector_norm
    (p a number, or 'fro' over at most two dims) or linalg.matrix_norm, whose parsers check."""
    listed = [dim] if isinstance(dim, int) else dim
    if isinstance(p, str) and not (p == "fro" and (
            dim is None or isinstance(dim, int) or len(dim) <= 2)):
        listed = list(range(a.ndim)) if listed is None else listed
        return declarations.call("linalg", "matrix_norm", a, p, listed, keepdim, dtype=dtype)
    order = 2.0 if p is None else 2 if isinstance(p, str) else p
    return declarations.call("linalg", "vector_norm", a, order, listed, keepdim, dtype=dtype)


def correction_of(unbiased, correction) -> float:
    if correction is not None:
        return correction
    return 1 if unbiased is None or unbiased else 0


def var(a: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    return _moment("var.correction", a, dim, unbiased, keepdim, correction)


def std(a: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    return _moment("std.correction", a, dim, unbiased, keepdim, correction)


def _moment(key: str, a: Tensor, dim, unbiased, keepdim: bool, correction) -> Tensor:
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if not a.dtype.is_floating_point:
        raise errors.runtime("std and var only support floating point and complex dtypes")
    dims = None if _all_dims(dim) else dims_of(dim, a.ndim)
    correction = correction_of(unbiased, correction)
    outputs = math.prod(n for d, n in enumerate(a.shape) if dims is not None and d not in dims)
    if (a.numel() // outputs if outputs else 0) - correction <= 0:
        STATE.warn("UserWarning", DOF_WARNING.format(key.split('.')[0]))
    return apply(OPS[key], a, dim=dims, correction=correction, keepdim=keepdim)


def logsumexp(a: Tensor, dim, keepdim: bool = False) -> Tensor:
    dims = () if _all_dims(dim) else dims_of(dim, a.ndim)
    return apply(OPS["logsumexp"], a, dim=dims, keepdim=keepdim)


def cumsum(a: Tensor, dim, dtype=None) -> Tensor:
    return apply(OPS["cumsum"], a, dim=dims_of(dim, a.ndim)[0], dtype=dtype)


def cumprod(a: Tensor, dim, dtype=None) -> Tensor:
    return apply(OPS["cumprod"], a, dim=dims_of(dim, a.ndim)[0], dtype=dtype)


def reduced_numel(sizes: tuple, dims) -> int:
    """How many elements each output of a reduction over `dims` (None or () = all) combines."""
    if not dims or not sizes:
        return math.prod(sizes)
    return math.prod(sizes[d] for d in dims)


# ---- declarations: the public names of this area ------------------------------------------------

_WHOLE = object()  # no dim given at all: the overload without one


def _dim_overloads(reduce):
    """sum / mean as declared: without a dim, the whole-tensor overload (SumBackward0); an
    explicit dim=None takes the dim overload over every dimension (SumBackward1), as torch."""
    def declared(a: Tensor, dim=_WHOLE, keepdim: bool = False, dtype=None) -> Tensor:
        if dim is _WHOLE:
            return reduce(a, dtype=dtype)
        return reduce(a, () if dim is None else dim, keepdim, dtype)
    return declared


declare("sum", _dim_overloads(sum), "sum(Tensor self, *, ScalarType? dtype=None)",
        "sum(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None)",
        method=("sum(Tensor self, *, ScalarType? dtype=None)",
        "sum(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)"))
declare("mean", _dim_overloads(mean), "mean(Tensor self, *, ScalarType? dtype=None, Tensor? out=None)",
        "mean(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None)",
        method=("mean(Tensor self, *, ScalarType? dtype=None)",
        "mean(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)"))
declare("prod", prod, "prod(Tensor self, *, ScalarType? dtype=None)",
        "prod(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None)",
        method=("prod(Tensor self, *, ScalarType? dtype=None)",
        "prod(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None)"))
declare("amax", amax, "amax(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor? out=None)",
        method=("amax(Tensor self, int[1] dim=[], bool keepdim=False)",))
declare("amin", amin, "amin(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor? out=None)",
        method=("amin(Tensor self, int[1] dim=[], bool keepdim=False)",))
declare("max", max, "max(Tensor self, *, Tensor? out=None)",
        "max(Tensor self, Tensor other, *, Tensor? out=None)",
        "max(Tensor self, int dim, bool keepdim=False, *, Tensor[]? out=None)",
        method=("max(Tensor self)", "max(Tensor self, Tensor other)",
        "max(Tensor self, int dim, bool keepdim=False)"))
declare("min", min, "min(Tensor self, *, Tensor? out=None)",
        "min(Tensor self, Tensor other, *, Tensor? out=None)",
        "min(Tensor self, int dim, bool keepdim=False, *, Tensor[]? out=None)",
        method=("min(Tensor self)", "min(Tensor self, Tensor other)",
        "min(Tensor self, int dim, bool keepdim=False)"))
declare("argmax", argmax, "argmax(Tensor self, int? dim=None, bool keepdim=False, *, Tensor? out=None)",
        method=("argmax(Tensor self, int? dim=None, bool keepdim=False)",))
declare("argmin", argmin, "argmin(Tensor self, int? dim=None, bool keepdim=False, *, Tensor? out=None)",
        method=("argmin(Tensor self, int? dim=None, bool keepdim=False)",))
declare("vector_norm", vector_norm, "vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, "
        "bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None)", variants="linalg")
declare("norm", norm, python="input: .layout, p='fro', dim=None, keepdim=False, dtype=None")
declare("var", var, "var(Tensor self, int[1] dim, bool unbiased=True, bool keepdim=False, *, Tensor? out=None)",
        "var(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False, Tensor? out=None)",
        "var(Tensor self, bool unbiased=True)",
        method=("var(Tensor self, int[1] dim, bool unbiased=True, bool keepdim=False)",
        "var(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False)",
        "var(Tensor self, bool unbiased=True)"))
declare("std", std, "std(Tensor self, int[1] dim, bool unbiased=True, bool keepdim=False, *, Tensor? out=None)",
        "std(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False, Tensor? out=None)",
        "std(Tensor self, bool unbiased=True)",
        method=("std(Tensor self, int[1] dim, bool unbiased=True, bool keepdim=False)",
        "std(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False)",
        "std(Tensor self, bool unbiased=True)"))
declare("logsumexp", logsumexp, "logsumexp(Tensor self, int[1] dim, bool keepdim=False, *, Tensor? out=None)",
        method=("logsumexp(Tensor self, int[1] dim, bool keepdim=False)",))
declare("cumsum", cumsum, "cumsum(Tensor self, int dim, *, ScalarType? dtype=None, Tensor? out=None)",
        method=("cumsum(Tensor self, int dim, *, ScalarType? dtype=None)",))
declare("cumprod", cumprod, "cumprod(Tensor self, int dim, *, ScalarType? dtype=None, Tensor? out=None)",
        method=("cumprod(Tensor self, int dim, *, ScalarType? dtype=None)",))


export(__name__, globals())
