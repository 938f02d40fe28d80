"""MKL's AVX-512 VML kernels (`Z0HA`, what torch's CPU build runs on Intel processors with
AVX-512) for float32 tan and float64 sin and cos, step by step: see vml.py and vml_double.py for
the SSE4.2 kernels MKL runs on AMD processors. Each kernel repeats its operations in order (every
multiply-add rounded once, as vfmadd), with the kernel's own constants and tables, for every
finite x: huge arguments take the kernels' own large reduction (x times a window of 1/(2*pi)'s
bits, in integer partial products). Infinities and NaN take the slow path (NaN).
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from gradcli.engine.avx512_estimates import rcp14
from gradcli.engine.fma import fma32, fma64
from gradcli.engine.vml_avx512_sincos import reduce_turns
from gradcli.engine.vml_double import _gathered

_U32 = np.uint32
_U64 = np.uint64
_SIGN = _U64(1 << 63)


def _f32(bits: int) -> np.float32:
    return _U32(bits).view(np.float32)


def _floats(text: str) -> np.ndarray:
    return np.array([int(word, 16) for word in text.split()], _U32).view(np.float32)


def _d(text: str) -> float:
    return float.fromhex(text)


def _doubles(text: str) -> np.ndarray:
    return np.array([int(word, 16) for word in text.split()], _U64).view(np.float64)


_INV_TWO_PI = int(  # 2**1164 / (2*pi), truncated: the bits of the large reductions' tables
    "28be60db9391054a7f09d5f47d4d377036d8a5664f10e4107f9458eaf7aef1586dc91b8e9093"
    "74b801924bba827464873f877ac72c4a69cfba208d7d4baed1213a671c09ad17df904e64758e"
    "60d4ce7d272117e2ef7e4a0ec7fe25fff7816603fbcbc462d6829b47db4d9fb3c9f2c26dd3d1"
    "8fd9a797fa8b5d49eeb1faf97c5ecf41ce7de294a4ba9afed7ec47e35742158", 16)


@functools.cache
def _turn_table(dtype: type, offset: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per biased exponent e (of float32 or float64, as `dtype` is uint32 or uint64), the three
    words of 2**(e - offset) / (2*pi) below the units (most significant first): the kernels'
    tables."""
    bits = np.dtype(dtype).itemsize * 8
    rows = [_INV_TWO_PI >> (1164 + offset - e) for e in range(256 if bits == 32 else 2048)]
    return tuple(np.array([(v >> (bits * j)) & ((1 << bits) - 1) for v in rows], dtype)
                 for j in (2, 1, 0))


# ---- float64 sin and cos: x less n*pi/16 (in three parts), sin and cos of n*pi/16 from a table ---
_TRIG_SCALE = _d("0x1.45f306dc9c883p+2")  # 16 / pi
_SHIFTER = _d("0x1.8p52")  # adding it rounds to an integer, kept in the low bits
_TRIG_PI = (_d("0x1.921fb54442d18p-3"), _d("0x1.1a62633000000p-57"),  # pi / 16 in three parts
            _d("0x1.45c06e0e68948p-89"))
_TRIG_SIN = _doubles(  # sin(k*pi/16) for k < 16
    "0000000000000000 3fc8f8b83c69a60b 3fd87de2a6aea963 3fe1c73b39ae68c8 3fe6a09e667f3bcd"
    " 3fea9b66290ea1a3 3fed906bcf328d46 3fef6297cff75cb0 3ff0000000000000 3fef6297cff75cb0"
    " 3fed906bcf328d46 3fea9b66290ea1a3 3fe6a09e667f3bcd 3fe1c73b39ae68c8 3fd87de2a6aea963"
    " 3fc8f8b83c69a60b")
_TRIG_COS = _doubles(  # cos(k*pi/16) for k < 16
    "3ff0000000000000 3fef6297cff75cb0 3fed906bcf328d46 3fea9b66290ea1a3 3fe6a09e667f3bcd"
    " 3fe1c73b39ae68c8 3fd87de2a6aea963 3fc8f8b83c69a60b 0000000000000000 bfc8f8b83c69a60b"
    " bfd87de2a6aea963 bfe1c73b39ae68c8 bfe6a09e667f3bcd bfea9b66290ea1a3 bfed906bcf328d46"
    " bfef6297cff75cb0")
_TRIG_LOW = _doubles(  # sin's rest in the upper 32 bits, cos's rest in the lower 32 bits
    "0000000000000000 3c756217bc626d19 3c7457e6bc672ced 3c39f6303c8b25dd bc8bdd34bc8bdd34"
    " 3c8b25dd3c39f630 bc672ced3c7457e6 bc626d193c756217 0000000000000000 3c626d193c756217"
    " 3c672ced3c7457e6 bc8b25dd3c39f630 3c8bdd34bc8bdd34 bc39f6303c8b25dd bc7457e6bc672ced"
    " bc756217bc626d19")
