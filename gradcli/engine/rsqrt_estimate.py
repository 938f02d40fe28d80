"""The processor's reciprocal square root estimate (`rsqrtps`), which MKL's float32 sqrt refines.

The estimate is a table in the hardware, about 12 bits good, and differs between processor
families; these are the values measured on the AMD processors vml.py serves (written by
tests/golden/record_rsqrt_estimate.py). It depends on the top 12 fraction bits of x and on the
parity of its exponent; the exponent's half then scales it exactly.
"""

from __future__ import annotations

import functools

import numpy as np

# how many units of 2**-13 the estimate drops from one case to the next, for x = 1 + i * 2**-11
# (i < 4096) and then x = 2 + (i - 4096) * 2**-10; the first estimate is 1 - 2**-13
_DROPS = (
    "c-q~TjgG=F41=A#|3ja22e<V%n51ceF{PeAr=prfM1DW`E21*jB0gT6yjP>+-=FD(eZ}8h!TY$@XtWysYK>sN?-wUiXf"
    "^!R8o_++>!t4Bp=SBr8Ww+%-MZSx;=EZO>+*cw*9hjL{SJ?&Otg}Gwg$^fd5NKMnD6HCT^HWXRp(I~BcJ87eUoRx9WBo"
    "MZv8Lo;}~d=e00BP9>tUA`*G=Pe+N%STsnI{TbG`<p4QLIlasX?K7uEC1oOS0jAl93O7g76;{3>e7A0p-J$M%8bn%yXH"
    ">VoGem0LUn`goL#w6kOy?k`O(VOQ`B<Cl5XC7SdXY*}7a9H_(3bZeNIT+40NS@6jxgQSe=jG{sfxSOb*B%z{jpTeZpWQ"
    "FoZ~4c1a9e&he_H<Z{jB>3`GgPv"
)


@functools.cache
def _table() -> np.ndarray:
    import base64  # (on first use: start-up stays without them)
    import zlib

    drops = np.frombuffer(zlib.decompress(base64.b85decode("".join(_DROPS))), np.uint8)
    units = 0x7EFFF - np.concatenate(([0], np.cumsum(drops, dtype=np.uint32)))
    return (units << 11).astype(np.uint32)


def rsqrtps(x: np.ndarray) -> np.ndarray:
    """The estimate of 1/sqrt(x) for positive normal float32 x (other lanes: a finite value of
    no use)."""
    bits = x.view(np.uint32)
    exponent = (bits >> np.uint32(23)).astype(np.int32) - 127
    index = ((exponent & 1) << 12) | ((bits >> np.uint32(11)) & np.uint32(0xFFF)).astype(np.int32)
    return (_table()[index].view(np.int32) - ((exponent >> 1) << 23)).view(np.float32)
