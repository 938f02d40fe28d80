"""Activations (relu, gelu, softmax...): functions, rows and their backward rows."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import (autocast, dtypes, errors, fma, gelu_kernels, kernels_order,
                            libm_float, pointwise_order, schemas, sleef, sleef_dd, sleef_df)
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import (AS_VJP, NOT_FLOATING, OPS, RESULT, apply, defop,
                                         not_implemented, pointwise_op)
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor


SQRT1_2 = 0.7071067811865476


def _zeros_like_first(g, *_, **__):
    return F.filled_like(g, 0)


def _gelu(a, approximate):
    if a.dtype == np.float32:
        return gelu_kernels.gelu(a, approximate, STATE.reduced_kernel is dtypes.float16)
    if approximate == "tanh":
        inner = F.GELU_BETA * (a + F.GELU_KAPPA * (a * a * a))
        return 0.5 * a * (1 + np.tanh(inner))
    return a * 0.5 * (1 + F.erf_values(a * SQRT1_2))


def _gelu_backward(g, a, approximate):
    if g.dtype == np.float32 and a.dtype == np.float32:
        return gelu_kernels.gelu_backward(g, a, approximate,
                                          STATE.reduced_kernel is dtypes.float16)
    if approximate == "tanh":
        square = a * a
        inner = F.GELU_BETA * (a + F.GELU_KAPPA * (square * a))
        tanh_inner = np.tanh(inner)
        left, right = 0.5 * a, 1 + tanh_inner
        right_derivative = (left * (1 - tanh_inner * tanh_inner) * F.GELU_BETA
                            * (1 + 3 * F.GELU_KAPPA * square))
        return g * (0.5 * right + right_derivative)
    cdf = 0.5 * (1 + F.erf_values(a * SQRT1_2))
    pdf = F.GELU_PDF * np.exp(a * a * -0.5)
    return g * (cdf + a * pdf)


def _exact_floating(a) -> bool:
    return a.dtype in (np.float32, np.float64)


def _tanh_backward(g, out):
    """g * (1 - out * out), the product and difference fused as GCC contracts them."""
    if not _exact_floating(out):
        return g * (1 - out * out)
    return g * fma.fused(-out, out, out.dtype.type(1))


def _silu(a):
    """a / (1 + exp(-a)): SLEEF's exp in the vector code, std::exp in the scalar tails."""
    one = a.dtype.type(1)
    if not _exact_floating(a):
        return a / (one + np.exp(-a))
    return pointwise_order.split(a, lambda v: v / (one + sleef.exp(-v)),
                                 lambda v: v / (one + kernels_order.scalar_exp(-v)))


def _silu_backward(g, a):
    """torch's silu_backward kernel: g * s * (1 + a * (1 - s)), s = sigmoid(a), the last
    multiply-add fused."""
    one = a.dtype.type(1)
    s = F.sigmoid_values(a)
    return g * s * fma.fused(a, one - s, one)


def _float32_kernel(a) -> bool:
    """Whether torch's float32 kernel (SLEEF in whole vectors, glibc in the tails) is the one
    to repeat: a float32 array that is not bfloat16's storage."""
    return a.dtype == np.float32 and not STATE.reduced_kernel


def _sleef_kernel(a) -> bool:
    """Whether torch's SLEEF kernel is the one to repeat: float32 (not bfloat16's storage) or
    float64."""
    return _float32_kernel(a) or a.dtype == np.float64


def _vector_expm1(v):
    return sleef_df.expm1f(v) if v.dtype == np.float32 else sleef_dd.expm1d(v)


def _vector_log1p(v):
    return sleef_df.log1pf(v) if v.dtype == np.float32 else sleef_dd.log1pd(v)


def _scalar_expm1(v):
    return libm_float.scalar("expm1", v)


def _scalar_log1p(v):
    return libm_float.scalar("log1p", v)


def _elu_coefficients(a, alpha, scale, input_scale):
    """negcoef, poscoef and negiptcoef in the kernel's dtype (negcoef a product in it)."""
    kind = a.dtype.type
    return kind(alpha) * kind(scale), kind(scale), kind(input_scale)


