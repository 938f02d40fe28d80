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
from gradcli.engine.vml import nan_below_zero


def _f32(*bits: int) -> np.ndarray:
    return np.array(bits, np.uint32).view(np.float32)


# The kernels' tables, as read from torch 2.13's libtorch_cpu.so: each two rows of 32 floats (their
# bit patterns in hex) indexed by j. "exp": low(j) = 2**(j/32)/high(j) - 1, then high(j), 2**(j/32);
# the others: the high, then the low part of -log(1 + j/32) ("log", sLn's first way) or of
# log(2/(1 + j/32)) ("log_half", sLn's second way), log2(2/(1 + j/32)) and log10(2/(1 + j/32)).
_TABLES = {
    "exp": "00000000B34A3A0A3346CB6AB36ED17EB24E0611B3517DD9334B2482B31586DE33092801B2E6F467331B85F23099B6F1B3051AA8B2E2A0DAB2006C56B3365942329302AE32C595DCB302E5A2B28E10A131B3D0E5B31A472B31D1DAF2B305BF64B27CE182B2F26443B1B4B0DAB1DA8A8FB1D290BEB2D5B89931B0A147B2156AFC3F8000003F82CD873F85AAC33F88980F3F8B95C23F8EA43A3F91C3D33F94F4F03F9837F03F9B8D3A3F9EF5323FA270433FA5FED73FA9A15B3FAD583F3FB123F63FB504F33FB8FBAF3FBD08A43FC12C4D3FC5672A3FC9B9BE3FCE248C3FD2A81E3FD744FD3FDBFBB83FE0CCDF3FE5B9073FEAC0C73FEFE4BA3FF5257D3FFA83B3",
    "log": "00000000BCFC0000BD786000BDB78000BDF14000BE14A800BE2FF800BE4A9000BE648000BE7DC800BE8B3C00BE974800BEA30C00BEAE8C00BEB9D000BEC4D000BECF9800BEDA2800BEE48000BEEEA400BEF89400BF012A00BF05F400BF0AA600BF0F4200BF13CA00BF183E00BF1CA000BF20EC00BF252800BF295200BF2D6A0000000000B726C39E37679FF7B7528AE5377891D5B725F040B6C1C29EB73539E935838656B6436AF2370D515136EA28F7B63C21C6B776FD6037202511B74E1B05B70FB2FE360843373603865636AFD9F2B675FAF0B7152D2F36D1BDADB5F4BD35B77AF382B770944EB7399A793779654FB6FE8467367449F83716CD22B4186B3E",
    "log_half": "3F3172003F2992003F21EC003F1A82003F134C003F0C48003F0574003EFD9C003EF0A4003EE400003ED7A8003ECB9C003EBFD8003EB458003EA914003E9E14003E934C003E88BC003E7CC8003E6880003E54A0003E4120003E2DF8003E1B30003E08C0003DED40003DC9A0003DA6A0003D8430003D44A0003D0200003C81000035BFBE8EB70ECBCC377F97C9B73A9314B76F7659B70DF86EB691D2FBB71D42173621A272B5C7175537254923370D0C4DB5B884FDB75F058E37381CE3B7362333B6EF76593668227E3663659E36DFC995B6161BA9B6FA6AB93700D6A8B4D3FA9CB762FBB0B7589C7CB721A2A7B76EA2E0B6CE94C436AA14A0372EC4F435ACB127",
    "log2": "3F8000003F74A4003F699C003F5EE8003F5480003F4A60003F4088003F36F0003F2D98003F2478003F1B90003F12E0003F0A64003F0214003EF3F0003EE410003ED480003EC548003EB658003EA7B8003E9960003E8B50003E7B00003E5FE0003E4540003E2B20003E1170003DF060003DBEC0003D8DE0003D3B80003CBA000000000000B7B4DD643510536FB73119B5B651CFDF37A1D24BB635C813B5F561C1B7F0979AB7073674378AEDC236A0463CB7A7C06637F52E6AB6201AC7B7C47A57B5D1CFDFB7CFEA813676865DB589A627B48E4789B77EB270B69D5BE7374F500037980AC0B68F5801B7247AAAB765170DB7FDB498B74D5A0037E53276377BA188",
    "log10": "3E9A20003E9348003E8CA8003E8630003E7FE0003E73B0003E67D0003E5C40003E5100003E4610003E3B50003E30E0003E26A0003E1CA0003E12E0003E0950003DFFE0003DED80003DDBA0003DCA00003DB8A0003DA7C0003D9720003D86C0003D6D80003D4E00003D2F00003D10C0003CE580003CAB00003C6200003BE00000369A84FC36F66150B798842137E23AD5B4F510E236120236378E765D37E67CF9379A84FCB7CBC897370B9770B796C66836FE09D737601EF3B72FBD4AB74B6098B47510E2378F6BB3B7F19747B7C10F8237E8671BB6AA4C88B6B17E9137B36633370F6BB3374BD5F837E59AE0B73F251C3763F336B7C85B7FB6BDF222366A02B9",
}


def _table(name: str) -> tuple[np.ndarray, np.ndarray]:
    rows = np.frombuffer(bytes.fromhex(_TABLES[name]), ">u4").astype(np.uint32).view(np.float32)
    return rows[:32], rows[32:]


