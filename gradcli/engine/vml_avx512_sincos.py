"""MKL's AVX-512 VML kernels for float32 sin and cos (sSin_Z0HAynn, sCos_Z0HAynn), which torch's
CPU build runs on Intel processors, step by step as the kernels run them (the constants are the
kernels' own; every multiply-add rounds once, as vfmadd does).

Up to |x| = 10000 the argument is reduced by multiples of pi in double and an odd polynomial
taken in double; larger finite |x| are reduced exactly, from 1/(2*pi)'s bits in integer
arithmetic, to a 256th of a turn from a table plus a remainder, and finished in float.
Infinities and NaN go to the kernels' slow path: those lanes take the value rounded from double.
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from gradcli.engine.fma import fma32, fma64
from gradcli.engine.vml import _HALF_PI, _INV_PI, _PI_HIGH, _PI_LOW, _SHIFTER, _SIGN, _f32
from gradcli.engine.vml import _SIN_LIMIT as _LIMIT
from gradcli.engine.vml import _SIN_POLY as _POLY


# ---- |x| up to 10000: the argument reduced by multiples of pi in double, an odd polynomial --------
# (the constants of MKL's AMD kernels, which these share; past 10000, the reduction in integers)
_HALF = _f32(0x3F000000)


def _plain(a, b, c):
    return a * b + c


def _polynomial(a: np.ndarray, turns: np.ndarray, madd) -> np.ndarray:
    """r = |x| - n*pi in double (pi's high part times n exact, its low part multiplied and
    added by `madd`), then r + r*(r*r*p(r*r)), each step of Horner's rule a `madd`."""
    r = madd(-turns, _PI_LOW, a - turns * _PI_HIGH)
    r2 = r * r
    p = madd(r2, _POLY[0], _POLY[1])
    for c in _POLY[2:]:
        p = madd(p, r2, c)
    return madd(p * r2, r, r)


# how far the polynomial with separate roundings can be from the fused one: n times pi's low
# part rounded alone (below 2**-79) and a few double roundings relative to the result (2**-51
# measured)
_APART = (2.0 ** -76, 2.0 ** -45)


def _reduced(x: np.ndarray, cosine: bool) -> np.ndarray:
    """t = |x|/pi + 1.5*2**23 in one rounding (|x| + pi/2 for cos), n = t less the shifter
    (less 1/2 for cos), then _polynomial with fma, rounded to float; t's last bit (and x's sign
    for sin) gives the sign. The polynomial is taken with separate roundings first, and with
    fma (fma64) only where the float it rounds to could differ."""
    a = np.abs(x)
    t = fma32(a + _HALF_PI if cosine else a, _INV_PI, _SHIFTER)
    n = t - _SHIFTER
    if cosine:
        n -= _HALF
    turns = n.astype(np.float64)
    a64 = a.astype(np.float64)
    v = _polynomial(a64, turns, _plain)
    margin = np.abs(v) * _APART[1] + _APART[0]
    doubtful = (v - margin).astype(np.float32) != (v + margin).astype(np.float32)
    if doubtful.any():
        v[doubtful] = _polynomial(a64[doubtful], turns[doubtful], fma64)
    out = v.astype(np.float32)
    sign = t.view(np.uint32) << np.uint32(31)
    if not cosine:
        sign ^= x.view(np.uint32) & _SIGN
    out.view(np.uint32)[...] ^= sign
    return out


# ---- |x| past 10000: x/(2*pi) modulo 1 from 1/(2*pi)'s bits in integers, a table of 256 turns ----------
_INV_TWO_PI = 0x28BE60DB9391054A7F09D5F47D4D377036D8A5664F10E4107F9  # 1/(2*pi) * 2**204, floored
_LOW_16 = np.uint32(0xFFFF)
_TURNS = _f32(0x47400000)  # 1.5 * 2**15: adding it rounds to 1/256 of a turn, kept in the low bits
_MID_ONE = np.uint32(0x34000000)  # 2**-23
_LOW_ONE = np.uint32(0x28800000)  # 2**-46
_TWO_PI = (_f32(0x40C90FDB), _f32(0xB43BBD2E))  # 2*pi as a high and a low float
_COS_POLY = (_f32(0x3D2AAA7C), _f32(0xBF000000))  # cos r - 1 = r*r*(a*r*r + b)
_SIN_POLY = (_f32(0x3C08885C), _f32(0xBE2AAAAB))  # sin r - r = r*r*r*(a*r*r + b)


