"""glibc's float functions, vectorised in NumPy in float arithmetic: log1pf, expm1f, erff,
erfcf, tanhf, atanf, atan2f, sinhf, coshf, atanhf, asinhf and acoshf (fdlibm's routines, which
glibc 2.36 ships) and its table-driven logf: what these std:: functions return for floats inside
ATen's scalar kernels. `scalar` picks the float or the double function by the array's dtype."""

from __future__ import annotations

import functools
import math

import numpy as np

from gradcli.engine.fma import fma64
from gradcli.engine.kernels_order import exp2_table, glibc_expf

_F = np.float32
_LN2_HI, _LN2_LO = _F(6.9313812256e-01), _F(9.0580006145e-06)
_LP = tuple(_F(c) for c in (6.6666668653e-01, 4.0000000596e-01, 2.8571429849e-01,
                            2.2222198546e-01, 1.8183572590e-01, 1.5313838422e-01,
                            1.4798198640e-01))


def _float_of(bits: np.ndarray) -> np.ndarray:
    return bits.astype(np.int32).view(np.float32)


def log1pf(x: np.ndarray) -> np.ndarray:
    """log(1 + x) for a float32 array, as glibc's log1pf rounds it."""
    x = np.asarray(x, np.float32)
    hx = x.view(np.int32).astype(np.int64)
    ax = hx & 0x7fffffff
    one = _F(1)
    with np.errstate(all="ignore"):
        below = hx < 0x3ed413d7
        plain = below & ((hx > 0) | (hx <= np.int64(np.int32(np.uint32(0xbe95f61f)))))
        u = np.where(hx < 0x5a000000, one + x, x)
        hu = u.view(np.int32).astype(np.int64)
        k = (hu >> 23) - 127
        c = np.where(k > 0, one - (u - x), x - (u - one)) / u
        c = np.where(hx < 0x5a000000, c, _F(0))
        hu &= 0x007fffff
        low = hu < 0x3504f7
        k = np.where(low, k, k + 1)
        u = np.where(low, _float_of(hu | 0x3f800000), _float_of(hu | 0x3f000000))
        hu = np.where(low, hu, (0x00800000 - hu) >> 2)
        f = np.where(plain, x, u - one)
        k = np.where(plain, 0, k)
        hu = np.where(plain, 1, hu)
        kf = k.astype(np.float32)
        hfsq = _F(0.5) * f * f
        r_small = hfsq * (one - _F(0.66666666666666666) * f)
        tiny_f = np.where(k == 0, f - r_small,
                          kf * _LN2_HI - ((r_small - (kf * _LN2_LO + c)) - f))
        exact = np.where(k == 0, _F(0), kf * _LN2_HI + (c + kf * _LN2_LO))
        s = f / (_F(2) + f)
        z = s * s
        poly = np.full_like(z, _LP[-1])
        for coefficient in reversed(_LP[:-1]):
            poly = coefficient + z * poly
        r = z * poly
        general = np.where(k == 0, f - (hfsq - s * (hfsq + r)),
                           kf * _LN2_HI - ((hfsq - (s * (hfsq + r) + (kf * _LN2_LO + c))) - f))
        out = np.where(hu == 0, np.where(f == 0, exact, tiny_f), general)
        small = below & (ax < 0x31000000)
        out = np.where(small, np.where(ax < 0x24800000, x, x - x * x * _F(0.5)), out)
        out = np.where(below & (ax >= 0x3f800000), np.where(x == -1, _F(-np.inf), _F(np.nan)), out)
        return np.where(hx >= 0x7f800000, x + x, out)


_LN2_HALF_BITS, _LN2_THREEHALF_BITS = 0x3eb17218, 0x3F851592
_INVLN2 = _F(1.4426950216e+00)
_Q = tuple(_F(c) for c in (-3.3333335072e-02, 1.5873016091e-03, -7.9365076090e-05,
                           4.0082177293e-06, -2.0109921195e-07))


def _add_exponent(y: np.ndarray, k: np.ndarray) -> np.ndarray:
    """y * 2^k by adding k to y's exponent field (SET_FLOAT_WORD(y, i + (k << 23)))."""
    return _float_of(y.view(np.int32).astype(np.int64) + (k << 23))


