"""MKL's VML kernels for float64 (`vd<Op>`), which torch's CPU build calls for its double unary
ops (ATen's vml.h), step by step as MKL runs them on AMD processors (the SSE4.2 `EX` kernels, in
their high-accuracy mode): see vml.py. Their results are within an ulp of the true value but not
correctly rounded, so NumPy's (libm's) double results differ from torch's in the last bit for a
few inputs in a hundred. Each kernel repeats its fast path's double operations in order, with
the kernel's own constants, and says which lanes that path takes; the other lanes (huge
arguments, results out of range, infinities, NaN) keep NumPy's value.
"""

from __future__ import annotations

import decimal
from typing import Callable

import numpy as np


def _d(text: str) -> float:
    return float.fromhex(text)


def _high_words(x: np.ndarray) -> np.ndarray:
    """The upper 32 bits of |x| (the kernels' fast-path tests compare these, as integers)."""
    return (x.view(np.uint64) >> np.uint64(32)).astype(np.uint32) & np.uint32(0x7FFFFFFF)


def _two_part_powers(count: int) -> tuple[np.ndarray, np.ndarray]:
    """2**(j/count) for j < count as a double and the double nearest the rest (MKL's tables)."""
    with decimal.localcontext() as context:
        context.prec = 50
        exact = [decimal.Decimal(2) ** (decimal.Decimal(j) / count) for j in range(count)]
        high = [float(v) for v in exact]
        low = [float(v - decimal.Decimal(h)) for v, h in zip(exact, high)]
    return np.array(high), np.array(low)


# ---- exp: x = (n + j/64) * ln2 + r, 2**(j/64) from a table, a degree-5 polynomial in r -----------
_EXP_SCALE = _d("0x1.71547652b82fep+6")  # 64 / ln2
_EXP_SHIFTER = _d("0x1.8p52")  # adding it rounds to an integer, kept in the low bits
_EXP_LN2_HIGH = _d("0x1.62e42fefa0000p-7")  # ln2 / 64 in two parts
_EXP_LN2_LOW = _d("0x1.cf79abc9e3b3ap-46")
_EXP_POLY = tuple(_d(h) for h in (
    "0x1.111112d9f549bp-7", "0x1.555573f218b93p-5", "0x1.555555555653ep-3",
    "0x1.fffffffffdb3bp-2"))
_EXP_TABLE = _two_part_powers(64)
_EXP_LIMIT = np.uint32(0x4086232A)  # |x| past about 708.4: the kernel's slow path


def _exp(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """vdExp: t = x*64/ln2 rounded to an integer; r = x - t*ln2/64 (in two steps);
    2**(t/64) = 2**(t>>6) * 2**(j/64) (j = t's low 6 bits, from the table as high + low);
    the result is (p(r)*high + low) + high with 2**(t>>6) added into the exponent bits."""
    t = x * _EXP_SCALE
    t += _EXP_SHIFTER
    n = t - _EXP_SHIFTER
    r = x - n * _EXP_LN2_HIGH
    r -= n * _EXP_LN2_LOW
    p = r * _EXP_POLY[0]
    p += _EXP_POLY[1]
    p *= r
    p += _EXP_POLY[2]
    p *= r
    p += _EXP_POLY[3]
    p *= r * r
    p += r
    bits = t.view(np.uint64)
    j = (bits & np.uint64(63)).astype(np.intp)
    high, low = _EXP_TABLE[0][j], _EXP_TABLE[1][j]
    p *= high
    p += low
    p += high
    p.view(np.uint64)[...] += (bits << np.uint64(46)) & np.uint64(0xFFF0000000000000)
    return p, _high_words(x) <= _EXP_LIMIT


# name: the kernel, giving its results and the lanes its fast path takes
KERNELS: dict[str, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]] = {
    "exp": _exp,
}
