"""SLEEF's float32 exp, log, tanh and atan2 (Sleef_expf16_u10, Sleef_logf16_u10,
Sleef_tanhf16_u10, Sleef_atan2f16_u10) and float64 exp and log (Sleef_expd4_u10,
Sleef_logd4_u10), step by step in NumPy.

torch's vectorised float kernels (Vectorized<float>::exp/log, used by softmax, log_softmax and
logsumexp) call these on AVX512 machines. They are within an ulp but not correctly rounded, so
the double-then-round results differ from torch's in the last bit for a few percent of inputs;
replaying SLEEF's own arithmetic (its FMA steps correctly rounded, as vfmadd does) gives torch's
bits.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import sleef_df as df
from gradcli.engine.fma import fma32, fma64

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


_EXPK2_POLY = [f32(c) for c in (0.1980960224e-3, 0.1394256484e-2, 0.8333456703e-2, 0.4166637361e-1)]


def _ldexp2(d: np.ndarray, e: np.ndarray) -> np.ndarray:
    """d * 2**e in two steps (vldexp2_vf_vf_vi2), so 2**e may pass float's range."""
    half = e >> 1
    return d * _pow2(half) * _pow2(e - half)


def _expk2f(d: np.ndarray):
    """exp of a non-negative float d as a float-float (expk2f, its input's low part zero)."""
    q = np.rint(d * _R_LN2)
    q = np.where(np.isfinite(q), q, f32(0)).astype(np.int32)
    s = df.add2_ff(d, q.astype(f32) * -_L2U)
    s = df.add2_df(s, q.astype(f32) * -_L2L)
    u = np.full(d.shape, _EXPK2_POLY[0], f32)
    for c in _EXPK2_POLY[1:]:
        u = fma32(u, s[0], c)
    t = df.add2_df(df.mul_df(s, u), f32(0.166666659414234244790680580464))
    t = df.add2_df(df.mul_dd(s, t), f32(0.5))
    t = df.add2_dd(s, df.mul_dd(df.squ(s), t))
    t = df.add_fd(f32(1), t)
    return _ldexp2(t[0], q), _ldexp2(t[1], q)


def tanhf(x: np.ndarray) -> np.ndarray:
    """Sleef_tanhf16_u10 (xtanhf): (e - 1/e) / (e + 1/e) in float-float, e = exp(|x|)."""
    x = np.asarray(x, f32)
    with np.errstate(all="ignore"):
        d = _expk2f(np.abs(x))
        e = df.rec(d)
        q = df.div(df.add_dd(d, df.neg(e)), df.add_dd(d, e))
        y = q[0] + q[1]
        y = np.where((np.abs(x) > f32(8.664339742)) | np.isnan(y), f32(1), y)
        y = (y.view(np.uint32) ^ (x.view(np.uint32) & np.uint32(0x80000000))).view(f32)
    return np.where(np.isnan(x), x, y)


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


_R_LN2_D = 1.442695040888963407359924681001892137426645954152985934135449406931
_L2U_D = .69314718055966295651160180568695068359375
_L2L_D = .28235290563031577122588448175013436025525412068e-12
_EXP_POLY_D = (0.2081276378237164457e-8, 0.2511210703042288022e-7, 0.2755762628169491192e-6,
               0.2755723402025388239e-5, 0.2480158687479686264e-4, 0.1984126989855865850e-3,
               0.1388888888914497797e-2, 0.8333333333314938210e-2, 0.4166666666666602598e-1,
               0.1666666666666669072e+0)


def _poly4(x, x2, c3, c2, c1, c0):
    return fma64(x2, fma64(x, c3, c2), fma64(x, c1, c0))


def expd(d: np.ndarray) -> np.ndarray:
    """Sleef_expd4_u10 (xexp with FMA) on float64 values: POLY10 in Estrin's scheme."""
    d = np.asarray(d, np.float64)
    with np.errstate(all="ignore"):
        q = np.rint(d * _R_LN2_D)
        q = np.where(np.isfinite(q), q, 0.0)
        s = fma64(q, -_L2U_D, d)
        s = fma64(q, -_L2L_D, s)
        s2 = s * s
        s4 = s2 * s2
        s8 = s4 * s4
        c = _EXP_POLY_D
        low = fma64(s4, _poly4(s, s2, *c[2:6]), _poly4(s, s2, *c[6:10]))
        u = fma64(s8, fma64(s, c[0], c[1]), low)
        for k in (0.5, 1.0, 1.0):
            u = fma64(u, s, k)
        k = np.clip(q, -2100, 2100).astype(np.int64)  # vldexp2: two steps, no overflow
        half = k >> 1
        u = u * np.exp2(half) * np.exp2(k - half)
    u = np.where(d > 709.78271114955742909217217426, np.inf, u)
    u = np.where(d < -1000, 0.0, u)
    return np.where(np.isnan(d), d, u)


def exp(values: np.ndarray) -> np.ndarray:
    """torch's vectorised exp: SLEEF's, float32 or float64."""
    if values.dtype == np.float32:
        return expf(values)
    return expd(values)


_LOG_POLY_D = (0.1532076988502701353e+0, 0.1525629051003428716e+0, 0.1818605932937785996e+0,
               0.2222214519839380009e+0, 0.2857142932794299317e+0, 0.3999999999635251990e+0,
               0.6666666666667333541e+0)
_LN2_DD = (0.693147180559945286226764, 2.319046813846299558417771e-17)
_DBL_MIN = np.finfo(np.float64).tiny


