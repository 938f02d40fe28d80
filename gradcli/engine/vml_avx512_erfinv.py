"""MKL's AVX-512 erfinv kernels (`mkl_vml_kernel_<s|d>ErfInv_Z0HAynn`), which torch's CPU build
runs for float32 and float64 erfinv on Intel processors with AVX-512, step by step (the
constants and tables are the kernel's own): see vml.py for the SSE4.2 ones MKL runs on AMD.
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from gradcli.engine.fma import fma32

_U32 = np.uint32


def _f32(bits: int) -> np.float32:
    return _U32(bits).view(np.float32)


# ---- float32: x times a polynomial in w = 1 - |x|'s fraction, one per quarter binade of w ---------
# sErfInv's table: 8 coefficients c0..c7 (one run of 96 floats each), per row: w's exponent and
# top 2 fraction bits, from w = 2**-24 up to 1.
_S_TABLE = (
    "a659744024b57240925571402f277040f1a86e40f7fa6c4061936b40095e6a40e5d66840ca1e6740a1ae6540d4716440"
    "27e162402f1e6140d2a45f4004605e4015c55c406ef65a4028735940b8255840b97f564074a4544077165340b2bf5140"
    "b90d5040c7244e402b8b4c40422a4b40456b4940727347402dcd45403761444005944240f08b4040d2d73e40c45f3d40"
    "00833b4016693940c5a537406b20364087323440fc043240ea303040e89c2e40209c2c40e9582a405872284025ce2640"
    "7db82440555d22405562204040ac1e40907f1c40040a1a4086f81740ca2e1640d8e81340705611406e2c0f405c4d0d40"
    "1cec0a40ae3a084082f60540d0000440e18201406862fd3f5ca4f83f238bf43f2856ef3fdb73e93fb982e43fff3ee03f"
    "dcd6da3f8dbed43f08a4cf3ff13fcb3f54b4c53f327bbf3f784cba3f01ddb53fbe4cb03fc21aaa3f69fea43fd8a8a03f"
    "83499b3f0863953f5d9a903faf9d8c3f83ca873f39a6823f744d7d3f1bf3763fe0d76f3f4b2b693f5722653f6d39633f"
    "f7dce7bde1a9bebd5612a2bd6b0b8dbd3c0dedbd41fcc2bd03c9a5bd774e90bde698f2bdca9bc7bdb2c2a9bdf5cc93bd"
    "ce8af8bdb791ccbd8307aebd1c8e97bd8ceffebdcae8d1bde7a0b2bd6d9a9bbdedea02bea9add7bd049ab7bdd7fb9fbd"
    "84a706be28efddbddcffbcbd0ebea4bdb9b70abeb3bee4bdc3e1c2bdbeeea9bd72270fbea330ecbd8e51c9bdd69dafbd"
    "770414be635cf4bda463d0bd7cddb5bd605e19be315cfdbdbc2ed8bda4c1bcbd10461fbefca503be71cae0bdad5ec4bd"
    "46cc25be1a2309be3a4ceabd3dc6ccbd64fe2cbec62e0fbef4c0f4bdd200d6bd19e034be31c815be591000bedb01e0bd"
    "dd5f3dbe62d91cbec81c06be5993eabd964346be062524bebf460cbe7535f5bd930a4fbe272b2bbef60f12bef9effebd"
    "b4c356be3f0431be109a16be8a0b03bee4d95bbe893534be8e8018bef80304bed5d95bbe347e32be06aa15be146700be"
    "ee1553bed67128be4cd30abe9213eabd4e503bbec2b30fbee591e2bdf366b5bdf9e003beecfaa6bd70173abd4c856fbc"
    "0ad5c7b9615886b9784741b907a211b939f8cbb9493689b9623e45b957da14b97282d0b9a1458cb969b449b9af1018b9"
    "0046d5b92e758fb9be564eb9e3c41bb96349dab988f292b9858a53b9de941fb99bb0dfb98aa896b955ce58b9a6be23b9"
    "8293e5b9edad9ab915c15eb98b0b28b9e6eaebb9a00c9fb94e1c65b999ef2cb97ad7f2b92dc1a3b92ed96bb9c14c32b9"
    "4854fab9cddba8b9d18273b9780b38b9754001ba847eaeb9e28a7bb9893c3eb94ec205bac498b4b9d45082b9584645b9"
    "97be0abaff77bbb9626687b9d3e84cb9284710ba501ac3b9fd088db9dc7055b9ac6b16ba7da1cbb9923c93b943385fb9"
    "71481dba150fd5b95c3a9ab985e769b996ec24baa8b1dfb980efa1b944b175b9306a2dba4946ebb97e64aab91b4a81b9"
    "c18136ba1590f7b93740b3b9ace887b953c73fbad2f001ba85e6bbb9ab558eb9965a48bacd5e07baa044c3b9018193b9"
    "d3f14ebaa54a0bba554ec8b99df596b9729053babba20ebae47aceb9fd969db92cc163ba79d924ba98b505baa413f1b9"
    "0608e439e88c7a39933f1839f8dac6388863e839005d7f39063c1b39ddb9ca386bf5ec39a93a8239b25a1e39f7dfce38"
    "1dd1f139c4ef84390dae21396935d3381dfdf639f5cc8739302d253953dcd738947afc395ada8a395ef2283979cbdc38"
    "c427013a8f198e39f9ed2c392419e238ae44043a849091391332313931b4e738c198073a694895392bc935393cbaed38"
    "5c2b0b3ab5469939ffac3a396f35f43823030f3aab8f9d3972f93f393134fb385c25133a7330a2391dab4539535c0139"
    "4e9a173a6e2ca73958cc4b39b66b05399a6a1c3a078dac392e6f52391bd10939979e213acb5bb2394c995939508a0e39"
    "bb3a273a94a2b8396a506139d6a1133977422d3acb58bf39349869391e151939a4ae333a857dc639fd537239efd41e39"
    "506d3a3a2aefcd3940687b397ac224395552413a4178d539fd3d8239f7a02a39910e483a82b0dc39d9848639d00a3039"
    "221d4e3a7df0e239d80e8a39894e34391560523a1c3fe63998df8a39511533399d684a3ab65fca39d8f5423919076a38"
    "35e2463dc6ed053dcdbcc03c4164913c4c0c4b3d33c4083da1dcc43c9787943ca47a4f3db2c90b3d9141c93cf2df973c"
    "b634543d79030f3d56f3cd3c57739b3c2a43593d9577123deefad23cb6489f3c10b05e3d152d163dd562d83c3768a33c"
    "3587643d3a2c1a3d5c37de3c6cdba73c7bd66a3dcb7e1e3d1487e43ca5adac3c56ae713d5b30233d4563eb3c5decb13c"
    "5d22793db74e283d93e0f23ca9a7b73cfda4803d60ea2d3da717fb3cc0f2bd3c9220853d0b17343df912023d87e4c43c"
    "8d148a3d0bec3a3d1117073de297cc3c4f948f3d5884423dfaab0c3d532bd53c8ab5953d84fd4a3d0be7123de7bede3c"
    "3f8e9c3d1f74543dcbdb193d386ee93c832fa43db4fa5e3d1294213da242f53cc899ac3d9c866a3df3ff293dbf0b013d"
    "59a6b53d80cc763d02d9323d7bb5073d11e3be3dc885813df37a3b3d38110e3de96ac73dd7f0863dccce423d6c40133d"
    "18fdcd3dd6d88a3da9d6473d3cbb163de28fd23d0e328e3de3094e3d0f571d3df5bfe23daf62a43d266e853db5a9703d"
    "b03fe8bcace27fbc7ac61bbc5ea8cbbbb2f7ecbc789282bcf7011fbc42ebcfbba4faf1bcda5d85bce87122bcda73d4bb"
    "7c50f7bc045888bcf71b26bcc849d9bb5d02fdbc2e868bbcb2062abcdb75debb708d01bd67ee8ebcc1392ebc5302e4bb"
    "30d304bdc99792bc05be32bc29fbe9bbad5908bda28a96bcfe9d37bc816ef0bb71290cbdc6d09abc10e63cbc166df7bb"
    "9d4c10bdde759fbcfea442bcd00affbb46cf14bddd87a4bc6bec48bcc3af03bce2bf19bd7317aabc7bd14fbce74308bc"
    "ca2f1fbda538b0bc776d57bce4520dbca63325bd3903b7bc5bde5fbce1f012bcc1e32bbddc92bebcc04669bcf63419bc"
    "7e5b33bd4706c7bc42cc73bcab3720bc1eb73bbd9c7bd0bcf8917fbca90e28bc240d45bd2907dbbc3c5586bccac130bc"
    "c85e4fbdfc9de6bc797c8dbcdf333abcb4775abd4bebf2bca2fa94bcadf643bc59b365bd2a06ffbcac239cbc13034dbc"
    "359f6fbd217d04bd868ea1bc3f3353bcfd2075bd5c1906bddf67a1bcac7a4fbc19f367bd71a0e6bc32205dbc3f5c84bb"
    "cd439b3cb05f0b3cd63c8f3b9d0d223bcb5b9e3c192f0e3c8d27923b085d253bd1a3a13c102a113c0c3f953b12e8283b"
    "2421a53c7056143cbd8a983b47a82c3b21d9a83ccab8173ccd0e9c3bfdae303bf7d2ac3c39561b3c83d29f3b3dfc343b"
    "b015b13ce6391f3c16dea33b509a393b85aab53cca67233c4838a83b8f993e3b2f9cba3c38eb273ceaedac3bf9fe433b"
    "97f7bf3cffd02c3c350ab23baad9493baecac53cce26323ccf9eb73b173f503ba128cc3cc5fc373ce7b8bd3b2244573b"
    "6825d33c21673e3c4e70c43b3efe5e3b07dcda3c4e7e453cdee0cb3b9a8c673b0569e33c3b5e4d3c5226d43be913713b"
    "e6f0ec3c5b27563c635fdd3befbc7b3b5c99f73c34fe5f3c28bbe73b7dd4833b66c5013da9006b3c664bf33b657e8a3b"
    "786e083d0f40773ca80d003cc3db913b2fbc0f3d7248823c11f7063c04b9993b4573173d8e31893caf010e3c6096a13b"
    "dbf11e3d67a58f3c0154143c805da83be90c253dd08c943c15f4183c1a7ead3bdf2d2b3d490da03c06a1383c4d72083c"
    "55715cbc3b9ca1bb69620cbb6e8d89ba1ec660bc5ad2a4bbcb330fbb59538cbac45d65bc6639a8bb812f12bb53488fba"
    "823d6abcd8d6abbb5c5c15bb3d6d92ba476e6fbcf6b1afbb8fc118bb1ac795baa2f974bc41d3b3bbfa5e1cbbf25b99ba"
    "03ea7abcc13db8bba34220bbc6369dba54a580bce8fdbcbbdf7024bb025ca1bac11484bc961cc2bbfdf428bb01d5a5ba"
    "f3cb87bcdfa8c7bbefd92dbba5b0aabac4d48bbc50b0cdbb7a2d33bbf9fbafba6c3b90bcd647d4bb96ff38bb01c5b5ba"
    "2c0d95bca581dbbb49663fbb1c23bcbaf75c9abc8579e3bb537646bb2430c3ba833da0bc3a52ecbb8d4d4ebb7100cbba"
    "94c8a6bca229f6bb420c57bb58bfd3ba5018aebc5f9700bcacd660bbae86ddbab248b6bcf2c206bcf4ce6bbb4a7de8ba"
    "7572bfbc50a80dbc8d0878bbf5a8f4ba3b98c9bc584015bc67b682bb72f400bb1f89d4bc9d531dbcdcbb89bb73d107bb"
    "8c9fdfbce04625bcab7090bb182a0ebb3766e9bcfec52bbc106d95bb9c4412bba54cedbc973428bcf2d880bbe2b989ba"
)
_S_TINY = _f32(0x33800000)  # 2**-24: below it (but for 0) the slow path
_S_ROW_BITS = _U32(0x3FE00000)  # w's exponent and top 2 fraction bits
_S_FIRST_ROW = 412  # those bits of 2**-24, shifted
_S_FRACTION = _U32(0x001FFFFF)
_S_CENTRE = _f32(0x3F900000)  # 1.125
_ONE_BITS = _U32(0x3F800000)
_TWICE_ONE = _U32(0x7F000000)  # less w's exponent bits: 2 ** -(w's exponent)
_HALF_ROOT_PI = float.fromhex("0x1.c5bf891b4ef6bp-1")
_MKL_NAN = _f32(0xFFC00000)


@functools.cache
def _s_columns() -> np.ndarray:
    return np.frombuffer(bytes.fromhex("".join(_S_TABLE)), "<f4").reshape(8, 96)


def _s_fast(x: np.ndarray) -> np.ndarray:
    a = np.abs(x)
    return (a < 1) & ((a >= _S_TINY) | (a == 0))


def _s_erfinv(x: np.ndarray) -> np.ndarray:
    """sErfInv: w = 1 - |x| (|x| is 2**-24 in the lanes the fast path leaves, and for 0) and its
    rounding error e; w's exponent and top 2 fraction bits pick a row, t = w's remaining fraction
    (as 1.f) - 1.125 + e/2**(w's exponent); g = c0 + c1*t as a high part and its error, plus
    p = c2 + t*(c3 + ... + t*c7); erfinv x = x*g_high + x*(g_low + p)."""
    a = np.abs(x)
    a[~_s_fast(x) | (a == 0)] = _S_TINY
    one = np.float32(1)
    w = one - a
    error = (one - w) - a
    bits = w.view(_U32)
    scale = (_TWICE_ONE - (bits & _ONE_BITS)).view(np.float32)
    fraction = ((bits & _S_FRACTION) | _ONE_BITS).view(np.float32) - _S_CENTRE
    t = fma32(error, scale, fraction)
    row = ((bits & _S_ROW_BITS) >> _U32(21)).astype(np.intp) - _S_FIRST_ROW
    c = [column.take(row) for column in _s_columns()]
    p = fma32(t, c[7], c[6])
    for k in (5, 4, 3, 2):
        p = fma32(p, t, c[k])
    high = fma32(t, c[1], c[0])
    low = fma32(t, c[1], c[0] - high)
    return fma32(x, high, (low + p) * x)


def _s_erfinv_rare(x: np.ndarray, rounded: Callable) -> np.ndarray:
    """The slow path: x*sqrt(pi)/2 in double below 2**-24, +-inf at +-1, NaN (MKL's default)
    past 1, x + x for NaN."""
    a = np.abs(x)
    out = (x.astype(np.float64) * _HALF_ROOT_PI).astype(np.float32)
    out[a == 1] = np.copysign(np.float32(np.inf), x[a == 1])
    out[a > 1] = _MKL_NAN
    out[np.isnan(x)] = x[np.isnan(x)] + x[np.isnan(x)]
    return out


# name: (kernel, the lanes its fast path takes, the other lanes' values) as vml._KERNELS
SINGLE: dict[str, tuple[Callable, Callable, Callable | None]] = {
    "erfinv": (_s_erfinv, _s_fast, _s_erfinv_rare),
}
