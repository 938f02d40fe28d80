"""MKL's VML kernels, which torch's CPU build calls for its float32 unary ops (ATen's vml.h):
sin, cos, ... step by step as MKL runs them on AMD processors, so results carry torch's last bits.

MKL picks a VML code path by CPU vendor. On AMD it takes the SSE4.2 one (the `EX` kernels, in
their high-accuracy mode), whose results are within an ulp of the true value but are not
correctly rounded: about 1 value in 20 of float32 sin differs in the last bit from the value
rounded once from double. Each kernel below repeats its fast path's float and double operations
in order (the constants are the kernel's own); lanes its fast path sends elsewhere (huge
arguments, infinities, NaN) take the value rounded from double. Other vendors run other kernels,
not measured here: there every op keeps the value rounded from double. (bfloat16 and float16
ops run torch's own vectorised code, not VML.)
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from gradcli.engine import vml_double
from gradcli.engine.blockwise import blockwise
from gradcli.engine.cpu_capability import VENDOR
from gradcli.engine.state import STATE

ACTIVE = VENDOR == "AuthenticAMD"


def _f32(bits: int) -> np.float32:
    return np.uint32(bits).view(np.float32)


_SIGN = np.uint32(0x80000000)

# ---- sin and cos: the argument reduced by multiples of pi in double, an odd polynomial ------------
_INV_PI = _f32(0x3EA2F983)
_SHIFTER = _f32(0x4B400000)  # 1.5 * 2**23: adding it rounds to an integer, kept in the low bits
_HALF_PI = _f32(0x3FC90FDB)
_PI_HIGH = float.fromhex("0x1.921fb54440000p+1")
_PI_LOW = float.fromhex("0x1.68c234c4c6629p-38")
_SIN_POLY = tuple(float.fromhex(h) for h in (
    "0x1.5dbdf0e4c7deep-19", "-0x1.9f6ffeea73463p-13", "0x1.110ed3804ca96p-7",
    "-0x1.55554bc836587p-3"))
_SIN_LIMIT = _f32(0x461C4000)  # 10000: past it, the kernel's slow path


def _sin_or_cos(x: np.ndarray, cosine: bool) -> np.ndarray:
    """sSin / sCos: |x| less n*pi (n the nearest integer to |x|/pi, or to |x|/pi + 1/2 less
    1/2 for cos), then r + r*p(r*r); n's parity (and x's sign for sin) gives the sign."""
    a = np.abs(x)
    t = (a + _HALF_PI) if cosine else a.copy()
    t *= _INV_PI
    t += _SHIFTER
    n = t - _SHIFTER
    if cosine:
        n -= np.float32(0.5)
    turns = n.astype(np.float64)
    r = a.astype(np.float64)
    r -= turns * _PI_HIGH
    r -= turns * _PI_LOW
    r2 = r * r
    p = r2 * _SIN_POLY[0]
    for c in _SIN_POLY[1:]:
        p += c
        p *= r2
    p *= r
    p += r
    out = p.astype(np.float32)
    sign = t.view(np.uint32) << np.uint32(31)
    if not cosine:
        sign ^= x.view(np.uint32) & _SIGN
    out.view(np.uint32)[...] ^= sign
    return out


_KERNELS: dict[str, tuple[Callable, np.float32]] = {
    "sin": (lambda x: _sin_or_cos(x, False), _SIN_LIMIT),
    "cos": (lambda x: _sin_or_cos(x, True), _SIN_LIMIT),
}


def unary(name: str, rounded: Callable[[np.ndarray], np.ndarray]):
    """The forward of torch's `name` op: MKL's kernel for float32 (and, where vml_double has
    one, float64) arrays where it is known to run, else `rounded` (the value rounded from
    double, or NumPy's double), which also serves the lanes the kernel's fast path does not
    take."""
    single = _KERNELS.get(name)
    double = vml_double.KERNELS.get(name)
    if not ACTIVE:
        return rounded

    def emulated(a: np.ndarray) -> np.ndarray:
        if a.ndim == 0:  # (NumPy's ufuncs give 0-d arrays back as scalars)
            return emulated(a.reshape(1)).reshape(())
        kernel, limit = single
        out = kernel(a)
        slow = ~(np.abs(a) <= limit)  # (NaN included)
        if slow.any():
            out[slow] = rounded(a[slow])
        return out

    def emulated_double(a: np.ndarray) -> np.ndarray:
        if a.ndim == 0:
            return emulated_double(a.reshape(1)).reshape(())
        out, fast = double(a)
        if not fast.all():
            slow = ~fast
            out[slow] = rounded(a[slow])
        return out

    def forward(a):
        if type(a) is not np.ndarray or not a.size:
            return rounded(a)
        if a.dtype == np.float32 and single and not STATE.bfloat16_kernel:
            return blockwise(emulated, a, dtype=np.float32)
        if a.dtype == np.float64 and double:
            return blockwise(emulated_double, a, dtype=np.float64)
        return rounded(a)
    return forward
