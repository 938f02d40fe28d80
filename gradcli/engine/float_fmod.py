"""fmod of float32 and float16 values, exact and several times faster than np.fmod, which calls
the C library's fmodf element by element (torch's vectorised fmod is exact as well).

For such a and b, the double quotient a / b truncates to the exact integer quotient n while
|a / b| < 2**29 (a quotient that is not a whole number lies at least 2**-24 of it away from
one; double's rounding error is far below that), n * b is exact in double (29 + 24 bits), and
so is a - n * b, since fmod's result is always a representable value. The remaining elements
(larger quotients, infinities, NaNs, zero divisors) take np.fmod.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.blockwise import blockwise

QUOTIENT_LIMIT = 2.0 ** 29
SMALL = 1 << 10  # fewer elements than this take np.fmod: no gain to be had


def fmod(a, b) -> np.ndarray:
    """np.fmod(a, b), bit for bit."""
    dtype = np.result_type(a, b)
    if dtype.kind != "f" or dtype.itemsize > 4 or max(np.size(a), np.size(b)) < SMALL:
        return np.fmod(a, b)
    return blockwise(lambda x, y: _fmod_block(x, y, dtype), a, b, dtype=dtype)


def _fmod_block(a: np.ndarray, b: np.ndarray, dtype: np.dtype) -> np.ndarray:
    with np.errstate(all="ignore"):
        wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
        quotient = wide_a / wide_b
        rest = wide_a - np.trunc(quotient) * wide_b
        out = np.copysign(rest, wide_a).astype(dtype)
        exceptional = ~(np.abs(quotient) < QUOTIENT_LIMIT) | np.isnan(rest)
        if exceptional.any():
            out[exceptional] = np.fmod(np.broadcast_to(a, out.shape)[exceptional],
                                       np.broadcast_to(b, out.shape)[exceptional])
    return out
