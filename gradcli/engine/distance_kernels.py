"""torch's CPU distance kernels (ATen's cpu/DistanceOpsKernel.cpp) for float32/float64 in their
order of float operations: cdist's and pdist's forward and backward.

cdist's forward runs scalar code: each distance adds map(|a - b|) one column after another
from 0 (the square for p=2, the compiler squaring whole 16-byte runs of columns and fusing the
multiply-adds of the rest; std::pow(d, p) past 0, 1, 2 and inf), then finishes (sqrt, or
std::pow(sum, 1.0 / p) in double). pdist's forward reduces each pair with vec::map2_reduce_all
over 32-byte vectors, its pow SLEEF's. Both backwards add each pair's term in order, a vector of
columns at a time (SLEEF's pow): cdist's from 0 over x2's rows, pdist's to the pair's first row
and from its second.
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import kernels_order, libm_float, sleef_dd, sleef_df
from gradcli.engine.fma import fma32, fma64


def _vec_pow(x: np.ndarray, e) -> np.ndarray:
    """Vectorized<T>::pow: SLEEF's powf or pow, the exponent in x's dtype."""
    if x.dtype == np.float32:
        return sleef_df.powf(x, np.float32(e))
    return sleef_dd.powd(x, np.float64(e))


def _finish(total: np.ndarray, p: float) -> np.ndarray:
    """The p-norm's std::pow(total, 1.0 / p): double's pow, rounded to the dtype."""
    return libm_float.pow_double(total, 1.0 / float(total.dtype.type(p))).astype(total.dtype)


def cdist(x1: np.ndarray, x2: np.ndarray, p: float) -> np.ndarray:
    """_cdist_forward of (..., r1, m) and (..., r2, m) float32/float64 arrays."""
    diff = np.abs(x1[..., :, None, :] - x2[..., None, :, :])
    m = diff.shape[-1]
    if m == 0:
        return np.zeros(diff.shape[:-1], x1.dtype)
    if math.isinf(p):
        return diff.max(-1)
    if p == 0:
        diff = np.minimum(np.ceil(diff), 1)
    elif p == 2:
        return np.sqrt(_squares_in_order(diff))
    elif p != 1:
        with np.errstate(all="ignore"):
            diff = libm_float.powf(diff, np.float32(p)) if diff.dtype == np.float32 else \
                libm_float.pow_double(diff, float(p))
    total = np.cumsum(diff, axis=-1)[..., -1]
    return total if p in (0, 1) else _finish(total, p)


def _squares_in_order(diff: np.ndarray) -> np.ndarray:
    m = diff.shape[-1]
    paired = m - m % (16 // diff.itemsize)
    total = np.cumsum(diff[..., :paired] * diff[..., :paired], axis=-1)[..., -1] if paired \
        else np.zeros(diff.shape[:-1], diff.dtype)
    fma = fma32 if diff.dtype == np.float32 else fma64
    for k in range(paired, m):
        total = fma(diff[..., k], diff[..., k], total)
    return total


def backward_terms(diff: np.ndarray, g: np.ndarray, dist: np.ndarray, p: float) -> np.ndarray:
    """Dist<T>'s backward for each pair's difference, cotangent and distance (broadcast)."""
    t = diff.dtype.type
    with np.errstate(all="ignore"):
        if p == 1:
            return g * np.sign(diff)
        if math.isinf(p):
            return g * np.sign(diff) * (t(1) - np.minimum(t(1), np.ceil(np.abs(np.abs(diff)
                                                                               - dist))))
        if p == 2:
            term = g * diff / dist
        else:
            scaled = np.sign(diff) * _vec_pow(np.abs(diff), t(p) - t(1)) if p < 2 else \
                diff * _vec_pow(np.abs(diff), t(p) - t(2))
            term = scaled * g / _vec_pow(np.broadcast_to(dist, diff.shape), t(p) - t(1))
            if p < 1:
                term = np.where(diff == 0, t(0), term)
        return np.where(dist == 0, t(0), term)


def cdist_backward(g: np.ndarray, x1: np.ndarray, x2: np.ndarray, dist: np.ndarray,
                   p: float) -> np.ndarray:
    """_cdist_backward: x1's gradient, each entry from 0 over x2's rows in order."""
    if p == 0 or x1.shape[-1] == 0 or x2.shape[-2] == 0:
        return np.zeros(np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2]) + x1.shape[-2:],
                        x1.dtype)
    diff = x1[..., :, None, :] - x2[..., None, :, :]
    terms = backward_terms(diff, g[..., None], dist[..., None], p).astype(x1.dtype)
    return np.cumsum(terms, axis=-2)[..., -1, :] + x1.dtype.type(0)


def pdist(a: np.ndarray, p: float) -> np.ndarray:
    """_pdist_forward: for each pair (i < j, in order) vec::map2_reduce_all over the columns,
    finished. The kernel has no AVX512 build: its vectors are 32 bytes on every x86 CPU."""
    i, j = np.triu_indices(a.shape[0], 1)
    diff = np.abs(a[i] - a[j])
    if len(diff) == 0 or a.shape[1] == 0:
        return np.zeros(len(diff), a.dtype)
    if math.isinf(p):
        return diff.max(-1)
    if p == 0:
        diff = np.minimum(np.ceil(diff), 1)
    elif p == 2:
        diff = diff * diff
    elif p != 1:
        diff = _vec_pow(diff, p)
    total = kernels_order.reduce_all_sum(diff, 32)
    if p == 2:
        return np.sqrt(total)
    return total if p in (0, 1) else _finish(total, p)


def pdist_backward(g: np.ndarray, a: np.ndarray, dist: np.ndarray, p: float) -> np.ndarray:
    """_pdist_backward: each pair's term added to its first row's gradient and taken from its
    second's; a row's gradient runs through the pairs it is second in, then those it is first
    in, in order."""
    n, m = a.shape
    grad = np.zeros_like(a)
    if n <= 1 or m == 0 or p == 0:
        return grad
    i, j = np.triu_indices(n, 1)
    term = backward_terms(a[i] - a[j], g[:, None], dist[:, None], p).astype(a.dtype)
    pair = np.zeros((n, n), np.intp)
    pair[i, j] = np.arange(len(i))
    for row in range(n):
        for k in range(row):
            grad[row] -= term[pair[k, row]]
        for k in range(row + 1, n):
            grad[row] += term[pair[row, k]]
    return grad
