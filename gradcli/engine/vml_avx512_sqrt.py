"""MKL's AVX-512 square roots (sSqrt/dSqrt_Z0HA, which torch's float32 and float64 sqrt run on
Intel processors with AVX-512): the 14-bit estimate of 1/sqrt(x) refined by fused multiply-adds,
so that about 1 result in 150 differs from the correctly rounded root in its last bit.

Below a threshold (an estimate above 2**39 for float, 2**458 for double) the kernel computes
the remainder x - s*s scaled up by a power of two and scales the correction back, so that
it does not underflow. Zeros, infinities and negative x (and only they) take the slow path.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.avx512_estimates import rsqrt14
from gradcli.engine.fma import fma32, fma64
from gradcli.engine.vml import nan_below_zero


def _scaled(x, s, h, tiny, scale, root_scale, fma):
    """The remainder x - s*s and the correction h * remainder, computed as the kernel does:
    with x scaled by `scale` and s by `root_scale` (its root) where the estimate is `tiny`,
    the correction's factor h scaled back."""
    x = np.where(tiny, x * scale, x)
    s_scaled = np.where(tiny, s * root_scale, s)
    h = np.where(tiny, h / scale, h)
    return fma(h, fma(-s_scaled, s_scaled, x), s)


def _sqrt32(x: np.ndarray) -> np.ndarray:
    """sSqrt: r = rsqrt14(x), s = r*x, h = r/2, then s + h*(x - s*s) (fused)."""
    r = rsqrt14(x)
    s = r * x
    h = r * np.float32(0.5)
    tiny = r > np.float32(2.0 ** 39)
    return _scaled(x, s, h, tiny, np.float32(2.0 ** 78), np.float32(2.0 ** 39), fma32)


def _sqrt64(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """dSqrt: r = rsqrt14(x), s = r*x, h = r/2, e = 1/2 - s*h, then s and h refined once
    (s + s*e, h + h*e, fused) and s + h*(x - s*s) (fused)."""
    r = rsqrt14(x)
    s = r * x
    h = r * 0.5
    e = fma64(-s, h, 0.5)
    s = fma64(e, s, s)
    h = fma64(h, e, h)
    tiny = r > 2.0 ** 458
    out = _scaled(x, s, h, tiny, 2.0 ** 916, 2.0 ** 458, fma64)
    negative = x < 0  # (the slow path's NaN is positive, NumPy's is not)
    out[negative] = np.nan
    return out, _fast(x) | negative


def _fast(x: np.ndarray) -> np.ndarray:
    """The lanes the kernels' fast path takes: all but zeros, infinities and negative x."""
    return (x > 0) & (x < np.inf) | np.isnan(x)


SINGLE = {"sqrt": (_sqrt32, _fast, nan_below_zero)}
DOUBLE = {"sqrt": _sqrt64}
