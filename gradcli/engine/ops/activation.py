"""Activation rows (relu, gelu, softmax...) and the rows of their backward functions."""

from __future__ import annotations

import numpy as np

from gradcli.engine import activation as A, pointwise as P
from gradcli.engine.ops.registry import RESULT, defop, pointwise_op
from gradcli.engine.ops.unary import erf

SQRT1_2 = 0.7071067811865476


def _zeros_like_first(g, *_, **__):
    return P.full_like(g, 0)


def _gelu(a, approximate):
    if approximate == "tanh":
        inner = A.GELU_BETA * (a + A.GELU_KAPPA * (a * a * a))
        return 0.5 * a * (1 + np.tanh(inner))
    return a * 0.5 * (1 + erf(a * SQRT1_2))


def _gelu_backward(g, a, approximate):
    if approximate == "tanh":
        square = a * a
        inner = A.GELU_BETA * (a + A.GELU_KAPPA * (square * a))
        tanh_inner = np.tanh(inner)
        left, right = 0.5 * a, 1 + tanh_inner
        right_derivative = (left * (1 - tanh_inner * tanh_inner) * A.GELU_BETA
                            * (1 + 3 * A.GELU_KAPPA * square))
        return g * (0.5 * right + right_derivative)
    cdf = 0.5 * (1 + erf(a * SQRT1_2))
    pdf = A.GELU_PDF * np.exp(a * a * -0.5)
    return g * (cdf + a * pdf)


def _elu(a, alpha, scale, input_scale):
    return np.where(a <= 0, np.expm1(a * input_scale) * (alpha * scale), a * scale)


def _elu_backward(g, a, alpha, scale, input_scale):
    return np.where(a <= 0, g * input_scale * (alpha * scale) * np.exp(a * input_scale),
                    g * scale)


def _softplus(a, beta, threshold):
    scaled = a * beta
    return np.where(scaled > threshold, a, np.log1p(np.exp(scaled)) / beta)


def _softplus_backward(g, a, beta, threshold):
    scaled = a * beta
    z = np.exp(scaled)
    return np.where(scaled > threshold, g, g * z / (z + 1))


def _softmax(a, dim):
    if a.ndim == 0:
        return np.ones_like(a)
    shifted = np.exp(a - np.max(a, axis=dim, keepdims=True))
    total = np.sum(shifted, axis=dim, keepdims=True)
    if dim == a.ndim - 1:
        return shifted * (1 / total)
    return shifted / total


def _log_softmax(a, dim):
    if a.ndim == 0:
        return np.zeros_like(a)
    shifted = a - np.max(a, axis=dim, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True))


def _keep(dim, ndim):
    return dim if ndim else None


defop("relu", "ReluBackward0", lambda a: np.maximum(a, a.dtype.type(0)), promote="none",
      save=(RESULT,), vjp=lambda g, a, out: A.threshold_backward(g, out, 0))
pointwise_op("threshold_backward", "ThresholdBackwardBackward0",
             lambda g, a, threshold: np.where(a <= threshold, g.dtype.type(0), g), save=(1,),
             vjp=(lambda gg, g, a, threshold: A.threshold_backward(gg, a, threshold),
                  _zeros_like_first))
pointwise_op("tanh_backward", "TanhBackwardBackward0", lambda g, out: g * (1 - out * out),
             save=(0, 1), save_for=((1,), (0, 1)),
             vjp=(lambda gg, g, out: A.tanh_backward(gg, out),
                  lambda gg, g, out: P.mul(gg, P.mul(P.mul_scalar(out, -2), g))))
pointwise_op("sigmoid_backward", "SigmoidBackwardBackward0", lambda g, out: g * (1 - out) * out,
             save=(0, 1), save_for=((1,), (0, 1)),
             vjp=(lambda gg, g, out: A.sigmoid_backward(gg, out),
                  lambda gg, g, out: P.mul(P.mul(gg, g), P.add_scalar(P.mul_scalar(out, -2), 1))))
defop("leaky_relu", "LeakyReluBackward0",
      lambda a, negative_slope: np.where(a > 0, a, a * negative_slope), promote="none", save=(0,),
      vjp=lambda g, a, negative_slope: A.leaky_relu_backward(g, a, negative_slope))