_TRIG_COS_POLY = tuple(_d(h) for h in (  # (cos r - 1) / r**2 in r**2
    "0x1.9ffd7d9d749bcp-16", "-0x1.6c16c075d73f8p-10", "0x1.555555554e8d6p-5",
    "-0x1.ffffffffffffcp-2"))
_TRIG_SIN_POLY = tuple(_d(h) for h in (  # (sin r - r) / r**3 in r**2
    "0x1.71c97d22a73ddp-19", "-0x1.a01a00ed01edep-13", "0x1.111111110e99dp-7",
    "-0x1.5555555555555p-3"))
_TRIG_LIMIT = _d("0x1p24")  # |x| past 2**24: the large reduction


def _poly(r2: np.ndarray, poly: tuple[float, ...]) -> np.ndarray:
    out = fma64(r2, poly[0], poly[1])
    for c in poly[2:]:
        out = fma64(r2, out, c)
    return out


_LOW_WORD = _U64(0xFFFFFFFF)
_HIGH_WORD = _U64(0xFFFFFFFF00000000)
_SHIFTER_512 = _d("0x1.8p43")  # adding it to a number in [1, 2) rounds to a multiple of 2**-9
_TWO_PI = (_d("0x1.921fb54442d18p+2"), _d("0x1.1a62633145c07p-52"))  # 2*pi in two parts
_LARGE_SIN_POLY = (_d("0x1.1110fabb3551cp-7"), _d("-0x1.5555555554448p-3"))
_LARGE_COS_POLY = (_d("-0x1.6c16ab163b2d7p-10"), _d("0x1.5555555554ccfp-5"), -0.5)


def _sin_or_cos_large(a: np.ndarray, cosine: bool) -> np.ndarray:
    """The kernels' reduction of |x| = a past 2**24: a's 53-bit significand (in 21- and 32-bit
    parts) times the table's 192 bits for a's exponent, in 32-bit partial products (the lowest
    ones and the low halves of the next left out), gives a / (2*pi) less whole turns as 128
    bits; their top 52 bits as 1.f round to n/512 turns (n mod 512) by the shifter, the rest as
    doubles (52, 52 and 24 bits) summed in two parts and times 2*pi (in two parts, fused) give
    r + c; then with t0..t3 of vml_double's sin or cos table for n, f = t0*r + (t1*r + t2)
    (with its rounding errors) + odd and even polynomials in r times t0 + t1 and t2, c times
    t0 + t1 - t2*r, and t3."""
    bits = a.view(_U64)
    w0, w1, w2 = (column.take((bits >> _U64(52)).astype(np.intp))
                  for column in _turn_table(_U64, 883))
    top = ((bits >> _U64(32)) & _U64(0xFFFFF)) | _U64(0x100000)
    low = bits & _LOW_WORD
    w0_low, w1_low, w2_low = w0 & _LOW_WORD, w1 & _LOW_WORD, w2 & _LOW_WORD
    w1_high, w2_high = w1 >> _U64(32), w2 >> _U64(32)
    fifth = (w0 >> _U64(32)) * bits + w0 * top
    product = low * w1_low
    third = (product >> _U64(32)) + w1_low * top + ((low * w1_high) & _LOW_WORD)
    second = ((product & _LOW_WORD) + w2_high * top + ((low * w2_high) >> _U64(32))
              + ((w2_low * top) >> _U64(32)))
    product = low * w0_low
    fourth = (product & _LOW_WORD) + w1_high * top + ((low * w1_high) >> _U64(32))
    third += second >> _U64(32)
    fourth += third >> _U64(32)
    high = (((fifth << _U64(32)) + product) & _HIGH_WORD) + fourth
    turns = (_U64(0x3FF0000000000000) | (high >> _U64(12))).view(np.float64)
    shifted = turns + _SHIFTER_512
    turns -= shifted - _SHIFTER_512
    middle = (_U64(0x3CB0000000000000) | ((fourth << _U64(40)) & _U64(0x000FFF0000000000))
              | (((third << _U64(32)) | (second & _U64(0xFF000000))) >> _U64(24))
              ).view(np.float64) - _d("0x1p-52")
    last = (_U64(0x3970000000000000) | ((second << _U64(28)) & _U64(0x000FFFFFF0000000))
            ).view(np.float64) - _d("0x1p-104")
    head = turns + middle
    tail = ((turns - head) + middle) + last
    r = head * _TWO_PI[0]
    c = fma64(head, _TWO_PI[0], -r)
    c = fma64(head, _TWO_PI[1], c)
    c = fma64(tail, _TWO_PI[0], c)
    row = (shifted.view(_U64) & _U64(511)).astype(np.intp)
    t0, t1, t2, t3 = _gathered("cos" if cosine else "sin", row)
    partial = fma64(r, t1, t2)
    out = fma64(r, t0, partial)
    error = fma64(r, t1, t2 - partial) + fma64(r, t0, partial - out)
    r2 = r * r
    both = t0 + t1
    odd = fma64(r2, _LARGE_SIN_POLY[0], _LARGE_SIN_POLY[1]) * r2 * r
    even = _poly(r2, _LARGE_COS_POLY) * r2
    even = fma64(even, t2, fma64(odd, both, error))
    return out + (even + fma64(c, fma64(-r, t2, both), t3))