def elu_values(a, alpha, scale, input_scale):
    """torch's elu kernel: SLEEF's expm1 in whole vectors and glibc's in the tails."""
    negcoef, poscoef, negiptcoef = _elu_coefficients(a, alpha, scale, input_scale)
    if not _sleef_kernel(a):
        return np.where(a <= 0, np.expm1(a * negiptcoef) * negcoef, a * poscoef)

    def kernel(expm1):
        return lambda v: np.where(v > 0, v * poscoef, expm1(v * negiptcoef) * negcoef)
    return pointwise_order.split(a, kernel(_vector_expm1), kernel(_scalar_expm1))


def _elu_backward(g, a, alpha, scale, input_scale, is_result=False):
    """elu_backward from the input, or (`is_result`, the in-place ops' rule) from the result."""
    negcoef, poscoef, negiptcoef = _elu_coefficients(a, alpha, scale, input_scale)
    if is_result:
        return np.where(a <= 0, g * negiptcoef * (a + negcoef), g * poscoef)
    if not _sleef_kernel(a):
        return np.where(a <= 0, g * negiptcoef * negcoef * np.exp(a * negiptcoef), g * poscoef)

    def kernel(exp):
        return lambda dy, x: np.where(x > 0, dy * poscoef,
                                      dy * negiptcoef * negcoef * exp(x * negiptcoef))
    return pointwise_order.split_binary(g, a, kernel(sleef.exp), kernel(kernels_order.scalar_exp))


def _leaky_relu_backward_of_result(g, out, negative_slope):
    if negative_slope < 0:
        raise errors.runtime(
            "In-place leakyReLu backward calculation is triggered with a negative slope which is "
            "not supported. This is caused by calling in-place forward function with a negative "
            "slope, please call out-of-place version instead. File an issue at "
            "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
            "backward calculation with negative slope")
    return F.leaky_relu_backward(g, out, negative_slope)


def _sigmoid_backward(g, out):
    """g * (1 - out) * out: in float32 for bfloat16 (its kernel of its own), each step rounded
    for float16 (Vectorized<Half>'s arithmetic)."""
    if STATE.reduced_kernel is dtypes.float16:
        half = dtypes.float16
        return dtypes.rounded_to(half, g * dtypes.rounded_to(half, 1 - out)) * out
    return g * (1 - out) * out


def log_sigmoid_values(a):
    """torch's log_sigmoid kernel: min(a, 0) - log1p(exp(-|a|)), every element in vector code
    (SLEEF's exp and log1p for float32 and float64, partial vectors included)."""
    if not _sleef_kernel(a):
        return np.minimum(a, 0) - np.log1p(np.exp(-np.abs(a)))
    return np.minimum(a, a.dtype.type(0)) - _vector_log1p(sleef.exp(-np.abs(a)))


def log_sigmoid_backward_values(g, a):
    """log_sigmoid_backward(grad, self, buffer), buffer = exp(-|self|) from the forward:
    (max_deriv - sign * buffer / (1 + buffer)) * grad, max_deriv and sign 1, 1 where self < 0
    and 0, -1 elsewhere."""
    one = a.dtype.type(1)
    exp = sleef.exp if _sleef_kernel(a) else np.exp

    def kernel(dy, x):
        buffer = exp(-np.abs(x))  # (the forward's buffer, made by the same vector code)
        if STATE.reduced_kernel:  # stored in the input's dtype
            buffer = dtypes.rounded_to(STATE.reduced_kernel, buffer)
        negative = x < 0
        sign = np.where(negative, one, -one)
        return (np.where(negative, one, a.dtype.type(0)) - sign * (buffer / (one + buffer))) * dy
    return kernel(g, a)


def _softplus(a, beta, threshold):
    beta, threshold = a.dtype.type(beta), a.dtype.type(threshold)
    if not _sleef_kernel(a):
        scaled = a * beta
        return np.where(scaled > threshold, a, np.log1p(np.exp(scaled)) / beta)

    def kernel(exp, log1p):
        return lambda v: np.where(v * beta > threshold, v, log1p(exp(v * beta)) / beta)
    return pointwise_order.split(a, kernel(sleef.exp, _vector_log1p),
                                 kernel(kernels_order.scalar_exp, _scalar_log1p))


