"""MKL's AVX-512 kernels (the `Z0` ones, which torch's float32 and float64 unary ops run on Intel
processors with AVX-512), by op: each family's module loads when one of its ops first runs."""

from __future__ import annotations

import functools
import importlib

# op: the modules replaying its float32 and float64 kernels
_MODULES = {
    "sqrt": ("vml_avx512_sqrt",),
    "tanh": ("vml_avx512_tanh",),
    "erfinv": ("vml_avx512_erfinv",),
    **dict.fromkeys(("erf", "erfc"), ("vml_avx512_erf",)),
    **dict.fromkeys(("exp", "log", "log2", "log10"), ("vml_avx512_exp_log",)),
    **dict.fromkeys(("sin", "cos"), ("vml_avx512_sincos", "vml_avx512_tan_double_trig")),
    "tan": ("vml_avx512_tan_double_trig",),
}


@functools.cache
def _module(name: str):
    return importlib.import_module(f"gradcli.engine.{name}")


def _kernel(op: str, table: str):
    return next((kernel for name in _MODULES.get(op, ())
                 if (kernel := getattr(_module(name), table).get(op)) is not None), None)


def single(op: str):
    """The float32 kernel of `op` (kernel, fast lanes, slow lanes), or None."""
    return _kernel(op, "SINGLE")


def double(op: str):
    """The float64 kernel of `op` (giving values and fast lanes), or None."""
    return _kernel(op, "DOUBLE")
