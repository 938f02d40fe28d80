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

from decimal import Decimal, localcontext
from typing import Callable

import numpy as np

from gradcli.engine.blockwise import blockwise
from gradcli.engine.cpu_capability import VENDOR
from gradcli.engine.rsqrt_estimate import rsqrtps
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


# ---- sqrt: the processor's estimate of 1/sqrt(x), refined in float -------------------------------
_HALF = np.float32(0.5)
_SQRT_LOW, _SQRT_HIGH = np.uint32(0x00800000), np.uint32(0x7F7FF000)  # its fast path's bits
_QUIET_NAN = _f32(0x7FC00000)


def _sqrt(x: np.ndarray) -> np.ndarray:
    """sSqrt: y the estimate of 1/sqrt(x) (rsqrtps), then h = x*y, e = 1/2 - h*(y/2),
    s = h + h*e, and s + (x - s*s) * (y/2 + (y/2)*e), each step rounded to float."""
    y = rsqrtps(x)
    h = x * y
    y *= _HALF
    e = _HALF - h * y
    s = h * e
    s += h
    y += y * e
    r = x - s * s
    r *= y
    r += s
    return r


def _sqrt_fast(x: np.ndarray) -> np.ndarray:
    bits = x.view(np.uint32)
    return (bits >= _SQRT_LOW) & (bits <= _SQRT_HIGH)


def _sqrt_rare(x: np.ndarray, rounded: Callable) -> np.ndarray:
    """The slow path: the correctly rounded root, but a positive NaN for x < 0."""
    out = rounded(x)
    out[x < 0] = _QUIET_NAN
    return out


# ---- exp: x = (128k + j) ln2/128 + r, then 2**k * 2**(j/128) * (1 + r + r*r/2) --------------------
_EXP_TO_STEPS = _f32(0x4338AA3B)  # 128 / ln 2
_EXP_STEP_HIGH = _f32(0x3BB18000)  # ln2/128 = high - low
_EXP_STEP_LOW = _f32(0x35DE8083)
_EXP_LIMIT = _f32(0x42AEAC4F)  # 87.33655: past it (under- or overflow near), the slow path


def _exp_table() -> tuple[np.ndarray, np.ndarray]:
    """2**(j/128) for j < 128 as a float and the float nearest what it leaves out."""
    with localcontext() as context:
        context.prec = 40
        exact = [Decimal(2) ** (Decimal(j) / 128) for j in range(128)]
        high = np.array([float(v) for v in exact]).astype(np.float32)
        low = np.array([float(v - Decimal(float(h))) for v, h in zip(exact, high)])
    return high, low.astype(np.float32)


_EXP_HIGH, _EXP_LOW = _exp_table()


def _exp(x: np.ndarray) -> np.ndarray:
    """sExp: n = x*128/ln2 rounded to an integer (k = n // 128, j = n % 128), r = x - n*ln2/128
    in two parts, then ((r + r*r/2) * 2**(j/128) + its low part + 2**(j/128)) * 2**k, in float."""
    t = x * _EXP_TO_STEPS
    t += _SHIFTER
    n = t - _SHIFTER
    r = x - n * _EXP_STEP_HIGH
    r += n * _EXP_STEP_LOW
    bits = t.view(np.uint32)
    j = bits & np.uint32(0x7F)
    high = _EXP_HIGH[j]
    q = r * r
    q *= _HALF
    q += r
    q *= high
    q += _EXP_LOW[j]
    q += high
    scale = ((bits << np.uint32(16)) + np.uint32(0x3F800000)) & np.uint32(0x7F800000)
    q *= scale.view(np.float32)
    return q


def _within(limit: np.float32) -> Callable[[np.ndarray], np.ndarray]:
    return lambda x: np.abs(x) <= limit  # (NaN fails)


# name: (kernel, the lanes its fast path takes, the other lanes' values from `rounded` or None)
_KERNELS: dict[str, tuple[Callable, Callable, Callable | None]] = {
    "sin": (lambda x: _sin_or_cos(x, False), _within(_SIN_LIMIT), None),
    "cos": (lambda x: _sin_or_cos(x, True), _within(_SIN_LIMIT), None),
    "sqrt": (_sqrt, _sqrt_fast, _sqrt_rare),
    "exp": (_exp, _within(_EXP_LIMIT), None),
}


def unary(name: str, rounded: Callable[[np.ndarray], np.ndarray]):
    """The forward of torch's `name` op: MKL's kernel for float32 arrays where it is known to
    run, else `rounded` (the value rounded from double), which also serves the lanes the
    kernel's fast path does not take (through the kernel's own rare-lane rule if it has one)."""
    kernel, fast, rare = _KERNELS[name]
    if not ACTIVE:
        return rounded

    def emulated(a: np.ndarray) -> np.ndarray:
        if a.ndim == 0:  # (NumPy's ufuncs give 0-d arrays back as scalars)
            return emulated(a.reshape(1)).reshape(())
        with np.errstate(all="ignore"):  # (the slow lanes' garbage is replaced below)
            out = kernel(a)
        slow = ~fast(a)
        if slow.any():
            out[slow] = rounded(a[slow]) if rare is None else rare(a[slow], rounded)
        return out

    def forward(a):
        if type(a) is np.float32:  # (a 0-d result NumPy gave back as a scalar)
            a = np.asarray(a)
        if type(a) is np.ndarray and a.dtype == np.float32 and not STATE.bfloat16_kernel:
            return blockwise(emulated, a, dtype=np.float32) if a.size else rounded(a)
        return rounded(a)
    return forward
