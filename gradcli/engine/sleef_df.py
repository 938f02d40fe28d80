"""SLEEF's float32 functions built on float-float arithmetic (sleefsimdsp.c and df.h, their
AVX512 build with FMA), step by step in NumPy: the df.h helpers, then powf, exp2f, expm1f,
log1pf, sinhf, coshf and atanhf as torch's Vectorized<float> calls them (Sleef_powf16_u10 ...).

A float-float is a pair (hi, lo) of float32 arrays whose sum carries about 48 bits; each helper
is the df.h function of the same name, its fused multiply-adds correctly rounded
(gradcli.engine.fma), so results carry torch's last bits.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.fma import fma32

f32 = np.float32
_ONE = f32(1)
_R_LN2 = f32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U, _L2L = f32(0.693145751953125), f32(1.428606765330187045e-06)
_LN2 = (f32(0.69314718246459960938), f32(-1.904654323148236017e-09))
_INF = f32(np.inf)


def _fmapn(x, y, z):
    """x * y - z, rounded once (vfmsub)."""
    return fma32(x, y, -z)


def _fmanp(x, y, z):
    """-x * y + z, rounded once (vfnmadd)."""
    return fma32(-x, y, z)


def add_ff(x, y):
    """dfadd_vf2_vf_vf (|x| >= |y|)."""
    s = x + y
    return s, (x - s) + y


def add2_ff(x, y):
    """dfadd2_vf2_vf_vf."""
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def add_fd(x, y):
    """dfadd_vf2_vf_vf2 (|x| >= |y|)."""
    s = x + y[0]
    return s, ((x - s) + y[0]) + y[1]


def add_df(x, y):
    """dfadd_vf2_vf2_vf (|x| >= |y|)."""
    s = x[0] + y
    return s, ((x[0] - s) + y) + x[1]


def add2_df(x, y):
    """dfadd2_vf2_vf2_vf."""
    s = x[0] + y
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y - v)) + x[1]


def add_dd(x, y):
    """dfadd_vf2_vf2_vf2 (|x| >= |y|)."""
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def add2_dd(x, y):
    """dfadd2_vf2_vf2_vf2."""
    s = x[0] + y[0]
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y[0] - v)) + (x[1] + y[1])


def neg(x):
    return -x[0], -x[1]


def normalize(x):
    s = x[0] + x[1]
    return s, (x[0] - s) + x[1]


def mul_ff(x, y):
    """dfmul_vf2_vf_vf."""
    s = x * y
    return s, _fmapn(x, y, s)


def mul_df(x, y):
    """dfmul_vf2_vf2_vf."""
    s = x[0] * y
    return s, fma32(x[1], y, _fmapn(x[0], y, s))


def mul_dd(x, y):
    """dfmul_vf2_vf2_vf2."""
    s = x[0] * y[0]
    return s, fma32(x[0], y[1], fma32(x[1], y[0], _fmapn(x[0], y[0], s)))


def squ(x):
    """dfsqu_vf2_vf2."""
    s = x[0] * x[0]
    return s, fma32(x[0] + x[0], x[1], _fmapn(x[0], x[0], s))


def rec(x):
    """dfrec_vf2_vf2."""
    s = _ONE / x[0]
    return s, s * _fmanp(x[1], s, _fmanp(x[0], s, _ONE))


def div(n, d):
    """dfdiv_vf2_vf2_vf2."""
    t = _ONE / d[0]
    s = n[0] * t
    u = _fmapn(t, n[0], s)
    v = _fmanp(d[1], t, _fmanp(d[0], t, _ONE))
    return s, fma32(s, v, fma32(n[1], t, u))


def sub_dd(x, y):
    """dfsub_vf2_vf2_vf2."""
    s = x[0] - y[0]
    return s, (((x[0] - s) - y[0]) + x[1]) - y[1]


def scale(x, s):
    """dfscale_vf2_vf2_vf."""
    return x[0] * s, x[1] * s


def _poly(x, coefficients):
    """A polynomial in x by Horner's rule with fused steps, highest coefficient first."""
    u = np.full(np.shape(x), f32(coefficients[0]), f32)
    for c in coefficients[1:]:
        u = fma32(u, x, f32(c))
    return u


# ---- exponent helpers (AVX512 getexp/getmant, SLEEF's ldexp variants) -----------------------------

