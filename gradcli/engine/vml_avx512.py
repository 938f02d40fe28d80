"""MKL's AVX-512 kernels (the `Z0` ones, which torch's float32 and float64 unary ops run on Intel
processors with AVX-512), by op: their modules load when the first of their ops runs.

Every kernel gives a NaN argument back quieted (its sign and payload kept), whatever lanes beside
it hold; that is done here once, for all of them.
"""

from __future__ import annotations

import functools

import numpy as np

@functools.cache
def _modules() -> dict:
    """op: the modules replaying its float32 and float64 kernels (all imported at the first op
    that needs one: a few milliseconds)."""
    from gradcli.engine import (vml_avx512_erf, vml_avx512_erfinv, vml_avx512_exp_log,
                                vml_avx512_inverse_trig, vml_avx512_sincos, vml_avx512_sqrt,
                                vml_avx512_tan_double_trig, vml_avx512_tanh)
    return {
        "sqrt": (vml_avx512_sqrt,),
        "tanh": (vml_avx512_tanh,),
        "erfinv": (vml_avx512_erfinv,),
        **dict.fromkeys(("erf", "erfc"), (vml_avx512_erf,)),
        **dict.fromkeys(("exp", "log", "log2", "log10"), (vml_avx512_exp_log,)),
        **dict.fromkeys(("sin", "cos"), (vml_avx512_sincos, vml_avx512_tan_double_trig)),
        "tan": (vml_avx512_tan_double_trig,),
        **dict.fromkeys(("asin", "acos", "atan"), (vml_avx512_inverse_trig,)),
    }


def _kernel(op: str, double: bool):
    return next((kernel for module in _modules().get(op, ())
                 if (kernel := (module.DOUBLE if double else module.SINGLE).get(op)) is not None),
                None)


def _quieted(a: np.ndarray) -> np.ndarray:
    """NaN `a` with its quiet bit set, as an instruction passes a NaN operand on."""
    bits = a.view(f"u{a.itemsize}")
    return (bits | np.array(1 << (np.finfo(a.dtype).nmant - 1), bits.dtype)).view(a.dtype)


def single(op: str):
    """The float32 kernel of `op` (kernel, fast lanes, slow lanes), or None."""
    found = _kernel(op, False)
    if found is None:
        return None
    kernel, fast, rare = found

    def numbers(a: np.ndarray) -> np.ndarray:
        return fast(a) & ~np.isnan(a)

    def slow(a: np.ndarray, rounded) -> np.ndarray:
        out = rounded(a) if rare is None else rare(a, rounded)
        nan = np.isnan(a)
        out[nan] = _quieted(a[nan])
        return out
    return kernel, numbers, slow


def double(op: str):
    """The float64 kernel of `op` (giving values and fast lanes), or None."""
    kernel = _kernel(op, True)
    if kernel is None:
        return None

    def values(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        out, fast = kernel(a)
        nan = np.isnan(a)
        out[nan] = _quieted(a[nan])
        return out, fast | nan
    return values
