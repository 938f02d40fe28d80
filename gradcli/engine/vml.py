"""MKL's VML kernels, which torch's CPU build calls for its float32 unary ops (ATen's vml.h):
sin, cos, ... step by step as MKL runs them on AMD processors, so results carry torch's last bits.

MKL picks a VML code path by CPU vendor. On AMD it takes the SSE4.2 one (the `EX` kernels, in
their high-accuracy mode), whose results are within an ulp of the true value but are not
correctly rounded: about 1 value in 20 of float32 sin differs in the last bit from the value
rounded once from double. Each kernel below repeats its fast path's float and double operations
in order (the constants are the kernel's own); lanes its fast path sends elsewhere (huge
arguments, infinities, NaN) take the value rounded from double. On Intel processors with AVX-512
MKL runs its AVX-512 kernels (the `Z0` ones), replayed in the vml_avx512 modules; other
processors run other kernels, not measured here: there every op keeps the value rounded from
double. (bfloat16 and float16 ops run torch's own vectorised code, not VML.)
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from gradcli.engine.blockwise import blockwise
from gradcli.engine.cpu_capability import AVX512_CORE, VENDOR
from gradcli.engine.state import STATE

_INTEL = VENDOR == "GenuineIntel" and AVX512_CORE
ACTIVE = VENDOR == "AuthenticAMD" or _INTEL


def _f32(bits: int) -> np.float32:
    return np.uint32(bits).view(np.float32)




@functools.cache
def _table(name: str, width: int) -> np.ndarray:
    """One of MKL's tables (vml_float_tables.py, read on first use): a row of `width` 32-bit
    words per entry."""
    from gradcli.engine.vml_float_tables import TABLES
    return np.frombuffer(bytes.fromhex(TABLES[name]), "<u4").reshape(-1, width)


_SIGN = np.uint32(0x80000000)


def _rcpps(x: np.ndarray) -> np.ndarray:
    """The processor's 1/x estimate (vml_double's measured table, loaded with the first kernel
    that needs it)."""
    from gradcli.engine.vml_double import rcpps
    return rcpps(x)


def _rsqrtps(x: np.ndarray) -> np.ndarray:
    """The processor's 1/sqrt estimate (rsqrt_estimate.py, loaded with the first kernel that
    needs it, so start-up stays without it)."""
    from gradcli.engine.rsqrt_estimate import rsqrtps
    return rsqrtps(x)

# ---- sin and cos: the argument reduced by multiples of pi in double, an odd polynomial ------------
_INV_PI = _f32(0x3EA2F983)
_SHIFTER = _f32(0x4B400000)  # 1.5 * 2**23: adding it rounds to an integer, kept in the low bits
_HALF_PI = _f32(0x3FC90FDB)
_PI_HIGH = float.fromhex("0x1.921fb54440000p+1")
_PI_LOW = float.fromhex("0x1.68c234c4c6629p-38")
_SIN_POLY = tuple(float.fromhex(h) for h in (
    "0x1.5dbdf0e4c7deep-19", "-0x1.9f6ffeea73463p-13", "0x1.110ed3804ca96p-7",
    "-0x1.55554bc836587p-3"))
_SIN_LIMIT = _f32(0x461C4000)  # 10000: past it, the kernel's slow path


def _sin_or_cos(x: np.ndarray, cosine: bool) -> np.ndarray:
    """sSin / sCos: |x| less n*pi (n the nearest integer to |x|/pi, or to |x|/pi + 1/2 less
    1/2 for cos), then r + r*p(r*r); n's parity (and x's sign for sin) gives the sign."""
    a = np.abs(x)
    t = (a + _HALF_PI) if cosine else a.copy()
    t *= _INV_PI
    t += _SHIFTER
    n = t - _SHIFTER
    if cosine:
        n -= np.float32(0.5)
    turns = n.astype(np.float64)
    r = a.astype(np.float64)
    r -= turns * _PI_HIGH
    r -= turns * _PI_LOW
    r2 = r * r
    p = r2 * _SIN_POLY[0]
    for c in _SIN_POLY[1:]:
        p += c
        p *= r2
    p *= r
    p += r
    out = p.astype(np.float32)
    sign = t.view(np.uint32) << np.uint32(31)
    if not cosine:
        sign ^= x.view(np.uint32) & _SIGN
    out.view(np.uint32)[...] ^= sign
    return out


# ---- tan: the argument reduced by multiples of pi/2 in double, a rational function ---------------
_TWO_OVER_PI = _f32(0x3F22F983)
_HALF_PI_HIGH = float.fromhex("0x1.921fb54440000p+0")
_HALF_PI_LOW = float.fromhex("0x1.68c234c4c6629p-39")
_TAN_NUM = float.fromhex("0x1.8867706ed6612p-4")
_TAN_DEN = (float.fromhex("0x1.3e66ea6aa37f2p-7"), float.fromhex("-0x1.b76f5e7f08c11p-2"))


def _tan(x: np.ndarray) -> np.ndarray:
    """sTan: r = |x| less n*pi/2 (n the nearest integer to |x|*2/pi), then
    p = r - c*r*r*r and q = (a*r*r + b)*r*r + 1 give tan r = p/q (n even) or -cot r = -q/p (odd)."""
    a = np.abs(x)
    t = a * _TWO_OVER_PI
    t += _SHIFTER
    turns = (t - _SHIFTER).astype(np.float64)
    r = a.astype(np.float64)
    r -= turns * _HALF_PI_HIGH
    r -= turns * _HALF_PI_LOW
    r2 = r * r
    p = r - (r * _TAN_NUM) * r2
    q = r2 * _TAN_DEN[0]
    q += _TAN_DEN[1]
    q *= r2
    q += 1.0
    odd = t.view(np.uint32) << np.uint32(31)
    out = np.where(odd == 0, p / q, q / p).astype(np.float32)
    out.view(np.uint32)[...] ^= odd ^ (x.view(np.uint32) & _SIGN)
    return out


# ---- atan: atan(c) plus a polynomial in the quotient t = (|x| - c)/(1 + c|x|) ---------------------
# |x|'s interval (by its bits) picks c and atan(c) as a high and a low float; past 2.6875,
# t = -1/|x| and atan(c) = pi/2.
_ATAN_FROM = np.array([0, 0x3EC00000, 0x3F3851EC, 0x3FE00000, 0x402C0001], np.uint32)
_ATAN_HIGH = np.array([0, 0x3EED6338, 0x3F490FD8, 0x3F8DB710, 0x3FC90FD8], np.uint32).view(np.float32)
_ATAN_LOW = np.array([0, 0x31AC3768, 0x34288858, 0xB4DA2880, 0x34A88858], np.uint32).view(np.float32)
_ATAN_POLY = tuple(_f32(b) for b in (0x3DAE1329, 0x3E4CAA3B, 0xBEAAAA6C, 0x3E0F4E4E))
_ATAN_LIMITS = (_f32(0x01000000), _f32(0x7CFFFFFF))  # 2**-125 and below 2**123: the fast path
_HIGH_HALF = np.uint64(0xFFFFFFFFE0000000)  # a double's sign, exponent and first 23 fraction bits
_RECIPROCAL_ONE = float.fromhex("0x1.ffep-1")  # the processor's 12-bit reciprocal estimate of 1


def _atan(x: np.ndarray) -> np.ndarray:
    """sAtan: t = (|x| - c)/(1 + c|x|) as the sum of a float t1 (the quotient's high bits)
    and a float t2, then atan(c) + t1 + (low(c) + t2 + t1*t1*t1*p(t1*t1)), x's sign."""
    a = np.abs(x)
    part = np.searchsorted(_ATAN_FROM, a.view(np.uint32), side="right") - 1
    one = np.float32(1)
    num = np.choose(part, (a, a - np.float32(0.5), a - one, a - np.float32(2), -one))
    den = np.choose(part, (np.ones_like(a), a * np.float32(0.5) + one, a + one, (a + a) + one, a))
    # the reciprocal estimate (rcpps) refined twice in double: its own error shows only in an
    # exact quotient (a power-of-two denominator), where the estimate is 0x1.ffep-1 / den
    d = den.astype(np.float64)
    exact = (den.view(np.uint32) & np.uint32(0x7FFFFF)) == 0
    r = np.where(exact, _RECIPROCAL_ONE / d, 1.0 / d).astype(np.float32).astype(np.float64)
    e = 1.0 - d * r
    y = e * r + r
    y *= e * e + 1.0
    q = y * num.astype(np.float64)
    q_high = (q.view(np.uint64) & _HIGH_HALF).view(np.float64)
    t = q_high.astype(np.float32)
    low = _ATAN_LOW[part] + (q - q_high).astype(np.float32)
    z = t * t
    w = z * z
    p = w * _ATAN_POLY[0]
    p += _ATAN_POLY[1]
    p *= z
    p += _ATAN_POLY[2] - w * _ATAN_POLY[3]
    p *= z
    p *= t
    p += low
    p += t
    p += _ATAN_HIGH[part]
    p.view(np.uint32)[...] |= x.view(np.uint32) & _SIGN
    return p


# ---- asin: below 1/2 an odd polynomial; above, pi/2 - 2*asin(sqrt((1 - |x|)/2)) ---------------------
_ASIN_POLY = tuple(_f32(b) for b in (0x3D2EDC07, 0x3CC32A6B, 0x3D3A9AB4, 0x3D997C12, 0x3E2AAAFF))
_ASIN_ROOT = tuple(_f32(b) for b in (0x3E800001, 0x3DC00004))  # the square root's correction
_HALF_PI_FLOAT = (_f32(0x3FC90FDB), _f32(0xB33BBD2E))  # pi/2 as a high and a low float
_TINY = _f32(0x2F800000)  # 2**-32: below it, the root's estimate is 0
_KEEP_12 = np.uint32(0xFFFFF000)
_KEEP_11 = np.uint32(0xFFFFE000)


def _bits_kept(v: np.ndarray, mask: np.uint32) -> np.ndarray:
    return (v.view(np.uint32) & mask).view(np.float32)


def _asin_parts(x: np.ndarray):
    """What sAsin and sAcos share: z = min(x*x, y) with y = (1 - |x|)/2, the polynomial
    z*p(z), s = sqrt(2y) as a float and the root's correction (s + correction is sqrt(2y)).

    s comes from the processor's estimate of 1/sqrt(y) (rsqrtps, the measured table of
    rsqrt_estimate.py), cut to its first 12 bits."""
    a = np.abs(x)
    half = np.float32(0.5)
    y = half - a * half
    z = np.minimum(x * x, y)
    estimate = _rsqrtps(np.maximum(y, _TINY))
    r = np.where(y >= _TINY, _bits_kept(estimate, _KEEP_12), np.float32(0))
    t = y + y
    t_high = _bits_kept(t, _KEEP_11)
    s = t_high * r
    s_low = (t - t_high) * r
    s_high = _bits_kept(s, _KEEP_11)
    e = s_high * r
    e += np.float32(-2.0)
    e += r * s_low
    e += (s - s_high) * r
    root = (_ASIN_ROOT[0] - e * _ASIN_ROOT[1]) * ((s + s_low) * e) - s_low
    p = z * z * (z * _ASIN_POLY[0] + _ASIN_POLY[1]) + (z * _ASIN_POLY[2] + _ASIN_POLY[3])
    p *= z
    p += _ASIN_POLY[4]
    p *= z
    return a, y, z, p, s, root


def _asin(x: np.ndarray) -> np.ndarray:
    """sAsin: asin |x| = h + m*p(z) + l, where below |x| = 1/2 h = m = |x| and l = 0; above,
    h = pi/2 - s, m = the root's correction less s, l = h's rounding error plus the correction
    and pi/2's low part (see _asin_parts). x's sign."""
    a, _, _, p, s, root = _asin_parts(x)
    pi2 = _HALF_PI_FLOAT[0]
    h = pi2 - s
    low = ((pi2 - h) - s) + (root + _HALF_PI_FLOAT[1])
    small = a < np.float32(0.5)
    out = np.where(small, a, root - s) * p
    out += np.where(small, np.float32(0), low)
    out += np.where(small, a, h)
    out.view(np.uint32)[...] ^= x.view(np.uint32) & _SIGN
    return out


# ---- sqrt: the processor's estimate of 1/sqrt(x), refined in float -------------------------------
_HALF = np.float32(0.5)
_SQRT_LOW, _SQRT_HIGH = np.uint32(0x00800000), np.uint32(0x7F7FF000)  # its fast path's bits
_QUIET_NAN = _f32(0x7FC00000)


def _sqrt(x: np.ndarray) -> np.ndarray:
    """sSqrt: y the estimate of 1/sqrt(x) (rsqrtps), then h = x*y, e = 1/2 - h*(y/2),
    s = h + h*e, and s + (x - s*s) * (y/2 + (y/2)*e), each step rounded to float."""
    y = _rsqrtps(x)
    h = x * y
    y *= _HALF
    e = _HALF - h * y
    s = h * e
    s += h
    y += y * e
    r = x - s * s
    r *= y
    r += s
    return r


def _sqrt_fast(x: np.ndarray) -> np.ndarray:
    bits = x.view(np.uint32)
    return (bits >= _SQRT_LOW) & (bits <= _SQRT_HIGH)


def nan_below_zero(x: np.ndarray, rounded: Callable) -> np.ndarray:
    """The slow path of sqrt and the logarithms: the value rounded from double, but a positive
    NaN for x < 0 (-inf too)."""
    out = rounded(x)
    out[x < 0] = _QUIET_NAN
    return out


# ---- exp: x = (128k + j) ln2/128 + r, then 2**k * 2**(j/128) * (1 + r + r*r/2) --------------------
_EXP_TO_STEPS = _f32(0x4338AA3B)  # 128 / ln 2
_EXP_STEP_HIGH = _f32(0x3BB18000)  # ln2/128 = high - low
_EXP_STEP_LOW = _f32(0x35DE8083)
_EXP_LIMIT = _f32(0x42AEAC4F)  # 87.33655: past it (under- or overflow near), the slow path


@functools.cache
def _exp_table() -> tuple[np.ndarray, np.ndarray]:
    """2**(j/128) for j < 128 as a float and the float nearest what it leaves out."""
    from decimal import Decimal, localcontext  # (made on first use, off start-up)

    with localcontext() as context:
        context.prec = 40
        exact = [Decimal(2) ** (Decimal(j) / 128) for j in range(128)]
        high = np.array([float(v) for v in exact]).astype(np.float32)
        low = np.array([float(v - Decimal(float(h))) for v, h in zip(exact, high)])
    return high, low.astype(np.float32)


def _exp(x: np.ndarray) -> np.ndarray:
    """sExp: n = x*128/ln2 rounded to an integer (k = n // 128, j = n % 128), r = x - n*ln2/128
    in two parts, then ((r + r*r/2) * 2**(j/128) + its low part + 2**(j/128)) * 2**k, in float."""
    t = x * _EXP_TO_STEPS
    t += _SHIFTER
    n = t - _SHIFTER
    r = x - n * _EXP_STEP_HIGH
    r += n * _EXP_STEP_LOW
    bits = t.view(np.uint32)
    j = bits & np.uint32(0x7F)
    table_high, table_low = _exp_table()
    high = table_high[j]
    q = r * r
    q *= _HALF
    q += r
    q *= high
    q += table_low[j]
    q += high
    scale = ((bits << np.uint32(16)) + np.uint32(0x3F800000)) & np.uint32(0x7F800000)
    q *= scale.view(np.float32)
    return q


def _within(limit: np.float32) -> Callable[[np.ndarray], np.ndarray]:
    return lambda x: np.abs(x) <= limit  # (NaN fails)


def _between(low: np.float32, high: np.float32) -> Callable[[np.ndarray], np.ndarray]:
    return lambda x: (np.abs(x) >= low) & (np.abs(x) <= high)  # (NaN fails)


# ---- acos: asin's pieces; below 1/2, pi/2 - asin x; above, 2*asin(sqrt((1 - |x|)/2)) or pi less it --
_PI_FLOAT = (_f32(0x40490FDB), _f32(0xB3BBBD2E))  # pi as a high and a low float


def _acos(x: np.ndarray) -> np.ndarray:
    """sAcos: with m = -|x| and c = pi/2 (low part l) below |x| = 1/2, m = s and c = 0 (x >= 0)
    or pi (x < 0, low part l) above, and r the root's correction above (else 0),
    acos x = c + ((m - r)*p(z) + (l - r) + m), the bracket taking x's sign."""
    a, y, z, p, s, root = _asin_parts(x)
    constant, low, sign, m, root = acos_terms(x, a, y, z, s, root)
    out = (m - root) * p
    out += low - root
    out += m
    out.view(np.uint32)[...] ^= sign
    out += constant
    return out


def acos_terms(x, a, y, z, s, root) -> tuple[np.ndarray, ...]:
    """acos's pieces from asin's (MKL's AMD and AVX-512 kernels alike): the constant c and its
    low part l (x's sign put in), x's sign bit, m and the root's correction r."""
    big = ~(z < y)
    negative = big & ~(z < x)
    zero = np.float32(0)
    constant = np.where(big, np.where(negative, _PI_FLOAT[0], zero), _HALF_PI_FLOAT[0])
    low = np.where(big, np.where(negative, _PI_FLOAT[1], zero), _HALF_PI_FLOAT[1])
    sign = x.view(np.uint32) & _SIGN
    low.view(np.uint32)[...] ^= sign
    return constant, low, sign, np.where(big, s, -a), np.where(big, root, zero)


# ---- erf: erf(c) from a table plus erf'(c)*(|x| - c)*(1 + a polynomial), c = |x| to 1/256 -------
# An entry: erf(c) as a float scaled by 2**-120 in its low 26 bits, its rounding error in the top
# 6 (ulps of 1 + those bits times erf(c)), and 64*erf'(c) as a float.
_ERF_TOP = _f32(0x407B8000)  # 3.9296875: |x| past it is taken as it (erf is 1 there)
_ERF_SHIFTER = _f32(0x47000000)  # 2**15: adding it rounds to a multiple of 1/256
_ERF_FROM = _f32(0x3C600000)  # 0.013671875: below it c = 0 (the first entries hold erf(0))
_ERF_TINY = _f32(0x27800000)  # 2**-48: below it the square term is 0
_ERF_POLY = tuple(_f32(b) for b in (0x3E0375D4, 0x3EC093B2, 0x3F4093A6, 0xBF906EBC))
_ERF_SCALE = _f32(0x7B800000)  # 2**120
_LOW_26 = np.uint32(0x03FFFFFF)
_ONE_BITS = np.uint32(0x3F800000)


def _erf(x: np.ndarray) -> np.ndarray:
    """sErf: with m = min(|x|, 3.9296875), c = m to 1/256 (0 below 0.0137), d = m - c and D =
    erf'(c)*64*d, erf |x| = erf(c) + (D*p + D + low(c))/64, p = (a*c*d + b)*c*d + (e - f*d*d);
    x's sign. Every lane takes this path (NaN too, from the min with |x| of the table's erf(c))."""
    a = np.abs(x)
    m = np.where(a < _ERF_TOP, a, _ERF_TOP)
    shifted = m + _ERF_SHIFTER
    k = shifted.view(np.uint32) - _ERF_SHIFTER.view(np.uint32)
    c = np.where(_ERF_FROM <= m, shifted - _ERF_SHIFTER, np.float32(0))
    d = m - c
    square = np.where(_ERF_TINY < m, d, np.float32(0))
    square *= square
    cd = c * d
    p = cd * _ERF_POLY[2]
    p += _ERF_POLY[3]
    p *= cd
    p += _ERF_POLY[0] - square * _ERF_POLY[1]
    step = _table("erf", 2)[k, 1].view(np.float32) * d
    high = (_table("erf", 2)[k, 0] & _LOW_26).view(np.float32)
    high = np.where(high < a, high, a) * _ERF_SCALE
    low = ((_table("erf", 2)[k, 0] >> np.uint32(26)) | _ONE_BITS).view(np.float32) * high - high
    p *= step
    p += low
    p += step
    p *= np.float32(0.015625)
    p += high
    p.view(np.uint32)[...] ^= x.view(np.uint32) & _SIGN
    return p


# ---- erfc: erfc(c) from a table less erfc'(c)*(|x| - c)*(1 + a polynomial), c = |x| to 1/64 -----
# An entry: erfc(c)*2**64 as a float, then a word holding the slope |erfc'(c)|*2**64 (its exponent
# is erfc(c)'s plus the word's bits 23-25, its fraction the low 23) and, in the top 6 bits,
# erfc(c)'s rounding error in units of 2**-29 of the slope.
_ERFC_TOP = _f32(0x4120C000)  # 10.046875: |x| past it is taken as it (the entry there is 0)
_ERFC_SHIFTER = _f32(0x48000000)  # 2**17: adding it rounds to a multiple of 1/64
_ERFC_W = tuple(_f32(b) for b in (0x3E08A294, 0x3D362FD7, 0xBEAAAAA7, 0x3F2AAAA8))
_ERFC_V = tuple(_f32(b) for b in (0x3F004465, 0x3ECD2E81, 0xBEAAAA8B))
_ERFC_LIMIT = _f32(0x4120DDFB)  # x from 10.054194 (erfc below half the least float): slow path
_EXPONENT = np.uint32(0x7F800000)
_KEEP_17 = np.uint32(0xFFFF8000)
_SIXTY_FOURTH = np.float32(0.015625)
_TWO_64 = np.uint32(0x5F800000)  # 2**64, and 2**-64 below
_TWO_MINUS_64 = np.uint32(0x1F800000)


def _erfc(x: np.ndarray) -> np.ndarray:
    """sErfc: with m = min(|x|, 10.046875), c = m to 1/64, d = m - c (m at least 2**-32) and D
    the slope, in units of 2**-64 erfc |x| = erfc(c) - D*d - D*((c*d)**2*w(c*d) - c*d)*d
    - D*(d**3*v(c*d) - low(c)), D*d summed as its high and low parts; for x < 0, 2 less it."""
    a = np.abs(x)
    m = np.where(a < _ERFC_TOP, a, _ERFC_TOP)
    shifted = m + _ERFC_SHIFTER
    k = shifted.view(np.uint32) - _ERFC_SHIFTER.view(np.uint32)
    c = shifted - _ERFC_SHIFTER
    d = np.maximum(m, _TINY) - c
    cd = c * d
    high = _table("erfc", 2)[k, 0]
    word = _table("erfc", 2)[k, 1]
    slope = ((high & _EXPONENT) + (word & _LOW_26)).view(np.float32)
    low = ((word >> np.uint32(26)) | _SIXTY_FOURTH.view(np.uint32)).view(np.float32)
    low -= _SIXTY_FOURTH
    v = _ERFC_V[0] - cd * _ERFC_V[1]
    v *= cd
    v += _ERFC_V[2]
    v *= d
    v *= d
    v *= d
    v -= low
    w = _ERFC_W[0] - cd * _ERFC_W[1]
    w *= cd
    w += _ERFC_W[2]
    w *= cd
    w += _ERFC_W[3]
    tail = cd * cd * w - cd
    tail *= d
    tail += v
    tail *= slope
    slope_high = _bits_kept(slope, _KEEP_17)
    step = d * slope_high
    value = high.view(np.float32) - step
    tail += (slope - slope_high) * d
    tail += step - (high.view(np.float32) - value)
    value -= tail
    sign = x.view(np.uint32) & _SIGN
    value += (sign | _TWO_64).view(np.float32) - _TWO_64.view(np.float32)
    value *= (sign | _TWO_MINUS_64).view(np.float32)
    return value


# ---- erfinv: x times a polynomial in w = 1 - |x|'s fraction, one per 1/8 of each binade of w ------
# An entry: 8 floats c0..c7, g(t) = c6 + c7*t + t*(c1 + ... + c5*t**4) + c0 near the row's
# middle, t the offset from it of w's fraction (plus w's rounding error, scaled alike).
_ERFINV_LIMITS = (_f32(0x33800001), _f32(0x3F7FFFFF))  # past 2**-24, below 1: the fast path
_ERFINV_ROW = np.uint32(0x3F7)  # w's bits from the 20th for 1 - 2**-24, the first row's
_ERFINV_CENTRE = _f32(0xBF880000)  # -1.0625
_LOW_20 = np.uint32(0x000FFFFF)
_HALF_EXPONENT = np.uint32(0x3F800000)
_TWICE_ONE = np.uint32(0x7F000000)  # less w's exponent bits: 2 ** -(w's exponent)


def _erfinv(x: np.ndarray) -> np.ndarray:
    """sErfInv: w = 1 - |x| as a float and its rounding error e; w's exponent and first 3
    fraction bits pick a row, t = w's remaining fraction - 1/16 + e/2**(w's exponent); then
    erfinv x = x*g(t) (see the table), g's high part summed apart, and x*g as x's high and
    low parts times g's."""
    a = np.abs(x)
    one = np.float32(1)
    w = one - a
    error = (one - w) - a
    bits = w.view(np.uint32)
    inside = (a >= _ERFINV_LIMITS[0]) & (a <= _ERFINV_LIMITS[1])
    row = _table("erfinv", 8).view(np.float32)[np.where(inside, _ERFINV_ROW - (bits >> np.uint32(20)), 0)]
    scale = (_TWICE_ONE - (bits & _HALF_EXPONENT)).view(np.float32)
    fraction = ((bits & _LOW_20) | _ONE_BITS).view(np.float32)
    fraction += _ERFINV_CENTRE
    t = fraction + error * scale
    p = row[..., 5] * t
    for i in (4, 3, 2, 1):
        p += row[..., i]
        p *= t
    p += row[..., 0]
    fraction_high = _bits_kept(fraction, _KEEP_12)
    p += row[..., 7] * (t - fraction_high)
    slope = fraction_high * row[..., 7]
    g_high = _bits_kept(slope + p + row[..., 6], _KEEP_12)
    g = (row[..., 6] - g_high) + slope
    g += p
    x_high = _bits_kept(x, _KEEP_12)
    out = g * x
    out += g_high * (x - x_high)
    out += x_high * g_high
    return out


# ---- log: x = 2**e * m with m from 2/3 to 4/3, log x = e*ln2 + f + f*f*p(f), f = m - 1 -----------
_TWO_THIRDS = np.uint32(0x3F2AAAAB)
_LN_POLY = tuple(_f32(b) for b in (
    0x3E0402C8, 0x3E0F335D, 0xBDF9889E, 0x3E0F6B8C, 0xBE2ACEE6, 0x3E4CE814, 0xBE7FFF78, 0x3EAAAA83,
    0xBF000000))
_LN2_FLOAT = (_f32(0x3F317200), _f32(0x35BFBE8E))  # ln 2 as a high and a low float
_LOW_23 = np.uint32(0x007FFFFF)
_NORMAL = (_f32(0x00800000), _f32(0x7F7FFFFF))  # the logarithms' fast path: positive, normal


def _ln(x: np.ndarray) -> np.ndarray:
    """sLn: t = x's bits less 2/3's, e = t >> 23 (signed), m = t's fraction bits plus 2/3's
    bits, f = m - 1; p = b - a*f, then p*f + c for each further coefficient c, and
    log x = e*ln2_high + (e*ln2_low + (p*f*f + f)), in float."""
    t = x.view(np.uint32) - _TWO_THIRDS
    f = ((t & _LOW_23) + _TWO_THIRDS).view(np.float32) - np.float32(1)
    p = _LN_POLY[1] - f * _LN_POLY[0]
    for c in _LN_POLY[2:]:
        p *= f
        p += c
    p *= f
    p *= f
    p += f
    e = (t.view(np.int32) >> 23).astype(np.float32)
    p += e * _LN2_FLOAT[1]
    p += e * _LN2_FLOAT[0]
    return p


# ---- log10, log2: x = 2**e * m, log(m) = log(m*r) - log(r), r from the rcpps estimate of 1/m ------
class _Logarithm:
    """MKL's float32 log10 or log2 (the constants for its base)."""

    def __init__(self, name, scale, factor, first, log2, poly, subnormal):
        self.name = name  # its table: per row, log(factor/r) less (127 + k)*log(2) as a high
        # and a low float, m = 2**k times x's mantissa; "_subnormal" added, the slow path's
        self.scale = np.uint32(scale)  # the exponent bits m gets
        self.high_bits = np.uint32(scale | 0x7FFF00)  # m's exponent and top 15 mantissa bits
        self.factor, self.first = _f32(factor), np.uint32(first)
        self.log2 = log2 and tuple(_f32(b) for b in log2)  # None for log2 (e added as it is)
        self.poly = tuple(_f32(b) for b in poly)
        # the subnormal path's: x's scaling, the exponent it adds, the constant r*m would be,
        # its own log(2) and polynomial
        scaling, self.offset, shift, subnormal_log2, subnormal_poly = subnormal
        self.scaling, self.shift = _f32(scaling), _f32(shift)
        self.subnormal_log2 = subnormal_log2 and tuple(_f32(b) for b in subnormal_log2)
        self.subnormal_poly = tuple(_f32(b) for b in subnormal_poly)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """m = x's mantissa with the exponent `scale`; r = rint(rcpps(m) * factor) (r's bits
        pick the table's row); u = m*r - factor (m in two parts); with e x's biased exponent,
        h = e*log(2) + table(r) and l the same of the low parts, s = h + u and d = (h - s) + u,
        log10 x = (d + (u*p(u) + l)) + s and log2 x = ((d + l) + u*p(u)) + s, in float."""
        bits = x.view(np.uint32)
        m = ((bits & _LOW_23) | self.scale).view(np.float32)
        r = _rcpps(m) * self.factor
        r += _SHIFTER
        r -= _SHIFTER
        m_high = _bits_kept(m, self.high_bits)
        u = m_high * r - self.factor
        u += (m - m_high) * r
        row = _table(self.name, 2).view(np.float32)[(r.view(np.uint32) >> np.uint32(16)) - self.first]
        e = (bits >> np.uint32(23)).astype(np.float32)
        if self.log2 is None:
            high, low = row[..., 0] + e, row[..., 1]
        else:
            high = e * self.log2[0] + row[..., 0]
            low = e * self.log2[1] + row[..., 1]
        p = u * self.poly[0] + self.poly[1]
        p *= u
        p += self.poly[2]
        p *= u
        total = high + u
        rest = (high - total) + u
        if self.log2 is None:
            rest += low
            rest += p
        else:
            p += low
            rest += p
        rest += total
        return rest

    def rare(self, x: np.ndarray, rounded: Callable) -> np.ndarray:
        """The slow path: `nan_below_zero`, but subnormal x take the kernel's own way."""
        out = nan_below_zero(x, rounded)
        small = (x > 0) & (x < _NORMAL[0])
        if small.any():
            out[small] = self._subnormal(x[small])
        return out

    def _subnormal(self, x: np.ndarray) -> np.ndarray:
        """x*2**k (a normal float) = 2**e * m, m from 1 to 2: the row j nearest 64*(m - 1) gives
        an estimate c/(1 + j/64) and log(1 + j/64) in two parts; u = estimate*m - c (m and the
        estimate in two parts), then log x = e*log(2) + log(1 + j/64) + u + u*q(u), in float in
        the kernel's order."""
        bits = (x * self.scaling).view(np.uint32)
        e = ((bits >> np.uint32(23)).astype(np.int32) - self.offset).astype(np.float32)
        m = ((bits & _LOW_23) | _ONE_BITS).view(np.float32)
        row = _table(self.name + "_subnormal", 3).view(np.float32)[
            (m + np.float32(131073)).view(np.uint32) & np.uint32(0x7F)]
        if self.subnormal_log2 is None:
            high, low = e + row[..., 1], row[..., 2]
        else:
            high = e * self.subnormal_log2[0] + row[..., 1]
            low = e * self.subnormal_log2[1] + row[..., 2]
        m_high = (m + np.float32(8192)) - np.float32(8192)
        estimate = row[..., 0]
        estimate_high = _bits_kept(estimate, _KEEP_11)
        u_high = estimate_high * m_high + self.shift
        u_low = (estimate - estimate_high) * m_high + (m - m_high) * estimate
        v = u_high + u_low
        q = self.subnormal_poly[0] * v
        for c in self.subnormal_poly[1:-1]:
            q += c
            q *= v
        q += self.subnormal_poly[-1]
        high += u_high
        out = q * u_low + low
        out += u_low
        out += q * u_high
        out += high
        return out


_LOG10 = _Logarithm("log10", 0x3B000000, 0x3EDE0000, 0x42DE, (0x3E9A2100, 0xB64AF600),
                    (0x3FE35103, 0xBF93D7E4, 0x3AD3D366),
                    (0x53800000, 167, 0xC2DE5C00, (0x3E9A0000, 0x39826A14),
                     (0xA22B5DAE, 0x25AA5BFD, 0xA92C998B, 0x2CB3E701, 0xB04353B9, 0x33E23666,
                      0xB7935D5A, 0xBF7F0000)))
_LOG2 = _Logarithm("log2", 0x3C000000, 0x3FB80000, 0x42B8, None,
                   (0x3E25C86A, 0xBEB2BB8C, 0x3B6CD7E0),
                   (0x4D000000, 154, 0xC3B8AA40, None,
                    (0x9C1D865E, 0x2081CD9D, 0xA4DA74DC, 0x293D1988, 0xADAA8223, 0x3223FE93,
                     0xB6B1720F, 0xBF7F0000)))


def _normal_positive(x: np.ndarray) -> np.ndarray:
    return (x >= _NORMAL[0]) & (x <= _NORMAL[1])  # (NaN fails)


# ---- tanh: a degree-7 polynomial in |x| (in double), one per quarter binade of |x| ---------------
# "tanh": per interval, the polynomial's 8 coefficients (doubles, constant term first); from
# |x| = 0.109375 on by |x|'s exponent and first 2 fraction bits, the first row below, the last
# (tanh = 1) from |x| = 10.
_TANH_FROM = np.uint32(0x3DE00000)
_TANH_LAST = 26
_TANH_LIMIT = np.uint32(0x7F000000)  # past it (|x| from 2**127 * 1.25, inf, NaN): the slow path
_QUARTER_BINADE = np.uint32(0x7FE00000)


@functools.cache
def _tanh_coefficients() -> np.ndarray:
    """The tanh table's coefficients by power: row k holds every interval's coefficient of x**k
    (each a contiguous run to gather from, not a column eight doubles apart)."""
    return np.ascontiguousarray(_table("tanh", 16).view(np.float64).T)


def _tanh(x: np.ndarray) -> np.ndarray:
    """sTanh: p(|x|) by Horner's rule in double with the coefficients of |x|'s interval,
    rounded to float, x's sign put in."""
    bits = x.view(np.uint32)
    interval = bits & _QUARTER_BINADE
    row = (np.maximum(interval, _TANH_FROM) - _TANH_FROM) >> np.uint32(21)
    np.minimum(row, _TANH_LAST, out=row)
    c = _tanh_coefficients()
    a = np.abs(x).astype(np.float64)
    p = c[7].take(row) * a
    for k in range(6, 0, -1):
        p += c[k].take(row)
        p *= a
    p += c[0].take(row)
    out = p.astype(np.float32)
    out.view(np.uint32)[...] |= bits & _SIGN
    return out


# name: (kernel, the lanes its fast path takes, the other lanes' values from `rounded` or None)
_KERNELS: dict[str, tuple[Callable, Callable, Callable | None]] = {
    "sin": (lambda x: _sin_or_cos(x, False), _within(_SIN_LIMIT), None),
    "cos": (lambda x: _sin_or_cos(x, True), _within(_SIN_LIMIT), None),
    "tan": (_tan, _within(_SIN_LIMIT), None),
    "atan": (_atan, _between(*_ATAN_LIMITS), None),
    "asin": (_asin, _within(np.float32(1)), None),
    "acos": (_acos, _within(np.float32(1)), None),
    "erf": (_erf, _between(np.float32(0), np.float32(np.inf)), None),
    "erfc": (_erfc, lambda x: x < _ERFC_LIMIT, None),
    "erfinv": (_erfinv, _between(*_ERFINV_LIMITS), None),
    "sqrt": (_sqrt, _sqrt_fast, nan_below_zero),
    "exp": (_exp, _within(_EXP_LIMIT), None),
    "log": (_ln, _normal_positive, nan_below_zero),
    "log10": (_LOG10, _normal_positive, _LOG10.rare),
    "log2": (_LOG2, _normal_positive, _LOG2.rare),
    "tanh": (_tanh, lambda x: (x.view(np.uint32) & _QUARTER_BINADE) <= _TANH_LIMIT, None),
}


def _in_layout(kernel: Callable[[np.ndarray], np.ndarray], a: np.ndarray) -> np.ndarray:
    """`kernel` over `a` block by block, its result laid out as `a` (as the ufunc it stands for
    lays it out): a column-major input gives a column-major result, whose order the
    reductions after it follow."""
    if a.flags.c_contiguous:
        return blockwise(kernel, a, dtype=a.dtype)
    out = np.empty_like(a)  # (a's axis order, dense)
    out.ravel(order="K")[...] = blockwise(kernel, a.ravel(order="K"), dtype=a.dtype)
    return out


@functools.cache
def _single_kernel(name: str):
    """The float32 kernel for `name` on this processor (kernel, fast lanes, slow lanes) or None."""
    if _INTEL:
        from gradcli.engine import vml_avx512
        return vml_avx512.single(name)
    return _KERNELS.get(name)


@functools.cache
def _double_kernel(name: str):
    """The float64 kernel for `name` on this processor or None (its module loads with the first
    float64 op)."""
    if _INTEL:
        from gradcli.engine import vml_avx512
        return vml_avx512.double(name)
    from gradcli.engine import vml_double
    return vml_double.KERNELS.get(name)


def reproduces(name: str, double: bool) -> bool:
    """Whether torch's `name` op (of float64 if `double`, else float32) runs a kernel replayed here."""
    return ACTIVE and (_double_kernel if double else _single_kernel)(name) is not None


def unary(name: str, rounded: Callable[[np.ndarray], np.ndarray]):
    """The forward of torch's `name` op: MKL's kernel for float32 (and, where vml_double has
    one, float64) arrays where it is known to run, else `rounded` (the value rounded from
    double, or NumPy's double), which also serves the lanes the kernel's fast path does not
    take."""
    if not ACTIVE:
        return rounded

    def emulated(a: np.ndarray) -> np.ndarray:
        """The kernel over `a`'s elements in order (as one vector of lanes, whatever its shape:
        a 0-d one too, which NumPy's ufuncs would give back as a scalar)."""
        lanes = a.reshape(-1)
        kernel, fast, rare = _single_kernel(name)
        with np.errstate(all="ignore"):  # (the slow lanes' garbage is replaced below)
            out = kernel(lanes)
        slow = ~fast(lanes)
        if slow.any():
            out[slow] = rounded(lanes[slow]) if rare is None else rare(lanes[slow], rounded)
        return out.reshape(a.shape)

    def emulated_double(a: np.ndarray) -> np.ndarray:
        lanes = a.reshape(-1)
        out, fast = _double_kernel(name)(lanes)
        if not fast.all():
            slow = ~fast
            out[slow] = rounded(lanes[slow])
        return out.reshape(a.shape)

    def forward(a):
        if type(a) in (np.float32, np.float64):  # (a 0-d result NumPy gave back as a scalar)
            a = np.asarray(a)
        if type(a) is not np.ndarray or not a.size:
            return rounded(a)
        if a.dtype == np.float32 and _single_kernel(name) and not STATE.reduced_kernel:
            return _in_layout(emulated, a)
        if a.dtype == np.float64 and _double_kernel(name):
            return _in_layout(emulated_double, a)
        return rounded(a)
    return forward
