"""MKL's AVX-512 VML kernels for float32 exp, log, log2 and log10 (`mkl_vml_kernel_s<Op>_Z0HAynn`,
the high-accuracy ones torch's CPU build runs on Intel processors with AVX-512), step by step,
so results carry torch's last bits there. Each kernel below repeats its fast path's float
operations in order (the constants and tables are the kernel's own; vfmadd's single rounding
through fma.py); lanes its fast path sends elsewhere take the value rounded from double.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from gradcli.engine.fma import fma32


def _f32(*bits: int) -> np.ndarray:
    return np.array(bits, np.uint32).view(np.float32)


# ---- exp: 2**(j/32) from a table of 32, times 2**n, times 1 + r + low(j) + r*r*(a*r + b) ---------
_EXP_HIGH = _f32(
    0x3F800000, 0x3F82CD87, 0x3F85AAC3, 0x3F88980F, 0x3F8B95C2, 0x3F8EA43A, 0x3F91C3D3, 0x3F94F4F0,
    0x3F9837F0, 0x3F9B8D3A, 0x3F9EF532, 0x3FA27043, 0x3FA5FED7, 0x3FA9A15B, 0x3FAD583F, 0x3FB123F6,
    0x3FB504F3, 0x3FB8FBAF, 0x3FBD08A4, 0x3FC12C4D, 0x3FC5672A, 0x3FC9B9BE, 0x3FCE248C, 0x3FD2A81E,
    0x3FD744FD, 0x3FDBFBB8, 0x3FE0CCDF, 0x3FE5B907, 0x3FEAC0C7, 0x3FEFE4BA, 0x3FF5257D, 0x3FFA83B3)
_EXP_LOW = _f32(  # 2**(j/32) / high - 1
    0x00000000, 0xB34A3A0A, 0x3346CB6A, 0xB36ED17E, 0xB24E0611, 0xB3517DD9, 0x334B2482, 0xB31586DE,
    0x33092801, 0xB2E6F467, 0x331B85F2, 0x3099B6F1, 0xB3051AA8, 0xB2E2A0DA, 0xB2006C56, 0xB3365942,
    0x329302AE, 0x32C595DC, 0xB302E5A2, 0xB28E10A1, 0x31B3D0E5, 0xB31A472B, 0x31D1DAF2, 0xB305BF64,
    0xB27CE182, 0xB2F26443, 0xB1B4B0DA, 0xB1DA8A8F, 0xB1D290BE, 0xB2D5B899, 0x31B0A147, 0xB2156AFC)
_LOG2_E = float(_f32(0x3FB8AA3B)[0])
_MINUS_LN2 = _f32(0xBF317218, 0x3102E308)  # -log(2) as a high and a low float
_EXP_POLY = _f32(0x3E2AABF3, 0x3F0000F6)
_EXP_LIMIT = _f32(0x42AEAC4F)[0]  # 87.33654: from it on (and infinities), the slow path


def _exp(x: np.ndarray) -> np.ndarray:
    """sExp: t = x*log2(e) + 1.5*2**18 rounded toward zero (vfmadd {rz}) keeps n = t - 1.5*2**18,
    x*log2(e) cut to a multiple of 1/32, and j = 32*n mod 32 in its low bits;
    r = x - n*log(2) (two vfmadd, the high and low parts); then with s = high(j)*2**floor(n)
    (vscalefps), exp x = s + s*(low(j) + r + r*r*(a*r + b))."""
    k = np.floor(x.astype(np.float64) * (_LOG2_E * 32))  # the product is exact in double
    j = k.astype(np.int32) & 31
    n = (k * (1 / 32)).astype(np.float32)
    r = fma32(n, _MINUS_LN2[1], fma32(n, _MINUS_LN2[0], x))
    p = fma32(fma32(r, _EXP_POLY[0], _EXP_POLY[1]), r * r, _EXP_LOW[j] + r)
    s = np.ldexp(_EXP_HIGH[j], np.floor(n).astype(np.int32))
    return fma32(p, s, s)


def _below(limit: np.float32) -> Callable[[np.ndarray], np.ndarray]:
    """The fast path's lanes: not |x| >= limit (NaN included: its compare is false)."""
    return lambda x: ~(np.abs(x) >= limit)


# name: (kernel, the lanes its fast path takes, the other lanes' values from `rounded` or None)
SINGLE: dict[str, tuple[Callable, Callable, Callable | None]] = {
    "exp": (_exp, _below(_EXP_LIMIT), None),
}

DOUBLE: dict[str, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]] = {}
