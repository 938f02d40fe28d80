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

from gradcli.engine.fma import fma32, fma64


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
def _columns(table: str, dtype: type) -> dict[str, np.ndarray]:
    """A table's columns by name, from their bit patterns."""
    words = {"stanh": _STANH_TABLE, "dtanh": _DTANH_TABLE}[table]
    bits = np.uint32 if dtype == np.float32 else np.uint64
    return {name: np.array([int(word, 16) for word in text.split()], bits).view(dtype)
            for name, text in words.items()}


def _interval(key: np.ndarray, first: np.uint32, last: np.uint32, shift: int) -> np.ndarray:
    """The table row: (key - first), as a signed integer clamped to [0, last], shifted right."""
    return np.clip(key.view(np.int32) - np.int32(first), 0,
                   np.int32(last)).view(np.uint32) >> np.uint32(shift)


def _polynomial(x: np.ndarray, table: str, row: np.ndarray) -> np.ndarray:
    """r = |x| - start; p = c_n (n the degree), p = fma(p, r, c_k) for k = n-1 .. 3; p *= r;
    p = fma(p, r, c1); p = fma(r, c2, p); p + c0 with x's sign bit or-ed in, in x's precision."""
    c = {name: column.take(row) for name, column in _columns(table, x.dtype.type).items()}
    fma, bits = (fma32, np.uint32) if x.dtype == np.float32 else (fma64, np.uint64)
    degree = len(c) - 2
    r = np.abs(x) - c["start"]
    p = c[f"c{degree}"]
    for k in range(degree - 1, 2, -1):
        p = fma(p, r, c[f"c{k}"])
    p = fma(p * r, r, c["c1"])
    p = fma(r, c["c2"], p)
    out = p + c["c0"]
    out.view(bits)[...] |= x.view(bits) & (bits(1) << bits(8 * x.itemsize - 1))
    return out


def _stanh(x: np.ndarray) -> np.ndarray:
    """sTanh: the row from |x|'s exponent and first 2 fraction bits; the polynomial in float."""
    return _polynomial(x, "stanh", _interval(x.view(np.uint32) & _QUARTER_BINADE, _STANH_FROM,
                                             _STANH_LAST, 21))