def expm1f(x: np.ndarray) -> np.ndarray:
    """exp(x) - 1 for a float32 array, as glibc's expm1f (fdlibm's s_expm1f.c) rounds it."""
    x = np.asarray(x, np.float32)
    bits = x.view(np.int32).astype(np.int64)
    negative = bits < 0
    hx = bits & 0x7fffffff
    one, half = _F(1), _F(0.5)
    with np.errstate(all="ignore"):
        near = (hx > _LN2_HALF_BITS) & (hx < _LN2_THREEHALF_BITS)
        k_far = (_INVLN2 * x + np.where(negative, -half, half)).astype(np.int64)
        t = k_far.astype(np.float32)
        hi = np.where(near, np.where(negative, x + _LN2_HI, x - _LN2_HI), x - t * _LN2_HI)
        lo = np.where(near, np.where(negative, -_LN2_LO, _LN2_LO), t * _LN2_LO)
        k = np.where(near, np.where(negative, -1, 1), k_far)
        reduced = hx > _LN2_HALF_BITS
        r = np.where(reduced, hi - lo, x)
        c = np.where(reduced, (hi - r) - lo, _F(0))
        k = np.where(reduced, k, 0)
        hfx = half * r
        hxs = r * hfx
        poly = np.full_like(hxs, _Q[-1])
        for coefficient in reversed(_Q[:-1]):
            poly = coefficient + hxs * poly
        r1 = one + hxs * poly
        t = _F(3) - r1 * hfx
        e = hxs * ((r1 - t) / (_F(6) - r * t))
        plain = r - (r * e - hxs)
        e = (r * (e - c) - c) - hxs
        minus_one = half * (r - e) - half
        plus_one = np.where(r < _F(-0.25), -_F(2) * (e - (r + half)), one + _F(2) * (r - e))
        wide = _add_exponent(one - (e - r), k) - one
        shift = np.clip(k, 0, 31)
        below_23 = _add_exponent(_float_of(0x3f800000 - (0x1000000 >> shift)) - (e - r), k)
        above_23 = _add_exponent((r - (e + _float_of((0x7f - np.clip(k, 0, 127)) << 23))) + one,
                                 k)
        out = np.select([k == 0, k == -1, k == 1, (k <= -2) | (k > 56), k < 23],
                        [plain, minus_one, plus_one, wide, below_23], above_23)
        out = np.where(hx < 0x33000000, x, out)
        large = hx >= 0x4195b844
        out = np.where(large & negative, _F(-1), out)
        out = np.where(large & ~negative & (x > _F(8.8721679688e+01)), _F(np.inf), out)
        return np.where(hx >= 0x7f800000, np.where(hx > 0x7f800000, x + x,
                                                   np.where(negative, _F(-1), x)), out)


_ERX = _F(8.4506291151e-01)
_PP = tuple(_F(c) for c in (1.2837916613e-01, -3.2504209876e-01, -2.8481749818e-02,
                            -5.7702702470e-03, -2.3763017452e-05))
_QQ = tuple(_F(c) for c in (1.0, 3.9791721106e-01, 6.5022252500e-02, 5.0813062117e-03,
                            1.3249473704e-04, -3.9602282413e-06))
_PA = tuple(_F(c) for c in (-2.3621185683e-03, 4.1485610604e-01, -3.7220788002e-01,
                            3.1834661961e-01, -1.1089469492e-01, 3.5478305072e-02,
                            -2.1663755178e-03))
_QA = tuple(_F(c) for c in (1.0, 1.0642088205e-01, 5.4039794207e-01, 7.1828655899e-02,
                            1.2617121637e-01, 1.3637083583e-02, 1.1984500103e-02))
_RA = tuple(_F(c) for c in (-9.8649440333e-03, -6.9385856390e-01, -1.0558626175e+01,
                            -6.2375331879e+01, -1.6239666748e+02, -1.8460508728e+02,
                            -8.1287437439e+01, -9.8143291473e+00))
_SA = tuple(_F(c) for c in (1.0, 1.9651271820e+01, 1.3765776062e+02, 4.3456588745e+02,
                            6.4538726807e+02, 4.2900814819e+02, 1.0863500214e+02,
                            6.5702495575e+00, -6.0424413532e-02))
_RB = tuple(_F(c) for c in (-9.8649431020e-03, -7.9928326607e-01, -1.7757955551e+01,
                            -1.6063638306e+02, -6.3756646729e+02, -1.0250950928e+03,
                            -4.8351919556e+02))
_SB = tuple(_F(c) for c in (1.0, 3.0338060379e+01, 3.2579251099e+02, 1.5367296143e+03,
                            3.1998581543e+03, 2.5530502930e+03, 4.7452853394e+02,
                            -2.2440952301e+01))


def _nested(y: np.ndarray, coefficients: tuple) -> np.ndarray:
    """c0 + y*(c1 + y*(c2 + ...)) in float, innermost first."""
    total = np.full_like(y, coefficients[-1])
    for c in reversed(coefficients[:-1]):
        total = c + y * total
    return total


