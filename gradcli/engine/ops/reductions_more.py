"""More reductions and scans: nansum, nanmean, aminmax, cummax, cummin, the trapezoid rule:
functions, rows and declarations."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.reductions import check_mean_dtype
from gradcli.engine.ops.registry import OPS, RESULT, apply, defop
from gradcli.engine.tensor import Tensor


def _nansum(a, sizes, dim, keepdim, dtype=None):
    """sum with NaN read as 0: torch's cascade adds the same values in the same order."""
    if a.dtype.kind == "f":
        a = np.array(a, order="K")  # a copy in the memory layout the summation order follows
        a[np.isnan(a)] = 0
    return F.sum_values(a, sizes, dtype, dim, keepdim)


defop("nansum", "NansumBackward0", _nansum, promote="none",
      out_dtype=lambda dtype, params: params.get("dtype") or (
          dtype if dtype.is_floating_point else dtypes.int64), save=(0,),
      vjp=lambda g, a, sizes, dim, keepdim, dtype=None: F.mul(
          F.sum_backward(g, sizes, dim, keepdim), F.logical_not(F.isnan(a))))


def _scan_indices(a: np.ndarray, dim: int, keep) -> np.ndarray:
    """cummax_cummin_helper's indices: a NaN always takes over, else `keep(x, best)` does."""
    moved = np.moveaxis(a, dim, 0)
    indices = np.zeros(moved.shape, np.int64)
    if moved.shape[0] == 0:
        return np.moveaxis(indices, 0, dim)
    best, at = moved[0].copy(), np.zeros(moved.shape[1:], np.int64)
    for i in range(moved.shape[0]):
        x = moved[i]
        if a.dtype.kind == "f":
            take = np.isnan(x) | (~np.isnan(best) & keep(x, best))
        else:
            take = keep(x, best)
        best, at = np.where(take, x, best), np.where(take, i, at)
        indices[i] = at
    return np.moveaxis(indices, 0, dim)


def _picked(a, indices, dim):
    values = a.copy() if a.ndim == 0 else np.take_along_axis(a, indices, axis=dim)
    return values, indices


def _scan_backward(g, a, indices, dim):
    """cummaxmin_backward: the gradient scattered back to where each value came from."""
    grad = g[0] if isinstance(g, (list, tuple)) else g
    if a.numel() == 0:
        return F.zeros_for(a)
    return F.scatter_add(F.zeros_of(a.shape, grad.dtype), dim, indices, grad)


for _name in ("cummax", "cummin"):
    defop(_name, _name.capitalize() + "Backward0", _picked, promote="none", n_outputs=2,
          out_dtype=lambda dtype, params: (dtype, dtypes.int64), save=(0, 1),
          vjp=(lambda g, a, indices, dim: _scan_backward(g, a, indices, dim), None))


def _aminmax(a, dim, keepdim):
    axis = None if dim is None or a.ndim == 0 else dim
    keep = keepdim and dim is not None
    return np.min(a, axis=axis, keepdims=keep), np.max(a, axis=axis, keepdims=keep)


def _spread(g, a, out, dim, keepdim):
    """One output's share, torch's formula: the gradient divided evenly among the elements
    equal to the result."""
    if dim is None or a.ndim == 0:
        mask = F.compare("eq", out, a)
        return F.mul(F.div(g, F.sum(mask)), mask)
    dims = (dim,)
    mask = F.compare("eq", F.restore_reduced_dims(out, dims, keepdim), a)
    return F.mul(F.div(F.restore_reduced_dims(g, dims, keepdim), F.sum(mask, dims, True)), mask)


def _aminmax_backward(grads, a, out, dim, keepdim):
    parts = [_spread(g, a, result, dim, keepdim) for g, result in zip(grads, out)
             if g is not None]
    return parts[0] if len(parts) == 1 else F.add(*parts)


defop("aminmax", "AminmaxBackward0", _aminmax, promote="none", n_outputs=2,
      differentiable_outputs=(0, 1), materialize=False,
      out_dtype=lambda dtype, params: (dtype, dtype), save=(0, RESULT),
      vjp=lambda g, a, out, dim, keepdim: _aminmax_backward(g, a, out, dim, keepdim))


def sum_to_size(self: Tensor, size) -> Tensor:
    """Tensor.sum_to_size: the broadcasting of `size` to self's shape undone by sums (at::sum_to),
    self itself when nothing is summed."""
    size = tuple(size)
    lead = self.ndim - len(size)
    if lead < 0 or any(s != 1 and s != t for s, t in zip(size, self.shape[lead:])):
        raise errors.runtime(f"size {{{F.size_list(size)}}} is not expandable to size "
                             f"{{{F.size_list(self.shape)}}}.")
    return F.sum_to(self, size)


__all__ = ["nansum", "nanmean", "cummax", "cummin", "aminmax", "sum_to_size", "renorm"]


