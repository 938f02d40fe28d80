"""Statistics: var_mean and std_mean (one Welford pass, both differentiable), quantile and
nanquantile, cov and corrcoef (ATen's composites): functions, rows and declarations."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import OPS, RESULT, apply, defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.triggered import triggered
from gradcli.engine.variance_order import DOF_WARNING, moments


# ---- var_mean and std_mean -----------------------------------------------------------------------

def _moments(a, dim, correction, keepdim, root):
    if a.size == 0:  # torch's trivial reduction: both NaN
        shape = np.sum(a, axis=F.axis_of(a, dim), keepdims=keepdim).shape
        return np.full(shape, np.nan, a.dtype), np.full(shape, np.nan, a.dtype)
    return moments(a, F.axis_of(a, dim), correction, keepdim, root)


def _mean_backward(g, a, dim, keepdim):
    """torch's mean_backward: the sum's backward divided by how many each mean averaged."""
    return F.div_scalar(F.sum_backward(g, a.shape, dim, keepdim), F.reduced_numel(a.shape, dim))


def _moments_backward(spread):
    def vjp(grads, a, dim, correction, keepdim, out):
        parts = []
        if grads[0] is not None:
            parts.append(spread(grads[0], a, dim, correction, keepdim, out[0]))
        if grads[1] is not None:
            parts.append(_mean_backward(grads[1], a, dim, keepdim))
        return parts[0] if len(parts) == 1 else F.add(*parts)
    return vjp


for _key, _label, _root, _spread in (
        ("var_mean.correction", "VarMeanBackward0", False,
         lambda g, a, dim, correction, keepdim, out: F.var_backward(g, a, dim, correction, keepdim)),
        ("std_mean.correction", "StdMeanBackward0", True,
         lambda g, a, dim, correction, keepdim, out:
             F.std_backward(g, a, dim, correction, keepdim, out))):
    defop(_key, _label, lambda a, dim, correction, keepdim, root=_root:
          _moments(a, dim, correction, keepdim, root),
          promote="none", n_outputs=2, differentiable_outputs=None, materialize=False,
          save=(0, RESULT), vjp=_moments_backward(_spread))


def _moments_of(name: str):
    def reduce(a: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
        if isinstance(dim, bool):
            dim, unbiased = None, dim
        if not a.dtype.is_floating_point:
            raise errors.runtime(f"{name} only support floating point and complex dtypes")
        dims = None if dim is None or (isinstance(dim, (tuple, list)) and not dim) else \
            F.dims_of(dim, a.ndim)
        correction = F.correction_of(unbiased, correction)
        if F.reduced_numel(a.shape, dims) - correction <= 0:
            STATE.warn("UserWarning", DOF_WARNING.format(name))
        return apply(OPS[f"{name}.correction"], a, dim=dims, correction=correction,
                     keepdim=keepdim)
    reduce.__name__ = name
    return reduce


var_mean, std_mean = _moments_of("var_mean"), _moments_of("std_mean")


# ---- quantile and nanquantile --------------------------------------------------------------------

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile_of(ignore_nan: bool):
    def quantile(a: Tensor, q, dim=None, keepdim: bool = False, *,
                 interpolation: str = "linear") -> Tensor:
        """ATen's quantile_compute: sort along the reduced dim, gather the values below and
        above each rank, lerp between them, then squeeze the rank dim away in place."""
        if not isinstance(q, Tensor):
            if not 0 <= q <= 1:
                raise errors.runtime(f"quantile() q must be in the range [0, 1] but got "
                                     f"{float(q):g}")
            q = Tensor(np.asarray(q, a.dtype.np), a.dtype)
        if interpolation not in _INTERPOLATIONS:
            raise errors.runtime("quantile() interpolation must be one of linear, lower, higher, "
                                 f"midpoint or nearest, but got {interpolation}")
        _checks(a, q)
        wrapped = F.wrap_dim(0 if dim is None else dim, a.ndim)
        out_shape = _out_shape(a, q, dim, keepdim, wrapped)
        if not np.all((q.data >= 0) & (q.data <= 1)):
            raise errors.runtime("quantile() q values must be in the range [0, 1]")
        if dim is None:
            reduced = F.flatten(a)
        elif wrapped == a.ndim - 1:
            reduced = a
        else:
            reduced = F.transpose(F.unsqueeze(a, -1), wrapped, -1)
        ordered = F.sort(reduced)[0]
        shape = (list(out_shape) if q.ndim else [1] + list(out_shape))[1:] + [0]
        shape[-1] = ordered.shape[-1]
        ordered = F.view(ordered, tuple(shape))
        return _interpolate(ordered, q, interpolation, ignore_nan)
    return quantile


def _checks(a: Tensor, q: Tensor) -> None:
    if a.numel() == 0:
        raise errors.runtime("quantile() input tensor must be non-empty")
    if q.ndim > 1:
        raise errors.runtime("quantile() q must be a scalar or 1D tensor")
    if a.dtype not in (dtypes.float32, dtypes.float64):
        raise errors.runtime("quantile() input tensor must be either float or double dtype")
    if q.dtype is not a.dtype:
        raise errors.runtime("quantile() q tensor must be same dtype as the input tensor")


def _out_shape(a: Tensor, q: Tensor, dim, keepdim: bool, wrapped: int) -> list:
    shape = []
    if dim is not None and a.ndim > 0:
        shape = list(a.shape)
        if keepdim:
            shape[wrapped] = 1
        else:
            del shape[wrapped]
    elif keepdim:
        shape = [1] * a.ndim
    return [q.numel()] + shape if q.ndim else shape


def _interpolate(ordered: Tensor, q: Tensor, interpolation: str, ignore_nan: bool) -> Tensor:
    values = ordered.data
    kind = values.dtype.type
    nan = np.isnan(values)
    if ignore_nan:
        counted = (np.sum(~nan, axis=-1, keepdims=True) - 1).astype(values.dtype)
        ranks = q.data * counted
        ranks = np.where(ranks < 0, kind(0), ranks)
    else:
        last = values.shape[-1] - 1
        ranks, has_nan = np.broadcast_arrays(q.data * kind(last), np.any(nan, -1, keepdims=True))
        ranks = np.where(has_nan, kind(last), ranks)
    ranks = {"lower": np.floor, "higher": np.ceil, "nearest": np.round}.get(
        interpolation, lambda r: r)(ranks).astype(values.dtype)
    below = ranks.astype(np.int64)
    result = F.gather(ordered, -1, Tensor(below, dtypes.int64))
    if interpolation in ("linear", "midpoint"):
        weights = np.full_like(ranks, 0.5) if interpolation == "midpoint" else \
            ranks - below.astype(values.dtype)
        above = F.gather(ordered, -1, Tensor(np.ceil(ranks).astype(np.int64), dtypes.int64))
        result = F.lerp(result, above, Tensor(weights, ordered.dtype))
    if q.ndim == 0:
        return F.squeeze_(result, -1)
    return F.squeeze_(F.transpose_(F.unsqueeze_(result, 0), 0, -1), -1)


quantile, nanquantile = _quantile_of(False), _quantile_of(True)


# ---- cov and corrcoef ----------------------------------------------------------------------------

def _weights_check(name: str, w: Tensor, observations: int, dtype_ok, kind: str) -> None:
    if w.ndim > 1:
        raise errors.runtime(f"cov(): expected {name} to have one or fewer dimensions but got "
                             f"{name} with {w.ndim} dimensions")
    if not dtype_ok(w.dtype):
        raise errors.runtime(f"cov(): expected {name} to have {kind} dtype but got {name} with "
                             f"{w.dtype.scalar_name} dtype")
    if w.numel() != observations:
        raise errors.runtime(f"cov(): expected {name} to have the same numel as there are "
                             f"observations in the input but got {w.numel()} != {observations}")
    if observations and np.min(w.data) < 0:
        raise errors.runtime(f"cov(): {name} cannot be negative")


def cov(a: Tensor, *, correction: int = 1, fweights=None, aweights=None) -> Tensor:
    """ATen's cov: the weighted mean of each variable's observations taken off, then
    mm(x, (w x)^T) over the normalisation factor, squeezed."""
    if a.ndim > 2:
        raise errors.runtime(f"cov(): expected input to have two or fewer dimensions but got an "
                             f"input with {a.ndim} dimensions")
    if a.dtype is dtypes.bool_:
        raise errors.runtime("cov(): bool dtype is not supported for input")
    x = F.view(a, (1, -1)) if a.ndim < 2 else a
    observations = x.shape[1]
    w = None
    if fweights is not None:
        _weights_check("fweights", fweights, observations,
                       lambda d: d.category == dtypes.INTEGRAL, "integral")
        w = fweights
    if aweights is not None:
        _weights_check("aweights", aweights, observations, lambda d: d.is_floating_point,
                       "floating point")
        w = aweights if w is None else F.mul(w, aweights)
    total = F.sum(w) if w is not None else Tensor(np.asarray(observations, np.int64),
                                                  dtypes.int64)
    if w is not None and total.data == 0:
        raise errors.runtime("cov(): weights sum to zero, can't be normalized")
    average = F.div(F.sum(F.mul(x, w) if w is not None else x, 1), total)
    if w is not None and aweights is not None and correction != 0:
        factor = F.sub(total, F.div(F.mul_scalar(F.sum(F.mul(w, aweights)), correction), total))
    else:
        factor = F.sub(total, correction)
    if factor.data <= 0:
        STATE.warn("UserWarning", triggered(
            "cov(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "number of observations.", "aten/src/ATen/native/Correlation.cpp", 129))
        factor = F.zeros_of((), factor.dtype)
    x = F.sub(x, F.unsqueeze(average, 1))
    product = F.mm(x, F.t(F.mul(x, w) if w is not None else x))
    return F.squeeze(F.div(product, factor))


def corrcoef(a: Tensor) -> Tensor:
    """ATen's corrcoef: cov divided by the standard deviations on each side, clipped to
    [-1, 1]; a scalar covariance divided by itself."""
    if a.ndim > 2:
        raise errors.runtime(f"corrcoef(): expected input to have two or fewer dimensions but "
                             f"got an input with {a.ndim} dimensions")
    c = cov(a)
    if c.ndim == 0:
        return F.div(c, c)
    deviations = F.sqrt(F.diagonal(c))
    c = F.div(c, F.view(deviations, (-1, 1)))
    c = F.div(c, F.view(deviations, (1, -1)))
    return F.clamp(c, -1, 1)


__all__ = ["var_mean", "std_mean", "quantile", "nanquantile", "cov", "corrcoef"]

declare("var_mean", var_mean,
        "var_mean(Tensor input, int[1] dim, bool unbiased=True, bool keepdim=False)",
        "var_mean(Tensor input, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False)",
        "var_mean(Tensor input, bool unbiased=True)", variants="torch")
declare("std_mean", std_mean,
        "std_mean(Tensor input, int[1] dim, bool unbiased=True, bool keepdim=False)",
        "std_mean(Tensor input, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False)",
        "std_mean(Tensor input, bool unbiased=True)", variants="torch")
for _name, _function in (("quantile", quantile), ("nanquantile", nanquantile)):
    declare(_name, _function,
            f"{_name}(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, "
            "str interpolation=\"linear\", Tensor? out=None)",
            f"{_name}(Tensor self, float q, int? dim=None, bool keepdim=False, *, "
            "str interpolation=\"linear\", Tensor? out=None)",
            method=(f"{_name}(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, "
                    "str interpolation=\"linear\")",
                    f"{_name}(Tensor self, float q, int? dim=None, bool keepdim=False, *, "
                    "str interpolation=\"linear\")"))
declare("cov", cov, "cov(Tensor self, *, int correction=1, Tensor? fweights=None, "
        "Tensor? aweights=None)")
declare("corrcoef", corrcoef, "corrcoef(Tensor self)")


export(__name__, globals())
