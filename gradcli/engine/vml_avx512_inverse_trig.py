"""MKL's AVX-512 VML asin, acos and atan kernels (`mkl_vml_kernel_s<Op>_Z0HAynn`), which torch's
CPU build calls for its float32 asin, acos and atan on Intel processors with AVX-512 (MKL's
high-accuracy mode), step by step: see vml.py for the AMD (SSE4.2) kernels, whose asin and acos
these follow with fused multiply-adds and the processor's 14-bit estimates. Each kernel repeats its
fast path's operations in order, with the kernel's own constants; lanes asin's and acos's send
elsewhere (|x| > 1 and NaN, whose result is NaN either way) keep the value rounded from double;
atan has no other path. (The float64 kernels give the values vml_double.py gives already.)
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from gradcli.engine.fma import fma32
from gradcli.engine.vml import (_ASIN_POLY, _ASIN_ROOT, _HALF_PI_FLOAT, _KEEP_11, _SIGN,
                                _TINY, _bits_kept, _f32, _within, acos_terms)

# ---- asin and acos: vml.py's, with fused multiply-adds and the root's estimate cut to 13 bits ----
_KEEP_13 = np.uint32(0xFFFFF800)


def _parts(x: np.ndarray):
    """What sAsin and sAcos share: |x|, y = (1 - |x|)/2, z = min(x*x, y), the polynomial
    z*p(z), s = sqrt(2y) as a float and the root's correction (s + correction is sqrt(2y)).

    s comes from the processor's estimate r of 1/sqrt(y) (vrsqrt14ps, 0 for y below 2**-32)
    cut to its first 13 bits, times 2y cut to its first 11 (the rest, times r, is s_low); with
    e = s*r - 2 + s_low*r, the correction is (s + s_low)*e*(a - b*e) - s_low (a, b: vml's
    _ASIN_ROOT, near 1/4 and 3/32)."""
    from gradcli.engine.avx512_estimates import rsqrt14
    a = np.abs(x)
    y = fma32(a, np.float32(-0.5), np.float32(0.5))
    z = np.minimum(a * a, y)
    r = np.where(y >= _TINY, _bits_kept(rsqrt14(y), _KEEP_13), np.float32(0))
    t = y + y
    t_high = _bits_kept(t, _KEEP_11)
    s = t_high * r
    s_low = (t - t_high) * r
    e = fma32(s, r, np.float32(-2)) + s_low * r
    u = (s + s_low) * e
    root = fma32(u, fma32(-e, _ASIN_ROOT[1], _ASIN_ROOT[0]), -s_low)
    p = fma32(z * z, fma32(z, _ASIN_POLY[0], _ASIN_POLY[1]), fma32(z, _ASIN_POLY[2], _ASIN_POLY[3]))
    p = z * fma32(z, p, _ASIN_POLY[4])
    return a, y, z, p, s, root


def _asin(x: np.ndarray) -> np.ndarray:
    """sAsin: asin |x| = h + (m*p(z) + l), where below |x| = 1/2 h = m = |x| and l = 0; above,
    h = pi/2 - s, m = the root's correction less s, l = the correction plus pi/2's low part plus
    h's rounding error (see _parts). x's sign."""
    a, _, _, p, s, root = _parts(x)
    big = ~(a < np.float32(0.5))
    h = _HALF_PI_FLOAT[0] - s
    low = np.where(big, (root + _HALF_PI_FLOAT[1]) - (s - (_HALF_PI_FLOAT[0] - h)), np.float32(0))
    out = fma32(p, np.where(big, root - s, a), low)
    out = np.where(big, h, a) + out
    out.view(np.uint32)[...] ^= x.view(np.uint32) & _SIGN
    return out


def _acos(x: np.ndarray) -> np.ndarray:
    """sAcos: with m = -|x| and c = pi/2 (low part l) below |x| = 1/2 (where x*x < y), m = s
    and c = 0 (x >= 0) or pi (x < 0, low part l) above, and r the root's correction above (else
    0), acos x = c + (m*p(z) less r*p(z) + (l - r) + m), the bracket taking x's sign."""
    a, y, z, p, s, root = _parts(x)
    constant, low, sign, m, root = acos_terms(x, a, y, z, s, root)
    out = fma32(p, m - root, low - root) + m
    out.view(np.uint32)[...] ^= sign
    out += constant
    return out