def _getexp(d):
    """_mm512_getexp_ps: floor(log2|d|) as a float (subnormals included; -inf at 0)."""
    with np.errstate(all="ignore"):
        e = (np.frexp(d)[1] - 1).astype(f32)
    e = np.where(d == 0, -_INF, e)
    return np.where(np.isinf(d), _INF, e)


def _getmant(d):
    """_mm512_getmant_ps(d, [0.75, 1.5), sign of NaN): |d|'s mantissa scaled into [0.75, 1.5)."""
    mant = np.abs(np.frexp(d)[0]) * f32(2)
    return np.where(mant >= f32(1.5), mant * f32(0.5), mant).astype(f32)


def _pow2i(q):
    return ((q.astype(np.int32) + np.int32(0x7F)) << np.int32(23)).view(f32)


def _ldexp(x, q):
    """vldexp_vf_vf_vi2: x * 2**q in steps that neither overflow nor underflow early."""
    q = q.astype(np.int32)
    m = q >> 31
    m = (((m + q) >> 6) - m) << 4
    q = q - (m << 2)
    m = m + 0x7F
    m = np.where(m > 0, m, 0)
    m = np.where(m > 0xFF, 0xFF, m)
    u = (m.astype(np.int32) << 23).view(f32)
    x = x * u * u * u * u
    return x * ((q + 0x7F) << 23).astype(np.int32).view(f32)


def _ldexp2(d, e):
    e = e.astype(np.int32)
    return d * _pow2i(e >> 1) * _pow2i(e - (e >> 1))


def _rint_int(u):
    with np.errstate(invalid="ignore"):
        return np.where(np.isfinite(u), np.rint(u), 0).astype(np.int32)


# ---- kernels of pow ------------------------------------------------------------------------------

def _logkf(d):
    """logkf: log(d) as a double-float."""
    with np.errstate(all="ignore"):
        e = _getexp(d * f32(1.0 / 0.75))
    e = np.where(np.isposinf(e), f32(128), e)
    m = _getmant(d)
    x = div(add2_ff(f32(-1), m), add2_ff(_ONE, m))
    x2 = squ(x)
    t = _poly(x2[0], (0.240320354700088500976562, 0.285112679004669189453125,
                      0.400007992982864379882812))
    c = (f32(0.66666662693023681640625), f32(3.69183861259614332084311e-09))
    s = mul_df(_LN2, e)
    s = add_dd(s, scale(x, f32(2)))
    return add_dd(s, mul_dd(mul_dd(x2, x), add2_dd(mul_df(x2, t), c)))


def _expkf(d):
    """expkf: exp of a double-float, rounded to float."""
    u = (d[0] + d[1]) * _R_LN2
    q = _rint_int(u)
    qf = q.astype(f32)
    s = add2_df(d, qf * -_L2U)
    s = add2_df(s, qf * -_L2L)
    s = normalize(s)
    u = _poly(s[0], (0.00136324646882712841033936, 0.00836596917361021041870117,
                     0.0416710823774337768554688, 0.166665524244308471679688,
                     0.499999850988388061523438))
    t = add_dd(s, mul_df(squ(s), u))
    t = add_fd(_ONE, t)
    u = _ldexp(t[0] + t[1], q)
    return np.where(d[0] < f32(-104), f32(0), u)


def powf(x, y) -> np.ndarray:
    """Sleef_powf16_u10 (xpowf) on float32 values."""
    x, y = np.broadcast_arrays(np.asarray(x, f32), np.asarray(y, f32))
    with np.errstate(all="ignore"):
        yisint = (np.trunc(y) == y) | (np.abs(y) > f32(1 << 24))
        small = np.abs(y) < f32(1 << 24)
        yint = np.where(small & np.isfinite(y), np.trunc(y), 0).astype(np.int32)
        yisodd = ((yint & 1) == 1) & yisint & small
        result = _expkf(mul_df(_logkf(np.abs(x)), y))
        result = np.where(np.isnan(result), _INF, result)
        sign = np.where(x > 0, _ONE, np.where(yisint, np.where(yisodd, f32(-1), _ONE),
                                               f32(np.nan)))
        result = result * sign
        efx = np.where(np.signbit(y), _ONE - np.abs(x), np.abs(x) - _ONE)  # vmulsign
        result = np.where(np.isinf(y), np.where(efx < 0, f32(0),
                                                np.where(efx == 0, _ONE, _INF)), result)
        at_edge = np.isinf(x) | (x == 0)
        edge = np.where(np.signbit(y) ^ (x == 0), f32(0), _INF)
        edge = np.copysign(edge, np.where(yisodd, x, _ONE))
        result = np.where(at_edge, edge, result)
        result = np.where(np.isnan(x) | np.isnan(y), f32(np.nan), result)
        result = np.where((y == 0) | (x == 1), _ONE, result)
    return result.astype(f32)