def _sin_or_cos(x: np.ndarray, cosine: bool) -> tuple[np.ndarray, np.ndarray]:
    """vdSin / vdCos (Z0HA): n = x * 16/pi rounded (to the integer, by the shifter); r = x less
    n*pi/16 in three fused steps, c its rounding error; with s, k, l = sin, cos and the packed
    rests of n*pi/16 (n mod 16; n's bit 4 is the sign), sin = (s + k*r) + r**2*(s*C(r**2) +
    S(r**2)*k*r) + (the head's error + r*l + c*(k - s*r) + l's lower word) and cos = (k - s*r)
    + r**2*(k*C - S*s*r) + (the head's error + r*(l's lower word) + l - c*(k*r + s)), C and S
    the even and odd polynomials. sin(-0) is -0; |x| past 2**24 takes _sin_or_cos_large (and
    sin x's sign)."""
    shifted = fma64(x, _TRIG_SCALE, _SHIFTER)
    n = shifted - _SHIFTER
    row = (shifted.view(_U64) & _U64(15)).astype(np.intp)
    s, k, low = _TRIG_SIN.take(row), _TRIG_COS.take(row), _TRIG_LOW.take(row)
    first = fma64(-n, _TRIG_PI[0], x)
    second = fma64(-n, _TRIG_PI[1], first)
    r = fma64(-n, _TRIG_PI[2], second)
    c = fma64(-n, _TRIG_PI[1], first - second) - fma64(n, _TRIG_PI[2], r - second)
    lower = (low.view(_U64) << _U64(32)).view(np.float64)
    r2 = r * r
    even = _poly(r2, _TRIG_COS_POLY)
    odd = _poly(r2, _TRIG_SIN_POLY)
    if cosine:
        head = fma64(-s, r, k)
        rest = fma64(r, lower, fma64(s, r, -(k - head)))
        rest = fma64(-c, fma64(k, r, s), low) - rest
        out = head + fma64(r2, fma64(-odd, s * r, k * even), rest)
    else:
        head = fma64(k, r, s)
        rest = fma64(r, low, fma64(k, r, -(head - s)))
        rest += fma64(c, fma64(-s, r, k), lower)
        out = head + fma64(r2, fma64(odd, k * r, s * even), rest)
        shifted.view(_U64)[x.view(_U64) == _SIGN] ^= _U64(16)
    out.view(_U64)[...] ^= (shifted.view(_U64) << _U64(59)) & _SIGN
    large = np.abs(x) > _TRIG_LIMIT
    large &= np.isfinite(x)
    if large.any():
        out[large] = _sin_or_cos_large(np.abs(x[large]), cosine)
        if not cosine:
            out.view(_U64)[large] ^= x.view(_U64)[large] & _SIGN
    return out, np.isfinite(x)


# ---- float32 tan: x less n*pi/32 (in three parts), tan(n*pi/32) from a table, a quotient --------
_TAN_SCALE = _f32(0x4122F983)  # 32 / pi
_TAN_SHIFTER = _f32(0x4B400000)  # 1.5 * 2**23: adding it rounds to an integer, kept in the low bits
_TAN_PI = (_f32(0x3DC90FDA), _f32(0x31A22000), _f32(0x2A34611A))  # pi / 32 in three parts
_TAN_HIGH = _floats(  # tan(k*pi/32) for k < 32 (for k = 16, minus the largest float)
    "80000000 3dc9b5dc 3e4bafaf 3e9b5042 3ed413cd 3f08d5b9 3f2b0dc1 3f521801 3f800000 3f9bf7ec"
    " 3fbf90c7 3fef789e 401a827a 4052facf 40a0dff7 41227363 ff7fffff c1227363 c0a0dff7 c052facf"
    " c01a827a bfef789e bfbf90c7 bf9bf7ec bf800000 bf521801 bf2b0dc1 bf08d5b9 bed413cd be9b5042"
    " be4bafaf bdc9b5dc")