# ---- atan: atan(j/4) from a table plus a polynomial in q = (|x| - j/4)/(1 + |x|*j/4) ------------
# j = |x|*4 rounded to an integer (|x| below 7.75); from there on, q = -1/|x| and pi/2 for atan(j/4).
# atan(j/4) as a high float and a low one, j < 32 (bit patterns).
_ATAN_HIGH = np.array([
    0x00000000, 0x3E7ADBB0, 0x3EED6338, 0x3F24BC7D, 0x3F490FDB, 0x3F6563E3, 0x3F7B985F, 0x3F869C79,
    0x3F8DB70D, 0x3F93877B, 0x3F985B6C, 0x3F9C6B53, 0x3F9FE0BB, 0x3FA2DAA4, 0x3FA57088, 0x3FA7B46F,
    0x3FA9B465, 0x3FAB7B7A, 0x3FAD1283, 0x3FAE809E, 0x3FAFCB99, 0x3FB0F836, 0x3FB20A6A, 0x3FB30581,
    0x3FB3EC43, 0x3FB4C10A, 0x3FB585D7, 0x3FB63C64, 0x3FB6E62C, 0x3FB78478, 0x3FB81868, 0x3FB8A2F5,
], np.uint32).view(np.float32)
_ATAN_LOW = np.array([
    0x00000000, 0xB15A6FE4, 0x31AC376A, 0x31C9A7B8, 0xB2BBBD2E, 0xB287B906, 0xB2D7E096, 0x3345BA0A,
    0xB351441C, 0xB325AC5E, 0xB2D2B64B, 0x334E1335, 0x3337A856, 0x325CD468, 0xB2669D97, 0x33267261,
    0xB32E1630, 0xB345C196, 0xB35EEB1A, 0x32835B58, 0xB32DAB7B, 0x32D52571, 0x3281298F, 0x334736A0,
    0x326F266F, 0xB2AC55F6, 0x33030C07, 0xB190A736, 0xB2895340, 0x32E86BFE, 0xB2D7F9CD, 0x3342088A,
], np.uint32).view(np.float32)
_ATAN_POLY = tuple(_f32(b) for b in (0xBE0FA8DE, 0x3E4CC8E2, 0xBEAAAAAA))
_ATAN_TABLE_END = _f32(0x40F80000)  # 7.75
_QUARTERS = _f32(0x4A000000)  # 2**21: adding it rounds to a multiple of 1/4, kept in the low bits
_ATAN_CAP = _f32(0x4F800000)  # 2**32: the denominator past the table is min(|x|, 2**32)


def _atan(x: np.ndarray) -> np.ndarray:
    """sAtan: with c = j/4, n = |x| - c (exact) and d = 1 + |x|*c (its rounding error d_low), or
    n = -1 and d = min(|x|, 2**32) past the table: R = r + r*(1 - d*r) from the processor's 1/d
    estimate (vrcp14ps), q = n*R, q's error q_low = (n*R - q) + q*(1 - R*d) less d_low*R*q (in
    the table), then with h = atan(c) + q (pi/2 past the table),
    h + ((q_low + atan(c)'s low part + (q - (h - atan(c)))) + q**3 * p(q*q)), x's sign."""
    from gradcli.engine.avx512_estimates import rcp14
    a = np.abs(x)
    one = np.float32(1)
    shifted = a + _QUARTERS
    c = shifted - _QUARTERS
    j = shifted.view(np.uint32) & np.uint32(31)
    table = a < _ATAN_TABLE_END
    n = np.where(table, a - c, -one)
    d = np.where(table, fma32(a, c, one), np.minimum(a, _ATAN_CAP))
    d_low = fma32(a, c, -(d - one))
    r = rcp14(d)
    big_r = fma32(fma32(-d, r, one), r, r)
    q = big_r * n
    q_low = fma32(q, fma32(-big_r, d, one), fma32(n, big_r, -q))
    q_low = np.where(table, fma32(-(d_low * big_r), q, q_low), q_low)
    high = np.where(table, _ATAN_HIGH[j], _HALF_PI_FLOAT[0])
    low = np.where(table, _ATAN_LOW[j], _HALF_PI_FLOAT[1])
    q2 = q * q
    p = fma32(q2, fma32(q2, _ATAN_POLY[0], _ATAN_POLY[1]), _ATAN_POLY[2])
    h = high + q
    low = (q_low + low) + (q - (h - high))
    out = fma32(q * q2, p, low) + h
    out.view(np.uint32)[...] ^= x.view(np.uint32) & _SIGN
    return out


def _every_lane(x: np.ndarray) -> np.ndarray:
    return np.ones(x.shape, bool)  # (sAtan has no slow path: NaN and infinities run it too)


SINGLE: dict[str, tuple[Callable, Callable, Callable | None]] = {
    "asin": (_asin, _within(np.float32(1)), None),
    "acos": (_acos, _within(np.float32(1)), None),
    "atan": (_atan, _every_lane, None),
}

DOUBLE: dict[str, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]] = {}
