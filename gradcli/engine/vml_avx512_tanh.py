"""MKL's AVX-512 VML tanh kernels (`mkl_vml_kernel_<s|d>Tanh_Z0HAynn`), which torch's CPU build
calls for its float32 and float64 tanh on Intel processors with AVX-512 (MKL's high-accuracy
mode), step by step: see vml.py for the AMD (SSE4.2) kernels. Each kernel repeats its fast path's
operations in order, with the kernel's own constants; lanes its fast path sends elsewhere (huge
arguments, infinities, NaN, where tanh is +-1 or NaN) keep the value rounded from double
(float32) or NumPy's (float64).
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from gradcli.engine.fma import fma32

_SIGN32 = np.uint32(0x80000000)

# ---- float32: a degree-7 polynomial in |x| less its interval's midpoint, in float -----------------
# Per interval (32 words each, bit patterns): the midpoint `start` and the coefficients c0 .. c7.
# Interval 0 is |x| < 0x1.cp-5 (midpoint 0); from there |x|'s exponent and first 2 fraction bits
# pick intervals 1 .. 30; interval 31 (all zero but c0 = 1) is |x| from 10 on.
_STANH_TABLE = {
    "start": 
        "00000000 3d700000 3d900000 3db00000 3dd00000 3df00000 3e100000 3e300000 "
        "3e500000 3e700000 3e900000 3eb00000 3ed00000 3ef00000 3f100000 3f300000 "
        "3f500000 3f700000 3f900000 3fb00000 3fd00000 3ff00000 40100000 40300000 "
        "40500000 40700000 40900000 40b00000 40d00000 40f00000 41100000 00000000",
    "c0": 
        "00000000 3d6fb9c9 3d8fc35f 3daf9169 3dcf49ab 3deee849 3e0f0ee8 3e2e4984 "
        "3e4d2f8e 3e6bb32e 3e8c51cd 3ea96163 3ec543f1 3edfd735 3f028438 3f18abf0 "
        "3f2bc480 3f3bec1c 3f4f2e5b 3f613c53 3f6ce37d 3f743c4f 3f7a5feb 3f7dea85 "
        "3f7f3b3d 3f7fb78c 3f7fefd4 3f7ffdd0 3f7fffb4 3f7ffff6 3f7fffff 3f800000",
    "c1": 
        "00000000 b0a1501e b11d0b9e af932f10 30fa467c 31249ef0 312b9ae0 b1dd8650 "
        "b044cc00 31f9ba98 b0ca4580 b21e2644 b234cc14 32397534 b2d0938e b1303240 "
        "b2ef278a 32e33e9c b20b98c0 b2d5b8c2 32fe70b8 32cec21a 32c28572 b2230d78 "
        "b2a2c238 b2315220 b2dddb64 b2d020d0 321fe128 b2875bb0 32fa6146 00000000",
    "c2": 
        "3f800000 3f7f1f84 3f7ebd11 3f7e1e5f 3f7d609f 3f7c842d 3f7b00e5 3f789580 "
        "3f75b8ad 3f726fd9 3f6cc59b 3f63fb92 3f59ff97 3f4f11d7 3f3d7573 3f24f360 "
        "3f0cbfe7 3eec1a69 3eb0a801 3e6753a2 3e132f1a 3db7e7d3 3d320845 3c84d3d4 "
        "3bc477b7 3b10d3da 3a01601e 388c1a3b 3717b0da 35a43bce 338306c6 00000000",
    "c3": 
        "b0343c7b bd6ee69d bd8f0da7 bdae477d bdcd2a1f bdeba80d be0c443b be293cf3 "
        "be44f282 be5f3651 be81c7c0 be96d7ca bea7fb8e beb50e9e bec12efe bec4be92 "
        "bebce070 bead510e be8ef7d6 be4b8704 be083237 bdaf7449 bd2e1ec4 bc83bf06 "
        "bbc3e0b5 bb10aadc ba0157db b88c18f2 b717b096 b5a43bae b383012c 00000000",
    "c4": 
        "beaaaaa5 beab0612 bea7f01f bea4e120 bea387b7 bea15962 be9d57f7 be976b5a "
        "be90230d be880dff be7479b3 be4c3d88 be212482 bdeb8cba bd5e78ad 3c6b5e6e "
        "3d839143 3dc21ee1 3de347af 3dcbec96 3d99ef2d 3d542ea1 3cdde701 3c2cca67 "
        "3b81cb27 3ac073a1 39ac3032 383a94d9 36ca081d 355abd4c 332b3cb6 00000000",
    "c5": 
        "b76dd6b9 be1c276d 3c1dcf2f 3dc1a78d 3d96f985 3da2b61b 3dc13397 3dd2f670 "
        "3df48a0a 3e06c5a8 3e1a3aba 3e27c405 3e2e78d0 3e2c3e44 3e1d3097 3df4a8f4 "
        "3da38508 3d31416a 3b562657 bcaeeac9 bcce9419 bcaaeac4 bc49e7d0 bba71ddd "
        "bb003b0e ba3f9a05 b92c08a7 b7ba9232 b64a0b0f b4dac169 b2ab78ac 00000000",
    "c6": 
        "3e0910e9 43761143 4165ecdc c190f756 c08c097d c02ba813 bf7f6bda 3f2b1dc0 "
        "3ece105d 3f426a94 badb0dc4 3da43b17 bd51ab88 bcaea23d bd3b6d8d bd6caaad "
        "bd795bed bd5fddda bd038f3b bc1cad63 3abb4766 3b95f10b 3b825873 3afaea66 "
        "3a49f878 39996bf3 388f3e6c 371bb0e3 35a8a5e6 34369b17 322487b0 00000000",
    "c7": 
        "bc0e2f66 460bda12 43d638ef c3e11c3e c2baa4e9 c249da2d c1859b82 40dd5b57 "
        "40494640 40c730a8 bf0f160e 3e30e76f bea81387 bdb26a1c bd351e57 bb4c01a0 "
        "3c1d7bfb 3c722cd1 3c973f1c 3c33a31b 3b862ef4 3a27b3d0 ba3b5907 ba0efc22 "
        "b97f9f0f b8c8af50 b7bdddfb b64f2950 b4e085b1 b3731dfa b15a1f04 00000000",
}
_STANH_FROM = np.uint32(0x3D400000)
_STANH_LAST = np.uint32(0x03E00000)  # interval 31, before the shift
_STANH_LIMIT = np.uint32(0x7F000000)  # past it (|x| from 2**127 * 1.25, inf, NaN): the slow path
_QUARTER_BINADE = np.uint32(0x7FE00000)


@functools.cache
def _stanh_table() -> dict[str, np.ndarray]:
    return {name: np.array([int(word, 16) for word in text.split()], np.uint32).view(np.float32)
            for name, text in _STANH_TABLE.items()}


def _stanh(x: np.ndarray) -> np.ndarray:
    """sTanh: r = |x| - start (interval from |x|'s bits); p = c7, p = fma(p, r, c_k) for
    k = 6 .. 3; p *= r; p = fma(p, r, c1); p = fma(r, c2, p); p + c0, x's sign put in."""
    bits = x.view(np.uint32)
    row = np.clip((bits & _QUARTER_BINADE).view(np.int32) - np.int32(_STANH_FROM), 0,
                  np.int32(_STANH_LAST)).view(np.uint32) >> np.uint32(21)
    c = {name: column.take(row) for name, column in _stanh_table().items()}
    r = np.abs(x) - c["start"]
    p = c["c7"]
    for k in (6, 5, 4, 3):
        p = fma32(p, r, c[f"c{k}"])
    p = fma32(p * r, r, c["c1"])
    p = fma32(r, c["c2"], p)
    out = p + c["c0"]
    out.view(np.uint32)[...] |= bits & _SIGN32
    return out


# name: (kernel, the lanes its fast path takes, the other lanes' values from `rounded` or None)
SINGLE: dict[str, tuple[Callable, Callable, Callable | None]] = {
    "tanh": (_stanh, lambda x: (x.view(np.uint32) & _QUARTER_BINADE) <= _STANH_LIMIT, None),
}
