"""MKL's AVX-512 VML kernels (`Z0HA`, what torch's CPU build runs on Intel processors with
AVX-512) for float32 tan and float64 sin and cos, step by step: see vml.py and vml_double.py for
the SSE4.2 kernels MKL runs on AMD processors. Each kernel repeats its fast path's operations in
order (every multiply-add rounded once, as vfmadd), with the kernel's own constants, and says
which lanes that path takes.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from gradcli.engine.avx512_estimates import rcp14
from gradcli.engine.fma import fma32, fma64

_U64 = np.uint64
_SIGN = _U64(1 << 63)


def _f32(bits: int) -> np.float32:
    return np.uint32(bits).view(np.float32)


def _floats(text: str) -> np.ndarray:
    return np.array([int(word, 16) for word in text.split()], np.uint32).view(np.float32)


def _d(text: str) -> float:
    return float.fromhex(text)


def _doubles(text: str) -> np.ndarray:
    return np.array([int(word, 16) for word in text.split()], _U64).view(np.float64)


# ---- float64 sin and cos: x less n*pi/16 (in three parts), sin and cos of n*pi/16 from a table ----
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
_TRIG_LIMIT = _d("0x1p24")  # |x| past 2**24, infinities and NaN take the slow path


def _poly(r2: np.ndarray, poly: tuple[float, ...]) -> np.ndarray:
    out = fma64(r2, poly[0], poly[1])
    for c in poly[2:]:
        out = fma64(r2, out, c)
    return out


def _sin_or_cos(x: np.ndarray, cosine: bool) -> tuple[np.ndarray, np.ndarray]:
    """vdSin / vdCos (Z0HA): n = x * 16/pi rounded (to the integer, by the shifter); r = x less
    n*pi/16 in three fused steps, c its rounding error; with s, k, l = sin, cos and the packed
    rests of n*pi/16 (n mod 16; n's bit 4 is the sign), sin = (s + k*r) + r**2*(s*C(r**2) +
    S(r**2)*k*r) + (the head's error + r*l + c*(k - s*r) + l's lower word) and cos = (k - s*r)
    + r**2*(k*C - S*s*r) + (the head's error + r*(l's lower word) + l - c*(k*r + s)), C and S
    the even and odd polynomials. sin(-0) is -0."""
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
    return out, np.abs(x) <= _TRIG_LIMIT


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
_TAN_LIMIT = _f32(0x46010000)  # |x| past 8256, infinities and NaN take other paths
_ONE = np.float32(1)


def _tan(x: np.ndarray) -> np.ndarray:
    """vsTan (Z0HA): n = x * 32/pi rounded (by the shifter); r = x less n*pi/32 in three fused
    steps, c its rounding error; t + t_low = r + r**3*P(r**2) + c; with T + T_low = tan(n*pi/32)
    (n mod 32), tan x = (T + t) / (1 - T*t): the numerator and denominator each as a float and
    its rest, the quotient from the vrcp14ps estimate q = (T + t)*e of the denominator's float,
    less e times the quotient's residual."""
    shifted = fma32(x, _TAN_SCALE, _TAN_SHIFTER)
    n = shifted - _TAN_SHIFTER
    row = (shifted.view(np.uint32) & np.uint32(31)).astype(np.intp)
    high, low = _TAN_HIGH.take(row), _TAN_LOW.take(row)
    first = fma32(n, -_TAN_PI[0], x)
    second = fma32(n, -_TAN_PI[1], first)
    r = fma32(n, -_TAN_PI[2], second)
    c = fma32(n, -_TAN_PI[1], first - second) - fma32(_TAN_PI[2], n, r - second)
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
    "tan": (_tan, lambda x: np.abs(x) <= _TAN_LIMIT, None),
}

DOUBLE: dict[str, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]] = {
    "sin": lambda x: _sin_or_cos(x, False),
    "cos": lambda x: _sin_or_cos(x, True),
}