# ---- exp2, and the kernels of expm1, sinh and cosh --------------------------------------------------

def exp2f(d) -> np.ndarray:
    """Sleef_exp2f16_u10 (xexp2f) on float32 values."""
    d = np.asarray(d, f32)
    with np.errstate(all="ignore"):
        u = np.rint(d)
        q = _rint_int(u)
        s = d - u
        u = _poly(s, (0.1535920892e-3, 0.1339262701e-2, 0.9618384764e-2, 0.5550347269e-1,
                      0.2402264476e+0, 0.6931471825e+0))
        u = _ldexp2(fma32(u, s, _ONE), q)
    u = np.where(d >= f32(128), _INF, u)
    u = np.where(d < f32(-150), f32(0), u)
    return np.where(np.isnan(d), d, u).astype(f32)


def _expk2f(d):
    """expk2f: exp of a double-float, as a double-float."""
    with np.errstate(all="ignore"):
        u = (d[0] + d[1]) * _R_LN2
        q = _rint_int(u)
        qf = q.astype(f32)
        s = add2_df(d, qf * -_L2U)
        s = add2_df(s, qf * -_L2L)
        u = _poly(s[0], (0.1980960224e-3, 0.1394256484e-2, 0.8333456703e-2, 0.4166637361e-1))
        t = add2_df(mul_df(s, u), f32(0.166666659414234244790680580464))
        t = add2_df(mul_dd(s, t), f32(0.5))
        t = add2_dd(s, mul_dd(squ(s), t))
        t = add_fd(_ONE, t)
        hi, lo = _ldexp2(t[0], q), _ldexp2(t[1], q)
    low = d[0] < f32(-104)
    return np.where(low, f32(0), hi), np.where(low, f32(0), lo)


def expm1f(a) -> np.ndarray:
    """Sleef_expm1f16_u10 (xexpm1f) on float32 values."""
    a = np.asarray(a, f32)
    with np.errstate(all="ignore"):
        d = add2_df(_expk2f((a, np.zeros_like(a))), f32(-1))
        x = d[0] + d[1]
    x = np.where(a > f32(88.72283172607421875), _INF, x)
    x = np.where(a < f32(-16.635532333438687426013570), f32(-1), x)
    x = np.where((a == 0) & np.signbit(a), f32(-0.0), x)
    return np.where(np.isnan(a), a, x).astype(f32)


def _hyperbolic(x, combine):
    x = np.asarray(x, f32)
    with np.errstate(all="ignore"):
        y = np.abs(x)
        d = _expk2f((y, np.zeros_like(y)))
        d = combine(d, rec(d))
        y = (d[0] + d[1]) * f32(0.5)
    y = np.where((np.abs(x) > f32(89)) | np.isnan(y), _INF, y)
    return x, y


def sinhf(x) -> np.ndarray:
    """Sleef_sinhf16_u10 (xsinhf) on float32 values."""
    x, y = _hyperbolic(x, sub_dd)
    return np.where(np.isnan(x), x, np.copysign(y, x)).astype(f32)


def coshf(x) -> np.ndarray:
    """Sleef_coshf16_u10 (xcoshf) on float32 values."""
    x, y = _hyperbolic(x, add_dd)
    return np.where(np.isnan(x), x, y).astype(f32)


# ---- log1p and atanh ---------------------------------------------------------------------------

_LOG1PF_BOUND = f32(float.fromhex("0x1.2ced32p+126"))