def _softplus_backward(g, a, beta, threshold):
    beta, threshold = a.dtype.type(beta), a.dtype.type(threshold)

    def kernel(exp):
        def backward(dy, x):
            z = exp(x * beta)
            return np.where(x * beta > threshold, dy, dy * z / (z + 1))
        return backward
    if not _sleef_kernel(a):
        return kernel(np.exp)(g, a)
    return pointwise_order.split_binary(g, a, kernel(sleef.exp), kernel(kernels_order.scalar_exp))


def _in_kernel_order(a) -> bool:
    return a.ndim > 0 and a.dtype in (np.float32, np.float64)


def _softmax(a, dim):
    if a.ndim == 0:
        return np.ones_like(a)
    if STATE.reduced_kernel:
        if dim % a.ndim == a.ndim - 1:
            return kernels_order.softmax_reduced_last_dim(a)
        return kernels_order.softmax_reduced(a, dim, STATE.reduced_kernel)
    if _in_kernel_order(a):
        return kernels_order.softmax(a, dim)
    shifted = np.exp(a - np.max(a, axis=dim, keepdims=True))
    total = np.sum(shifted, axis=dim, keepdims=True)
    if dim == a.ndim - 1:
        return shifted * (1 / total)
    return shifted / total


def _log_softmax(a, dim):
    if a.ndim == 0:
        return np.zeros_like(a)
    if STATE.reduced_kernel and dim % a.ndim == a.ndim - 1:
        return kernels_order.log_softmax_reduced_last_dim(a, STATE.reduced_kernel)
    if _in_kernel_order(a):
        return kernels_order.log_softmax(a, dim)
    shifted = a - np.max(a, axis=dim, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True))


def _keep(dim, ndim):
    return dim if ndim else None


defop("relu", "ReluBackward0", lambda a: np.where(a < 0, a.dtype.type(0), a), promote="none",
      save=(RESULT,), vjp=lambda g, a, out: F.threshold_backward(g, out, 0), jvp=AS_VJP,
      rule=('grad * (result > 0)',))
pointwise_op("threshold_backward", "ThresholdBackwardBackward0",
             lambda g, a, threshold: np.where(a <= threshold, g.dtype.type(0), g), save=(1,),
             vjp=(lambda gg, g, a, threshold: F.threshold_backward(gg, a, threshold),
                  _zeros_like_first), jvp=AS_VJP)
pointwise_op("tanh_backward", "TanhBackwardBackward0", _tanh_backward,
             save=(0, 1), save_for=((1,), (0, 1)),
             vjp=(lambda gg, g, out: F.tanh_backward(gg, out),
                  lambda gg, g, out: F.mul(gg, F.mul(F.mul_scalar(out, -2), g))), jvp=AS_VJP)
pointwise_op("sigmoid_backward", "SigmoidBackwardBackward0", _sigmoid_backward,
             save=(0, 1), save_for=((1,), (0, 1)),
             vjp=(lambda gg, g, out: F.sigmoid_backward(gg, out),
                  lambda gg, g, out: F.mul(F.mul(gg, g), F.add_scalar(F.mul_scalar(out, -2), 1))),
             jvp=AS_VJP)
defop("leaky_relu", "LeakyReluBackward0",
      lambda a, negative_slope: np.where(a > 0, a, a * negative_slope), promote="none", save=(0,),
      vjp=lambda g, a, negative_slope: F.leaky_relu_backward(g, a, negative_slope),
      refuses=("leaky_relu_cpu", NOT_FLOATING), jvp=AS_VJP)
defop("leaky_relu_", "LeakyReluBackward1",  # the in-place op, whose backward reads the result
      lambda a, negative_slope: np.where(a > 0, a, a * negative_slope), promote="none",
      save=(RESULT,), vjp=lambda g, a, out, negative_slope: _leaky_relu_backward_of_result(
          g, out, negative_slope), refuses=("leaky_relu_cpu", NOT_FLOATING))
pointwise_op("leaky_relu_backward", "LeakyReluBackwardBackward0",
             lambda g, a, negative_slope: np.where(a > 0, g, g * negative_slope), save=(1,),
             vjp=(lambda gg, g, a, negative_slope: F.leaky_relu_backward(gg, a, negative_slope),
                  _zeros_like_first), jvp=AS_VJP)
