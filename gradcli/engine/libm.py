"""The C library's scalar math functions, which torch's scalar CPU kernels call (a cpu_kernel
lambda's std::log is glibc's logf on a float): the same library's own results, element by element.

NumPy's float32 log and log1p are its own SIMD code, and a value rounded from double is not
glibc's either (log1pf is a float-arithmetic routine within an ulp): each differs from torch in
a few values in a hundred. float32 calls go to the library through ctypes; float64 ones through
Python's math module, which calls the same library. Where the library cannot be loaded, the
NumPy function serves.
"""

from __future__ import annotations

import functools
import math
from typing import Callable

import numpy as np

_DOUBLE = {"logf": math.log, "log1pf": math.log1p}
_NUMPY = {"logf": np.log, "log1pf": np.log1p}


@functools.cache
def _library():
    import ctypes  # (only where a kernel needs the library: start-up stays without it)
    try:
        return ctypes.CDLL("libm.so.6")
    except OSError:
        return None


@functools.cache
def _float_function(name: str) -> Callable | None:
    library = _library()
    if library is None:
        return None
    import ctypes
    function = library[name]
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    return function


def _elementwise(function: Callable, values: np.ndarray, dtype) -> np.ndarray:
    """`function` of each value (a Python float in, a Python float out)."""
    flat = values.reshape(-1).tolist()
    return np.array([function(v) for v in flat], dtype).reshape(values.shape)


def call(name: str, values: np.ndarray) -> np.ndarray:
    """The C library's `name` (a float function: "logf", "log1pf") of each value, for a float32
    array; its double counterpart for a float64 one. Domain errors give NaN or infinities, as
    the C functions do."""
    values = np.asarray(values)
    if values.dtype == np.float32:
        function = _float_function(name)
        if function is not None:
            return _elementwise(function, values, np.float32)
    elif values.dtype == np.float64:
        return _elementwise(functools.partial(_double, _DOUBLE[name]), values, np.float64)
    with np.errstate(all="ignore"):
        return _NUMPY[name](values)


def _double(function: Callable, value: float) -> float:
    """math's function with the C function's results where math raises instead."""
    try:
        return function(value)
    except ValueError:  # log(0), log(-1), log1p(-1), log1p(-2): C gives -inf or NaN
        return -math.inf if value == (0.0 if function is math.log else -1.0) else math.nan
    except OverflowError:
        return math.inf
