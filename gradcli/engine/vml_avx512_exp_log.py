"""MKL's AVX-512 VML kernels for float32 exp, log, log2 and log10 (`mkl_vml_kernel_s<Op>_Z0HAynn`,
the high-accuracy ones torch's CPU build runs on Intel processors with AVX-512), step by step,
so results carry torch's last bits there. Each kernel below repeats its fast path's float
operations in order (the constants and tables are the kernel's own; vfmadd's single rounding
through fma.py); lanes its fast path sends elsewhere take the value rounded from double.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from gradcli.engine.avx512_estimates import rcp14
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


# ---- log: -log(c) from a table of 32 for c, 1/x's estimate cut to 5 fraction bits, + log1p(x*c - 1) --
_LN_HIGH = _f32(  # -log(1 + j/32), high parts
    0x00000000, 0xBCFC0000, 0xBD786000, 0xBDB78000, 0xBDF14000, 0xBE14A800, 0xBE2FF800, 0xBE4A9000,
    0xBE648000, 0xBE7DC800, 0xBE8B3C00, 0xBE974800, 0xBEA30C00, 0xBEAE8C00, 0xBEB9D000, 0xBEC4D000,
    0xBECF9800, 0xBEDA2800, 0xBEE48000, 0xBEEEA400, 0xBEF89400, 0xBF012A00, 0xBF05F400, 0xBF0AA600,
    0xBF0F4200, 0xBF13CA00, 0xBF183E00, 0xBF1CA000, 0xBF20EC00, 0xBF252800, 0xBF295200, 0xBF2D6A00)
_LN_LOW = _f32(
    0x00000000, 0xB726C39E, 0x37679FF7, 0xB7528AE5, 0x377891D5, 0xB725F040, 0xB6C1C29E, 0xB73539E9,
    0x35838656, 0xB6436AF2, 0x370D5151, 0x36EA28F7, 0xB63C21C6, 0xB776FD60, 0x37202511, 0xB74E1B05,
    0xB70FB2FE, 0x36084337, 0x36038656, 0x36AFD9F2, 0xB675FAF0, 0xB7152D2F, 0x36D1BDAD, 0xB5F4BD35,
    0xB77AF382, 0xB770944E, 0xB7399A79, 0x3779654F, 0xB6FE8467, 0x367449F8, 0x3716CD22, 0xB4186B3E)
_LN_HALF_HIGH = _f32(  # log(2/(1 + j/32)), high parts, for the significand in [1/2, 1)
    0x3F317200, 0x3F299200, 0x3F21EC00, 0x3F1A8200, 0x3F134C00, 0x3F0C4800, 0x3F057400, 0x3EFD9C00,
    0x3EF0A400, 0x3EE40000, 0x3ED7A800, 0x3ECB9C00, 0x3EBFD800, 0x3EB45800, 0x3EA91400, 0x3E9E1400,
    0x3E934C00, 0x3E88BC00, 0x3E7CC800, 0x3E688000, 0x3E54A000, 0x3E412000, 0x3E2DF800, 0x3E1B3000,
    0x3E08C000, 0x3DED4000, 0x3DC9A000, 0x3DA6A000, 0x3D843000, 0x3D44A000, 0x3D020000, 0x3C810000)
_LN_HALF_LOW = _f32(
    0x35BFBE8E, 0xB70ECBCC, 0x377F97C9, 0xB73A9314, 0xB76F7659, 0xB70DF86E, 0xB691D2FB, 0xB71D4217,
    0x3621A272, 0xB5C71755, 0x37254923, 0x370D0C4D, 0xB5B884FD, 0xB75F058E, 0x37381CE3, 0xB7362333,
    0xB6EF7659, 0x3668227E, 0x3663659E, 0x36DFC995, 0xB6161BA9, 0xB6FA6AB9, 0x3700D6A8, 0xB4D3FA9C,
    0xB762FBB0, 0xB7589C7C, 0xB721A2A7, 0xB76EA2E0, 0xB6CE94C4, 0x36AA14A0, 0x372EC4F4, 0x35ACB127)
_LN2 = _f32(0x3F317200, 0x35BFBE8E)  # log(2) as a high and a low float
_LN_POLY = _f32(0xBE800810, 0x3EAAB11E, 0xBF000000)
_ROUND_5 = np.uint32(0x20000)  # added to the estimate's bits, then all but 5 fraction bits cleared
_KEEP_5 = np.uint32(0xFFFC0000)
_ONE = np.float32(1)


def _log_sum(r: np.ndarray, e: np.ndarray, j: np.ndarray, high: np.ndarray, low: np.ndarray,
             ln2: np.ndarray) -> np.ndarray:
    """h + r + (l + r*r*((a*r + b)*r + c)) with h = high(j) + e*ln2[0] and l = low(j) + e*ln2[1],
    h + r's rounding error carried (fused steps and float sums in the kernel's order)."""
    p = fma32(fma32(fma32(r, _LN_POLY[0], _LN_POLY[1]), r, _LN_POLY[2]), r * r,
              fma32(ln2[1], e, low[j]))
    h = fma32(ln2[0], e, high[j])
    s = h + r
    p += r - (s - h)
    return s + p


def _ln(x: np.ndarray) -> np.ndarray:
    """sLn: c = vrcp14(x) rounded to 5 fraction bits (an integer add and mask on its bits), j its
    fraction, e its exponent, r = x*c - 1 (vfmadd): log x = -e*log(2) - log(1 + j/32) + log1p(r).
    Where c is no positive normal float (x subnormal or from 2**126 on), the kernel's second way:
    x = 2**(e+1) * m with m in [1/2, 1) (vgetmantps, vgetexpps), c = vrcp14(m) rounded to 5 fraction
    bits (vrndscaleps), r = m*c - 1: log x = (e - exponent of c)*log(2) + log(2/(1 + j/32)) +
    log1p(r), its table's."""
    c = ((rcp14(x).view(np.uint32) + _ROUND_5) & _KEEP_5).view(np.float32)
    bits = c.view(np.uint32)
    j = (bits >> np.uint32(18)) & np.uint32(31)
    e = ((bits >> np.uint32(23)).astype(np.int32) - 127).astype(np.float32)
    out = _log_sum(fma32(x, c, -_ONE), e, j, _LN_HIGH, _LN_LOW, -_LN2)
    other = (bits - np.uint32(0x00800000)) >= np.uint32(0x7F000000)  # c not a positive normal
    if other.any():
        m, ex = np.frexp(x[other])
        c = np.rint(rcp14(m) * np.float32(32)) * np.float32(1 / 32)
        j = (c.view(np.uint32) >> np.uint32(18)) & np.uint32(31)
        e = (ex - 1 - (c == 2)).astype(np.float32)
        out[other] = _log_sum(fma32(m, c, -_ONE), e, j, _LN_HALF_HIGH, _LN_HALF_LOW, _LN2)
    return out


def _positive(x: np.ndarray) -> np.ndarray:
    """The fast path's lanes: positive and finite (subnormals included; NaN fails)."""
    return (x > 0) & (x < np.inf)


def _below(limit: np.float32) -> Callable[[np.ndarray], np.ndarray]:
    """The fast path's lanes: not |x| >= limit (NaN included: its compare is false)."""
    return lambda x: ~(np.abs(x) >= limit)


# name: (kernel, the lanes its fast path takes, the other lanes' values from `rounded` or None)
SINGLE: dict[str, tuple[Callable, Callable, Callable | None]] = {
    "exp": (_exp, _below(_EXP_LIMIT), None),
    "log": (_ln, _positive, None),
}

DOUBLE: dict[str, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]] = {}