defop("_prelu_kernel", "PreluKernelBackward0", lambda a, w: np.where(a > 0, a, w * a),
      save=(0, 1), vjp=(lambda g, a, w: F.where(F.gt(a, 0), g, F.mul(w, g)),
                        lambda g, a, w: F.where(F.gt(a, 0), F.zeros_like(g), F.mul(a, g))))
defop("elu", "EluBackward0", elu_values, promote="none", save=(0,),
      vjp=lambda g, a, **k: F.elu_backward(g, a, k["alpha"], k["scale"], k["input_scale"]),
      refuses=("elu_cpu", NOT_FLOATING), jvp=AS_VJP)
defop("elu_", "EluBackward1", elu_values, promote="none", save=(RESULT,),  # in place: from the result
      vjp=lambda g, a, out, **k: F.elu_backward(g, out, k["alpha"], k["scale"],
                                                k["input_scale"], True),
      refuses=("elu_cpu", NOT_FLOATING))
pointwise_op("elu_backward", "EluBackwardBackward0", _elu_backward, save=(0, 1),
             save_for=((1,), (0, 1)),
             vjp=(lambda gg, g, a, **k: F.elu_backward(gg, a, **k),
                  lambda gg, g, a, **k: F.elu_double_backward(gg, g, a, **k)), jvp=AS_VJP)
defop("gelu", "GeluBackward0", _gelu, promote="none", save=(0,),
      vjp=lambda g, a, approximate: F.gelu_backward(g, a, approximate),
      refuses=("GeluKernelImpl", NOT_FLOATING), jvp=AS_VJP)
pointwise_op("gelu_backward", "GeluBackwardBackward0", _gelu_backward, save=(0, 1),
             save_for=((1,), (0, 1)),
             vjp=(lambda gg, g, a, approximate: F.gelu_backward(gg, a, approximate),
                  lambda gg, g, a, approximate: F.gelu_double_backward(gg, g, a, approximate)),
             jvp=AS_VJP)
defop("silu", "SiluBackward0", _silu, promote="none", save=(0,),
      vjp=lambda g, a: F.silu_backward(g, a),
      refuses=("silu_cpu", NOT_FLOATING), jvp=AS_VJP)
defop("silu_backward", "torch::autograd::NotImplemented", _silu_backward, promote="none",
      vjp=(not_implemented("aten::silu_backward"), not_implemented("aten::silu_backward")))
defop("softplus", "SoftplusBackward0", _softplus, promote="none", save=(0,),
      vjp=lambda g, a, beta, threshold: F.softplus_backward(g, a, beta, threshold),
      refuses=("softplus_cpu", NOT_FLOATING), jvp=AS_VJP)
pointwise_op("softplus_backward", "SoftplusBackwardBackward0", _softplus_backward, save=(0, 1),
             save_for=((1,), (0, 1)),
             vjp=(lambda gg, g, a, beta, threshold: F.softplus_backward(gg, a, beta, threshold),
                  lambda gg, g, a, beta, threshold: F.softplus_double_backward(
                      F.mul(gg, g), a, beta, threshold)), jvp=AS_VJP)
defop("_softmax", "SoftmaxBackward0", _softmax, promote="float", save=(RESULT,),
      vjp=lambda g, a, dim, out: F.softmax_backward_data(g, out, dim),
      jvp=(lambda t, a, dim, out: F.mul(out, F.sub(t, F.logsumexp_jvp(a, t, dim, True))),))


def _softmax_backward_data(g, out, dim):
    if _in_kernel_order(g) and g.dtype == out.dtype:
        return kernels_order.softmax_backward(g, out, dim)
    return out * (g - np.sum(g * out, axis=_keep(dim, out.ndim), keepdims=True))


def _log_softmax_backward_data(g, out, dim):
    if _in_kernel_order(g) and g.dtype == out.dtype:
        return kernels_order.log_softmax_backward(g, out, dim)
    return g - np.exp(out) * np.sum(g, axis=_keep(dim, out.ndim), keepdims=True)


