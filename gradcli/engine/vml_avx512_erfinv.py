"""MKL's AVX-512 erfinv kernels (`mkl_vml_kernel_<s|d>ErfInv_Z0HAynn`), which torch's CPU build
runs for float32 and float64 erfinv on Intel processors with AVX-512, step by step (the
constants and tables are the kernel's own): see vml.py for the SSE4.2 ones MKL runs on AMD.
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from gradcli.engine.fma import fma32, fma64

_U32 = np.uint32
_U64 = np.uint64


def _f32(bits: int) -> np.float32:
    return _U32(bits).view(np.float32)


# ---- float32: x times a polynomial in w = 1 - |x|'s fraction, one per quarter binade of w -------
# sErfInv's table ("single" in vml_avx512_erfinv_tables.py): 8 coefficients c0..c7, per row: w's
# exponent and top 2 fraction bits, from w = 2**-24 up to 1.
_S_TINY = _f32(0x33800000)  # 2**-24: below it (but for 0) the slow path
_S_ROW_BITS = _U32(0x3FE00000)  # w's exponent and top 2 fraction bits
_S_FIRST_ROW = 412  # those bits of 2**-24, shifted
_S_FRACTION = _U32(0x001FFFFF)
_S_CENTRE = _f32(0x3F900000)  # 1.125
_ONE_BITS = _U32(0x3F800000)
_TWICE_ONE = _U32(0x7F000000)  # less w's exponent bits: 2 ** -(w's exponent)
_HALF_ROOT_PI = float.fromhex("0x1.c5bf891b4ef6bp-1")
_MKL_NAN = _f32(0xFFC00000)


@functools.cache
def _table(name: str, dtype: str, width: int) -> np.ndarray:
    """One of the kernels' tables (vml_avx512_erfinv_tables.py, read on first use)."""
    from gradcli.engine.vml_avx512_erfinv_tables import TABLES
    return np.frombuffer(bytes.fromhex("".join(TABLES[name])), dtype).reshape(-1, width)


def _s_fast(x: np.ndarray) -> np.ndarray:
    a = np.abs(x)
    return (a < 1) & ((a >= _S_TINY) | (a == 0))


def _s_erfinv(x: np.ndarray) -> np.ndarray:
    """sErfInv: w = 1 - |x| (|x| is 2**-24 in the lanes the fast path leaves, and for 0) and its
    rounding error e; w's exponent and top 2 fraction bits pick a row, t = w's remaining fraction
    (as 1.f) - 1.125 + e/2**(w's exponent); g = c0 + c1*t as a high part and its error, plus
    p = c2 + t*(c3 + ... + t*c7); erfinv x = x*g_high + x*(g_low + p)."""
    a = np.abs(x)
    a[~_s_fast(x) | (a == 0)] = _S_TINY
    one = np.float32(1)
    w = one - a
    error = (one - w) - a
    bits = w.view(_U32)
    scale = (_TWICE_ONE - (bits & _ONE_BITS)).view(np.float32)
    fraction = ((bits & _S_FRACTION) | _ONE_BITS).view(np.float32) - _S_CENTRE
    t = fma32(error, scale, fraction)
    row = ((bits & _S_ROW_BITS) >> _U32(21)).astype(np.intp) - _S_FIRST_ROW
    c = [column.take(row) for column in _table("single", "<f4", 96)]
    p = fma32(t, c[7], c[6])
    for k in (5, 4, 3, 2):
        p = fma32(p, t, c[k])
    high = fma32(t, c[1], c[0])
    low = fma32(t, c[1], c[0] - high)
    return fma32(x, high, (low + p) * x)


def _s_erfinv_rare(x: np.ndarray, rounded: Callable) -> np.ndarray:
    """The slow path: x*sqrt(pi)/2 in double below 2**-24, +-inf at +-1, NaN (MKL's default)
    past 1, x + x for NaN."""
    a = np.abs(x)
    out = (x.astype(np.float64) * _HALF_ROOT_PI).astype(np.float32)
    out[a == 1] = np.copysign(np.float32(np.inf), x[a == 1])
    out[a > 1] = _MKL_NAN
    out[np.isnan(x)] = x[np.isnan(x)] + x[np.isnan(x)]
    return out


