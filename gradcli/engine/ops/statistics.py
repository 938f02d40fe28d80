"""Rows for norms, var/std, logsumexp and the cumulative sum and product."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import comparison as C, dtypes, pointwise as P, reductions as R
from gradcli.engine import shapes as S
from gradcli.engine.ops.reduce import axis_of, unsqueeze_multiple
from gradcli.engine.ops.registry import RESULT, defop
from gradcli.engine.tensor import Tensor


def _vector_norm(a, ord, dim, keepdim):
    axis = axis_of(a, dim)
    x = np.abs(a)
    if ord == 2:
        return np.sqrt(np.sum(x * x, axis=axis, keepdims=keepdim))
    if math.isinf(ord):
        pick = np.max if ord > 0 else np.min
        return pick(x, axis=axis, keepdims=keepdim)
    if ord == 0:
        return np.sum(x != 0, axis=axis, keepdims=keepdim).astype(a.dtype)
    if ord == 1:
        return np.sum(x, axis=axis, keepdims=keepdim)
    return np.power(np.sum(np.power(x, ord), axis=axis, keepdims=keepdim), 1.0 / ord)


def _norm_backward(g, a, p, dim, keepdim, norm):
    """torch's norm_backward for linalg.vector_norm."""
    dims = dim or ()
    if not keepdim and a.ndim:
        g = unsqueeze_multiple(g, dims, a.ndim)
        norm = unsqueeze_multiple(norm, dims, a.ndim)
    if p == 0:
        return None
    if p == 1:
        return P.mul(P.sgn(a), g)
    if p == 2:
        return P.mul(g, P.masked_fill(P.div(a, norm), C.compare("eq", norm, 0), 0))
    if math.isinf(p):
        magnitude = P.abs(a)
        mask = C.logical_or(C.compare("eq", magnitude, norm), C.isnan(magnitude))
        return P.mul(P.sgn(a), P.mul(P.div(g, R.sum(mask, dims, True)), mask))
    if p < 1:
        scaled = P.mul(P.sgn(a), P.masked_fill(P.pow(P.abs(a), p - 1), C.compare("eq", a, 0), 0))
        return P.mul(P.mul(scaled, g), P.pow(norm, 1 - p))
    if p < 2:
        scaled = P.mul(P.sgn(a), P.pow(P.abs(a), p - 1))
    else:
        scaled = P.mul(a, P.pow(P.abs(a), p - 2))
    scale = P.masked_fill(P.div(g, P.pow(norm, p - 1)), C.compare("eq", norm, 0), 0)
    return P.mul(scaled, scale)


def _var(a, dim, correction, keepdim, root=False):
    axis = axis_of(a, dim)
    count = a.size if axis is None else math.prod(a.shape[d] for d in axis)
    centred = a - np.mean(a, axis=axis, keepdims=True)
    total = np.sum(centred * centred, axis=axis, keepdims=keepdim)
    result = total / a.dtype.type(max(count - correction, 0))
    return np.sqrt(result) if root else result


def _var_backward(g, a, dim, correction, keepdim):
    if a.ndim == 0 or dim is None:
        dof = a.numel() - correction
        if dof <= 0:
            return P.mul(g, P.where(C.compare("eq", a, R.mean(a)), math.nan, math.inf))
        return P.mul(P.mul_scalar(g, 2.0 / dof), P.sub(a, R.mean(a)))
    if not keepdim and a.ndim > 1:
        g = unsqueeze_multiple(g, dim, a.ndim)
    count = R.reduced_numel(a.shape, dim)
    return P.mul(P.mul_scalar(g, 2.0 / (count - correction)), P.sub(a, R.mean(a, dim, True)))


def _std_backward(g, a, dim, correction, keepdim, out):
    grad_var = P.masked_fill(P.div(g, P.mul_scalar(out, 2)), C.compare("eq", out, 0), 0)
    return _var_backward(grad_var, a, dim, correction, keepdim)


def _logsumexp(a, dim, keepdim):
    axis = axis_of(a, dim)
    maxes = np.max(a, axis=axis, keepdims=True)
    maxes = np.where(np.isinf(maxes), 0, maxes)
    total = np.sum(np.exp(a - maxes), axis=axis, keepdims=keepdim)
    squeezed = maxes if keepdim else maxes.reshape(np.shape(total))
    return np.log(total) + squeezed


def _logsumexp_backward(g, a, dim, keepdim, out):
    if not keepdim and a.ndim:
        g, out = unsqueeze_multiple(g, dim, a.ndim), unsqueeze_multiple(out, dim, a.ndim)
    return P.mul(g, P.exp(P.sub(a, out)))


def _scan(a, dim, dtype, accumulate):
    out = dtype or (dtypes.from_numpy(a.dtype) if a.dtype.kind == "f" else dtypes.int64)
    if a.ndim == 0:
        return a.astype(out.np)
    wide = np.float64 if out.np.kind == "f" else out.np
    return accumulate(a.astype(wide), axis=dim).astype(out.np)


def _scan_dtype(dtype, params):
    if params.get("dtype") is not None:
        return params["dtype"]
    return dtype if dtype.is_floating_point else dtypes.int64


def reversed_cumsum(t: Tensor, dim: int) -> Tensor:
    return S.flip(R.cumsum(S.flip(t, (dim,)), dim), (dim,))


def _cumsum_backward(g, dim):
    if g.numel() <= 1 or g.shape[dim] == 1:
        return g
    return reversed_cumsum(g, dim)


def _cumprod_backward(g, a, dim, out):
    if a.numel() <= 1 or a.shape[dim] == 1:
        return g
    w = P.mul(out, g)
    if not np.any(a.data == 0):
        return P.div(reversed_cumsum(w, dim), a)
    return Tensor(_cumprod_grad_values(g.data, a.data, dim), g.dtype)


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


defop("linalg_vector_norm", "LinalgVectorNormBackward0", _vector_norm, promote="none",
      save=(0, RESULT),
      vjp=lambda g, a, ord, dim, keepdim, out: _norm_backward(g, a, ord, dim, keepdim, out))
defop("var.correction", "VarBackward0", _var, promote="none", save=(0,),
      vjp=lambda g, a, dim, correction, keepdim: _var_backward(g, a, dim, correction, keepdim))
defop("std.correction", "StdBackward0",
      lambda a, dim, correction, keepdim: _var(a, dim, correction, keepdim, root=True),
      promote="none", save=(0, RESULT),
      vjp=lambda g, a, dim, correction, keepdim, out:
          _std_backward(g, a, dim, correction, keepdim, out))
defop("logsumexp", "LogsumexpBackward0", _logsumexp, promote="float", save=(0, RESULT),
      vjp=lambda g, a, dim, keepdim, out: _logsumexp_backward(g, a, dim, keepdim, out))
defop("cumsum", "CumsumBackward0", lambda a, dim, dtype=None: _scan(a, dim, dtype, np.cumsum),
      promote="none", out_dtype=_scan_dtype,
      vjp=lambda g, a, dim, dtype=None: _cumsum_backward(g, dim))
defop("cumprod", "CumprodBackward0", lambda a, dim, dtype=None: _scan(a, dim, dtype, np.cumprod),
      promote="none", out_dtype=_scan_dtype, save=(0, RESULT),
      vjp=lambda g, a, dim, dtype=None, out=None: _cumprod_backward(g, a, dim, out))
