"""SLEEF's float64 functions built on double-double arithmetic (sleefsimddp.c, its AVX512 build
with FMA), step by step in NumPy: expm1, log1p, exp2, sinh and cosh, as torch's
Vectorized<double> calls them (Sleef_expm1d8_u10, Sleef_log1pd8_u10 ...).

A double-double is a pair (hi, lo) of float64 arrays; each helper below is the dd.h function of
the same name, its fused multiply-adds correctly rounded (gradcli.engine.fma), so results carry
torch's last bits.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.fma import fma64
from gradcli.engine.sleef import logd

_R_LN2 = 1.442695040888963407359924681001892137426645954152985934135449406931
_L2U = .69314718055966295651160180568695068359375
_L2L = .28235290563031577122588448175013436025525412068e-12
_LN2 = (0.693147180559945286226764, 2.319046813846299558417771e-17)
_LOG1P_BOUND = float.fromhex("0x1.c7b1f3cac7433p+1019")


# ---- double-double arithmetic (dd.h) --------------------------------------------------------------

def _add_dd_d(x, y):
    """ddadd_vd2_vd2_vd: |x| >= |y|."""
    s = x[0] + y
    return s, ((x[0] - s) + y) + x[1]


def _add2_dd_d(x, y):
    s = x[0] + y
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y - v)) + x[1]


def _add_d_dd(x, y):
    s = x + y[0]
    return s, ((x - s) + y[0]) + y[1]


def _add_dd_dd(x, y):
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def _add_dd(x, y):
    """ddadd_vd2_vd_vd: two doubles, |x| >= |y|."""
    s = x + y
    return s, (x - s) + y


def _mul_dd_d(x, y):
    s = x[0] * y
    return s, fma64(x[1], y, fma64(x[0], y, -s))


def _mul_dd_dd(x, y):
    s = x[0] * y[0]
    return s, fma64(x[0], y[1], fma64(x[1], y[0], fma64(x[0], y[0], -s)))


def _squ_dd(x):
    s = x[0] * x[0]
    return s, fma64(x[0] + x[0], x[1], fma64(x[0], x[0], -s))


def _div_dd(n, d):
    t = 1.0 / d[0]
    s = n[0] * t
    u = fma64(t, n[0], -s)
    v = fma64(-d[1], t, fma64(-d[0], t, 1.0))
    return s, fma64(s, v, fma64(n[1], t, u))


def _poly4(x, x2, c3, c2, c1, c0):
    return fma64(x2, fma64(x, c3, c2), fma64(x, c1, c0))


def _poly7(x, x2, x4, c):
    return fma64(x4, fma64(x2, c[0], fma64(x, c[1], c[2])), _poly4(x, x2, *c[3:7]))


def _poly10(x, x2, x4, x8, c):
    return fma64(x8, fma64(x, c[0], c[1]),
                 fma64(x4, _poly4(x, x2, *c[2:6]), _poly4(x, x2, *c[6:10])))


def _ldexp2(d, q):
    """vldexp2_vd_vd_vi: d * 2**(q >> 1) * 2**(q - (q >> 1))."""
    half = q >> 1
    return d * np.exp2(half.astype(np.float64)) * np.exp2((q - half).astype(np.float64))


# ---- functions ------------------------------------------------------------------------------------

_EXPK2_POLY = (+0.1602472219709932072e-9, +0.2092255183563157007e-8, +0.2505230023782644465e-7,
               +0.2755724800902135303e-6, +0.2755731892386044373e-5, +0.2480158735605815065e-4,
               +0.1984126984148071858e-3, +0.1388888888886763255e-2, +0.8333333333333347095e-2,
               +0.4166666666666669905e-1)


def _expk2(d):
    """expk2: e to the double-double d, as a double-double."""
    dq = np.rint((d[0] + d[1]) * _R_LN2)
    dq = np.where(np.isfinite(dq), dq, 0.0)
    q = np.clip(dq, -4000, 4000).astype(np.int64)
    s = _add2_dd_d(d, dq * -_L2U)
    s = _add2_dd_d(s, dq * -_L2L)
    s2 = _squ_dd(s)
    s4 = _squ_dd(s2)
    s8 = s4[0] * s4[0]
    u = _poly10(s[0], s2[0], s4[0], s8, _EXPK2_POLY)
    t = _add_d_dd(0.5, _mul_dd_d(s, +0.1666666666666666574e+0))
    t = _add_d_dd(1.0, _mul_dd_dd(t, s))
    t = _add_d_dd(1.0, _mul_dd_dd(t, s))
    t = _add_dd_dd(t, _mul_dd_d(s4, u))
    low = d[0] < -1000
    return (np.where(low, 0.0, _ldexp2(t[0], q)), np.where(low, 0.0, _ldexp2(t[1], q)))


def expm1d(a: np.ndarray) -> np.ndarray:
    """Sleef_expm1d8_u10 (xexpm1) on float64 values."""
    a = np.asarray(a, np.float64)
    with np.errstate(all="ignore"):
        d = _add2_dd_d(_expk2((a, np.zeros_like(a))), -1.0)
        x = d[0] + d[1]
    x = np.where(a > 709.782712893383996732223, np.inf, x)
    x = np.where(a < -36.736800569677101399113302437, -1.0, x)
    x = np.where((a == 0) & np.signbit(a), -0.0, x)
    return np.where(np.isnan(a), a, x)


_LOG_POLY = (0.1532076988502701353e+0, 0.1525629051003428716e+0, 0.1818605932937785996e+0,
             0.2222214519839380009e+0, 0.2857142932794299317e+0, 0.3999999999635251990e+0,
             0.6666666666667333541e+0)


def log1pd(d: np.ndarray) -> np.ndarray:
    """Sleef_log1pd8_u10 (xlog1p, its AVX512 branch: getexp for the exponent) on float64
    values."""
    d = np.asarray(d, np.float64)
    with np.errstate(all="ignore"):
        dp1 = d + 1.0
        e = np.frexp(dp1 * (1.0 / 0.75))[1] - 1  # vgetexp (dp1 > 0 is all that is used)
        e = np.where(np.isinf(dp1), 1024, e)
        t = np.exp2(-e.astype(np.float64))  # vldexp3(1, -e)
        m = fma64(d, t, t - 1.0)
        e = e.astype(np.float64)
        s = _mul_dd_d(_LN2, e)
        x = _div_dd((m, np.zeros_like(m)), _add_dd(2.0, m))
        x2 = x[0] * x[0]
        x4 = x2 * x2
        x8 = x4 * x4
        t = _poly7(x2, x4, x8, _LOG_POLY)
        s = _add_dd_dd(s, (x[0] * 2, x[1] * 2))
        s = _add_dd_d(s, x2 * x[0] * t)
        r = s[0] + s[1]
        r = np.where(d <= _LOG1P_BOUND, r, logd(d))
    r = np.where((d < -1) | np.isnan(d), np.nan, r)
    r = np.where(d == -1, -np.inf, r)
    return np.where((d == 0) & np.signbit(d), -0.0, r)


_EXP2_POLY = (+0.4434359082926529454e-9, +0.7073164598085707425e-8, +0.1017819260921760451e-6,
              +0.1321543872511327615e-5, +0.1525273353517584730e-4, +0.1540353045101147808e-3,
              +0.1333355814670499073e-2, +0.9618129107597600536e-2, +0.5550410866482046596e-1,
              +0.2402265069591012214e+0)


def exp2d(d: np.ndarray) -> np.ndarray:
    """Sleef_exp2d8_u10 (xexp2) on float64 values."""
    d = np.asarray(d, np.float64)
    with np.errstate(all="ignore"):
        u = np.rint(d)
        q = np.clip(np.where(np.isfinite(u), u, 0.0), -4000, 4000).astype(np.int64)
        s = d - u
        s2 = s * s
        s4 = s2 * s2
        u = _poly10(s, s2, s4, s4 * s4, _EXP2_POLY)
        u = fma64(u, s, +0.6931471805599452862e+0)
        u = _ldexp2(fma64(u, s, 1.0), q)
    u = np.where(d >= 1024, np.inf, u)
    u = np.where(d < -2000, 0.0, u)
    return np.where(np.isnan(d), d, u)


def _rec_dd(d):
    """ddrec_vd2_vd2: 1 / d as a double-double."""
    s = 1.0 / d[0]
    return s, s * fma64(-d[1], s, fma64(-d[0], s, 1.0))


def _sinh_cosh(x, sign):
    y = np.abs(x)
    with np.errstate(all="ignore"):
        d = _expk2((y, np.zeros_like(y)))
        e = _rec_dd(d)
        if sign < 0:  # ddsub_vd2_vd2_vd2(d, e)
            s = d[0] - e[0]
            d = s, (((d[0] - s) - e[0]) + d[1]) - e[1]
        else:
            d = _add_dd_dd(d, e)
        y = (d[0] + d[1]) * 0.5
    return np.where((np.abs(x) > 710) | np.isnan(y), np.inf, y)


_ALL_ONES_NAN = np.uint64(0xFFFFFFFFFFFFFFFF).view(np.float64)  # SLEEF's NaN: a mask or-ed in


def sinhd(x: np.ndarray) -> np.ndarray:
    """Sleef_sinhd8_u10 (xsinh) on float64 values."""
    x = np.asarray(x, np.float64)
    y = np.copysign(_sinh_cosh(x, -1), x)
    return np.where(np.isnan(x), _ALL_ONES_NAN, y)


def coshd(x: np.ndarray) -> np.ndarray:
    """Sleef_coshd8_u10 (xcosh) on float64 values."""
    x = np.asarray(x, np.float64)
    return np.where(np.isnan(x), _ALL_ONES_NAN, _sinh_cosh(x, 1))
