"""torch-level activations (relu, gelu, softmax...) and the backward functions their rules call."""

from __future__ import annotations

import math

from gradcli.engine.declarations import declare
from gradcli.engine import comparison as C, conversions, errors, pointwise as P
from gradcli.engine import shapes as S
from gradcli.engine.ops.registry import OPS, apply
from gradcli.engine.tensor import Tensor

__all__ = ["relu", "leaky_relu", "elu", "gelu", "silu", "softplus", "softmax", "log_softmax"]

GELU_BETA = math.sqrt(2.0) * (2.0 / math.sqrt(math.pi)) * 0.5  # tanh approximation's kBeta
GELU_KAPPA = 0.044715
GELU_PDF = (2.0 / math.sqrt(math.pi)) * math.sqrt(0.5) * 0.5  # exact gelu's kAlpha


def relu(a: Tensor) -> Tensor:
    return apply(OPS["relu"], a)


def leaky_relu(a: Tensor, negative_slope=0.01) -> Tensor:
    return apply(OPS["leaky_relu"], a, negative_slope=negative_slope)


def elu(a: Tensor, alpha=1.0) -> Tensor:
    return apply(OPS["elu"], a, alpha=alpha, scale=1.0, input_scale=1.0)


def gelu(a: Tensor, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise errors.runtime("approximate argument must be either none or tanh.")
    return apply(OPS["gelu"], a, approximate=approximate)


def silu(a: Tensor) -> Tensor:
    return apply(OPS["silu"], a)


def softplus(a: Tensor, beta=1.0, threshold=20.0) -> Tensor:
    return apply(OPS["softplus"], a, beta=beta, threshold=threshold)


def _softmax_dim(a: Tensor, dim) -> int:
    return S.normalize_dims(dim, a.ndim)[0]


def softmax(a: Tensor, dim, dtype=None) -> Tensor:
    if dtype is not None:
        a = conversions.to_dtype(a, dtype)
    return apply(OPS["_softmax"], a, dim=_softmax_dim(a, dim))


def log_softmax(a: Tensor, dim, dtype=None) -> Tensor:
    if dtype is not None:
        a = conversions.to_dtype(a, dtype)
    return apply(OPS["_log_softmax"], a, dim=_softmax_dim(a, dim))


# ---- backward functions (ATen ops with their own double-backward rows) --------------------------

def threshold_backward(g: Tensor, a: Tensor, threshold) -> Tensor:
    return apply(OPS["threshold_backward"], g, a, threshold=threshold)


def tanh_backward(g: Tensor, out: Tensor) -> Tensor:
    return apply(OPS["tanh_backward"], g, out)


def sigmoid_backward(g: Tensor, out: Tensor) -> Tensor:
    return apply(OPS["sigmoid_backward"], g, out)


def leaky_relu_backward(g: Tensor, a: Tensor, negative_slope) -> Tensor:
    return apply(OPS["leaky_relu_backward"], g, a, negative_slope=negative_slope)


def elu_backward(g: Tensor, a: Tensor, alpha, scale, input_scale) -> Tensor:
    return apply(OPS["elu_backward"], g, a, alpha=alpha, scale=scale, input_scale=input_scale)


def gelu_backward(g: Tensor, a: Tensor, approximate: str) -> Tensor:
    return apply(OPS["gelu_backward"], g, a, approximate=approximate)


def softplus_backward(g: Tensor, a: Tensor, beta, threshold) -> Tensor:
    return apply(OPS["softplus_backward"], g, a, beta=beta, threshold=threshold)


def softmax_backward_data(g: Tensor, out: Tensor, dim: int) -> Tensor:
    return apply(OPS["_softmax_backward_data"], g, out, dim=dim)


def log_softmax_backward_data(g: Tensor, out: Tensor, dim: int) -> Tensor:
    return apply(OPS["_log_softmax_backward_data"], g, out, dim=dim)


def silu_backward(g: Tensor, a: Tensor) -> Tensor:
    """infinitely_differentiable_silu_backward: g * s * (1 + a * (1 - s)), s = sigmoid(a)."""
    s = P.sigmoid(a)
    return P.mul(P.mul(g, s), P.add_scalar(P.mul(a, P.scalar_sub(1.0, s)), 1.0))


def elu_double_backward(gg: Tensor, g: Tensor, a: Tensor, alpha, scale, input_scale) -> Tensor:
    scaled = P.mul_scalar(P.mul(gg, g), input_scale)
    negative = conversions.to_dtype(C.compare("lt", a, 0), gg.dtype)
    return P.mul(elu_backward(scaled, a, alpha, scale, input_scale), negative)


def gelu_double_backward(gg: Tensor, g: Tensor, a: Tensor, approximate: str) -> Tensor:
    if approximate == "tanh":
        return P.mul(P.mul(gg, g), _gelu_tanh_second_derivative(a))
    square = P.mul(a, a)
    pdf = P.mul_scalar(P.exp(P.mul_scalar(square, -0.5)), GELU_PDF)
    return P.mul(P.mul(gg, g), P.sub(P.mul_scalar(pdf, 2), P.mul(square, pdf)))


def _gelu_tanh_second_derivative(a: Tensor) -> Tensor:
    inner = P.mul_scalar(P.add(a, P.mul_scalar(P.pow(a, 3), GELU_KAPPA)), GELU_BETA)
    tanh_inner = P.tanh(inner)
    sech_inner = P.scalar_div(1, P.cosh(inner))
    f = P.mul_scalar(a, 0.5)
    g = P.scalar_sub(1, P.mul(tanh_inner, tanh_inner))
    h = P.mul_scalar(P.add_scalar(P.mul(P.mul_scalar(a, 3 * GELU_KAPPA), a), 1), GELU_BETA)
    f_prime_gh = P.mul(P.mul_scalar(g, 0.5), h)
    g_prime = P.mul(P.mul(P.mul_scalar(sech_inner, 2), P.mul(P.neg(sech_inner), tanh_inner)), h)
    g_prime_fh = P.mul(P.mul(f, h), g_prime)
    h_prime_fg = P.mul(P.mul(f, g), P.mul_scalar(P.mul_scalar(a, 6 * GELU_KAPPA), GELU_BETA))
    return P.add(P.add(P.mul_scalar(f_prime_gh, 2), g_prime_fh), h_prime_fg)


def softplus_double_backward(grad: Tensor, a: Tensor, beta, threshold) -> Tensor:
    x = P.mul_scalar(a, beta)
    below = conversions.to_dtype(C.compare("lt", x, threshold), grad.dtype)
    return P.mul_scalar(P.mul(sigmoid_backward(grad, P.sigmoid(x)), below), beta)


def softmax_double_backward(gg: Tensor, g: Tensor, dim: int, out: Tensor) -> Tensor:
    from gradcli.engine import reductions as R
    first = P.sub(P.mul(g, gg), P.mul(R.sum(P.mul(out, g), dim, True), gg))
    return P.sub(first, P.mul(g, R.sum(P.mul(out, gg), dim, True)))


# ---- declarations: the public names of this area ------------------------------------------------

declare("softmax", softmax, "softmax(Tensor self, int dim, ScalarType? dtype=None, *, Tensor? out=None)",
        method=("softmax(Tensor self, int dim, ScalarType? dtype=None)",))
declare("log_softmax", log_softmax, "log_softmax(Tensor self, int dim, ScalarType? dtype=None, *, Tensor? out=None)",
        method=("log_softmax(Tensor self, int dim, ScalarType? dtype=None)",))
declare("relu", relu, "relu(Tensor self, *, Tensor? out=None)", method=("relu(Tensor self)",))