def log1pf(d) -> np.ndarray:
    """Sleef_log1pf16_u10 (xlog1pf) on float32 values."""
    from gradcli.engine.sleef import logf

    d = np.asarray(d, f32)
    with np.errstate(all="ignore"):
        dp1 = d + _ONE
        e = _getexp(dp1 * f32(1.0 / 0.75))
        e = np.where(np.isposinf(e), f32(128), e)
        t = _pow2i(-_rint_int(e))  # vldexp3(1, -e)
        m = fma32(d, t, t - _ONE)
        s = mul_df(_LN2, e)
        x = div((m, np.zeros_like(m)), add_ff(f32(2), m))
        x2 = x[0] * x[0]
        t = _poly(x2, (0.3027294874, 0.3996108174, 0.6666694880))
        s = add_dd(s, scale(x, f32(2)))
        s = add_df(s, x2 * x[0] * t)
        r = s[0] + s[1]
        big = d > _LOG1PF_BOUND
        if big.any():
            r = np.where(big, logf(d), r)
    r = np.where(d < f32(-1), f32(np.nan), r)
    r = np.where(d == f32(-1), -_INF, r)
    r = np.where((d == 0) & np.signbit(d), f32(-0.0), r)
    return np.where(np.isnan(d), d, r).astype(f32)


def _logk2f(d):
    """logk2f: log of a double-float, as a double-float."""
    with np.errstate(all="ignore"):
        e = _rint_int(_getexp(d[0] * f32(1.0 / 0.75)))
        m = scale(d, _pow2i(-e))
        x = div(add2_df(m, f32(-1)), add2_df(m, _ONE))
        x2 = squ(x)
        t = _poly(x2[0], (0.2392828464508056640625, 0.28518211841583251953125,
                          0.400005877017974853515625, 0.666666686534881591796875))
        s = mul_df(_LN2, e.astype(f32))
        s = add_dd(s, scale(x, f32(2)))
        return add_dd(s, mul_df(mul_dd(x2, x), t))


def atanhf(x) -> np.ndarray:
    """Sleef_atanhf16_u10 (xatanhf) on float32 values."""
    x = np.asarray(x, f32)
    with np.errstate(all="ignore"):
        y = np.abs(x)
        d = _logk2f(div(add2_ff(_ONE, y), add2_ff(_ONE, -y)))
        y = np.where(y > _ONE, f32(np.nan),
                     np.where(y == _ONE, _INF, (d[0] + d[1]) * f32(0.5)))
        y = np.where(np.isinf(x) | np.isnan(y), f32(np.nan), y)
        y = np.copysign(y, x)
    return np.where(np.isnan(x), x, y).astype(f32)


# ---- lgamma --------------------------------------------------------------------------------------

def _sel(o, x, y):
    """vsel on double-floats (a pair taken whole from x where o)."""
    return np.where(o, x[0], y[0]), np.where(o, x[1], y[1])


def _pair(d: float):
    """vcast_vf2_d: a double as a float and the float nearest its remainder."""
    hi = f32(d)
    return hi, f32(d - float(hi))


def _add2_fd(x, y):
    """dfadd2_vf2_vf_vf2."""
    s = x + y[0]
    v = s - x
    return s, ((x - (s - v)) + (y[0] - v)) + y[1]


def _sinpifk(d):
    """sinpifk: sin(pi d) as a double-float."""
    u = d * f32(4)
    q = _rint_int(np.trunc(u))
    q = (q + ((q.view(np.uint32) >> np.uint32(31)).astype(np.int32) ^ 1)) & ~1
    o = (q & 2) == 2
    s = u - q.astype(f32)
    t = s
    s = s * s
    s2 = mul_ff(t, t)
    w = np.where(o, f32(-0.2430611801e-7), f32(+0.3093842054e-6))
    w = fma32(w, s, np.where(o, f32(+0.3590577080e-5), f32(-0.3657307388e-4)))
    w = fma32(w, s, np.where(o, f32(-0.3259917721e-3), f32(+0.2490393585e-2)))
    x = _add2_fd(w * s, _sel(o, _pair_of(0.015854343771934509277, 4.4940051354032242811e-10),
                             _pair_of(-0.080745510756969451904, -1.3373665339076936258e-09)))
    x = add2_dd(mul_dd(s2, x), _sel(o, _pair_of(-0.30842512845993041992, -9.0728339030733922277e-09),
                                    _pair_of(0.78539818525314331055, -2.1857338617566484855e-08)))
    x = mul_dd(x, _sel(o, s2, (t, np.zeros_like(t))))
    x = _sel(o, add2_df(x, _ONE), x)
    flip = (q & 4) == 4
    return np.where(flip, -x[0], x[0]), np.where(flip, -x[1], x[1])


def _pair_of(hi: float, lo: float):
    return f32(hi), f32(lo)


