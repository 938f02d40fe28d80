"""torch's gamma-family kernels (aten/src/ATen/native/Math.h) vectorised in NumPy: digamma,
trigamma, the Hurwitz zeta and polygamma, in the float or double arithmetic torch's CPU code uses.

lgamma is std::lgamma in torch's scalar code and SLEEF's in its vector code; glibc's lgamma,
called through ctypes, is the closest at hand (Python's math.lgamma is its own Lanczos sum and
agrees with torch far less often).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math

import numpy as np


def _glibc_lgamma():
    """libm's lgamma as a Python callable, or math.lgamma where no libm can be loaded."""
    try:
        libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        function = libm.lgamma
    except (OSError, AttributeError):
        return _python_lgamma
    function.restype, function.argtypes = ctypes.c_double, (ctypes.c_double,)
    return function


def _python_lgamma(x: float) -> float:
    try:
        return math.lgamma(x)
    except (ValueError, OverflowError):
        return math.inf


_SCALAR_LGAMMA = _glibc_lgamma()
_LGAMMA = np.frompyfunc(_SCALAR_LGAMMA, 1, 1)


def lgamma(a: np.ndarray) -> np.ndarray:
    """log|gamma(a)| elementwise, computed in double and rounded to a's dtype."""
    values = np.asarray(_LGAMMA(a.astype(np.float64)), np.float64)
    return values.astype(a.dtype, copy=False).reshape(a.shape)


_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _log(x: np.ndarray) -> np.ndarray:
    """log in x's dtype (glibc's logf is within rounding of the double log)."""
    return np.log(x.astype(np.float64)).astype(x.dtype) if x.dtype == np.float32 else np.log(x)


def _digamma_positive(x: np.ndarray) -> np.ndarray:
    """calc_digamma's recurrence up to 10 and asymptotic series, for x > 0 (or NaN, inf)."""
    t = x.dtype.type
    result = np.zeros_like(x)
    x = x.copy()
    low = x < 10
    while low.any():
        result[low] -= t(1) / x[low]
        x[low] += t(1)
        low = x < 10
    z = t(1) / (x * x)
    poly = np.zeros_like(x)
    for c in _DIGAMMA_A:
        poly = poly * z + t(c)
    y = np.where(x < 1e17, z * poly, t(0))
    out = result + _log(x) - t(0.5) / x - y
    return np.where(x == 10, result + t(_PSI_10), out)


def digamma(a: np.ndarray) -> np.ndarray:
    """calc_digamma elementwise: ±inf at ±0, NaN at negative integers, reflection below 0."""
    x = np.asarray(a)
    t = x.dtype.type
    with np.errstate(all="ignore"):
        negative = x < 0
        integer = x == np.trunc(x)
        reflected = np.where(negative, t(1) - x, x)
        out = _digamma_positive(reflected)
        r = (x - np.trunc(x)).astype(np.float64)
        cot = (np.pi / np.tan(np.pi * r)).astype(x.dtype)
        out = np.where(negative, out - cot, out)
        out = np.where(negative & integer, t(np.nan), out)
        return np.where(x == 0, np.copysign(t(np.inf), -x), out).astype(x.dtype, copy=False)


def trigamma(a: np.ndarray) -> np.ndarray:
    """torch's trigamma (polygamma with n = 1)."""
    x = np.asarray(a).copy()
    t = x.dtype.type
    with np.errstate(all="ignore"):
        small = x < t(0.5)
        pi = t(math.pi)
        sin_pi_x = np.sin((pi * x).astype(np.float64)).astype(x.dtype)
        result = np.where(small, -(pi * pi) / (sin_pi_x * sin_pi_x), t(0))
        x = np.where(small, t(1) - x, x)
        for _ in range(6):
            result = result + t(1) / (x * x)
            x = x + t(1)
        ixx = t(1) / (x * x)
        series = t(1) + t(1) / (t(2) * x) + ixx * (t(1 / 6) - ixx * (t(1 / 30) - ixx * t(1 / 42)))
        result = result + series / x
        return np.where(small, -result, result)


_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042E-16


def zeta(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """torch's Hurwitz zeta (Cephes's): in double, each element leaving its loops where the
    scalar code returns."""
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    x, q = x.ravel(), q.ravel()
    out = np.full(x.shape, np.nan)
    with np.errstate(all="ignore"):
        live = ~((x == 1) | (x < 1) | ((q <= 0) & ((q == np.floor(q)) | (x != np.floor(x)))))
        out[x == 1] = np.inf
        out[(x > 1) & (q <= 0) & (q == np.floor(q))] = np.inf
        s = np.where(live, np.power(q, -x), 0.0)
        a, b = q.copy(), np.zeros_like(q)
        i = 0
        while True:
            running = live & ((i < 9) | (a <= 9.0))
            if not running.any():
                break
            i += 1
            a = np.where(running, a + 1.0, a)
            b = np.where(running, np.power(a, -x), b)
            s = np.where(running, s + b, s)
            done = running & (-_MACHEP * s < b) & (b < _MACHEP * s)
            out[done] = s[done]
            live = live & ~done
        w = a
        s = s + b * w / (x - 1.0)
        s = s - 0.5 * b
        a, k = np.ones_like(x), np.zeros_like(x)
        for coefficient in _ZETA_A:
            a = a * (x + k)
            b = b / w
            term = a * b / coefficient
            s = s + term
            done = live & (np.fabs(term / s) < _MACHEP)
            out[done] = s[done]
            live = live & ~done
            k = k + 1.0
            a = a * (x + k)
            b = b / w
            k = k + 1.0
        out[live] = s[live]
    return out


def polygamma(n: int, a: np.ndarray) -> np.ndarray:
    """calc_polygamma: digamma for n = 0, trigamma for 1, else ±n! zeta(n + 1, a)."""
    if n == 0:
        return digamma(a)
    if n == 1:
        return trigamma(a)
    t = a.dtype.type
    with np.errstate(all="ignore"):
        factorial = t(math.exp(float(t(_SCALAR_LGAMMA(float(n + 1))))))
        sign = t(1) if n % 2 else t(-1)
        values = zeta(np.full(a.shape, float(n + 1)), a).astype(a.dtype).reshape(a.shape)
        return sign * factorial * values