def erfcf(x: np.ndarray) -> np.ndarray:
    """1 - erf(x) for a float32 array, as glibc's erfcf (fdlibm's s_erff.c) rounds it."""
    x = np.asarray(x, np.float32)
    hx = x.view(np.int32).astype(np.int64)
    ix = hx & 0x7fffffff
    one, half, two = _F(1), _F(0.5), _F(2)
    with np.errstate(all="ignore"):
        z = x * x
        y = (_nested(z, _PP)) / _nested(z, _QQ)
        central = np.where(hx < 0x3e800000, one - (x + x * y), half - (x * y + (x - half)))
        central = np.where(ix < 0x23800000, one - x, central)
        s = np.abs(x) - one
        ratio = _nested(s, _PA) / _nested(s, _QA)
        shoulder = np.where(hx >= 0, (one - _ERX) - ratio, one + (_ERX + ratio))
        v = np.abs(x)
        s = one / (v * v)
        near = ix < 0x4036DB6D
        r_over_s = np.where(near, _nested(s, _RA) / _nested(s, _SA),
                            _nested(s, _RB) / _nested(s, _SB))
        z = _float_of(v.view(np.int32).astype(np.int64) & 0xffffe000)
        r = glibc_expf(-z * z - _F(0.5625)) * glibc_expf((z - v) * (z + v) + r_over_s)
        tail = np.where(hx > 0, r / v, two - r / v)
        tail = np.where(~near & (hx < 0) & (ix >= 0x40c00000), two, tail)
        far = np.where(hx > 0, _F(0), two)
        out = np.select([ix < 0x3f580000, ix < 0x3fa00000, ix < 0x41e00000],
                        [central, shoulder, tail], far)
        return np.where(ix >= 0x7f800000, np.where(hx < 0, two, _F(0)) + one / x, out)


def _abs_bits(x: np.ndarray) -> np.ndarray:
    return x.view(np.int32) & np.int32(0x7FFFFFFF)


def sinhf(x: np.ndarray) -> np.ndarray:
    """sinh for a float32 array, as glibc's sinhf (e_sinhf.c) rounds it: from expm1f below 22,
    from expf above."""
    x = np.asarray(x, np.float32)
    ix, a, one = _abs_bits(x), np.abs(x), _F(1)
    h = np.where(np.signbit(x), _F(-0.5), _F(0.5))
    with np.errstate(all="ignore"):
        t = expm1f(a)
        near = h * (_F(2) * t - t * t / (t + one))
        mid = h * (t + t / (t + one))
        big = h * glibc_expf(a)
        w = glibc_expf(_F(0.5) * a)
        huge = (h * w) * w
        r = np.where(ix < 0x3F800000, near, mid)
        r = np.where(ix < 0x31800000, x, r)
        r = np.where(ix >= 0x41B00000, big, r)
        r = np.where(ix >= 0x42B17180, huge, r)
        r = np.where(ix > 0x42B2D4FC, x * _F(1e37), r)
    return np.where(ix >= 0x7F800000, x + x, r)


def coshf(x: np.ndarray) -> np.ndarray:
    """cosh for a float32 array, as glibc's coshf (e_coshf.c) rounds it."""
    x = np.asarray(x, np.float32)
    ix, a, one, half = _abs_bits(x), np.abs(x), _F(1), _F(0.5)
    with np.errstate(all="ignore"):
        t = expm1f(a)
        w = one + t
        near = one + (t * t) / (w + w)
        e = glibc_expf(a)
        mid = half * e + half / e
        w = glibc_expf(half * a)
        huge = (half * w) * w
        r = np.where(ix < 0x3EB17218, np.where(ix < 0x24000000, one, near), mid)
        r = np.where(ix >= 0x41B00000, half * e, r)
        r = np.where(ix >= 0x42B17180, huge, r)
        r = np.where(ix > 0x42B2D4FC, _F(np.inf), r)
    return np.where(ix >= 0x7F800000, x * x, r)


def atanhf(x: np.ndarray) -> np.ndarray:
    """atanh for a float32 array, as glibc's atanhf (e_atanhf.c) rounds it, from log1pf."""
    x = np.asarray(x, np.float32)
    a, one = np.abs(x), _F(1)
    with np.errstate(all="ignore"):
        t = a + a
        small = _F(0.5) * log1pf(t + t * a / (one - a))
        large = _F(0.5) * log1pf((a + a) / (one - a))
        r = np.copysign(np.where(a < _F(0.5), small, large), x)
        r = np.where(a < _F(2.0 ** -28), x, r)
        r = np.where(a == one, x / _F(0), r)
    return np.where((a > one) | np.isnan(x), _F(np.nan), r)