# ---- exp: 2**(j/32) from a table of 32, times 2**n, times 1 + r + low(j) + r*r*(a*r + b) ---------
_EXP_LOW, _EXP_HIGH = _table("exp")
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
    p = fma32(fma32(r, _EXP_POLY[0], _EXP_POLY[1]), r * r, _EXP_LOW.take(j) + r)
    s = np.ldexp(_EXP_HIGH.take(j), np.floor(n).astype(np.int32))
    return fma32(p, s, s)


# ---- log: -log(c), c 1/x's estimate cut to 5 fraction bits, from a table of 32, + log1p(x*c - 1) -
_LN_HIGH, _LN_LOW = _table("log")
_LN_HALF_HIGH, _LN_HALF_LOW = _table("log_half")
_LN2 = _f32(0x3F317200, 0x35BFBE8E)  # log(2) as a high and a low float
_LN_POLY = _f32(0xBE800810, 0x3EAAB11E, 0xBF000000)
_ROUND_5 = np.uint32(0x20000)  # added to the estimate's bits, then all but 5 fraction bits cleared
_KEEP_5 = np.uint32(0xFFFC0000)
_ONE = np.float32(1)


def _significand_reduced(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x = 2**(e+1) * m with m in [1/2, 1) (vgetmantps, vgetexpps), c = vrcp14(m) rounded to 5
    fraction bits (vrndscaleps), j its fraction: r = m*c - 1 (vfmadd), n = e less c's exponent
    (as a float) and j."""
    m, e = np.frexp(x)
    c = np.rint(rcp14(m) * np.float32(32)) * np.float32(1 / 32)
    j = (c.view(np.uint32) >> np.uint32(18)) & np.uint32(31)
    return fma32(m, c, -_ONE), (e - 1 - (c == 2)).astype(np.float32), j


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
    r, n and j from `_significand_reduced`, log x = n*log(2) + log(2/(1 + j/32)) + log1p(r) (its
    own table)."""
    c = ((rcp14(x).view(np.uint32) + _ROUND_5) & _KEEP_5).view(np.float32)
    bits = c.view(np.uint32)
    j = (bits >> np.uint32(18)) & np.uint32(31)
    e = ((bits >> np.uint32(23)).astype(np.int32) - 127).astype(np.float32)
    out = _log_sum(fma32(x, c, -_ONE), e, j, _LN_HIGH, _LN_LOW, -_LN2)
    other = (bits - np.uint32(0x00800000)) >= np.uint32(0x7F000000)  # c not a positive normal
    if other.any():
        out[other] = _log_sum(*_significand_reduced(x[other]), _LN_HALF_HIGH, _LN_HALF_LOW, _LN2)
    return out


# ---- log2 and log10: the significand and c as in sLn's second way, a quartic for log1p ---------


class _Logarithm:
    """sLog2 / sLog10: r, n and j as `_significand_reduced` gives them; h = n*scale + high(j) and
    l = n*scale_low + low(j) (sLog2: h = n + high(j), l = low(j)), q a cubic in r; then
    s = h + k*r (vfmadd, k = 1/log(base)) and log x = s + ((l + r*q) + (k*r - (s - h)))."""

    def __init__(self, high: np.ndarray, low: np.ndarray, poly: tuple[int, ...], k: int,
                 scale: tuple[int, int] | None):
        self.high, self.low, self.poly, self.k = high, low, _f32(*poly), _f32(k)[0]
        self.scale = None if scale is None else _f32(*scale)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        r, n, j = _significand_reduced(x)
        q = fma32(r * r, fma32(r, self.poly[0], self.poly[1]), fma32(r, self.poly[2], self.poly[3]))
        if self.scale is None:
            h, low = n + self.high[j], self.low[j]
        else:
            h, low = fma32(self.scale[0], n, self.high[j]), fma32(n, self.scale[1], self.low[j])
        s = fma32(self.k, r, h)
        return s + (fma32(r, q, low) + fma32(self.k, r, -(s - h)))


_LOG2 = _Logarithm(*_table("log2"), (0xBEB8B5DE, 0x3EF6419D, 0xBF38AA3B, 0x3292AD97),
                   0x3FB8AA3B, None)
_LOG10 = _Logarithm(*_table("log10"), (0xBDDE69DB, 0x3E1442D6, 0xBE5E5BD9, 0xB238DD40),
                    0x3EDE5BD9, (0x3E9A2000, 0x369A84FC))


def _positive(x: np.ndarray) -> np.ndarray:
    """The fast path's lanes: positive and finite (subnormals included; NaN fails)."""
    return (x > 0) & (x < np.inf)


def _not_below_zero(x: np.ndarray) -> np.ndarray:
    """The fast path's lanes: no zero, infinity or negative number (subnormals and NaN pass)."""
    return ~((x <= 0) | np.isinf(x))


def _below(limit: np.float32) -> Callable[[np.ndarray], np.ndarray]:
    """The fast path's lanes: not |x| >= limit (NaN included: its compare is false)."""
    return lambda x: ~(np.abs(x) >= limit)


# name: (kernel, the lanes its fast path takes, the other lanes' values from `rounded` or None)
SINGLE: dict[str, tuple[Callable, Callable, Callable | None]] = {
    "exp": (_exp, _below(_EXP_LIMIT), None),
    "log": (_ln, _positive, nan_below_zero),
    "log2": (_LOG2, _not_below_zero, nan_below_zero),
    "log10": (_LOG10, _not_below_zero, nan_below_zero),
}

DOUBLE: dict[str, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]] = {}