# ---- float64: erfinv c plus a polynomial in u = (|x| - c)*s, c a grid point at or below |x| -----
# The grid: 8 significant bits, from 2**-35 up to 1/2 for |x| (rounded down), then for 1 - |x|
# (rounded up) from 1/2 down to 2**-53; a row per point ("double" in vml_avx512_erfinv_tables.py).
_D_TINY = float.fromhex("0x1p-35")  # below it: the slow path
_D_GRID = _U64(0x7FFFE00000000000)  # a grid point's bits
_D_GRID_STEP = _U64(1 << 45)
_D_FIRST = np.int64(0x3DC0000000000000)  # 2**-35's bits
_D_MIRROR = 0x2200  # from 1/2 on, the row is this less 1 - |x|'s grid point's row
# A row's first word: v = erfinv c in its low 58 bits (v's bits less 0x3DBC000000000000) and in
# its top 6, r = v's next 6 bits (times the unit of v's last place / 64).
_D_VALUE = _U64(0x03FFFFFFFFFFFFFF)
_D_REBIAS = _U64(0x3DBC000000000000)
_EXPONENT = _U64(0x7FF0000000000000)
_SIGN64 = _U64(1 << 63)
_D_NAN = _U64(0x7FF8000000000000).view(np.float64)
_D_POLY = tuple(tuple(float.fromhex(h) for h in terms) for terms in (  # q1..q7, each in v*v
    ("0x1.c5bf891b4ef6bp-1",),
    ("0x1.921fb54442d18p-1",),
    ("0x1.db29fb2fee5e4p-3", "0x1.db29fb2fee5e4p-1"),
    ("0x1.707719608a6d9p-1", "0x1.3bd3cc9be45dep+0"),
    ("0x1.053c2c0ab91c5p-3", "0x1.ad2bff36301c4p+0", "0x1.bfd4ddc93d552p+0"),
    ("0x1.5e06c2f4e585cp-1", "0x1.c13f1a78cde41p+1", "0x1.4abbce625be53p+1"),
    ("0x1.62847c47dda48p-4", "0x1.2f92b50110f12p+1", "0x1.bdf0398ecebc4p+2",
     "0x1.f6773d3f8eccep+1")))


def _horner(z: np.ndarray, terms: tuple[float, ...]):
    """terms[0] + z*(terms[1] + ...), each step a fused multiply-add."""
    out = terms[-1]
    for c in terms[-2::-1]:
        out = fma64(z, out, c)
    return out


def _d_erfinv(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """dErfInv: c = |x| to 8 significant bits, or from 1/2 on c = 1 - (1 - |x|) so rounded up;
    c's row gives v = erfinv c, its low part r and a scale s; u = (|x| - c)*s and
    erfinv = v + (r + u*(q1 + u*(q2 + ... + u*q7))), every step of the polynomial (and each
    q_k's, a polynomial in v*v, times v for even k) a fused multiply-add; x's sign on it.
    The slow path: |x| below 2**-35 (but for 0) as vml_double's tiny erfinv, +-inf at +-1,
    NaN past 1, x + x for NaN."""
    from gradcli.engine.vml_double import _erfinv_tiny
    bits = x.view(_U64)
    a = np.abs(x)
    tiny = a < _D_TINY
    a[tiny | ~(a < 1)] = _D_TINY
    upper = a >= 0.5
    y = np.where(upper, 1.0 - a, a)
    grid = y.view(_U64) & _D_GRID
    grid[upper & ((y.view(_U64) & ~_D_GRID) != 0)] += _D_GRID_STEP
    row = (grid.view(np.int64) - _D_FIRST) >> 45
    row[upper] = _D_MIRROR - row[upper]
    entry = _table("double", "<u8", 2)
    packed = entry[:, 0].take(row)
    scale = entry[:, 1].view(np.float64).take(row)
    point = grid.view(np.float64)
    point[upper] = 1.0 - point[upper]
    u = (a - point) * scale
    v = ((packed & _D_VALUE) + _D_REBIAS).view(np.float64)
    unit = (v.view(_U64) & _EXPONENT).view(np.float64) * float.fromhex("0x1p-52")
    r = (((packed >> _U64(58)) << _U64(46)) | unit.view(_U64)).view(np.float64) - unit
    vv = v * v
    p = _horner(vv, _D_POLY[-1])
    for k in range(len(_D_POLY) - 1, 0, -1):  # q6 .. q1
        q = _horner(vv, _D_POLY[k - 1])
        p = fma64(u, p, v * q if k % 2 == 0 else q)
    p = fma64(u, p, r)
    out = p + v
    out[tiny] = 0.0
    out = (out.view(_U64) | (bits & _SIGN64)).view(np.float64)
    small = tiny & (x != 0)
    out[small] = _erfinv_tiny(x[small])
    out[np.abs(x) == 1] = np.copysign(np.inf, x[np.abs(x) == 1])
    out[np.abs(x) > 1] = _D_NAN
    nan = np.isnan(x)
    out[nan] = x[nan] + x[nan]
    return out, np.ones(x.shape, bool)


# name: (kernel, the lanes its fast path takes, the other lanes' values) as vml._KERNELS
SINGLE: dict[str, tuple[Callable, Callable, Callable | None]] = {
    "erfinv": (_s_erfinv, _s_fast, _s_erfinv_rare),
}

# name: the kernel, giving its results and the lanes it gives (all) as vml_double.KERNELS
DOUBLE: dict[str, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]] = {
    "erfinv": _d_erfinv,
}
