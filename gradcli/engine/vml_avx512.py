"""MKL's AVX-512 kernels (the `Z0` ones, which torch's float32 and float64 unary ops run on Intel
processors with AVX-512), by op: each family's module loads when one of its ops first runs.

Every kernel gives a NaN argument back quieted (its sign and payload kept), whatever lanes beside
it hold; that is done here once, for all of them.
"""

from __future__ import annotations

import functools
import importlib

import numpy as np

# op: the modules replaying its float32 and float64 kernels
_MODULES = {
    "sqrt": ("vml_avx512_sqrt",),
    "tanh": ("vml_avx512_tanh",),
    "erfinv": ("vml_avx512_erfinv",),
    **dict.fromkeys(("erf", "erfc"), ("vml_avx512_erf",)),
    **dict.fromkeys(("exp", "log", "log2", "log10"), ("vml_avx512_exp_log",)),
    **dict.fromkeys(("sin", "cos"), ("vml_avx512_sincos", "vml_avx512_tan_double_trig")),
    "tan": ("vml_avx512_tan_double_trig",),
    **dict.fromkeys(("asin", "acos", "atan"), ("vml_avx512_inverse_trig",)),
}


@functools.cache
def _module(name: str):
    return importlib.import_module(f"gradcli.engine.{name}")


def _kernel(op: str, table: str):
    return next((kernel for name in _MODULES.get(op, ())
                 if (kernel := getattr(_module(name), table).get(op)) is not None), None)


def _quieted(a: np.ndarray) -> np.ndarray:
    """NaN `a` with its quiet bit set, as an instruction passes a NaN operand on."""
    bits = a.view(f"u{a.itemsize}")
    return (bits | np.array(1 << (np.finfo(a.dtype).nmant - 1), bits.dtype)).view(a.dtype)


def single(op: str):
    """The float32 kernel of `op` (kernel, fast lanes, slow lanes), or None."""
    found = _kernel(op, "SINGLE")
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
    kernel = _kernel(op, "DOUBLE")
    if kernel is None:
        return None

    def values(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        out, fast = kernel(a)
        nan = np.isnan(a)
        out[nan] = _quieted(a[nan])
        return out, fast | nan
    return values
