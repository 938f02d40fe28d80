"""oneDNN's gelu_erf eltwise primitive as its JIT injector runs it on AVX-512 (oneDNN v3.12,
src/cpu/x64/injectors/jit_uni_eltwise_injector.cpp), in float32 NumPy step by step.

torch's gelu (approximate='none') and its backward hand a contiguous float32 input of more than
one element to oneDNN rather than ATen's GeluKernel. The forward evaluates erf(x / sqrt(2)) by a
degree-5 minimax polynomial picked from 25 by |x|'s exponent and two mantissa bits; the backward
uses Abramowitz and Stegun's erf with oneDNN's own exp. Every element is computed by the same
vector code (tails by masked loads), so there is no split by position.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.fma import fma32

_F = np.float32


def _floats(*bits) -> np.ndarray:
    return np.array(bits, dtype=np.uint32).view(_F)


# coefficient [degree][polynomial]: 25 polynomials for degrees 0 to 5
_MINIMAX = _floats(
    # degree 0
    0xa6f2cb94, 0x32827792, 0x3381cc0c, 0x34523d4a, 0x351ac44d, 0x35f36d88, 0x36ee8229, 0x37b8a3bb,
    0x3867a213, 0x3940033b, 0x3a2a5a1d, 0x3ae35863, 0x3b7828f2, 0x3c08b14b, 0x3c515ed3, 0xbb503236,
    0xbd8d8e5e, 0xbe8abcd9, 0xbf0c19a2, 0xbeccb328, 0x3e176ced, 0x3f470d99, 0x3f7abb28, 0x3f800000,
    0x00000000,
    # degree 1
    0x3f4c422a, 0x3f4c421f, 0x3f4c4207, 0x3f4c41cb, 0x3f4c413b, 0x3f4c3fad, 0x3f4c3a2f, 0x3f4c2d40,
    0x3f4c146a, 0x3f4bc341, 0x3f4ad08c, 0x3f48f8cf, 0x3f45fac7, 0x3f404e07, 0x3f3b980f, 0x3f48dff3,
    0x3f78b21b, 0x3fbb0704, 0x40019c32, 0x3fe536d6, 0x3f81331e, 0x3e6c8684, 0x3c98f936, 0x00000000,
    0x3f800000,
    # degree 2
    0xb62173f4, 0x3735e4cf, 0x37f2ff89, 0x388c23be, 0x3917535c, 0x39ab2ab0, 0x3a60fadb, 0x3af9b960,
    0x3b6e5491, 0x3c0a4ec5, 0x3ca5aa8c, 0x3d2138d9, 0x3d8737d4, 0x3ddfb660, 0x3e0f27ab, 0x3d94004b,
    0xbe0efdeb, 0xbf1d96c3, 0xbf89db58, 0xbf6d9897, 0xbef69fb8, 0xbdc4f8a8, 0xbbde6422, 0x00000000,
    0x00000000,
    # degree 3
    0xbe081a19, 0xbe084570, 0xbe08639b, 0xbe089837, 0xbe08f409, 0xbe09ab95, 0xbe0b66d0, 0xbe0e400a,
    0xbe124df8, 0xbe1bde02, 0xbe2f19c9, 0xbe4931bf, 0xbe685fbc, 0xbe89c95f, 0xbe96cbca, 0xbe8044aa,
    0xbe0550f2, 0x3dcfd6a1, 0x3e94c826, 0x3e79345f, 0x3decec91, 0x3ca46568, 0x3aa1e00a, 0x00000000,
    0x00000000,
    # degree 4
    0xba3d61db, 0x39f097a3, 0x3a5845dc, 0x3ab1fa35, 0x3b0cefb8, 0x3b653ab6, 0x3bcae527, 0x3c221712,
    0x3c6c5840, 0x3cc0a703, 0x3d1dcc19, 0x3d63656d, 0x3d955907, 0x3dbf9910, 0x3dd53f69, 0x3db7dcef,
    0x3d639ebe, 0xba6ede48, 0xbd22be69, 0xbd041cf1, 0xbc64f5ab, 0xbb097a32, 0xb8ebf380, 0x00000000,
    0x00000000,
    # degree 5
    0x3cb7d80c, 0x3c9b6050, 0x3c978d11, 0x3c92e850, 0x3c8d058b, 0x3c848454, 0x3c6cd623, 0x3c4c824b,
    0x3c2a7935, 0x3be0b390, 0x3b0651ac, 0xbb232f53, 0xbbd42fa0, 0xbc2c5366, 0xbc492c9e, 0xbc2a7aa6,
    0xbbd55d04, 0xba823a76, 0x3b102aa8, 0x3ae25a7e, 0x3a31f792, 0x38b84375, 0x3689bb5a, 0x00000000,
    0x00000000,
).reshape(6, 25)
_INDEX_BIAS = np.int64(np.uint32(0xc21fffff).view(np.int32))
_RBOUND = _floats(0x40b15cee)[0]
_EXP_POLY = _floats(0x3f7ffffb, 0x3efffee3, 0x3e2aad40, 0x3d2b9d0d, 0x3c07cfce)
_LN_FLT_MIN, _LN_FLT_MAX, _LOG2E, _LN2 = _floats(0xc2aeac50, 0x42b17218, 0x3fb8aa3b, 0x3f317218)
_AS_POLY = _floats(0x3e827906, 0xbe91a98e, 0x3fb5f0e3, 0xbfba00e3, 0x3f87dc22)
_AS_P, _SQRT1_2, _SQRT1_PI = _floats(0x3ea7ba05, 0x3f3504f3, 0x3f106eba)
_SIGN = np.uint32(0x80000000)
_ONE, _HALF = _F(1), _F(0.5)


def _with_sign_of(values: np.ndarray, x: np.ndarray) -> np.ndarray:
    """values with x's sign bit xor-ed in (vxorps with x & sign_mask)."""
    return (values.view(np.uint32) ^ (x.view(np.uint32) & _SIGN)).view(_F)