# ---- float64: a degree-17 polynomial in |x| less its interval's midpoint, in double ---------------
# Per interval (16 words each, bit patterns): the midpoint `start` and the coefficients c0 .. c17.
# Interval 0 is |x| < 0.1875 (midpoint 0); from there the exponent and first fraction bit of |x|
# pick intervals 1 .. 14; interval 15 (all zero but c0 = 1) is |x| from 24 on.
_DTANH_TABLE = {
    "start":
        "0000000000000000 3fcc000000000000 3fd4000000000000 3fdc000000000000 "
        "3fe4000000000000 3fec000000000000 3ff4000000000000 3ffc000000000000 "
        "4004000000000000 400c000000000000 4014000000000000 401c000000000000 "
        "4024000000000000 402c000000000000 4034000000000000 0000000000000000",
    "c0":
        "0000000000000000 3fcb8fd0416a7c92 3fd35f98a0ea650e 3fda5729ee488037 "
        "3fe1bf47eabb8f95 3fe686650b8c2015 3feb2523bb6b2dee 3fee1fbf97e33527 "
        "3fef9258260a71c2 3feff112c63a9077 3fefff419668df11 3feffffc832750f2 "
        "3feffffffdc96f35 3fefffffffffcf58 3ff0000000000000 3ff0000000000000",
    "c1":
        "0000000000000000 3c65e23ebcd3bcbe bc4c600bac3adf00 3c6c44091785d040 "
        "3c8221d7a6e3674b 3c69f89d2cf6b85c 3c73b3e9ec0b8f1c bc7f8d4b0428aada "
        "bc7c52d880cf43c0 3c7dd36e37096480 3c7b4f6380c442ca bc729755de470096 "
        "3c84cf852845efbd 3c6fc4fb440a5378 bc63981083b55870 0000000000000000",
    "c2":
        "3ff0000000000000 3fee842ca3f08532 3fed11574af58f1b 3fea945b9c24e4f9 "
        "3fe6284c3374f815 3fe02500a09f8d6e 3fd1f25131e3a8c0 3fbd22ca1c24a139 "
        "3f9b3afe1fba5c76 3f6dd37d19b22b21 3f27ccec13a9ef96 3ecbe6c3f33250ae "
        "3e41b4865394f75f 3d8853f01bda5f28 3c73953c0197ef58 0000000000000000",
    "c3":
        "bbf0b3ea3fdfaa19 bfca48aaeb53bc21 bfd19921f4329916 bfd5e0f09bef8011 "
        "bfd893b59c35c882 bfd6ba7cb7576538 bfce7291743d7555 bfbb6d85a01efb80 "
        "bf9addae58c7141a bf6dc59376c7aa19 bf27cc5e74677410 becbe6c0e8b4cc87 "
        "be41b486526b0565 bd8853f01bef63a4 bc73955be519be31 0000000000000000",
    "c4":
        "bfd5555555555555 bfd183afc292ba11 bfcc1a4b039c9bfa bfc16e1e6d8d0be6 "
        "bf92426c751e48a2 3fb4f152b2bad124 3fbbba40cbef72be 3fb01ba038be6a3d "
        "3f916df44871efc8 3f63c6869dfc8870 3f1fb9aef915d828 3ec299d1e27c6e11 "
        "3e379b5ddcca334c 3d8037f57bc62c9a 3c6a2d4b50a2cff7 0000000000000000",
    "c5":
        "bce6863ee44ed636 3fc04dcd0476c75e 3fc43d3449a80f08 3fc5c26f3699b7e7 "
        "3fc1a686f6ab2533 3faf203c316ce730 bf89c7a02788557c bf98157e26e0d541 "
        "bf807b55c1c7d278 bf53a18d5843190f bf0fb6bbc89b1a5b beb299c9c684a963 "
        "be279b5dd4fb3d01 bd7037f57ae72aa6 bc5a2ca2bba78e86 0000000000000000",
    "c6":
        "3fc1111111112ab5 3fb5c19efdfc08ad 3fa74c98dc34fbac bf790d6a8eff0a77 "
        "bfac3c021789a786 bfae2196b7326859 bf93a7a011ff8c2a 3f6e4709c7e8430e "
        "3f67682afa611151 3f3ef2ee77717cbf 3ef95a4482f180b7 3e9dc2c27da3b603 "
        "3e12e2afd9f7433e 3d59f320348679ba 3c44b61d9bbcc940 0000000000000000",
    "c7":
        "bda1ea19ddddb3b4 bfb0b8df995ce4df bfb2955cf41e8164 bfaf9d05c309f7c6 "
        "bf987d27ccff4291 3f8b2ca62572b098 3f8f1cf6c7f5b00a 3f60379811e43dd5 "
        "bf4793826f78537e bf2405695e36240f bee0e08de39ce756 be83d709ba5f714e "
        "bdf92e3fc5ee63e0 bd414cc030f2110e bc2ba022e8d82a87 0000000000000000",
    "c8":
        "bfaba1ba1990520b bf96e37bba52f6fc 3ecff7df18455399 3f97362834d33a4e "
        "3f9e7f8380184b45 3f869543e7c420d4 bf7326bd4914222a bf5fc15b0a9d98fa "
        "3f14cffcfa69fbb6 3f057e48e5b79d10 3ec33b66d7d77264 3e66ac4e578b9b10 "
        "3ddcc74b8d3d5c42 3d23c589137f92b4 3c107f8e2c8707a1 0000000000000000",
    "c9":
        "be351ca7f096011f 3f9eaaf3320c3851 3f9cf823fe761fc1 3f9022271754ff1f "
        "bf731fe77c9c60af bf84a6046865ec7d bf4ca3f1f2b9192b 3f4c77dee0afd227 "
        "3f04055bce68597a bee2bf0cb4a71647 bea31eaafe73efd5 be46abb02c4368ed "
        "bdbcc749ca8079dd bd03c5883836b9d2 bbf07a5416264aec 0000000000000000",
    "c10":
        "3f9664f94e6ac14e bf94d3343bae39dd bf7bc748e60df843 bf8c89372b43ba85 "
        "bf8129a092de747a 3f60c85b4d538746 3f5be9392199ec18 bf2a0c68a4489f10 "
        "bf00462601dc2faa 3eb7b6a219dea9f4 3e80cbcc8d4c5c8a 3e2425bb231a5e29 "
        "3d9992a4beac8662 3ce191ba5ed3fb67 3bc892450bad44c4 0000000000000000",
    "c11":
        "bea8c4c1fd7852fe bfccce16b1046f13 bf81a16f224bb7b6 bf62cbf00406bc09 "
        "3f75b29bb02cf69b 3f607df0f9f90c17 bf4b852a6e0758d5 bf0078c63d1b8445 "
        "3eec12eadd55be7a be6fa600f593181b be5a3c935dce3f7d be001c6d95e3ae96 "
        "bd74755a00ea1fd3 bcbc1c6c063bb7ac bba3be9a4460fe00 0000000000000000",
    "c12":
        "bf822404577aa9dd 403d8b07f7a82aa3 bf9f44ab92fbab0a 3fb2eac604473d6a "
        "3f45f87d903aaac8 bf5e104671036300 3f19bc98ddf0f340 3f0d4304bc9246e8 "
        "bed13c415f7b9d41 be722b8d9720cdb0 3e322666d739bec0 3dd76a553d7e7918 "
        "3d4de0fa59416a39 3c948716cf3681b4 3b873f9f2d2fda99 0000000000000000",
    "c13":
        "befdd99a221ed573 4070593a3735bab4 bfccab654e44835e 3fd13ed80037dbac "
        "bf6045b9076cc487 3f2085ee7e8ac170 3f23524622610430 beff12a6626911b4 "
        "3eab9008bca408af 3e634df71865f620 be05bb1bcf83ca73 bdaf2ac143fb6762 "
        "bd23eae52a3dbf57 bc6b5e3e9ca0955e bb5eca68e2c1ba2e 0000000000000000",
    "c14":
        "3f6e3be689423841 c0d263511f5baac1 40169f73b15ebe5c c025c1dd41cd6cb5 "
        "bf58fd89fe05e0d1 3f73f7af01d5af7a bf1e40bdead17e6b 3ee224cd6c4513e5 "
        "be24b645e68eeaa3 be4abfebfb72bc83 3dd51c38f8695ed3 3d8313ac38c6832b "
        "3cf7787935626685 3c401ffc49c6bc29 babf0b21acfa52ab 0000000000000000",
    "c15":
        "bf2a1306713a4f3a c1045e509116b066 4041fab9250984ce c0458d090ec3de95 "
        "bf74949d60113d63 3f7c9fd6200d0ade 3f02cd40e0ad0a9f be858ab8e019f311 "
        "be792fa6323b7cf8 3e2df04d67876402 bd95c72be95e4d2c bd55a89c30203106 "
        "bccad6b3bb9eff65 bc12705ccd3dd884 ba8e0a4c47ae75f5 0000000000000000",
    "c16":
        "bf55d7e76dc56871 41528c38809c90c7 c076d57fb5190b02 4085f09f888f8ada "
        "3fa246332a2fcba5 bfb29d851a896fcd 3ed9065ae369b212 beb8e1ba4c98a030 "
        "3e6ffd0766ad4016 be0c63c29f505f5b bd7fab216b9e0e49 3d2826b62056aa27 "
        "3ca313e31762f523 3bea37aa21895319 3ae5c7f1fd871496 0000000000000000",
    "c17":
        "3f35e67ab76a26e7 41848ee0627d8206 c0a216d618b489ec 40a5b89107c8af4f "
        "3fb69d8374520eda bfbded519f981716 bef02d288b5b3371 3eb290981209c1a6 "
        "be567e924bf5ff6e 3de3f7f7de6b0eb6 3d69ed18bae3ebbc bcf7534c4f3dfa71 "
        "bc730b73f1eaff20 bbba2cff8135d462 bab5a71b5f7d9035 0000000000000000",
}
_DTANH_FROM = np.uint32(0x3FC00000)
_DTANH_LAST = np.uint32(0x00780000)  # interval 15, before the shift
_DTANH_LIMIT = np.uint32(0x7FE00000)  # past it (|x| from 2**1023 * 1.5, inf, NaN): the slow path
_HALF_BINADE = np.uint32(0x7FF80000)


def _dtanh(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """dTanh: the row from the exponent and first fraction bit in |x|'s upper 32 bits; the
    polynomial in double."""
    high = (x.view(np.uint64) >> np.uint64(32)).astype(np.uint32) & _HALF_BINADE
    return (_polynomial(x, "dtanh", _interval(high, _DTANH_FROM, _DTANH_LAST, 19)),
            high <= _DTANH_LIMIT)


# name: (kernel, the lanes its fast path takes, the other lanes' values from `rounded` or None)
SINGLE: dict[str, tuple[Callable, Callable, Callable | None]] = {
    "tanh": (_stanh, lambda x: (x.view(np.uint32) & _QUARTER_BINADE) <= _STANH_LIMIT, None),
}

# name: f(a) -> (values, the lanes the kernel's fast path takes)
DOUBLE: dict[str, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]] = {
    "tanh": _dtanh,
}
