"""torch's float32 gelu and gelu_backward, rounded as its CPU build computes them.

approximate='none' on a contiguous input of more than one element goes to oneDNN's eltwise
primitive (ATen's use_mkldnn); everything else runs ATen's GeluKernel/GeluBackwardKernel, whose
vector code (SLEEF's exp and tanh, GCC's fused multiply-adds) and scalar tails (glibc's erff,
expf and tanhf) round differently, so the result depends on an element's place in its run.
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import kernels_order, libm_float, onednn_gelu, pointwise_order, sleef
from gradcli.engine.cpu_capability import WIDE_VECTOR_BYTES
from gradcli.engine.fma import fma32

_F = np.float32
_ONE, _HALF = _F(1), _F(0.5)
_ALPHA = _F(math.sqrt(0.5))
_PDF = _F(2.0 / math.sqrt(math.pi) * math.sqrt(0.5) * 0.5)
_BETA = _F(math.sqrt(2.0) * (2.0 / math.sqrt(math.pi)) * 0.5)
_KAPPA = _F(0.044715)
_THREE_KAPPA = _F(3) * _KAPPA
_ERF_P = _F(0.3275911)
_ERF_POLY = tuple(_F(c) for c in (1.061405429, -1.453152027, 1.421413741, -0.284496736,
                                  0.254829592))
_SIGN = np.uint32(0x80000000)


def _uses_onednn(x: np.ndarray, approximate: str) -> bool:
    return approximate == "none" and x.size > 1 and x.flags.c_contiguous


def _vector_erf(v: np.ndarray) -> np.ndarray:
    """Vectorized<float>::erf on AVX-512: Abramowitz and Stegun's 7.1.26 with SLEEF's exp."""
    t = _ONE / fma32(np.full_like(v, _ERF_P), np.abs(v), _ONE)
    r = np.full_like(t, _ERF_POLY[0])
    for c in _ERF_POLY[1:]:
        r = fma32(r, t, c)
    e = fma32(-sleef.expf(-(v * v)) * t, r, _ONE)
    return (e.view(np.uint32) ^ (v.view(np.uint32) & _SIGN)).view(_F)


def _tanh_inner(x: np.ndarray) -> np.ndarray:
    """kBeta * (x + kKappa * x^3), the sum fused."""
    return _BETA * fma32(np.full_like(x, _KAPPA), x * x * x, x)


def _forward(x: np.ndarray, approximate: str, erf, tanh) -> np.ndarray:
    if approximate == "tanh":
        return (_HALF * x) * (_ONE + tanh(_tanh_inner(x)))
    return (x * _HALF) * (_ONE + erf(x * _ALPHA))


def _backward(g: np.ndarray, x: np.ndarray, approximate: str, erf, exp, tanh,
              vector: bool) -> np.ndarray:
    """The vector code fuses cdf + x * pdf; the scalar code, measured against torch, does not
    (its tanh formula's products are fused in both)."""
    if approximate == "tanh":
        tanh_inner = tanh(_tanh_inner(x))
        tanh_derivative = fma32(-tanh_inner, tanh_inner, _ONE)
        inner_derivative = _BETA * fma32(np.full_like(x, _THREE_KAPPA), x * x, _ONE)
        right_derivative = ((_HALF * x) * tanh_derivative) * inner_derivative
        return g * (_HALF * (_ONE + tanh_inner) + right_derivative)
    cdf = _HALF * (_ONE + erf(x * _ALPHA))
    pdf = _PDF * exp((x * x) * _F(-0.5))
    return g * (fma32(x, pdf, cdf) if vector else cdf + x * pdf)


def gelu(x: np.ndarray, approximate: str, half: bool = False) -> np.ndarray:
    """torch.nn.functional.gelu of a float32 array (of float16 values when `half`: oneDNN
    takes none, and ATen's vectors hold twice as many)."""
    if _uses_onednn(x, approximate) and not half:
        return onednn_gelu.gelu_erf(x)
    with np.errstate(all="ignore"):
        return pointwise_order.split_strided(
            (x,), lambda v: _forward(v, approximate, _vector_erf, sleef.tanhf),
            lambda v: _forward(v, approximate, libm_float.erff, libm_float.tanhf),
            _vector_bytes(half))


def gelu_backward(g: np.ndarray, x: np.ndarray, approximate: str, half: bool = False) -> np.ndarray:
    """aten::gelu_backward of float32 arrays (the gradient g, the input x; as gelu for
    float16 values)."""
    if _uses_onednn(x, approximate) and not half:
        return onednn_gelu.gelu_erf_backward(g, x)
    with np.errstate(all="ignore"):
        return pointwise_order.split_strided(
            (g, x), lambda dy, v: _backward(dy, v, approximate, _vector_erf, sleef.expf,
                                          sleef.tanhf, True),
            lambda dy, v: _backward(dy, v, approximate, libm_float.erff,
                                    kernels_order.scalar_exp, libm_float.tanhf, False),
            _vector_bytes(half))


def _vector_bytes(half: bool) -> int:
    """The bytes of float32 values one ATen vector covers: a float16 vector holds as many
    values as there are bytes in a float one, each read as a float32."""
    return 2 * WIDE_VECTOR_BYTES if half else WIDE_VECTOR_BYTES