_GAMMA_U = (  # (x >= 2.3, 0.5 <= x <= 1.2, otherwise) for each step of u
    (+0.000839498720672087279971000786, +0.9435157776e+0, +0.1102489550e-3),
    (-5.17179090826059219329394422e-05, +0.8670063615e+0, +0.8160019934e-4),
    (-0.000592166437353693882857342347, +0.4826702476e+0, +0.1528468856e-3),
    (+6.97281375836585777403743539e-05, -0.8855129778e-1, -0.2355068718e-3),
    (+0.000784039221720066627493314301, +0.1013825238e+0, +0.4962242092e-3),
    (-0.000229472093621399176949318732, -0.1493408978e+0, -0.1193488017e-2),
    (-0.002681327160493827160473958490, +0.1697509140e+0, +0.2891599433e-2),
    (+0.003472222222222222222175164840, -0.2072454542e+0, -0.7385451812e-2),
    (+0.083333333333333333335592087900, +0.2705872357e+0, +0.2058077045e-1))
_GAMMA_Z = ((-0.400686534596170958447352690395e+0, -0.673523028297382446749257758235e-1),
            (+0.822466960142643054450325495997e+0, +0.322467033928981157743538726901e+0),
            (-0.577215665946766039837398973297e+0, +0.422784335087484338986941629852e+0))


def _gammafk(a):
    """gammafk: log|gamma(a)|'s series part and the factor it divides by, as double-floats."""
    zero = np.zeros_like(a)
    one = (np.ones_like(a), zero)
    otiny = np.abs(a) < f32(1e-30)
    oref = a < f32(0.5)
    x = _sel(otiny, (zero, zero), _sel(oref, add2_ff(_ONE, -a), (a, zero)))
    o0 = (f32(0.5) <= x[0]) & (x[0] <= f32(1.2))
    o2 = f32(2.3) <= x[0]
    y = normalize(mul_dd(add2_df(x, _ONE), x))
    y = normalize(mul_dd(add2_df(x, f32(2)), y))
    o = o2 & (x[0] <= f32(7))
    clln = _sel(o, y, one)
    x = _sel(o, add2_df(x, f32(3)), x)
    t = np.where(o2, _ONE / x[0], normalize(add2_df(x, np.where(o0, f32(-1), f32(-2))))[0])
    u = None
    for far, near, other in _GAMMA_U:
        c = np.where(o2, f32(far), np.where(o0, f32(near), f32(other)))
        u = np.broadcast_to(c, a.shape) if u is None else fma32(u, t, c)
    y = mul_dd(add2_df(x, f32(-0.5)), _logk2f(x))
    y = add2_dd(y, neg(x))
    y = add2_dd(y, _pair(0.91893853320467278056))
    z = add2_df(mul_ff(u, t), np.where(o0, f32(_GAMMA_Z[0][0]), f32(_GAMMA_Z[0][1])))
    for near, other in _GAMMA_Z[1:]:
        z = add2_df(mul_df(z, t), np.where(o0, f32(near), f32(other)))
    z = mul_df(z, t)
    clc = _sel(o2, y, z)
    clld = _sel(o2, add2_df(mul_ff(u, t), _ONE), one)
    y = clln
    clc = _sel(otiny, _pair(41.58883083359671856503),
               _sel(oref, add2_dd(_pair(1.1447298858494001639), neg(clc)), clc))
    clln = _sel(otiny, one, _sel(oref, clln, clld))
    whole = f32(4096) * _rint_int(np.trunc(a * f32(1.0 / 4096))).astype(f32)
    x = mul_dd(clld, _sinpifk(a - whole))
    clld = _sel(otiny, (a * f32(2.0 ** 60), zero), _sel(oref, x, y))
    return clc, div(clln, clld)


def lgammaf(a) -> np.ndarray:
    """Sleef_lgammaf_u10 (xlgammaf_u1) on float32 values."""
    a = np.asarray(a, f32)
    with np.errstate(all="ignore"):
        clc, ratio = _gammafk(a)
        magnitude = (np.abs(ratio[0]), np.where(np.signbit(ratio[0]), -ratio[1], ratio[1]))
        y = add2_dd(clc, _logk2f(magnitude))
        r = y[0] + y[1]
        integer = np.trunc(a) == a
        o = np.isinf(a) | ((a <= 0) & integer) | (np.isfinite(a) & np.isnan(r))
        return np.where(o, _INF, r).astype(f32)
