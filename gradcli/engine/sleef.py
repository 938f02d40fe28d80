"""SLEEF's float32 exp and log (Sleef_expf16_u10, Sleef_logf16_u10), step by step in NumPy.

torch's vectorised float kernels (Vectorized<float>::exp/log, used by softmax, log_softmax and
logsumexp) call these on AVX512 machines. They are within an ulp but not correctly rounded, so
the double-then-round results differ from torch's in the last bit for a few percent of inputs;
replaying SLEEF's own arithmetic (its FMA steps correctly rounded, as vfmadd does) gives torch's
bits.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.fma import fma32

f32 = np.float32
_R_LN2 = f32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U, _L2L = f32(0.693145751953125), f32(1.428606765330187045e-06)
_EXP_POLY = [f32(c) for c in (0.000198527617612853646278381, 0.00139304355252534151077271,
                              0.00833336077630519866943359, 0.0416664853692054748535156,
                              0.166666671633720397949219, 0.5)]
_LOG_POLY = [f32(c) for c in (0.3027294874, 0.3996108174, 0.6666694880)]
_LN2_HI, _LN2_LO = f32(0.69314718246459960938), f32(-1.904654323148236017e-09)


def _pow2(k: np.ndarray) -> np.ndarray:
    """2**k as a float32 built from its exponent bits (SLEEF's vpow2i)."""
    return ((k.astype(np.int64) + 127) << 23).astype(np.uint32).view(f32)


def expf(d: np.ndarray) -> np.ndarray:
    """Sleef_expf16_u10 (xexpf) on float32 values."""
    d = np.asarray(d, f32)
    with np.errstate(all="ignore"):
        q = np.rint(d * _R_LN2)
        q = np.where(np.isfinite(q), q, f32(0)).astype(f32)
        s = fma32(q, -_L2U, d)
        s = fma32(q, -_L2L, s)
        u = np.full(s.shape, _EXP_POLY[0], f32)
        for c in _EXP_POLY[1:]:
            u = fma32(u, s, c)
        u = f32(1) + fma32(s * s, u, s)
        qi = q.astype(np.int32)
        half = qi >> 1
        u = u * _pow2(half) * _pow2(qi - half)
    u = np.where(d < f32(-104), f32(0), u)
    u = np.where(d > f32(100), f32(np.inf), u)
    return np.where(np.isnan(d), d, u).astype(f32)


def _getexp_getmant(d: np.ndarray):
    """AVX512 getexp (floor(log2|d|) as a float) and getmant into [0.75, 1.5)."""
    mant, exp = np.frexp(d.astype(np.float64))  # |mant| in [0.5, 1)
    mant, exp = mant * 2, exp - 1  # [1, 2)
    big = np.abs(mant) >= 1.5
    mant = np.where(big, mant / 2, mant)
    return exp, mant


def logf(d: np.ndarray) -> np.ndarray:
    """Sleef_logf16_u10 (xlogf_u1, its AVX512 branch) on float32 values."""
    d = np.asarray(d, f32)
    with np.errstate(all="ignore"):
        scaled = d * f32(1.0 / 0.75)
        e = np.frexp(scaled.astype(np.float64))[1] - 1
        e = np.where(np.isinf(scaled), 128, e).astype(f32)
        m = _getexp_getmant(d)[1].astype(f32)
        # s = dfmul((ln2 hi, lo), e)
        sx = _LN2_HI * e
        sy = fma32(_LN2_LO, e, fma32(_LN2_HI, e, -sx))
        # x = dfdiv(dfadd2(-1, m), dfadd2(1, m))
        nx, ny = _dfadd2(f32(-1), m)
        dx, dy = _dfadd2(f32(1), m)
        t = f32(1) / dx
        xx = nx * t
        u = fma32(t, nx, -xx)
        v = fma32(-dy, t, fma32(-dx, t, f32(1)))
        xy = fma32(xx, v, fma32(ny, t, u))
        x2 = xx * xx
        poly = np.full(x2.shape, _LOG_POLY[0], f32)
        for c in _LOG_POLY[1:]:
            poly = fma32(poly, x2, c)
        # s = dfadd(s, dfscale(x, 2))
        yx, yy = xx * f32(2), xy * f32(2)
        total = sx + yx
        sy = (((sx - total) + yx) + sy) + yy
        sx = total
        # s = dfadd(s, x2 * x * poly)
        w = (x2 * xx) * poly
        total = sx + w
        sy = ((sx - total) + w) + sy
        r = total + sy
    r = np.where(d == 0, f32(-np.inf), r)
    r = np.where(d < 0, f32(np.nan), r)
    r = np.where(np.isposinf(d), f32(np.inf), r)
    return np.where(np.isnan(d), d, r).astype(f32)


def _dfadd2(x, y):
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def exp(values: np.ndarray) -> np.ndarray:
    """torch's vectorised exp: SLEEF for float32, NumPy's (correctly rounded) for float64."""
    if values.dtype == np.float32:
        return expf(values)
    return np.exp(values)


def log(values: np.ndarray) -> np.ndarray:
    """torch's vectorised log: SLEEF for float32, NumPy's for float64."""
    if values.dtype == np.float32:
        return logf(values)
    return np.log(values)