_TAN_LOW = _floats(  # the rest of tan(k*pi/32)
    "80000000 3145b2da 2f2a62b0 b22a39c2 b1c0621a b25ef963 32ab7f99 32ae4285 00000000 33587608"
    " 32169d18 b30c3ec0 b3cc0622 3390600e 331091dc b454a046 f3800000 3454a046 b31091dc b390600e"
    " 33cc0622 330c3ec0 b2169d18 b3587608 00000000 b2ae4285 b2ab7f99 325ef963 31c0621a 322a39c2"
    " af2a62b0 b145b2da")
_TAN_POLY = (_f32(0x3E08B888), _f32(0x3EAAAAA6))  # (tan r - r) / r**3 in r**2
_TAN_LIMIT = _f32(0x46010000)  # |x| past 8256: the large reduction
_ONE = np.float32(1)
_TAN_TWO_PI_256 = (_f32(0x3CC90FDB), _f32(0xB03BBD2E))  # 2*pi / 256 in two parts


def _tan_large(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's reduction of |x| past 8256, sin's and cos's (`reduce_turns`): n/256 turns
    (n mod 256) and the angle a + a_low left; the row is k = (n + 2, less 1 if a < 0) // 4
    (n mod 32), m = n - 4k, r = a + m*2*pi/256 and c = its rounding error + m*(2*pi/256's
    rest) + a_low."""
    shifted, angle, angle_low = reduce_turns(x)
    n = (shifted.view(_U32) & _U32(0xFF)).view(np.int32)
    k = n + 2 + (angle.view(np.int32) >> 31)
    m = (n - (k & -4)).astype(np.float32)
    r = fma32(m, _TAN_TWO_PI_256[0], angle)
    c = fma32(_TAN_TWO_PI_256[1], m, angle - fma32(m, -_TAN_TWO_PI_256[0], r)) + angle_low
    return r, c, (k >> 2) & 31


def _tan(x: np.ndarray) -> np.ndarray:
    """vsTan (Z0HA): n = x * 32/pi rounded (by the shifter); r = x less n*pi/32 in three fused
    steps, c its rounding error (|x| past 8256: _tan_large's r, c and row); t + t_low = r +
    r**3*P(r**2) + c; with T + T_low = tan(n*pi/32) (n mod 32), tan x = (T + t) / (1 - T*t):
    the numerator and denominator each as a float and its rest, the quotient from the
    vrcp14ps estimate q = (T + t)*e of the denominator's float, less e times the quotient's
    residual."""
    shifted = fma32(x, _TAN_SCALE, _TAN_SHIFTER)
    n = shifted - _TAN_SHIFTER
    row = (shifted.view(_U32) & _U32(31)).astype(np.intp)
    first = fma32(n, -_TAN_PI[0], x)
    second = fma32(n, -_TAN_PI[1], first)
    r = fma32(n, -_TAN_PI[2], second)
    c = fma32(n, -_TAN_PI[1], first - second) - fma32(_TAN_PI[2], n, r - second)
    large = np.abs(x) > _TAN_LIMIT
    large &= np.isfinite(x)
    if large.any():
        r[large], c[large], row[large] = _tan_large(x[large])
    high, low = _TAN_HIGH.take(row), _TAN_LOW.take(row)
    r2 = r * r
    odd = fma32(r2, _TAN_POLY[0], _TAN_POLY[1]) * r
    odd = fma32(-r2, odd, -c)
    t = r - odd
    t_low = (r - t) - odd
    numerator = t + high
    numerator_low = ((t - (numerator - high)) + low) + t_low
    product = high * t
    denominator = _ONE - product
    error = fma32(-high, t, product)
    rest = ((denominator - _ONE) + product) - error
    rest = fma32(t_low, high, rest)
    rest = fma32(t, low, rest)
    estimate = rcp14(denominator)
    quotient = estimate * numerator
    residual = fma32(quotient, denominator, -numerator)
    residual = fma32(-quotient, rest, residual) - numerator_low
    return fma32(-estimate, residual, quotient)


SINGLE: dict[str, tuple[Callable, Callable, Callable | None]] = {
    "tan": (_tan, np.isfinite, None),
}

DOUBLE: dict[str, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]] = {
    "sin": lambda x: _sin_or_cos(x, False),
    "cos": lambda x: _sin_or_cos(x, True),
}