@functools.cache
def _words() -> np.ndarray:
    """The kernels' 1/(2*pi) by biased exponent e: the 96 bits of 2**(e - 54)/(2*pi) below
    2**96, as three 32-bit words (high first)."""
    rows = [(_INV_TWO_PI >> (258 - e)) % (1 << 96) for e in range(256)]
    return np.array([[(r >> s) & 0xFFFFFFFF for s in (64, 32, 0)] for r in rows], np.uint32)


@functools.cache
def _turn_table(cosine: bool) -> np.ndarray:
    """Row j: sin(2*pi*j/256) as a high float (column 1) and a low one (2); cos(2*pi*j/256) as a
    power of two or 0 (3) plus a float (0). cos's table is sin's from a quarter turn on."""
    table = np.frombuffer(bytes.fromhex("".join(_TURN_TABLE)), "<u4").reshape(256, 4)
    return np.roll(table, -64 if cosine else 0, axis=0).view(np.float32)


def reduce_turns(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x/(2*pi) modulo 1 as MKL's AVX-512 sin, cos and tan reduce a large float: x's significand
    (a high 8 and a low 16 bits) times the 96 bits of 1/(2*pi) its exponent picks, in 16-bit
    pieces summed in 32-bit integers, gives three floats of 23, 23 and 18 bits (x's sign); the
    nearest 256th of a turn is split off by the shifter (t, its count in t's low bits) and the
    rest times 2*pi (in two parts, fused) is rh + rl."""
    bits = x.view(np.uint32)
    w0, w1, w2 = _words()[(bits >> np.uint32(23)) & np.uint32(0xFF)].T
    high = ((bits >> np.uint32(16)) & np.uint32(0x7F)) | np.uint32(0x80)
    low = bits & _LOW_16
    sixteen = np.uint32(16)
    w0h, w0l, w1h, w1l, w2h, w2l = (w0 >> sixteen, w0 & _LOW_16, w1 >> sixteen, w1 & _LOW_16,
                                    w2 >> sixteen, w2 & _LOW_16)
    # the columns of pieces by weight (w2's lowest bit 1); those below 2**32 are left out
    top = w0h * bits + high * w0  # 2**80: its low 16 bits
    l0l, l1h, l1l, l2h = low * w0l, low * w1h, low * w1l, low * w2h
    col32 = (l2h >> sixteen) + ((high * w2l) >> sixteen) + ((l1l & _LOW_16) + high * w2h)
    col48 = (l1l >> sixteen) + high * w1l + (l1h & _LOW_16) + (col32 >> sixteen)
    col64 = (l0l & _LOW_16) + high * w1h + (l1h >> sixteen) + (col48 >> sixteen)
    word0 = (((top << sixteen) + l0l) & np.uint32(0xFFFF0000)) + col64
    word2 = ((col48 & _LOW_16) << sixteen) | (col32 & _LOW_16)
    sign = bits & _SIGN
    f = ((word0 >> np.uint32(9)) | np.uint32(0x3F800000) | sign).view(np.float32)
    t = f + _TURNS
    f -= t - _TURNS
    mid_one = sign | _MID_ONE
    mid = (((col48 & _LOW_16) >> np.uint32(2)) | ((col64 << np.uint32(14)) & np.uint32(0x7FC000))
           | mid_one).view(np.float32) - mid_one.view(np.float32)
    low_one = sign | _LOW_ONE
    tail = (((word2 << np.uint32(5)) & np.uint32(0x7FFFE0)) | low_one).view(np.float32) \
        - low_one.view(np.float32)
    hi = f + mid
    lo = (mid + (f - hi)) + tail
    rh = hi * _TWO_PI[0]
    rl = fma32(_TWO_PI[0], hi, -rh)
    rl = fma32(_TWO_PI[1], hi, rl)
    rl = fma32(_TWO_PI[0], lo, rl)
    return t, rh, rl


def _big(x: np.ndarray, cosine: bool) -> np.ndarray:
    """sSin / sCos past 10000: x reduced to j/256 of a turn and r = rh + rl (`reduce_turns`);
    sin(2*pi*j/256 + r) (cos) is the table's sin s and cos c = c0 + c1 combined with r's
    polynomials by fma."""
    t, rh, rl = reduce_turns(x)
    r2 = rh * rh
    c0, s, s_low, c1 = _turn_table(cosine)[t.view(np.uint32) & np.uint32(0xFF)].T
    c = fma32(-rh, s, c0 + c1)
    acc = fma32(c, rl, s_low)
    acc = fma32(fma32(r2, *_COS_POLY) * r2, s, acc)
    head = fma32(rh, c1, s)
    head_err = fma32(c1, rh, s - head)
    out = fma32(c0, rh, head)
    err = fma32(rh, c0, head - out) + head_err
    odd = fma32(r2, *_SIN_POLY) * r2 * rh
    return out + (acc + fma32(odd, c, err))


def _sin_or_cos(x: np.ndarray, cosine: bool) -> np.ndarray:
    """sSin / sCos: the reduction in double, and past 10000 (finite) the one in integers."""
    out = _reduced(x, cosine)
    a = np.abs(x)
    big = (a > _LIMIT) & (a < np.inf)
    if big.any():
        out[big] = _big(x[big], cosine)
    return out


# name: (kernel, the lanes its fast path takes, the other lanes' values from `rounded` or None)
SINGLE: dict[str, tuple[Callable, Callable, Callable | None]] = {
    "sin": (lambda x: _sin_or_cos(x, False), np.isfinite, None),
    "cos": (lambda x: _sin_or_cos(x, True), np.isfinite, None),
}
DOUBLE: dict[str, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]] = {}


# 256 rows of four little-endian 32-bit words (see _turn_table), as read from torch 2.13's
# libtorch_cpu.so (vssin_data)
_TURN_TABLE = (
    "0000000000000000000000000000803fdfe79db9b00ac93c98c905b00000803fc8e19dba30fb483d7f22efb0"
    "0000803f989231bb05a9963d611e53b10000803f71c99dbb36bdc83df59275b00000803f3c6ef6bb73b2fa3d"
    "cf6815b10000803f025531bc8340163e14e6e8310000803f0b3671bca2102f3ef96711310000803f30689dbc"
    "c2c5473e7d96e5b00000803f540cc7bc135c603ef6e4a7310000803f0481f5bccccf783e1dd41bb10000803f"
    "8c5f14bd938e883e9e7d2c310000803f555f30bd31a0943ef0596d320000803f8abb4ebde59aa03ea0893eb2"
    "0000803f7e6f6fbdd47cac3e024e25b20000803f123b89bd2a44b83ea65b70b20000803f0ce59bbd15efc33e"
    "2cd5d5310000803fccb2afbdca7bcf3e633b6a310000803f43a1c4bd80e8da3ecc151e320000803f38addabd"
    "7533e63e74c7d9b10000803f44d3f1bdea5af13e3921ffb10000803fea0705be275dfc3ea9ec80b10000803f"
    "97af11be3d9c033f02a05bb20000803fb5de1ebe9bf5083f4e4bbeb20000803f3b932cbeda390e3fe7324ab2"
    "0000803f0ccb3abe2a68133f2ed1cd320000803ff78349bec07f183ff3a3c7b10000803fb7bb58bed17f1d3f"
    "0c0592320000803ff36f68be9967223fbb2321320000803f3f9e78be5636273f438303b20000803f0ea284be"
    "4aeb2b3f3631b7b20000803f7d2f8dbebb85303f322daeb20000803f1af695bef304353f7ae74f320000803f"
    "eb16423e4268393f070081b20000003f27ad2f3ef9ae3d3fecab9a310000003f57d91c3e70d8413f77f9bf32"
    "0000003f659e093e03e4453f7451b1320000003f8afeeb3d12d1493f402699320000003ffffdc33d029f4d3f"
    "e8707e320000003f53419b3d3d4d513f044f0c300000003f9d9d633d31db543f1aea90320000003faa590f3d"
    "5348583fc05f7db20000003f320f673c1a945b3fc82d23320000003f48b6e8bb05be5e3f53f9c6320000003f"
    "6451eabc98c5613f25f4e7b20000003f5a644ebd59aa643ffa081a310000003fff5d94bdd86b673f8933bcb2"
    "0000003fd810c2bda7096a3f6c23ebb20000003fab43f0bd5e836c3fd428f3320000003fad770fbe9ed86e3f"
    "dc3393b20000003f4ff3b13d0809713fddd01e320000803e936b823d4714733f118ec4320000803e8c01253d"
    "0bfa743f229d93b20000803e31e9883c07ba763f2c096d320000803e8506e6bbf853783fe5b90db20000803e"
    "651ffdbc9dc7793f594ec6320000803ef8e860bdbe147b3fcb75ff320000803e89423c3d283b7c3f8bd631b2"
    "0000003e1c04b23cac3a7d3fe95af7b00000003ea9b129bb24137e3f03e6f1b20000003e280bddbc6dc47e3f"
    "4949f4310000003e2548353c6d4e7f3f8418d0320000803d42135cbc0fb17f3f5f5bde310000803d41d5dbbb"
    "43ec7f3f0dcd84300000003d000000000000803f000000000000000041d5db3b43ec7f3f0dcd8430000000bd"
    "42135c3c0fb17f3f5f5bde31000080bd254835bc6d4e7f3f8418d032000080bd280bdd3c6dc47e3f4949f431"
    "000000bea9b1293b24137e3f03e6f1b2000000be1c04b2bcac3a7d3fe95af7b0000000be89423cbd283b7c3f"
    "8bd631b2000000bef8e8603dbe147b3fcb75ff32000080be651ffd3c9dc7793f594ec632000080be8506e63b"
    "f853783fe5b90db2000080be31e988bc07ba763f2c096d32000080be8c0125bd0bfa743f229d93b2000080be"
    "936b82bd4714733f118ec432000080be4ff3b1bd0809713fddd01e32000080bead770f3e9ed86e3fdc3393b2"
    "000000bfab43f03d5e836c3fd428f332000000bfd810c23da7096a3f6c23ebb2000000bfff5d943dd86b673f"
    "8933bcb2000000bf5a644e3d59aa643ffa081a31000000bf6451ea3c98c5613f25f4e7b2000000bf48b6e83b"
    "05be5e3f53f9c632000000bf320f67bc1a945b3fc82d2332000000bfaa590fbd5348583fc05f7db2000000bf"
    "9d9d63bd31db543f1aea9032000000bf53419bbd3d4d513f044f0c30000000bffffdc3bd029f4d3fe8707e32"
    "000000bf8afeebbd12d1493f40269932000000bf659e09be03e4453f7451b132000000bf57d91cbe70d8413f"
    "77f9bf32000000bf27ad2fbef9ae3d3fecab9a31000000bfeb1642be4268393f070081b2000000bf1af6953e"
    "f304353f7ae74f32000080bf7d2f8d3ebb85303f322daeb2000080bf0ea2843e4aeb2b3f3631b7b2000080bf"
    "3f9e783e5636273f438303b2000080bff36f683e9967223fbb232132000080bfb7bb583ed17f1d3f0c059232"
    "000080bff783493ec07f183ff3a3c7b1000080bf0ccb3a3e2a68133f2ed1cd32000080bf3b932c3eda390e3f"
    "e7324ab2000080bfb5de1e3e9bf5083f4e4bbeb2000080bf97af113e3d9c033f02a05bb2000080bfea07053e"
    "275dfc3ea9ec80b1000080bf44d3f13dea5af13e3921ffb1000080bf38adda3d7533e63e74c7d9b1000080bf"
    "43a1c43d80e8da3ecc151e32000080bfccb2af3dca7bcf3e633b6a31000080bf0ce59b3d15efc33e2cd5d531"
    "000080bf123b893d2a44b83ea65b70b2000080bf7e6f6f3dd47cac3e024e25b2000080bf8abb4e3de59aa03e"
    "a0893eb2000080bf555f303d31a0943ef0596d32000080bf8c5f143d938e883e9e7d2c31000080bf0481f53c"
    "cccf783e1dd41bb1000080bf540cc73c135c603ef6e4a731000080bf30689d3cc2c5473e7d96e5b0000080bf"
    "0b36713ca2102f3ef9671131000080bf0255313c8340163e14e6e831000080bf3c6ef63b73b2fa3dcf6815b1"
    "000080bf71c99d3b36bdc83df59275b0000080bf9892313b05a9963d611e53b1000080bfc8e19d3a30fb483d"
    "7f22efb0000080bfdfe79d39b00ac93c98c905b0000080bf000000000000000000000000000080bfdfe79d39"
    "b00ac9bc98c90530000080bfc8e19d3a30fb48bd7f22ef30000080bf9892313b05a996bd611e5331000080bf"
    "71c99d3b36bdc8bdf5927530000080bf3c6ef63b73b2fabdcf681531000080bf0255313c834016be14e6e8b1"
    "000080bf0b36713ca2102fbef96711b1000080bf30689d3cc2c547be7d96e530000080bf540cc73c135c60be"
    "f6e4a7b1000080bf0481f53ccccf78be1dd41b31000080bf8c5f143d938e88be9e7d2cb1000080bf555f303d"
    "31a094bef0596db2000080bf8abb4e3de59aa0bea0893e32000080bf7e6f6f3dd47cacbe024e2532000080bf"
    "123b893d2a44b8bea65b7032000080bf0ce59b3d15efc3be2cd5d5b1000080bfccb2af3dca7bcfbe633b6ab1"
    "000080bf43a1c43d80e8dabecc151eb2000080bf38adda3d7533e6be74c7d931000080bf44d3f13dea5af1be"
    "3921ff31000080bfea07053e275dfcbea9ec8031000080bf97af113e3d9c03bf02a05b32000080bfb5de1e3e"
    "9bf508bf4e4bbe32000080bf3b932c3eda390ebfe7324a32000080bf0ccb3a3e2a6813bf2ed1cdb2000080bf"
    "f783493ec07f18bff3a3c731000080bfb7bb583ed17f1dbf0c0592b2000080bff36f683e996722bfbb2321b2"
    "000080bf3f9e783e563627bf43830332000080bf0ea2843e4aeb2bbf3631b732000080bf7d2f8d3ebb8530bf"
    "322dae32000080bf1af6953ef30435bf7ae74fb2000080bfeb1642be426839bf07008132000000bf27ad2fbe"
    "f9ae3dbfecab9ab1000000bf57d91cbe70d841bf77f9bfb2000000bf659e09be03e445bf7451b1b2000000bf"
    "8afeebbd12d149bf402699b2000000bffffdc3bd029f4dbfe8707eb2000000bf53419bbd3d4d51bf044f0cb0"
    "000000bf9d9d63bd31db54bf1aea90b2000000bfaa590fbd534858bfc05f7d32000000bf320f67bc1a945bbf"
    "c82d23b2000000bf48b6e83b05be5ebf53f9c6b2000000bf6451ea3c98c561bf25f4e732000000bf5a644e3d"
    "59aa64bffa081ab1000000bfff5d943dd86b67bf8933bc32000000bfd810c23da7096abf6c23eb32000000bf"
    "ab43f03d5e836cbfd428f3b2000000bfad770f3e9ed86ebfdc339332000000bf4ff3b1bd080971bfddd01eb2"
    "000080be936b82bd471473bf118ec4b2000080be8c0125bd0bfa74bf229d9332000080be31e988bc07ba76bf"
    "2c096db2000080be8506e63bf85378bfe5b90d32000080be651ffd3c9dc779bf594ec6b2000080bef8e8603d"
    "be147bbfcb75ffb2000080be89423cbd283b7cbf8bd63132000000be1c04b2bcac3a7dbfe95af730000000be"
    "a9b1293b24137ebf03e6f132000000be280bdd3c6dc47ebf4949f4b1000000be254835bc6d4e7fbf8418d0b2"
    "000080bd42135c3c0fb17fbf5f5bdeb1000080bd41d5db3b43ec7fbf0dcd84b0000000bd00000000000080bf"
    "000000000000000041d5dbbb43ec7fbf0dcd84b00000003d42135cbc0fb17fbf5f5bdeb10000803d2548353c"
    "6d4e7fbf8418d0b20000803d280bddbc6dc47ebf4949f4b10000003ea9b129bb24137ebf03e6f1320000003e"
    "1c04b23cac3a7dbfe95af7300000003e89423c3d283b7cbf8bd631320000003ef8e860bdbe147bbfcb75ffb2"
    "0000803e651ffdbc9dc779bf594ec6b20000803e8506e6bbf85378bfe5b90d320000803e31e9883c07ba76bf"
    "2c096db20000803e8c01253d0bfa74bf229d93320000803e936b823d471473bf118ec4b20000803e4ff3b13d"
    "080971bfddd01eb20000803ead770fbe9ed86ebfdc3393320000003fab43f0bd5e836cbfd428f3b20000003f"
    "d810c2bda7096abf6c23eb320000003fff5d94bdd86b67bf8933bc320000003f5a644ebd59aa64bffa081ab1"
    "0000003f6451eabc98c561bf25f4e7320000003f48b6e8bb05be5ebf53f9c6b20000003f320f673c1a945bbf"
    "c82d23b20000003faa590f3d534858bfc05f7d320000003f9d9d633d31db54bf1aea90b20000003f53419b3d"
    "3d4d51bf044f0cb00000003ffffdc33d029f4dbfe8707eb20000003f8afeeb3d12d149bf402699b20000003f"
    "659e093e03e445bf7451b1b20000003f57d91c3e70d841bf77f9bfb20000003f27ad2f3ef9ae3dbfecab9ab1"
    "0000003feb16423e426839bf070081320000003f1af695bef30435bf7ae74fb20000803f7d2f8dbebb8530bf"
    "322dae320000803f0ea284be4aeb2bbf3631b7320000803f3f9e78be563627bf438303320000803ff36f68be"
    "996722bfbb2321b20000803fb7bb58bed17f1dbf0c0592b20000803ff78349bec07f18bff3a3c7310000803f"
    "0ccb3abe2a6813bf2ed1cdb20000803f3b932cbeda390ebfe7324a320000803fb5de1ebe9bf508bf4e4bbe32"
    "0000803f97af11be3d9c03bf02a05b320000803fea0705be275dfcbea9ec80310000803f44d3f1bdea5af1be"
    "3921ff310000803f38addabd7533e6be74c7d9310000803f43a1c4bd80e8dabecc151eb20000803fccb2afbd"
    "ca7bcfbe633b6ab10000803f0ce59bbd15efc3be2cd5d5b10000803f123b89bd2a44b8bea65b70320000803f"
    "7e6f6fbdd47cacbe024e25320000803f8abb4ebde59aa0bea0893e320000803f555f30bd31a094bef0596db2"
    "0000803f8c5f14bd938e88be9e7d2cb10000803f0481f5bccccf78be1dd41b310000803f540cc7bc135c60be"
    "f6e4a7b10000803f30689dbcc2c547be7d96e5300000803f0b3671bca2102fbef96711b10000803f025531bc"
    "834016be14e6e8b10000803f3c6ef6bb73b2fabdcf6815310000803f71c99dbb36bdc8bdf59275300000803f"
    "989231bb05a996bd611e53310000803fc8e19dba30fb48bd7f22ef300000803fdfe79db9b00ac9bc98c90530"
    "0000803f"
)