_LOGF_TABLE = np.array([[float.fromhex(a), float.fromhex(b)] for a, b in (
    ("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"),
    ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
    ("0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2"),
    ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
    ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"),
    ("0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3"),
    ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"),
    ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
    ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"),
    ("0x1p+0", "0x0p+0"),
    ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"),
    ("0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4"),
    ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"),
    ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3"),
    ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"),
    ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2"))])
_LOGF_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_LOGF_POLY = tuple(float.fromhex(h) for h in (
    "-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2"))


def logf(x: np.ndarray) -> np.ndarray:
    """log for a float32 array, as glibc's logf (e_logf.c, the FMA build x86-64 machines run)
    rounds it: a 16-entry table of 1/c and log(c), and a cubic in double for log1p(z/c - 1)."""
    x = np.asarray(x, np.float32)
    ix = x.view(np.uint32).astype(np.int64)
    with np.errstate(all="ignore"):
        subnormal = (ix > 0) & (ix < 0x00800000)
        ix = np.where(subnormal, (x * _F(2.0 ** 23)).view(np.uint32).astype(np.int64) - (23 << 23),
                      ix)
        tmp = (ix - 0x3F330000) & 0xFFFFFFFF
        i = (tmp >> 19) % 16
        k = (tmp.astype(np.uint32).view(np.int32) >> 23).astype(np.float64)
        z = _float_of(ix - (tmp & 0xFF800000)).astype(np.float64)
        invc, logc = _LOGF_TABLE[i, 0], _LOGF_TABLE[i, 1]
        r = fma64(z, invc, np.full_like(z, -1.0))
        y0 = fma64(k, np.full_like(z, _LOGF_LN2), logc)
        r2 = r * r
        a0, a1, a2 = _LOGF_POLY
        y = fma64(np.full_like(r, a1), r, np.full_like(r, a2))
        y = fma64(np.full_like(r, a0), r2, y)
        y = fma64(y, r2, y0 + r)
        out = y.astype(np.float32)
        out = np.where(x == 1, _F(0), out)
        out = np.where(x == 0, _F(-np.inf), out)
        out = np.where((x < 0) | np.isnan(x), _F(np.nan), out)
        return np.where(x == np.inf, x, out)


def scalar(name: str, values: np.ndarray) -> np.ndarray:
    """std::<name> ("log", "log1p", "expm1", "exp2", "sinh", "cosh", "atanh", "asinh", "acosh") of
    each value in the array's dtype: glibc's float function for float32, its double one (Python's
    math calls glibc's) for float64, NumPy's otherwise. Domain errors give NaN or infinities, as
    the C functions do."""
    values = np.asarray(values)
    if values.dtype == np.float32:
        return _FLOAT_FUNCTIONS[name](values)
    if values.dtype == np.float64:
        function = functools.partial(_c_double, _DOUBLE_FUNCTIONS[name])
        flat = [function(v) for v in values.reshape(-1).tolist()]
        return np.array(flat, np.float64).reshape(values.shape)
    with np.errstate(all="ignore"):
        return _NUMPY_FUNCTIONS[name](values)



def pow_double(x, y) -> np.ndarray:
    """std::pow on float64 operands (broadcast together): glibc's pow, which Python's math.pow
    calls (NumPy's own differs in the last bit for some inputs); where math raises, NumPy's
    infinity or NaN, which are C's."""
    x, y = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(y, np.float64))
    with np.errstate(all="ignore"):
        out = np.array(np.power(x, y), np.float64).reshape(-1)
    for i, (base, exponent) in enumerate(zip(x.reshape(-1).tolist(), y.reshape(-1).tolist())):
        try:
            out[i] = math.pow(base, exponent)
        except (ValueError, OverflowError):
            pass
    return out.reshape(x.shape)


def _c_double(function, value: float) -> float:
    """math's function with the C function's results where math raises instead."""
    try:
        return function(value)
    except ValueError:  # log(0), log(-1), log1p(-1), log1p(-2): C gives -inf or NaN
        if function is math.atanh:  # atanh(1) is inf; beyond 1 (x - x) / (x - x), a negative NaN
            return math.copysign(math.inf, value) if abs(value) == 1 else -math.nan
        if function is math.acosh:  # below 1, (x - x) / (x - x) too
            return -math.nan
        return -math.inf if value == (0.0 if function is math.log else -1.0) else math.nan
    except OverflowError:  # exp2(1100), sinh(-1100): C gives an infinity, odd sinh's signed
        return math.copysign(math.inf, value) if function is math.sinh else math.inf


_POWF_LOG2 = np.array([[float.fromhex(a), float.fromhex(b)] for a, b in (
    ("0x1.661ec79f8f3bep+0", "-0x1.efec65b963019p-2"),
    ("0x1.571ed4aaf883dp+0", "-0x1.b0b6832d4fca4p-2"),
    ("0x1.49539f0f010bp+0", "-0x1.7418b0a1fb77bp-2"),
    ("0x1.3c995b0b80385p+0", "-0x1.39de91a6dcf7bp-2"),
    ("0x1.30d190c8864a5p+0", "-0x1.01d9bf3f2b631p-2"),
    ("0x1.25e227b0b8eap+0", "-0x1.97c1d1b3b7afp-3"),
    ("0x1.1bb4a4a1a343fp+0", "-0x1.2f9e393af3c9fp-3"),
    ("0x1.12358f08ae5bap+0", "-0x1.960cbbf788d5cp-4"),
    ("0x1.0953f419900a7p+0", "-0x1.a6f9db6475fcep-5"),
    ("0x1p+0", "0x0p+0"),
    ("0x1.e608cfd9a47acp-1", "0x1.338ca9f24f53dp-4"),
    ("0x1.ca4b31f026aap-1", "0x1.476a9543891bap-3"),
    ("0x1.b2036576afce6p-1", "0x1.e840b4ac4e4d2p-3"),
    ("0x1.9c2d163a1aa2dp-1", "0x1.40645f0c6651cp-2"),
    ("0x1.886e6037841edp-1", "0x1.88e9c2c1b9ff8p-2"),
    ("0x1.767dcf5534862p-1", "0x1.ce0a44eb17bccp-2"))])
_POWF_POLY = tuple(float.fromhex(h) for h in (
    "0x1.27616c9496e0bp-2", "-0x1.71969a075c67ap-2", "0x1.ec70a6ca7baddp-2",
    "-0x1.7154748bef6c8p-1", "0x1.71547652ab82bp0"))
_EXP2F_POLY = tuple(float.fromhex(h) for h in (
    "0x1.c6af84b912394p-5", "0x1.ebfce50fac4f3p-3", "0x1.62e42ff0c52d6p-1"))


def powf(x, y) -> np.ndarray:
    """std::pow(float, float): glibc's powf (e_powf.c, its FMA build) on float32 operands
    (broadcast together): log2 of |x| from a 16-entry table and a quintic in double, times y,
    then 2**that from exp2f's 32-entry table and a cubic, rounded once to float."""
    x, y = np.broadcast_arrays(np.asarray(x, _F), np.asarray(y, _F))
    ix = x.view(np.uint32).astype(np.int64) & 0x7FFFFFFF
    with np.errstate(all="ignore"):
        subnormal = (ix > 0) & (ix < 0x00800000)
        ix = np.where(subnormal, (np.abs(x) * _F(2.0 ** 23)).view(np.uint32).astype(np.int64)
                      - (23 << 23), ix)
        tmp = (ix - 0x3F330000) & 0xFFFFFFFF
        top = tmp & 0xFF800000
        k = (top.astype(np.uint32).view(np.int32) >> 23).astype(np.float64)
        invc, logc = (_POWF_LOG2[(tmp >> 19) % 16, c] for c in (0, 1))
        z = _float_of(ix - top).astype(np.float64)
        r = fma64(z, invc, np.full_like(z, -1.0))
        a0, a1, a2, a3, a4 = (np.full_like(r, a) for a in _POWF_POLY)
        r2 = r * r
        p = fma64(a2, r, a3)
        q = fma64(p, r2, fma64(a4, r, logc + k))
        ylogx = y.astype(np.float64) * fma64(fma64(a0, r, a1), r2 * r2, q)
        kd = ylogx + _SHIFT_32
        ki = np.where(np.isfinite(kd), kd, 0).view(np.uint64)
        r = ylogx - (kd - _SHIFT_32)
        s = (exp2_table()[(ki % np.uint64(32)).astype(np.intp)] + (ki << np.uint64(47)))
        c0, c1, c2 = (np.full_like(r, c) for c in _EXP2F_POLY)
        y2 = fma64(fma64(c0, r, c1), r * r, fma64(c2, r, np.ones_like(r)))
        out = (y2 * s.view(np.float64)).astype(_F)
        out = np.where(ylogx > float.fromhex("0x1.fffffffd1d571p+6"), _F(np.inf), out)
        out = np.where(ylogx <= -150.0, _F(0), out)
        return _powf_special(x, y, out)


def _powf_special(x, y, out):
    """powf's sign and its special operands: a negative x (odd integer y flips the sign, another
    y gives NaN), zeros, infinities and NaNs, as e_powf.c returns them."""
    ay = np.abs(y)
    integer = (np.floor(ay) == ay) & np.isfinite(ay)
    odd = integer & (ay < _F(2.0 ** 24)) & (np.fmod(ay, _F(2)) == 1)
    negative = np.signbit(x)
    out = np.where(negative & odd, -out, out)
    out = np.where(negative & ~integer & (x != 0), _F(np.nan), out)
    ax = np.abs(x)
    edge = np.where(np.signbit(y), _F(1) / (ax * ax), ax * ax)  # x zero or infinite
    out = np.where((ax == 0) | np.isinf(ax), np.where(negative & odd, -edge, edge), out)
    out = np.where(np.isnan(x) | np.isnan(y), x + y, out)
    y_inf = np.where(ax == 1, _F(1), np.where((ax < 1) == (y > 0), _F(0), y * y))
    out = np.where(np.isinf(y) & ~np.isnan(x), y_inf, out)
    return np.where((y == 0) | (x == 1), _F(1), out)


_SHIFT_32 = float.fromhex("0x1.8p+52") / 32
_SINF_HPI_INV = float.fromhex("0x1.45F306DC9C883p+23")  # 2 / pi, times 2**24
_SINF_HPI = float.fromhex("0x1.921FB54442D18p0")
_SINF_C = tuple(float.fromhex(h) for h in (
    "0x1p0", "-0x1.ffffffd0c621cp-2", "0x1.55553e1068f19p-5", "-0x1.6c087e89a359dp-10",
    "0x1.99343027bf8c3p-16"))
_SINF_S = tuple(float.fromhex(h) for h in (
    "-0x1.555545995a603p-3", "0x1.1107605230bc4p-7", "-0x1.994eb3774cf24p-13"))
_INV_PIO4 = np.array([
    0xa2, 0xa2f9, 0xa2f983, 0xa2f9836e, 0xf9836e4e, 0x836e4e44, 0x6e4e4415, 0x4e441529,
    0x441529fc, 0x1529fc27, 0x29fc2757, 0xfc2757d1, 0x2757d1f5, 0x57d1f534, 0xd1f534dd,
    0xf534ddc0, 0x34ddc0db, 0xddc0db62, 0xc0db6295, 0xdb629599, 0x6295993c, 0x95993c43,
    0x993c4390, 0x3c439041], np.uint64)


def sinf(y) -> np.ndarray:
    """std::sin(float): glibc's sinf (s_sinf.c, its FMA build) on a float32 array: the argument
    reduced by pi/2 in double (a 192-bit 4/pi past 120), then a sine or cosine polynomial in
    double, rounded once to float."""
    y = np.asarray(y, _F)
    x = y.astype(np.float64)
    top = (y.view(np.uint32) >> 20) & 0x7FF
    with np.errstate(all="ignore"):
        r = x * _SINF_HPI_INV
        n = (np.where(np.abs(r) < 2.0 ** 31, r, 0).astype(np.int64).astype(np.int32)
             + 0x800000) >> 24
        reduced = fma64(-n.astype(np.float64), np.full_like(x, _SINF_HPI), x)
        large, n_large = _reduce_large(y)
        sign = (y.view(np.uint32) >> 31).astype(np.int32)
        big = top >= 0x42F  # |y| >= 120: the quadrant takes y's sign too
        reduced = np.where(big, large, reduced)
        n = np.where(big, n_large, n)
        quadrant = np.where(big, n + sign, n)
        reduced = np.where(top < 0x3F4, x, reduced)  # |y| < pi/4: no reduction
        n = np.where(top < 0x3F4, 0, n)
        quadrant = np.where(top < 0x3F4, 0, quadrant)
        quadrant_sign = np.where((quadrant & 3) % 3 == 0, 1.0, -1.0)
        negate = (quadrant & 2) == 2  # the second table: -cos
        x1, x2 = reduced * quadrant_sign, reduced * reduced
        out = np.where((n & 1) == 0, _sin_poly(x1, x2),
                       np.where(negate, -1.0, 1.0) * _cos_poly(x2)).astype(_F)
        out = np.where(top < 0x398, y, out)  # |y| < 2**-12
        return np.where(np.isfinite(y), out, _F(np.nan))


def _sin_poly(x, x2):
    s1, s2, s3 = (np.full_like(x, c) for c in _SINF_S)
    x3 = x * x2
    return fma64(x3 * x2, fma64(x2, s3, s2), fma64(x3, s1, x))


def _cos_poly(x2):
    c0, c1, c2, c3, c4 = (np.full_like(x2, c) for c in _SINF_C)
    x4 = x2 * x2
    return fma64(x4 * x2, fma64(x2, c4, c3), fma64(x4, c2, fma64(x2, c1, c0)))


def _reduce_large(y):
    """reduce_large: |y| (>= 120) modulo pi/2 from 4/pi's bits, and the quadrant."""
    xi = y.view(np.uint32).astype(np.uint64)
    start = ((xi >> np.uint64(26)) & np.uint64(15)).astype(np.intp)
    shift = (xi >> np.uint64(23)) & np.uint64(7)
    xi = ((xi & np.uint64(0xFFFFFF)) | np.uint64(0x800000)) << shift
    res0 = (xi * _INV_PIO4[start]) & np.uint64(0xFFFFFFFF)
    res1 = xi * _INV_PIO4[start + 4]
    res2 = xi * _INV_PIO4[start + 8]
    res0 = ((res2 >> np.uint64(32)) | (res0 << np.uint64(32))) + res1
    n = (res0 + np.uint64(1 << 61)) >> np.uint64(62)
    res0 = res0 - (n << np.uint64(62))
    return res0.view(np.int64).astype(np.float64) * float.fromhex("0x1.921FB54442D18p-62"), \
        n.astype(np.int32)
_LN2_FLOAT = _F(6.9314718246e-01)


def asinhf(x: np.ndarray) -> np.ndarray:
    """asinh for a float32 array, as glibc's asinhf (fdlibm's s_asinhf.c) rounds it, from logf,
    log1pf and the correctly rounded sqrtf."""
    x = np.asarray(x, np.float32)
    ix, a, one = _abs_bits(x), np.abs(x), _F(1)
    with np.errstate(all="ignore"):
        t = a * a
        small = log1pf(a + t / (one + np.sqrt(one + t)))
        middle = logf(_F(2) * a + one / (np.sqrt(t + one) + a))
        huge = logf(a) + _LN2_FLOAT
        w = np.where(ix > 0x47000000, huge, np.where(ix > 0x40000000, middle, small))
        w = np.where(ix < 0x38000000, a, w)
    return np.where(ix >= 0x7F800000, x + x, np.copysign(w, x))


def acoshf(x: np.ndarray) -> np.ndarray:
    """acosh for a float32 array, as glibc's acoshf (fdlibm's e_acoshf.c) rounds it."""
    x = np.asarray(x, np.float32)
    hx, one = x.view(np.int32), _F(1)
    with np.errstate(all="ignore"):
        t = x - one
        near = log1pf(t + np.sqrt(_F(2) * t + t * t))
        middle = logf(_F(2) * x - one / (x + np.sqrt(x * x - one)))
        huge = logf(x) + _LN2_FLOAT
        r = np.where(hx >= 0x4D800000, huge, np.where(hx > 0x40000000, middle, near))
        r = np.where(hx == 0x3F800000, _F(0), r)
        r = np.where(hx < 0x3F800000, _F(np.nan), r)
    return np.where(hx >= 0x7F800000, x + x, r)


_EFX = _F(1.2837916613e-01)


def erff(x: np.ndarray) -> np.ndarray:
    """erf(x) for a float32 array, as glibc's erff (fdlibm's s_erff.c) rounds it."""
    x = np.asarray(x, np.float32)
    hx = x.view(np.int32).astype(np.int64)
    ix = hx & 0x7fffffff
    one = _F(1)
    with np.errstate(all="ignore"):
        z = x * x
        central = x + x * (_nested(z, _PP) / _nested(z, _QQ))
        central = np.where(ix < 0x31800000, x + _EFX * x, central)
        central = np.where(ix < 0x04000000, _F(0.0625) * (_F(16) * x + (_F(16) * _EFX) * x),
                           central)
        s = np.abs(x) - one
        ratio = _nested(s, _PA) / _nested(s, _QA)
        shoulder = np.where(hx >= 0, _ERX + ratio, -_ERX - ratio)
        v = np.abs(x)
        s = one / (v * v)
        r_over_s = np.where(ix < 0x4036DB6D, _nested(s, _RA) / _nested(s, _SA),
                            _nested(s, _RB) / _nested(s, _SB))
        z = _float_of(v.view(np.int32).astype(np.int64) & 0xfffff000)
        r = glibc_expf(-z * z - _F(0.5625)) * glibc_expf((z - v) * (z + v) + r_over_s)
        tail = np.where(hx >= 0, one - r / v, r / v - one)
        far = np.where(hx >= 0, one, -one)
        out = np.select([ix < 0x3f580000, ix < 0x3fa00000, ix < 0x40c00000],
                        [central, shoulder, tail], far)
        return np.where(ix >= 0x7f800000, np.where(hx < 0, -one, one) + one / x, out)


def tanhf(x: np.ndarray) -> np.ndarray:
    """tanh(x) for a float32 array, as glibc's tanhf (fdlibm's s_tanhf.c) rounds it."""
    x = np.asarray(x, np.float32)
    hx = x.view(np.int32).astype(np.int64)
    ix = hx & 0x7fffffff
    one, two = _F(1), _F(2)
    with np.errstate(all="ignore"):
        t = expm1f(two * np.abs(x))
        large = one - two / (t + two)
        t = expm1f(-two * np.abs(x))
        z = np.select([ix == 0, ix < 0x24000000, ix >= 0x3f800000, ix < 0x41b00000],
                      [x, x * (one + x), large, -t / (t + two)], one)
        z = np.where((ix < 0x24000000) | (hx >= 0), z, -z)
        return np.where(ix >= 0x7f800000, one / x + np.where(hx >= 0, one, -one), z)


_ATANHI = tuple(_F(c) for c in (4.6364760399e-01, 7.8539812565e-01, 9.8279368877e-01,
                                1.5707962513e+00))
_ATANLO = tuple(_F(c) for c in (5.0121582440e-09, 3.7748947079e-08, 3.4473217170e-08,
                                7.5497894159e-08))
_AT_ODD = tuple(_F(c) for c in (3.3333334327e-01, 1.4285714924e-01, 9.0908870101e-02,
                                6.6610731184e-02, 4.9768779427e-02, 1.6285819933e-02))
_AT_EVEN = tuple(_F(c) for c in (-2.0000000298e-01, -1.1111110449e-01, -7.6918758452e-02,
                                 -5.8335702866e-02, -3.6531571299e-02))


def atanf(x: np.ndarray) -> np.ndarray:
    """atan(x) for a float32 array, as glibc's atanf (fdlibm's s_atanf.c) rounds it."""
    x = np.asarray(x, np.float32)
    hx = x.view(np.int32).astype(np.int64)
    ix = hx & 0x7fffffff
    one, two, three_halves = _F(1), _F(2), _F(1.5)
    with np.errstate(all="ignore"):
        a = np.abs(x)
        ident = np.select([ix < 0x3ee00000, ix < 0x3f300000, ix < 0x3f980000, ix < 0x401c0000],
                          [-1, 0, 1, 2], 3)
        reduced = np.select([ident < 0, ident == 0, ident == 1, ident == 2],
                            [x, (two * a - one) / (two + a), (a - one) / (a + one),
                             (a - three_halves) / (one + three_halves * a)], -one / a)
        z = reduced * reduced
        w = z * z
        s1 = z * _nested(w, _AT_ODD)
        s2 = w * _nested(w, _AT_EVEN)
        index = np.maximum(ident, 0)
        hi, lo = np.asarray(_ATANHI)[index], np.asarray(_ATANLO)[index]
        z = hi - ((reduced * (s1 + s2) - lo) - reduced)
        out = np.where(ident < 0, reduced - reduced * (s1 + s2), np.where(hx < 0, -z, z))
        out = np.where((ident < 0) & (ix < 0x31000000), x, out)
        big = np.where(hx > 0, _ATANHI[3] + _ATANLO[3], -_ATANHI[3] - _ATANLO[3])
        return np.where(ix > 0x7f800000, x + x, np.where(ix >= 0x4c000000, big, out))


_PI, _PI_2, _PI_4, _PI_LO = (_F(3.1415927410e+00), _F(1.5707963705e+00), _F(7.8539818525e-01),
                             _F(-8.7422776573e-08))


def atan2f(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """atan2(y, x) for float32 arrays, as glibc's atan2f (fdlibm's e_atan2f.c) rounds it."""
    y, x = np.broadcast_arrays(np.asarray(y, np.float32), np.asarray(x, np.float32))
    hx, hy = (v.view(np.int32).astype(np.int64) for v in (x, y))
    ix, iy = hx & 0x7fffffff, hy & 0x7fffffff
    negative_y, negative_x = hy < 0, hx < 0
    with np.errstate(all="ignore"):
        k = (iy - ix) >> 23
        z = atanf(np.abs(y / x))
        z = np.where(negative_x & (k < -60), _F(0), z)
        z = np.where(k > 60, _PI_2 + _F(0.5) * _PI_LO, z)
        general = np.where(negative_x, np.where(negative_y, (z - _PI_LO) - _PI, _PI - (z - _PI_LO)),
                           np.where(negative_y, -z, z))
        pi_signed = np.where(negative_y, -_PI, _PI)
        half_pi_signed = np.where(negative_y, -_PI_2, _PI_2)
        both_inf = np.where(negative_x, _F(3) * _PI_4, _PI_4)
        inf_x = np.where(negative_x, _PI, _F(0))
        out = np.select(
            [(ix > 0x7f800000) | (iy > 0x7f800000), hx == 0x3f800000,
             iy == 0, ix == 0, (ix == 0x7f800000) & (iy == 0x7f800000), ix == 0x7f800000,
             iy == 0x7f800000],
            [x + y, atanf(y), np.where(negative_x, pi_signed, y), half_pi_signed,
             np.where(negative_y, -both_inf, both_inf), np.where(negative_y, -inf_x, inf_x),
             half_pi_signed], general)
    return out.astype(np.float32)


# scalar's functions by name
_FLOAT_FUNCTIONS = {"log": logf, "log1p": log1pf, "expm1": expm1f, "sinh": sinhf, "cosh": coshf,
                    "atanh": atanhf, "asinh": asinhf, "acosh": acoshf}
_DOUBLE_FUNCTIONS = {"log": math.log, "log1p": math.log1p, "expm1": math.expm1, "exp2": math.exp2,
                     "sinh": math.sinh, "cosh": math.cosh, "atanh": math.atanh,
                     "asinh": math.asinh, "acosh": math.acosh}
_NUMPY_FUNCTIONS = {"log": np.log, "log1p": np.log1p, "expm1": np.expm1, "exp2": np.exp2,
                    "sinh": np.sinh, "cosh": np.cosh, "atanh": np.arctanh, "asinh": np.arcsinh,
                    "acosh": np.arccosh}