pointwise_op("leaky_relu_backward", "LeakyReluBackwardBackward0",
             lambda g, a, negative_slope: np.where(a > 0, g, g * negative_slope), save=(1,),
             vjp=(lambda gg, g, a, negative_slope: A.leaky_relu_backward(gg, a, negative_slope),
                  _zeros_like_first))
defop("elu", "EluBackward0", _elu, promote="none", save=(0,),
      vjp=lambda g, a, **k: A.elu_backward(g, a, k["alpha"], k["scale"], k["input_scale"]))
pointwise_op("elu_backward", "EluBackwardBackward0", _elu_backward, save=(0, 1),
             save_for=((1,), (0, 1)),
             vjp=(lambda gg, g, a, **k: A.elu_backward(gg, a, k["alpha"], k["scale"],
                                                       k["input_scale"]),
                  lambda gg, g, a, **k: A.elu_double_backward(gg, g, a, k["alpha"], k["scale"],
                                                              k["input_scale"])))
defop("gelu", "GeluBackward0", _gelu, promote="none", save=(0,),
      vjp=lambda g, a, approximate: A.gelu_backward(g, a, approximate))
pointwise_op("gelu_backward", "GeluBackwardBackward0", _gelu_backward, save=(0, 1),
             save_for=((1,), (0, 1)),
             vjp=(lambda gg, g, a, approximate: A.gelu_backward(gg, a, approximate),
                  lambda gg, g, a, approximate: A.gelu_double_backward(gg, g, a, approximate)))
defop("silu", "SiluBackward0", lambda a: a / (1 + np.exp(-a)), promote="none", save=(0,),
      vjp=lambda g, a: A.silu_backward(g, a))
defop("softplus", "SoftplusBackward0", _softplus, promote="none", save=(0,),
      vjp=lambda g, a, beta, threshold: A.softplus_backward(g, a, beta, threshold))
pointwise_op("softplus_backward", "SoftplusBackwardBackward0", _softplus_backward, save=(0, 1),
             save_for=((1,), (0, 1)),
             vjp=(lambda gg, g, a, beta, threshold: A.softplus_backward(gg, a, beta, threshold),
                  lambda gg, g, a, beta, threshold: A.softplus_double_backward(
                      P.mul(gg, g), a, beta, threshold)))
defop("_softmax", "SoftmaxBackward0", _softmax, promote="float", save=(RESULT,),
      vjp=lambda g, a, dim, out: A.softmax_backward_data(g, out, dim))
defop("_softmax_backward_data", "SoftmaxBackwardDataBackward0",
      lambda g, out, dim: out * (g - np.sum(g * out, axis=_keep(dim, out.ndim), keepdims=True)),
      save=(0, 1), save_for=((1,), (0, 1)),
      vjp=(lambda gg, g, out, dim: A.softmax_backward_data(gg, out, dim),
           lambda gg, g, out, dim: A.softmax_double_backward(gg, g, dim, out)))
defop("_log_softmax", "LogSoftmaxBackward0", _log_softmax, promote="float", save=(RESULT,),
      vjp=lambda g, a, dim, out: A.log_softmax_backward_data(g, out, dim))
defop("_log_softmax_backward_data", "LogSoftmaxBackwardDataBackward0",
      lambda g, out, dim: g - np.exp(out) * np.sum(g, axis=_keep(dim, out.ndim), keepdims=True),
      save=(0, 1), save_for=((1,), (0, 1)),
      vjp=(lambda gg, g, out, dim: _log_softmax_grad_output(gg, out, dim),
           lambda gg, g, out, dim: _log_softmax_grad_out(gg, g, out, dim)))


def _log_softmax_grad_output(gg, out, dim):
    from gradcli.engine import reductions as R
    return P.sub(gg, R.sum(P.mul(gg, P.exp(out)), dim, True))


def _log_softmax_grad_out(gg, g, out, dim):
    from gradcli.engine import reductions as R
    return P.mul(P.mul(P.neg(R.sum(g, dim, True)), P.exp(out)), gg)