def nansum(a: Tensor, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    dims = () if dim is None or (isinstance(dim, (tuple, list)) and not dim) else \
        F.reduction_dims(dim, a.ndim)
    return apply(OPS["nansum"], a, sizes=a.shape, dim=dims, keepdim=keepdim, dtype=dtype)


def nanmean(a: Tensor, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    """ATen's composite: nansum over the count of non-NaN values (so DivBackward0)."""
    if not a.dtype.is_floating_point:
        raise errors.runtime(f"nanmean(): expected input to have floating point or complex dtype "
                             f"but got {a.dtype.scalar_name}")
    check_mean_dtype("nanmean", a, dtype)
    counted = F.sum(F.logical_not(F.isnan(a)), () if dim is None else dim, keepdim)
    return F.div(nansum(a, dim, keepdim, dtype), counted)


def _scan(name: str, keep):
    def scan(a: Tensor, dim: int):
        if a.ndim == 0 and dim not in (0, -1):
            raise errors.index_error(f"{name}(): Expected reduction dim -1 or 0 for scalar but "
                                     f"got {dim}")
        d = F.wrap_dim(dim, a.ndim)
        indices = (np.zeros((), np.int64) if a.ndim == 0 else _scan_indices(a.data, d, keep))
        values, indices = apply(OPS[name], a, Tensor(indices, dtypes.int64), dim=d)
        return F.ReturnTypes(name, values, indices)
    scan.__name__ = name
    return scan


def aminmax(a: Tensor, *, dim=None, keepdim: bool = False):
    if dim is None:
        if a.numel() == 0:
            raise errors.runtime("aminmax(): cannot compute aminmax over an empty dimension as "
                                 "the operation has no identity.")
    else:
        dim = F.wrap_dim(dim, a.ndim)
        if a.ndim and a.shape[dim] == 0:
            raise errors.index_error(f"aminmax: Expected reduction dim {dim} to have non-zero "
                                     f"size.")
    low, high = apply(OPS["aminmax"], a, dim=dim, keepdim=keepdim)
    return F.ReturnTypes("aminmax", low, high, fields=("min", "max"))


cummax = _scan("cummax", np.greater_equal)
cummin = _scan("cummin", np.less_equal)

def _renorm_factor(a, p, dim, maxnorm):
    """renorm_scale_factor: maxnorm / (norm + 1e-7) where the norm over every other dim
    exceeds maxnorm, else 1."""
    others = tuple(d for d in range(a.ndim) if d != dim)
    norm = F.vector_norm_values(a, p, others, True)
    kind = a.dtype.type
    with np.errstate(divide="ignore"):
        scaled = (np.float64(maxnorm) / (norm + kind(1e-7)).astype(np.float64)).astype(a.dtype)
    return norm, np.where(norm > maxnorm, scaled, kind(1))


def _renorm_backward(g, a, p, dim, maxnorm):
    """torch's renorm_backward: the norm and the weighted sum in the CPU accumulate type (double
    for float and double, float for the half types), then maxnorm / n * (g - nb / n)."""
    others = tuple(d for d in range(a.ndim) if d != dim)
    acc = dtypes.float64 if a.dtype in (dtypes.float32, dtypes.float64) else dtypes.float32
    norm = F.vector_norm(a, p, others, True, acc)
    weighted = F.sum(F.mul(a, g), others, True, acc)
    spread = F.norm_backward(weighted, a, p, others, True, norm)
    inverse = F.reciprocal(F.add(norm, 1e-7))
    scaled = F.mul(F.mul_scalar(inverse, maxnorm), F.sub(g, F.mul(inverse, spread)))
    return F.where(F.compare("gt", norm, maxnorm), F.to_dtype(scaled, g.dtype), g)


defop("renorm", "RenormBackward0", lambda a, p, dim, maxnorm: (
          a * _renorm_factor(a, p, dim, maxnorm)[1]).astype(a.dtype),
      promote="none", save=(0,), vjp=_renorm_backward)


def renorm(a: Tensor, p, dim: int, maxnorm) -> Tensor:
    """ATen's renorm: its meta checks, then each slice along `dim` scaled to norm maxnorm."""
    if p <= 0:
        raise errors.runtime("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise errors.runtime(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if a.ndim <= 1:
        raise errors.runtime(f"renorm: input needs at least 2 dimensions, got {a.ndim} dimensions")
    d = F.wrap_dim(dim, a.ndim)
    if not a.dtype.is_floating_point:
        raise errors.runtime("linalg.vector_norm: Expected a floating point or complex tensor as "
                             f"input. Got {a.dtype.scalar_name}")
    return apply(OPS["renorm"], a, p=float(p), dim=d, maxnorm=float(maxnorm))


def _spacing(name: str, y: Tensor, x: Tensor, dim: int) -> Tensor:
    """ATen's dx of trapezoid with sample points x: x viewed along dim, then its differences."""
    if y.dtype is dtypes.bool_ or x.dtype is dtypes.bool_:
        raise errors.runtime(f"{name}: received a bool input for `x` or `y`, but bool is not "
                             "supported")
    if x.ndim == 1:
        if x.shape[0] != F.size_at(y, dim):
            raise errors.runtime(f"{name}: There must be one `x` value for each sample point")
        sizes = [1] * y.ndim
        sizes[dim] = x.shape[0]
        x = F.view(x, tuple(sizes))
    elif x.ndim < y.ndim:
        x = F.view(x, (1,) * (y.ndim - x.ndim) + x.shape)
    n = x.shape[dim]
    return F.sub(F.narrow(x, dim, 1, max(n - 1, 0)), F.narrow(x, dim, 0, max(n - 1, 0)))


def _real_spacing(name: str, y: Tensor, dx) -> float:
    if y.dtype is dtypes.bool_:
        raise errors.runtime(f"{name}: received a bool input for `y`, but bool is not supported")
    if isinstance(dx, bool):
        raise errors.runtime(f"{name}: Currently, we only support dx as a real number.")
    return float(dx)


def trapezoid(y: Tensor, x=None, dx=1, dim: int = -1) -> Tensor:
    """ATen's trapezoid: an empty dimension integrates to zeros, else the sum less half the
    ends times dx, or the pairwise sums times the spacing of x, halved (with x, ATen wraps dim
    before it reads the size, so its error names the wrapped dim)."""
    if x is not None:
        dim = F.wrap_dim(dim, y.ndim)
    size = F.size_at(y, dim)
    dim = F.wrap_dim(dim, y.ndim)
    if size == 0:
        return F.zeros_of(y.shape[:dim] + y.shape[dim + 1:], y.dtype)
    if x is None:
        dx = _real_spacing("trapezoid", y, dx)
        ends = F.mul_scalar(F.add(F.select(y, dim, 0), F.select(y, dim, -1)), 0.5)
        return F.mul_scalar(F.sub(F.sum(y, dim), ends), dx)
    spacing = _spacing("trapezoid", y, x, dim)
    pairs = F.add(F.narrow(y, dim, 1, size - 1), F.narrow(y, dim, 0, size - 1))
    return F.div_scalar(F.sum(F.mul(pairs, spacing), dim), 2.0)


def cumulative_trapezoid(y: Tensor, x=None, dx=1, dim: int = -1) -> Tensor:
    """ATen's cumulative_trapezoid: the cumulative sum of each interval's area."""
    if x is None:
        dx = _real_spacing("cumulative_trapezoid", y, dx)
        if y.ndim == 0:  # (ATen slices y first)
            raise errors.TorchError("IndexError", "slice() cannot be applied to a 0-dim tensor.")
    else:
        spacing = _spacing("cumulative_trapezoid", y, x, F.wrap_dim(dim, y.ndim))
    size = F.size_at(y, dim)
    pairs = F.add(F.narrow(y, dim, 0, max(size - 1, 0)),
                  F.narrow(y, dim, min(size, 1), max(size - 1, 0)))
    if x is None:
        return F.cumsum(F.mul_scalar(pairs, dx / 2.0), dim)
    return F.div_scalar(F.cumsum(F.mul(pairs, spacing), dim), 2.0)


declare("trapezoid", trapezoid, "trapezoid(Tensor y, Tensor x, *, int dim=-1)",
        "trapezoid(Tensor y, *, Scalar dx=1, int dim=-1)", variants="torch")
declare("trapz", trapezoid, "trapz(Tensor y, *, float dx=1, int dim=-1)",
        "trapz(Tensor y, Tensor x, *, int dim=-1)", variants="torch")
declare("cumulative_trapezoid", cumulative_trapezoid,
        "cumulative_trapezoid(Tensor y, Tensor x, *, int dim=-1)",
        "cumulative_trapezoid(Tensor y, *, Scalar dx=1, int dim=-1)", variants="torch")
declare("nansum", nansum, "nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, "
        "ScalarType? dtype=None, Tensor? out=None)")
declare("nanmean", nanmean, "nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, "
        "ScalarType? dtype=None, Tensor? out=None)")
declare("aminmax", aminmax, "aminmax(Tensor self, *, int? dim=None, bool keepdim=False, "
        "Tensor? out=None)")
declare("cummax", cummax, "cummax(Tensor self, int dim)")
declare("cummin", cummin, "cummin(Tensor self, int dim)")
declare("renorm", renorm, "renorm(Tensor self, Scalar p, int dim, Scalar maxnorm, *, "
        "Tensor? out=None)")
declare("sum_to_size", sum_to_size, "sum_to_size(Tensor self, int[] size)", variants="method")


export(__name__, globals())