def _dd_add2(x, y):
    """ddadd2_vd2_vd_vd: x + y as a double-double, any magnitudes."""
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def _dd_div(nx, ny, dx, dy):
    """dddiv_vd2_vd2_vd2 with FMA."""
    t = 1.0 / dx
    s = nx * t
    u = fma64(t, nx, -s)
    v = fma64(-dy, t, fma64(-dx, t, 1.0))
    return s, fma64(s, v, fma64(ny, t, u))


def logd(d: np.ndarray) -> np.ndarray:
    """Sleef_logd4_u10 (xlog_u1 with FMA, AVX2 path) on float64 values."""
    d = np.asarray(d, np.float64)
    with np.errstate(all="ignore"):
        tiny = d < _DBL_MIN
        d = np.where(tiny, d * 2.0 ** 64, d)
        e = ((((d * (1.0 / 0.75)).view(np.uint64) >> np.uint64(52)) & np.uint64(0x7FF))
             .astype(np.int64) - 0x3FF)  # vilogb2k
        m = (d.view(np.int64) - (e << 52)).view(np.float64)  # vldexp3(d, -e)
        e = np.where(tiny, e - 64, e).astype(np.float64)
        xx, xy = _dd_div(*_dd_add2(-1.0, m), *_dd_add2(1.0, m))
        x2 = xx * xx
        x4 = x2 * x2
        x8 = x4 * x4
        c = _LOG_POLY_D
        t = fma64(x8, fma64(x4, c[0], fma64(x2, c[1], c[2])),
                  fma64(x4, fma64(x2, c[3], c[4]), fma64(x2, c[5], c[6])))
        sx = _LN2_DD[0] * e  # ddmul_vd2_vd2_vd
        sy = fma64(_LN2_DD[1], e, fma64(_LN2_DD[0], e, -sx))
        hx, hy = 2 * xx, 2 * xy  # ddadd_vd2_vd2_vd2(s, ddscale(x, 2))
        total = sx + hx
        sy = (((sx - total) + hx) + sy) + hy
        sx = total
        add = x2 * xx * t  # ddadd_vd2_vd2_vd(s, x2 * x * t)
        total = sx + add
        sy = ((sx - total) + add) + sy
        r = total + sy
    r = np.where(np.isposinf(d), np.inf, r)
    r = np.where((d < 0) | np.isnan(d), np.nan, r)
    return np.where(d == 0, -np.inf, r)


def log(values: np.ndarray) -> np.ndarray:
    """torch's vectorised log: SLEEF's, float32 or float64."""
    if values.dtype == np.float32:
        return logf(values)
    return logd(values)


_ATAN2_POLY = [f32(c) for c in (-0.00176397908944636583328247, 0.0107900900766253471374512,
                                -0.0309564601629972457885742, 0.0577365085482597351074219,
                                -0.0838950723409652709960938, 0.109463557600975036621094,
                                -0.142626821994781494140625, 0.199983194470405578613281)]
_PI_2_DF = (f32(1.5707963705062866211), f32(-4.3711388286737928865e-08))
_SIGN = np.uint32(0x80000000)


def _mulsign(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x with y's sign bit xor-ed in (vmulsign_vf_vf_vf)."""
    return (x.view(np.uint32) ^ (y.view(np.uint32) & _SIGN)).view(f32)


def _atan2k(y: np.ndarray, x: np.ndarray):
    """atan2kf_u1 for y >= 0 and float x, as a float-float."""
    q = np.where(x < 0, -2, 0)
    x = np.abs(x)
    q = np.where(x < y, q + 1, q)
    swap = x < y
    s = df.div((np.where(swap, -x, y), np.zeros_like(x)), (np.where(swap, y, x), np.zeros_like(x)))
    t = df.normalize(df.squ(s))
    u = np.full(x.shape, _ATAN2_POLY[0], f32)
    for c in _ATAN2_POLY[1:]:
        u = fma32(u, t[0], c)
    t = df.mul_dd(t, df.add_ff(f32(-0.333332866430282592773438), u * t[0]))
    t = df.mul_dd(s, df.add_fd(f32(1), t))
    return df.add_dd(df.mul_df(_PI_2_DF, q.astype(f32)), t)


def _isinf2(d: np.ndarray, m) -> np.ndarray:
    """visinf2_vf_vf_vf: d's sign bit or-ed into m where d is infinite, else 0."""
    bits = (d.view(np.uint32) & _SIGN) | np.asarray(m, f32).view(np.uint32)
    return np.where(np.isinf(d), bits, np.uint32(0)).view(f32)


def atan2f(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Sleef_atan2f16_u10 (xatan2f_u1) on float32 values."""
    y, x = np.broadcast_arrays(np.asarray(y, f32), np.asarray(x, f32))
    with np.errstate(all="ignore"):
        tiny = np.abs(x) < f32(2.9387372783541830947e-39)
        x = np.where(tiny, x * f32(1 << 24), x)
        y = np.where(tiny, y * f32(1 << 24), y)
        d = _atan2k(np.abs(y), x)
        r = _mulsign(d[0] + d[1], x)
        half_pi, quarter_pi = f32(np.pi / 2), f32(np.pi / 4)
        r = np.where(np.isinf(x) | (x == 0), half_pi - _isinf2(x, _mulsign(half_pi, x)), r)
        r = np.where(np.isinf(y), half_pi - _isinf2(x, _mulsign(quarter_pi, x)), r)
        r = np.where(y == 0, np.where(np.signbit(x), f32(np.pi), f32(0)), r)
        r = _mulsign(r, y)
    return np.where(np.isnan(x) | np.isnan(y), f32(np.nan), r)