defop("_softmax_backward_data", "SoftmaxBackwardDataBackward0", _softmax_backward_data,
      save=(0, 1), save_for=((1,), (0, 1)),
      vjp=(lambda gg, g, out, dim: F.softmax_backward_data(gg, out, dim),
           lambda gg, g, out, dim: F.softmax_double_backward(gg, g, dim, out)))
defop("_log_softmax", "LogSoftmaxBackward0", _log_softmax, promote="float", save=(RESULT,),
      vjp=lambda g, a, dim, out: F.log_softmax_backward_data(g, out, dim),
      jvp=(lambda t, a, dim, out: F.sub(t, F.logsumexp_jvp(a, t, dim, True)),))
defop("_log_softmax_backward_data", "LogSoftmaxBackwardDataBackward0",
      _log_softmax_backward_data,
      save=(0, 1), save_for=((1,), (0, 1)),
      vjp=(lambda gg, g, out, dim: _log_softmax_grad_output(gg, out, dim),
           lambda gg, g, out, dim: _log_softmax_grad_out(gg, g, out, dim)))


def _log_softmax_grad_output(gg, out, dim):
    return F.sub(gg, F.sum(F.mul(gg, F.exp(out)), dim, True))


def _log_softmax_grad_out(gg, g, out, dim):
    return F.mul(F.mul(F.neg(F.sum(g, dim, True)), F.exp(out)), gg)


__all__ = ["relu", "prelu", "leaky_relu", "elu", "gelu", "silu", "softplus", "softmax", "log_softmax"]

GELU_BETA = math.sqrt(2.0) * (2.0 / math.sqrt(math.pi)) * 0.5  # tanh approximation's kBeta
GELU_KAPPA = 0.044715
GELU_PDF = (2.0 / math.sqrt(math.pi)) * math.sqrt(0.5) * 0.5  # exact gelu's kAlpha


def relu(a: Tensor) -> Tensor:
    if a.dtype is dtypes.bool_:
        raise errors.runtime("Boolean inputs not supported for relu")
    return apply(OPS["relu"], a)


def leaky_relu(a: Tensor, negative_slope=0.01) -> Tensor:
    return apply(OPS["leaky_relu"], a, negative_slope=negative_slope)


def prelu(a: Tensor, weight: Tensor) -> Tensor:
    """torch.prelu: a weight of C values scales the negatives of channel (dim 1) c."""
    a, weight = autocast.cast_lower(a, weight)
    if a.dtype is not weight.dtype:
        raise errors.runtime(f"prelu: Type promoting not supported. Got {a.dtype.scalar_name} and "
                             f"{weight.dtype.scalar_name}")
    if weight.numel() != 1:
        if a.ndim == 0:
            raise errors.runtime("Not allow zero-dim input tensor.")
        channels = a.shape[1] if a.ndim >= 2 else 1
        if weight.numel() != channels:
            raise errors.runtime(
                f"Mismatch of parameter numbers and input channel size. Found parameter numbers "
                f"= {weight.numel()} and channel size = {channels}.")
        if a.ndim >= 2:
            weight = F.reshape(weight, (channels,) + (1,) * (a.ndim - 2))
    return apply(OPS["_prelu_kernel"], a, weight)


def elu(a: Tensor, alpha=1.0, scale=1.0, input_scale=1.0) -> Tensor:
    return apply(OPS["elu"], a, alpha=alpha, scale=scale, input_scale=input_scale)


_ELU_SCALARS = "Scalar alpha=1, Scalar scale=1, Scalar input_scale=1"


def elu_(a: Tensor, alpha=1.0, scale=1.0, input_scale=1.0) -> Tensor:
    return F.apply_inplace(a, lambda t: apply(OPS["elu_"], t, alpha=alpha, scale=scale,
                                              input_scale=input_scale))


def _inplace_or_not(name: str, scalar: str, kernel, kernel_):
    """F.elu / F.leaky_relu, Python in torch: `inplace` tested, then the C++ `name_` or `name`
    called, whose parser checks (and words its errors with) that name."""
    def run(a, value, inplace=False) -> Tensor:
        called = f"{name}_" if F.truth(inplace) else name
        bound = schemas.bind_cpp(f"{called}(Tensor self, {scalar})", a, value)
        return (kernel_ if F.truth(inplace) else kernel)(a, bound[scalar.split()[1].split("=")[0]])
    return run