def _erf_minimax(x: np.ndarray) -> np.ndarray:
    """erf(x / sqrt(2)) as gelu_erf_minimax_approx_compute_vector_fwd evaluates it."""
    magnitude = x.view(np.int32) & np.int32(0x7fffffff)
    positive = magnitude.view(_F)
    index = ((magnitude + _INDEX_BIAS + 2 ** 31) % 2 ** 32 - 2 ** 31) >> 21  # vpaddd, vpsrad
    index = np.clip(index, 1, 24)
    index = np.where(_RBOUND < positive, 23, index)
    poly = _MINIMAX[5][index]
    for degree in range(4, -1, -1):
        poly = fma32(poly, positive, _MINIMAX[degree][index])
    return _with_sign_of(poly, x)


def gelu_erf(x: np.ndarray) -> np.ndarray:
    """x * 0.5 * (1 + erf(x / sqrt(2))) for a float32 array, as oneDNN rounds it."""
    x = np.asarray(x, _F)
    with np.errstate(all="ignore"):
        return (x * (_erf_minimax(x) + _ONE)) * _HALF


def exp(x: np.ndarray) -> np.ndarray:
    """exp_compute_vector_fwd: 2^n * p(r), n from floor(x * log2(e) + 0.5), zero below
    log(FLT_MIN); NaN is taken as log(FLT_MAX) (vminps returns its second operand)."""
    underflow = x < _LN_FLT_MIN
    x = np.maximum(np.where(np.isnan(x), _LN_FLT_MAX, np.minimum(x, _LN_FLT_MAX)), _LN_FLT_MIN)
    n = np.floor(x * _LOG2E + _HALF)
    r = fma32(-n, _LN2, x)
    scale = (((n - _ONE).astype(np.int32) + 127) << 23).view(_F)
    scale = np.where(underflow, _F(0), scale)
    poly = np.full_like(r, _EXP_POLY[4])
    for c in _EXP_POLY[3::-1]:
        poly = fma32(poly, r, c)
    poly = fma32(poly, r, _ONE)
    return (poly * scale) * _F(2)


def gelu_erf_backward(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """g * d/dx gelu(x) for float32 arrays, as gelu_erf_compute_vector_bwd and the backward
    kernel's final product round it."""
    g, x = np.broadcast_arrays(np.asarray(g, _F), np.asarray(x, _F))
    with np.errstate(all="ignore"):
        r = x * _SQRT1_2
        q = exp(-(r * r))
        t = (r * _SQRT1_PI) * q
        w = _ONE / fma32(np.full_like(r, _AS_P), np.abs(r), _ONE)
        poly = np.full_like(w, _AS_POLY[4])
        for c in _AS_POLY[3::-1]:
            poly = fma32(poly, w, c)
        erf = _with_sign_of(fma32(-q * w, poly, _ONE), r)
        return fma32(erf, _HALF, t + _HALF) * g