def leaky_relu_(a: Tensor, negative_slope=0.01) -> Tensor:
    return F.apply_inplace(a, lambda t: apply(OPS["leaky_relu_"], t,
                                              negative_slope=negative_slope))


functional_elu = _inplace_or_not("elu", "Scalar alpha=1", elu, elu_)
functional_leaky_relu = _inplace_or_not("leaky_relu", "Scalar negative_slope=0.01",
                                        leaky_relu, leaky_relu_)


def gelu(a: Tensor, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise errors.runtime("approximate argument must be either none or tanh.")
    return apply(OPS["gelu"], a, approximate=approximate)


def silu(a: Tensor) -> Tensor:
    return apply(OPS["silu"], a)


def softplus(a: Tensor, beta=1.0, threshold=20.0) -> Tensor:
    return apply(OPS["softplus"], a, beta=beta, threshold=threshold)


def _softmax_dim(a: Tensor, dim) -> int:
    return F.normalize_dims(dim, a.ndim)[0]


def softmax(a: Tensor, dim, dtype=None) -> Tensor:
    return _softmax_kernel("softmax", a, dim, dtype)


def log_softmax(a: Tensor, dim, dtype=None) -> Tensor:
    return _softmax_kernel("log_softmax", a, dim, dtype)


def _softmax_kernel(name: str, a: Tensor, dim, dtype) -> Tensor:
    """softmax / log_softmax over `dim`: floating inputs only, as torch's CPU kernels (the
    last-dimension one or the general one) say."""
    if dtype is not None:
        a = F.to_dtype(a, dtype)
    dim = _softmax_dim(a, dim)
    if not a.dtype.is_floating_point:
        kernel = f"{name}_lastdim_kernel_impl" if dim >= a.ndim - 1 else f"{name}_kernel_impl"
        raise errors.not_implemented_for(kernel, a.dtype)
    return apply(OPS["_" + name], a, dim=dim)


# ---- backward functions (ATen ops with their own double-backward rows) --------------------------

def threshold_backward(g: Tensor, a: Tensor, threshold) -> Tensor:
    return apply(OPS["threshold_backward"], g, a, threshold=threshold)


def tanh_backward(g: Tensor, out: Tensor) -> Tensor:
    return apply(OPS["tanh_backward"], g, out)


def sigmoid_backward(g: Tensor, out: Tensor) -> Tensor:
    return apply(OPS["sigmoid_backward"], g, out)


def leaky_relu_backward(g: Tensor, a: Tensor, negative_slope) -> Tensor:
    return apply(OPS["leaky_relu_backward"], g, a, negative_slope=negative_slope)


def elu_backward(g: Tensor, a: Tensor, alpha, scale, input_scale, is_result=False) -> Tensor:
    return apply(OPS["elu_backward"], g, a, alpha=alpha, scale=scale, input_scale=input_scale,
                 is_result=is_result)


def gelu_backward(g: Tensor, a: Tensor, approximate: str) -> Tensor:
    return apply(OPS["gelu_backward"], g, a, approximate=approximate)


def softplus_backward(g: Tensor, a: Tensor, beta, threshold) -> Tensor:
    return apply(OPS["softplus_backward"], g, a, beta=beta, threshold=threshold)


def softmax_backward_data(g: Tensor, out: Tensor, dim: int) -> Tensor:
    return apply(OPS["_softmax_backward_data"], g, out, dim=dim)


def log_softmax_backward_data(g: Tensor, out: Tensor, dim: int) -> Tensor:
    return apply(OPS["_log_softmax_backward_data"], g, out, dim=dim)


def silu_backward(g: Tensor, a: Tensor) -> Tensor:
    """torch's rule: the differentiable composite when grad mode is on, else the fused kernel."""
    if STATE.grad_enabled:
        return infinitely_differentiable_silu_backward(g, a)
    return apply(OPS["silu_backward"], g, a)


def infinitely_differentiable_silu_backward(g: Tensor, a: Tensor) -> Tensor:
    """g * s * (1 + a * (1 - s)), s = sigmoid(a), one op at a time."""
    s = F.sigmoid(a)
    return F.mul(F.mul(g, s), F.add_scalar(F.mul(a, F.scalar_sub(1.0, s)), 1.0))


def elu_double_backward(gg: Tensor, g: Tensor, a: Tensor, alpha, scale, input_scale,
                        is_result=False) -> Tensor:
    scaled = F.mul_scalar(F.mul(gg, g), input_scale)
    negative = F.to_dtype(F.compare("lt", a, 0), gg.dtype)
    if is_result:
        return F.mul(scaled, negative)
    return F.mul(elu_backward(scaled, a, alpha, scale, input_scale), negative)


def gelu_double_backward(gg: Tensor, g: Tensor, a: Tensor, approximate: str) -> Tensor:
    if approximate == "tanh":
        return F.mul(F.mul(gg, g), _gelu_tanh_second_derivative(a))
    square = F.mul(a, a)
    pdf = F.mul_scalar(F.exp(F.mul_scalar(square, -0.5)), GELU_PDF)
    return F.mul(F.mul(gg, g), F.sub(F.mul_scalar(pdf, 2), F.mul(square, pdf)))


def _gelu_tanh_second_derivative(a: Tensor) -> Tensor:
    inner = F.mul_scalar(F.add(a, F.mul_scalar(F.pow(a, 3), GELU_KAPPA)), GELU_BETA)
    tanh_inner = F.tanh(inner)
    sech_inner = F.scalar_div(1, F.cosh(inner))
    f = F.mul_scalar(a, 0.5)
    g = F.scalar_sub(1, F.mul(tanh_inner, tanh_inner))
    h = F.mul_scalar(F.add_scalar(F.mul(F.mul_scalar(a, 3 * GELU_KAPPA), a), 1), GELU_BETA)
    f_prime_gh = F.mul(F.mul_scalar(g, 0.5), h)
    g_prime = F.mul(F.mul(F.mul_scalar(sech_inner, 2), F.mul(F.neg(sech_inner), tanh_inner)), h)
    g_prime_fh = F.mul(F.mul(f, h), g_prime)
    h_prime_fg = F.mul(F.mul(f, g), F.mul_scalar(F.mul_scalar(a, 6 * GELU_KAPPA), GELU_BETA))
    return F.add(F.add(F.mul_scalar(f_prime_gh, 2), g_prime_fh), h_prime_fg)


def softplus_double_backward(grad: Tensor, a: Tensor, beta, threshold) -> Tensor:
    x = F.mul_scalar(a, beta)
    below = F.to_dtype(F.compare("lt", x, threshold), grad.dtype)
    return F.mul_scalar(F.mul(sigmoid_backward(grad, F.sigmoid(x)), below), beta)


def softmax_double_backward(gg: Tensor, g: Tensor, dim: int, out: Tensor) -> Tensor:
    first = F.sub(F.mul(g, gg), F.mul(F.sum(F.mul(out, g), dim, True), gg))
    return F.sub(first, F.mul(g, F.sum(F.mul(out, gg), dim, True)))


# ---- declarations: the public names of this area ------------------------------------------------

declare("softmax", softmax, "softmax(Tensor self, int dim, ScalarType? dtype=None, *, Tensor? out=None)",
        method=("softmax(Tensor self, int dim, ScalarType? dtype=None)",))
declare("log_softmax", log_softmax, "log_softmax(Tensor self, int dim, ScalarType? dtype=None, *, Tensor? out=None)",
        method=("log_softmax(Tensor self, int dim, ScalarType? dtype=None)",))
declare("relu", relu, "relu(Tensor self, *, Tensor? out=None)", method=("relu(Tensor self)",))
declare("prelu", prelu, "prelu(Tensor self, Tensor weight)")
declare("elu_", elu_, f"elu_(Tensor self, {_ELU_SCALARS})", variants="functional")
declare("elu", functional_elu, python="input: object, alpha=1.0, inplace=False",
        variants="functional")
declare("leaky_relu", functional_leaky_relu,
        python="input: object, negative_slope=0.01, inplace=False", variants="functional")
declare("leaky_relu_", leaky_relu_, "leaky_relu_(Tensor self, Scalar negative_slope=0.01)",
        variants="functional")
declare("gelu", gelu, "gelu(Tensor self, *, str approximate='none')", variants="functional")


export(__name__, globals())
