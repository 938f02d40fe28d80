"""torch.nn.functional beyond the basics: more activations, normalisation, embedding, one_hot,
pad, dropout and more losses: functions and rows."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import (autocast, declarations, dtypes, errors, fma, kernels_order, layout,
                            libm_float, memory_format, normalization_order, pointwise_order,
                            schemas, sleef, sleef_df, variance_order)
from gradcli.engine import cpu_capability
from gradcli.engine.fma import fused
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops import comparison, losses
from gradcli.engine.ops.registry import (LINEAR, NOT_FLOATING, OPS, RESULT, apply, defop,
                                         not_implemented)
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _zeros_of_input(gg, g, x, *_, **__):
    return F.zeros_for(x)


def _sizes(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _retraced(composite, inputs: tuple, index: int, gg: Tensor):
    """The vjp of `composite(*inputs)` for inputs[index], built from differentiable ops: a
    backward row's own derivative when no dedicated formula is written."""
    from gradcli.engine import grad_api
    create = STATE.grad_enabled
    with grad_mode(True):
        out = composite(*inputs)
        if not out.requires_grad:
            return F.zeros_for(inputs[index])
        found = grad_api.grad([out], [inputs[index]], [gg], retain_graph=True,
                              create_graph=create, allow_unused=True)[0]
    return F.zeros_for(inputs[index]) if found is None else found


# ---- activations with their own rows -----------------------------------------------------------

def _hardtanh_backward(g, x, min_val, max_val):
    return np.where((x <= min_val) | (x >= max_val), g.dtype.type(0), g)


defop("hardtanh", "HardtanhBackward0",
      lambda x, min_val, max_val: pointwise_order.at_most(
          pointwise_order.at_least(x, x.dtype.type(min_val)), x.dtype.type(max_val)),
      promote="none", save=(0,),
      vjp=lambda g, x, **p: F.apply_op("hardtanh_backward", g, x, **p))
defop("hardtanh_backward", "HardtanhBackwardBackward0", _hardtanh_backward, promote="none",
      save=(1,), vjp=(lambda gg, g, x, **p: F.apply_op("hardtanh_backward", gg, x, **p),
                      _zeros_of_input))


def _celu_backward_input_scale(alpha) -> float:
    """1.0 / alpha.toFloat(): celu's derivative formula takes alpha through float32 (the
    forward's 1 / alpha is in double)."""
    return 1.0 / float(np.float32(alpha))


defop("celu", "CeluBackward0", lambda a, **k: F.elu_values(a, **k), promote="none", save=(0,),
      vjp=lambda g, a, **k: F.elu_backward(g, a, k["alpha"], k["scale"],
                                           _celu_backward_input_scale(k["alpha"])),
      refuses=("elu_cpu", NOT_FLOATING))
defop("celu_", "CeluBackward1", lambda a, **k: F.elu_values(a, **k), promote="none",
      save=(RESULT,),  # from the result
      vjp=lambda g, a, out, **k: F.elu_backward(g, out, k["alpha"], k["scale"],
                                                _celu_backward_input_scale(k["alpha"]), True),
      refuses=("elu_cpu", NOT_FLOATING))
def _mish(a):
    """x * tanh(softplus(x)); float32 as torch's kernel: SLEEF's exp, log1p and tanh in whole
    vectors, glibc's in the tails."""
    if a.dtype != np.float32 or STATE.reduced_kernel:
        return a * np.tanh(np.log1p(np.exp(a)))
    return pointwise_order.split(
        a, lambda v: v * sleef.tanhf(sleef_df.log1pf(sleef.expf(v))),
        lambda v: v * libm_float.tanhf(libm_float.log1pf(kernels_order.glibc_expf(v))))


def _mish_backward_kernel(g, a):
    """torch's mish_backward kernel: dy * (t + x * sigmoid(x) * (1 - t * t)), t =
    tanh(softplus(x)), its two multiply-adds fused (in the tails too)."""
    one = a.dtype.type(1)
    if a.dtype != np.float32 or STATE.reduced_kernel:
        t = np.tanh(np.log1p(np.exp(a)))
        return g * (t + a * (one / (one + np.exp(-a))) * (one - t * t))

    def kernel(exp, log1p, tanh):
        def backward(dy, x):
            t = tanh(log1p(exp(x)))
            sigmoid = one / (one + exp(-x))
            return dy * fma.fma32(x * sigmoid, fma.fma32(-t, t, one), t)
        return backward
    return pointwise_order.split_binary(
        g, a, kernel(sleef.expf, sleef_df.log1pf, sleef.tanhf),
        kernel(kernels_order.glibc_expf, libm_float.log1pf, libm_float.tanhf))


defop("mish", "MishBackward0", _mish, promote="none", save=(0,),
      vjp=lambda g, a: _mish_backward(g, a), refuses=("mish_cpu", NOT_FLOATING))
defop("mish_backward", "torch::autograd::NotImplemented", _mish_backward_kernel, promote="none",
      vjp=(not_implemented("aten::mish_backward"), not_implemented("aten::mish_backward")))


def _mish_backward(g, a):
    """torch's rule: the kernel, or with grad mode on the differentiable composite."""
    if not STATE.grad_enabled:
        return apply(OPS["mish_backward"], g, a)
    sigmoid = F.sigmoid(a)
    tanh_softplus = F.tanh(F.softplus(a))
    inner = F.scalar_sub(1.0, F.mul(tanh_softplus, tanh_softplus))
    return F.mul(g, F.add(tanh_softplus, F.mul(F.mul(a, sigmoid), inner)))


def _in_whole_vectors(x: np.ndarray, lanes: int) -> np.ndarray:
    """Where an elementwise kernel over `x` takes whole vectors of `lanes` values (in memory
    order), not its scalar tail."""
    positions = np.empty_like(x, dtype=np.int64)
    positions.ravel(order="K")[...] = np.arange(x.size)
    return positions < x.size // lanes * lanes


def _shrink(kind):
    def forward(x, lambd, lanes=None):
        lam = x.dtype.type(lambd)
        if kind == "hard":
            return np.where((x >= -lam) & (x <= lam), x.dtype.type(0), x)
        out = np.where(x > lam, x - lam, np.where(x < -lam, x + lam, x * x.dtype.type(0)))
        # torch's vector kernel gives +0 inside the band; its scalar tail gives x * 0, -0 for
        # a negative x: the tail is what is left of the memory-ordered run after whole vectors
        lanes = lanes or cpu_capability.WIDE_VECTOR_BYTES // x.itemsize
        out[_in_whole_vectors(x, lanes) & (out == 0)] = 0
        return out

    def backward(g, x, lambd):
        lam = x.dtype.type(lambd)
        return np.where((x >= -lam) & (x <= lam), g.dtype.type(0), g)
    return forward, backward


for _kind, _label in (("soft", "Softshrink"), ("hard", "Hardshrink")):
    _forward, _backward = _shrink(_kind)
    defop(f"{_kind}shrink", f"{_label}Backward0", _forward, promote="none", save=(0,),
          refuses=("softshrink_check" if _kind == "soft" else "hardshrink_cpu", NOT_FLOATING),
          vjp=lambda g, x, lambd, lanes=None, kind=_kind: F.apply_op(
              f"{kind}shrink_backward", g, x, lambd=lambd))
    defop(f"{_kind}shrink_backward", f"{_label}BackwardBackward0", _backward, promote="none",
          save=(1,), vjp=(lambda gg, g, x, lambd, kind=_kind: F.apply_op(
              f"{kind}shrink_backward", gg, x, lambd=lambd), _zeros_of_input))


defop("log_sigmoid", "LogSigmoidBackward0", lambda a: F.log_sigmoid_values(a), promote="none",
      save=(0,), vjp=lambda g, a: F.apply_op("log_sigmoid_backward", g, a),
      refuses=("log_sigmoid_cpu", NOT_FLOATING))
defop("log_sigmoid_backward", "LogSigmoidBackwardBackward0",
      lambda g, a: F.log_sigmoid_backward_values(g, a), promote="none", save=(1,),
      save_for=((1,), (0, 1)),
      vjp=(lambda gg, g, a: F.apply_op("log_sigmoid_backward", gg, a),
           lambda gg, g, a: _log_sigmoid_double_backward(F.mul(gg, g), a)))


def _log_sigmoid_double_backward(grad, a):
    z = F.sigmoid(a)
    return F.mul(F.mul(grad, F.sub_scalar(z, 1)), z)


def _hardswish(x):
    return x * np.minimum(np.maximum(x + 3, 0), 6) / 6


def _hardswish_backward(g, x):
    return np.where(x <= -3, g.dtype.type(0), np.where(x < 3, g * ((x / 3) + 0.5), g))


defop("hardswish", "HardswishBackward0", _hardswish, promote="none", save=(0,),
      vjp=lambda g, x: F.apply_op("hardswish_backward", g, x),
      refuses=("hardswish_cpu", NOT_FLOATING))
defop("hardswish_backward", "HardswishBackwardBackward0", _hardswish_backward, promote="none",
      save=(0, 1), save_for=((1,), (0, 1)),
      vjp=(lambda gg, g, x: F.apply_op("hardswish_backward", gg, x),
           lambda gg, g, x: F.where(F.logical_and(F.compare("gt", x, -3.0),
                                                  F.compare("lt", x, 3.0)),
                                    F.div_scalar(F.mul(gg, g), 3.0),
                                    F.scalar_tensor(0, x.dtype))))


_ONE_SIXTH = np.float32(1 / 6)  # the kernel's 1.0f / 6.0f, whatever the dtype


defop("hardsigmoid", "HardsigmoidBackward0",
      lambda x: np.minimum(np.maximum(x + 3, 0), 6) / 6, promote="none", save=(0,),
      vjp=lambda g, x: F.apply_op("hardsigmoid_backward", g, x),
      refuses=("hardsigmoid_cpu", NOT_FLOATING))
defop("hardsigmoid_backward", "torch::autograd::NotImplemented",
      lambda g, x: np.where((x > -3) & (x < 3), g * _ONE_SIXTH.astype(g.dtype), g.dtype.type(0)),
      promote="none", save=(1,),
      vjp=(not_implemented("aten::hardsigmoid_backward"), not_implemented("aten::hardsigmoid_backward")))
defop("threshold", "ThresholdBackward0",
      lambda x, threshold, value: np.where(x <= threshold, x.dtype.type(value), x),
      promote="none", save=(0,),
      vjp=lambda g, x, threshold, value: F.threshold_backward(g, x, threshold))
defop("threshold_", "ThresholdBackward1",
      lambda x, threshold, value: np.where(x <= threshold, x.dtype.type(value), x),
      promote="none", save=(0,),
      vjp=lambda g, x, threshold, value: F.threshold_backward(g, x, threshold))


def _inplace(fn, x: Tensor, inplace: bool, *args):
    return F.apply_inplace(x, lambda t: fn(t, *args)) if inplace else fn(x, *args)


def hardtanh(x: Tensor, min_val=-1.0, max_val=1.0, inplace: bool = False) -> Tensor:
    """F.hardtanh, Python in torch: the limits compared, `inplace` tested, then the arguments
    handed to the C++ hardtanh or hardtanh_."""
    if F.truth(F.python_compare(">", min_val, max_val)):
        raise errors.value_error("min_val cannot be greater than max_val")
    inplace = F.truth(inplace)
    name = "hardtanh_" if inplace else "hardtanh"
    bound = schemas.bind_cpp(f"{name}(Tensor input, Scalar min_val=-1, Scalar max_val=1)", x,
                             min_val, max_val)
    min_val, max_val = bound["min_val"], bound["max_val"]
    if x.dtype is dtypes.bool_:
        raise errors.runtime("Bool inputs not supported for hardtanh")
    if x.dtype is dtypes.uint8 and (min_val < 0 or max_val < 0):
        raise errors.runtime("cannot do hardtanh on an unsigned type with negative limits")
    return _inplace(lambda t: apply(OPS["hardtanh"], t, min_val=min_val, max_val=max_val), x,
                    inplace)


def relu6(x: Tensor, inplace: bool = False) -> Tensor:
    return hardtanh(x, 0.0, 6.0, inplace)


def selu(x: Tensor, inplace: bool = False) -> Tensor:
    if F.truth(inplace):  # torch's selu_ is an elu_
        return F.elu_(x, SELU_ALPHA, SELU_SCALE, 1.0)
    return apply(OPS["elu"], x, alpha=SELU_ALPHA, scale=SELU_SCALE, input_scale=1.0)


def celu(x: Tensor, alpha=1.0, inplace: bool = False) -> Tensor:
    """F.celu, Python in torch: `inplace` tested, then torch.celu_ or torch.celu called."""
    name = "celu_" if F.truth(inplace) else "celu"
    alpha = schemas.bind_cpp(f"{name}(Tensor self, Scalar alpha=1.0)", x, alpha)["alpha"]
    if alpha == 0:
        raise errors.runtime("ZeroDivisionError: alpha cannot be 0 for CELU")
    return _inplace(lambda t: apply(OPS[name], t, alpha=alpha, scale=1.0,
                                    input_scale=1.0 / alpha), x, F.truth(inplace))


def mish(x: Tensor, inplace: bool = False) -> Tensor:
    return _inplace(lambda t: apply(OPS["mish"], t), x, inplace)


def hardswish(x: Tensor, inplace: bool = False) -> Tensor:
    return _inplace(lambda t: apply(OPS["hardswish"], t), x, inplace)


def hardsigmoid(x: Tensor, inplace: bool = False) -> Tensor:
    return _inplace(lambda t: apply(OPS["hardsigmoid"], t), x, inplace)


def softsign(x: Tensor) -> Tensor:
    return F.div(x, F.add_scalar(F.abs(x), 1))


def tanhshrink(x: Tensor) -> Tensor:
    return F.sub(x, F.tanh(x))


def softshrink(x: Tensor, lambd=0.5) -> Tensor:
    if not x.dtype.is_floating_point:
        raise errors.not_implemented_for("softshrink_check", x.dtype)
    highest = float(np.finfo(x.dtype.np).max)
    if not 0 <= lambd <= highest:  # numbers as C++ streams them
        raise errors.runtime(f"lambda must be in range [0, {highest:g}] for input dtype "
                             f"{x.dtype.scalar_name}, but found {lambd:g}")
    lanes = cpu_capability.WIDE_VECTOR_BYTES // x.dtype.itemsize  # its kernel's vector width
    return apply(OPS["softshrink"], x, lambd=lambd, lanes=lanes)


def hardshrink(x: Tensor, lambd=0.5) -> Tensor:
    return apply(OPS["hardshrink"], x, lambd=lambd)


def logsigmoid(x: Tensor) -> Tensor:
    return apply(OPS["log_sigmoid"], x)


def threshold(x: Tensor, threshold, value, inplace: bool = False) -> Tensor:
    """F.threshold, Python in torch: `inplace` tested, then the C++ threshold_ or threshold."""
    name = "threshold_" if F.truth(inplace) else "threshold"
    bound = schemas.bind_cpp(f"{name}(Tensor self, Scalar threshold, Scalar value)", x,
                             threshold, value)
    return _inplace(lambda t: apply(OPS[name], t, threshold=bound["threshold"],
                                    value=bound["value"]), x, F.truth(inplace))


def softmin(x, dim=None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """F.softmin, Python in torch: input.dim() asked when no dim is given, then the negated
    input's own softmax method called (its parser checks dim and dtype)."""
    if dim is None:
        if not isinstance(x, Tensor):
            raise errors.no_attribute(x, "dim")
        STATE.warn("UserWarning", "Implicit dimension choice for softmin has been deprecated. "
                   "Change the call to include dim=X as an argument.")
        dim = 0 if x.ndim in (0, 1, 3) else 1
    if isinstance(x, (bool, int, float)):
        raise errors.no_attribute(-x, "softmax")
    if not isinstance(x, Tensor):
        raise errors.type_error(f"bad operand type for unary -: '{errors.type_name(x)}'")
    return declarations.call("method", "softmax", F.neg(x), dim,
                             **({} if dtype is None else {"dtype": dtype}))


# ---- distances ----------------------------------------------------------------------------------

def normalize(x: Tensor, p=2.0, dim: int = 1, eps: float = 1e-12, out=None) -> Tensor:
    denom = F.expand_as(F.clamp(F.norm(x, p, dim, True), eps, None), x)
    return F.div(x, denom)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    common = dtypes.result_type([x1, x2], STATE.default_dtype)
    if not common.is_floating_point:
        raise errors.runtime("expected common dtype to be floating point, yet common dtype is "
                             f"{common.scalar_name}")
    x1, x2 = F.to_dtype(x1, common), F.to_dtype(x2, common)  # vector_norm takes no integers
    shape = F.broadcast_shape(x1.shape, x2.shape)
    x1, x2 = F.expand(x1, shape), F.expand(x2, shape)
    norms = []
    for t in (x1, x2):
        n = F.vector_norm(t, 2, dim, True)
        n.data = np.maximum(n.data, n.dtype.np.type(eps))  # clamp_min_ under no_grad
        norms.append(n)
    return F.sum(F.mul(F.div(x1, norms[0]), F.div(x2, norms[1])), dim)


def pairwise_distance(x1: Tensor, x2: Tensor, p=2.0, eps=1e-6, keepdim: bool = False) -> Tensor:
    ndim = max(x1.ndim, x2.ndim)
    dim = ndim - 1 if ndim > 0 else 0
    diff = F.add_scalar(F.sub(x1, x2), eps)
    if not diff.dtype.is_floating_point:  # the norm's own error
        return F.norm(diff, p, dim, keepdim)
    return apply(OPS["norm.ScalarOpt_dim"], diff, ord=float(p), dim=(dim,), keepdim=keepdim)


# ---- one_hot, pad, dropout, embedding -----------------------------------------------------------

def one_hot(x: Tensor, num_classes: int = -1) -> Tensor:
    if x.dtype is not dtypes.int64:
        raise errors.runtime("one_hot is only applicable to index tensor of type LongTensor.")
    values = x.data
    if x.numel() == 0:
        if num_classes <= 0:
            raise errors.runtime("Can not infer total number of classes from empty tensor.")
    else:
        if values.min() < 0:
            raise errors.runtime("Class values must be non-negative.")
        if num_classes == -1:
            num_classes = int(values.max()) + 1
        elif values.max() >= num_classes:
            raise errors.runtime("Class values must be smaller than num_classes.")
    result = (values[..., None] == np.arange(num_classes)).astype(np.int64)
    return Tensor(result, dtypes.int64)


def _constant_pad(x, pad, value):
    key, widths = [], []
    for dim in range(x.ndim):
        back = x.ndim - 1 - dim
        before, after = (pad[2 * back], pad[2 * back + 1]) if 2 * back < len(pad) else (0, 0)
        key.append(slice(max(-before, 0), x.shape[dim] - max(-after, 0)))
        widths.append((max(before, 0), max(after, 0)))
    cropped = x[tuple(key)]
    return np.pad(cropped, widths, constant_values=x.dtype.type(value))


defop("constant_pad_nd", "ConstantPadNdBackward0", _constant_pad, promote="none",
      vjp=lambda g, x, pad, value: constant_pad_nd(g, tuple(-p for p in pad), 0.0),
      jvp=(lambda t, x, pad, value, out: constant_pad_nd(t, pad, 0.0),))


def constant_pad_nd(x: Tensor, pad, value=0.0) -> Tensor:
    return apply(OPS["constant_pad_nd"], x, pad=tuple(pad), value=value)


def pad(x: Tensor, pad, mode: str = "constant", value=None) -> Tensor:
    pad = tuple(pad)
    if len(pad) % 2:
        raise errors.runtime("Padding length must be divisible by 2")
    if len(pad) // 2 > x.ndim:
        raise errors.runtime("Padding length should be less than or equal to two times the "
                             "input dimension but got padding length "
                             f"{len(pad)} and input of dimension {x.ndim}")
    if mode != "constant":
        if value is not None and value != 0:
            raise errors.runtime(f"Padding mode \"{mode}\" doesn't take in value argument")
        if mode not in ("reflect", "replicate", "circular"):
            raise errors.TorchError("NotImplementedError", f"Unrecognised padding mode {mode}")
        from gradcli.engine.ops.padding import pad as nonconstant_pad
        return nonconstant_pad(x, pad, mode)
    for dim in reversed(range(len(pad) // 2)):  # constant_pad_nd narrows by negative pads first
        size = x.shape[x.ndim - 1 - dim]
        for side in pad[2 * dim:2 * dim + 2]:
            size += min(side, 0)
            if size < 0:
                raise errors.runtime("narrow(): length must be non-negative.")
    return constant_pad_nd(x, pad, 0.0 if value is None else value)


def dropout_arguments(name: str, x: Tensor, p, training) -> tuple:
    """p and train as the C++ dropout function `name` binds them, p checked as torch's Python
    checks it."""
    bound = schemas.bind_cpp(f"{name}(Tensor input, float p, bool train)", x, p, training)
    p, training = bound["p"], bound["train"]
    if p < 0.0 or p > 1.0:
        raise errors.value_error(f"dropout probability has to be between 0 and 1, but got {p}")
    return p, training


def dropout(x: Tensor, p=0.5, training: bool = True, inplace: bool = False,
            noise_shape: tuple | None = None) -> Tensor:
    """torch's CPU dropout: a bernoulli(1 - p) mask drawn from the generator, scaled by
    1 / (1 - p), multiplied in; `noise_shape` (feature dropout) draws one per channel. The
    arguments bind first to the C++ function torch's Python code calls."""
    name = ("feature_dropout" if noise_shape else "dropout") + ("_" if inplace else "")
    p, training = dropout_arguments(name, x, p, training)
    if p == 0 or not training or x.numel() == 0:
        return x
    if p == 1:
        noise = Tensor(np.zeros((), x.dtype.np), x.dtype)
    else:
        mask = _bernoulli_noise(x, noise_shape, 1 - p)
        if not x.dtype.is_floating_point:  # the mask, of the input's dtype, divided in place
            raise errors.runtime("result type Float can't be cast to the desired output type "
                                 f"{x.dtype.scalar_name}")
        keep = np.asarray(1 - p, dtype=x.dtype.np)
        noise = Tensor((mask.astype(x.dtype.np) / keep).astype(x.dtype.np), x.dtype)
    if inplace:
        return F.apply_inplace(x, lambda t: F.mul(t, noise))
    return F.mul(x, noise)


def _bernoulli_noise(x: Tensor, noise_shape, p: float) -> np.ndarray:
    """noise.bernoulli_(p) on the CPU: drawn in the memory order of the noise, which for
    elementwise dropout is empty_like(input), laid out as a dense input is."""
    order = None if noise_shape else layout.dense_order(x.data)
    if order is None or order == sorted(order):
        return F.DEFAULT_GENERATOR.generator.bernoulli(noise_shape or x.shape, p)
    drawn = F.DEFAULT_GENERATOR.generator.bernoulli([x.shape[d] for d in order], p)
    return np.transpose(drawn, np.argsort(order))


def feature_dropout(spatial: int):
    """F.dropout1d/2d/3d: whole channels zeroed (one draw per batch entry and channel), as
    torch's Python wrappers and ATen's feature_dropout do, warnings included."""
    name = f"dropout{spatial}d"

    def run(x: Tensor, p=0.5, training: bool = True, inplace: bool = False) -> Tensor:
        if spatial == 1 and x.ndim not in (2, 3):
            raise errors.runtime(f"dropout1d: Expected 2D or 3D input, but received a {x.ndim}D "
                                 "input. Note that dropout1d exists to provide channel-wise "
                                 "dropout on inputs with 1 spatial dimension, a channel "
                                 "dimension, and an optional batch dimension (i.e. 2D or 3D "
                                 "inputs).")
        batched = x.ndim == spatial + 2
        if spatial > 1 and x.ndim not in (spatial + 1, spatial + 2):
            STATE.warn("UserWarning", f"{name}: Received a {x.ndim}-D input to {name}, which is "
                       "deprecated and will result in an error in a future release. To retain "
                       f"the behavior and silence this warning, please use dropout instead. Note "
                       f"that {name} exists to provide channel-wise dropout on inputs with "
                       f"{spatial} spatial dimensions, a channel dimension, and an optional "
                       f"batch dimension (i.e. {spatial + 1}D or {spatial + 2}D inputs).")
        if spatial == 2 and x.ndim == 3:
            STATE.warn("UserWarning", "dropout2d: Received a 3D input to dropout2d and assuming "
                       "that channel-wise 1D dropout behavior is desired - input is interpreted "
                       "as shape (N, C, L), where C is the channel dim. This behavior will change "
                       "in a future release to interpret the input as one without a batch "
                       "dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout "
                       "behavior, please switch to using dropout1d instead.")
        batched = batched or spatial == 2  # torch's dropout2d runs on any input as it is
        lifted = x if batched else F.unsqueeze(x, 0)
        if lifted.ndim < 2 and training and 0 < p < 1 and x.numel():
            raise errors.runtime("Feature dropout requires at least 2 dimensions in the input")
        out = dropout(lifted, p, training, inplace, lifted.shape[:2] + (1,) * (lifted.ndim - 2))
        return out if batched else F.squeeze(out, 0)
    return run


dropout1d, dropout2d, dropout3d = (feature_dropout(n) for n in (1, 2, 3))


def _embedding(weight, indices, padding_idx):
    return weight[np.asarray(indices, np.int64)]


def _embedding_backward(g, indices, num_weights, padding_idx):
    flat = np.asarray(indices, np.int64).reshape(-1)
    rows = g.reshape(len(flat), g.shape[-1])  # (an empty batch of indices too)
    out = np.zeros((num_weights, rows.shape[1]), g.dtype)
    for i, row in zip(flat.tolist(), rows):
        if i != padding_idx:
            out[i] += row
    return out


def _embedding_grad(g, w, indices, padding_idx, num_weights, sparse=False):
    if sparse:
        return F.embedding_sparse_grad(g, indices, num_weights, padding_idx)
    return F.apply_op("embedding_dense_backward", g, indices, num_weights=num_weights,
                      padding_idx=padding_idx)


defop("embedding", "EmbeddingBackward0",
      lambda w, indices, padding_idx, num_weights, sparse=False: _embedding(w, indices,
                                                                            padding_idx),
      promote="none", save=(1,), vjp=(_embedding_grad, None), jvp=LINEAR)
defop("embedding_dense_backward", "EmbeddingDenseBackwardBackward0", _embedding_backward,
      promote="none", save=(1,),
      vjp=(lambda gg, g, indices, num_weights, padding_idx: F.view(F.index_select(
          gg, 0, F.reshape(indices, (-1,))), (*indices.shape, gg.shape[1])), None))


def _rows(weight) -> int:
    """weight.size(0), as torch's Python code asks it."""
    if not isinstance(weight, Tensor):
        raise errors.no_attribute(weight, "size")
    return F.size_at(weight, 0)


def embedding_renorm(weight: Tensor, indices: np.ndarray, max_norm, norm_type) -> None:
    """embedding_renorm_ under no_grad: the rows `indices` name scaled down to max_norm, as
    ATen's loop does it: each row's norm in the weight's dtype, read as a double, and the row
    times the scale max_norm / (norm + 1e-7) cast to the weight's dtype (a product in float for
    the half types)."""
    with grad_mode(False):
        data = weight.data
        opmath = np.float32 if data.dtype.itemsize < 4 else data.dtype.type  # half types: float
        for row in np.unique(indices.reshape(-1)):
            norm = F.vector_norm_values(data[row].astype(opmath), float(norm_type), None, False)
            norm = float(dtypes.stored(norm, weight.dtype))
            if norm > max_norm:
                scale = dtypes.stored(max_norm / (norm + 1e-7), weight.dtype)
                scaled = data[row].astype(opmath) * scale.astype(opmath)
                data[row] = dtypes.stored(scaled, weight.dtype)
        weight.bump_version()


def embedding(indices: Tensor, weight: Tensor, padding_idx=None, max_norm=None,
              norm_type=2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    if padding_idx is not None:
        if F.truth(F.python_compare(">", padding_idx, 0)):
            if F.truth(F.python_compare(">=", padding_idx, _rows(weight))):
                raise errors.TorchError("AssertionError", "Padding_idx must be within num_embeddings")
        elif F.truth(F.python_compare("<", padding_idx, 0)):
            if F.truth(F.python_compare("<", padding_idx, -_rows(weight))):
                raise errors.TorchError("AssertionError", "Padding_idx must be within num_embeddings")
            padding_idx = F.add(padding_idx, _rows(weight)) if isinstance(
                padding_idx, Tensor) else _rows(weight) + padding_idx
    else:
        padding_idx = -1
    schemas.bind_cpp(  # F.embedding hands its arguments to torch.embedding
        "embedding(Tensor weight, Tensor indices, int padding_idx=-1, "
        "bool scale_grad_by_freq=False, bool sparse=False)",
        weight, indices, padding_idx, scale_grad_by_freq, sparse)
    if weight.ndim != 2:
        raise errors.runtime("'weight' must be 2-D")
    if indices.dtype not in (dtypes.int64, dtypes.int32):
        raise errors.runtime(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {indices.dtype.type_string} instead (while checking "
            "arguments for embedding)")
    values = indices.data
    if values.size and not weight.shape[0]:
        raise errors.runtime("index_select(): self indexing axis dim should be positive")
    if values.size and (values.min() < 0 or values.max() >= weight.shape[0]):
        raise errors.index_error("index out of range in self")
    if max_norm is not None:
        embedding_renorm(weight, values, max_norm, norm_type)
    return apply(OPS["embedding"], weight, indices, padding_idx=padding_idx,
                 num_weights=weight.shape[0], **({"sparse": True} if sparse else {}))


# ---- layer_norm, batch_norm ---------------------------------------------------------------------

def _norm_rows(x, normalized_ndim):
    """x as torch's contiguous (M, N) rows, one per normalized slice."""
    return np.ascontiguousarray(x).reshape(math.prod(x.shape[:x.ndim - normalized_ndim]), -1)


def _flat(t):
    return None if t is None else np.ascontiguousarray(t).reshape(-1)


def _layer_norm(x, w, b, normalized_ndim, eps):
    if normalization_order.supported(x, w, b):
        out, mean, rstd = normalization_order.layer_norm(_norm_rows(x, normalized_ndim),
                                                         _flat(w), _flat(b), eps)
        stats = x.shape[:x.ndim - normalized_ndim] + (1,) * normalized_ndim
        return out.reshape(x.shape), mean.reshape(stats), rstd.reshape(stats)
    lead = x.shape[:x.ndim - normalized_ndim]
    kept = lead + (1,) * normalized_ndim
    opmath = np.float32 if x.dtype == np.float16 else x.dtype
    rows = x.reshape(math.prod(lead), math.prod(x.shape[len(lead):])).astype(opmath, copy=False)
    if rows.size:
        mean, var = variance_order.row_moments(rows)
    else:
        mean = var = np.full(len(rows), np.nan, opmath)
    kind = rows.dtype.type
    rstd = kind(1) / np.sqrt(np.maximum(var, kind(0)) + kind(eps))
    mean, rstd = mean.reshape(kept), rstd.reshape(kept)
    centered = x.astype(opmath, copy=False) - mean
    shift = kind(0) if b is None else b.astype(opmath, copy=False)
    if w is None:
        out = fused(centered, rstd, shift)
    else:
        out = fused(centered * rstd, w.astype(opmath, copy=False), shift)
    return out.astype(x.dtype), mean.astype(x.dtype), rstd.astype(x.dtype)


def _layer_norm_composite(normalized_ndim, eps, has_w, has_b, index):
    def composite(g, x, w, b):
        axes = tuple(range(x.ndim - normalized_ndim, x.ndim))
        mean = F.mean(x, axes, True)
        centered = F.sub(x, mean)
        var = F.mean(F.mul(centered, centered), axes, True)
        rstd = F.rsqrt(F.add_scalar(var, eps))
        xhat = F.mul(centered, rstd)
        if index == 2:
            return F.sum(F.mul(g, xhat), tuple(range(x.ndim - normalized_ndim)))
        if index == 3:
            return F.sum(g, tuple(range(x.ndim - normalized_ndim)))
        gw = F.mul(g, w) if w is not None else g
        n = float(math.prod(x.shape[x.ndim - normalized_ndim:]))
        inner = F.sub(F.sub(gw, F.mean(gw, axes, True)),
                      F.mul(xhat, F.mean(F.mul(gw, xhat), axes, True)))
        return F.mul(rstd, inner) if n else inner
    return composite


def _layer_norm_backward(g, x, w, b, normalized_ndim, eps, index):
    if normalization_order.supported(x, w, g):
        shape = x.shape if index == 1 else x.shape[x.ndim - normalized_ndim:]
        return normalization_order.layer_norm_backward(
            _norm_rows(g, normalized_ndim), _norm_rows(x, normalized_ndim), _flat(w), eps,
            index).reshape(shape)
    axes = tuple(range(x.ndim - normalized_ndim, x.ndim))
    batch = tuple(range(x.ndim - normalized_ndim))
    wide = x.astype(np.float64)
    mean = wide.mean(axis=axes, keepdims=True)
    rstd = 1 / np.sqrt(((wide - mean) ** 2).mean(axis=axes, keepdims=True) + eps)
    xhat = (wide - mean) * rstd
    gd = g.astype(np.float64)
    if index == 2:
        return (gd * xhat).sum(axis=batch).astype(g.dtype)
    if index == 3:
        return gd.sum(axis=batch).astype(g.dtype)
    gw = gd * w if w is not None else gd
    result = rstd * (gw - gw.mean(axis=axes, keepdims=True)
                     - xhat * (gw * xhat).mean(axis=axes, keepdims=True))
    return result.astype(g.dtype)


def _layer_norm_grad(index):
    def rule(g, x, w, b, normalized_ndim, eps):
        return F.apply_op("native_layer_norm_backward", g[0], x, w, b,
                          normalized_ndim=normalized_ndim, eps=eps, index=index + 1)
    return rule


def _layer_norm_double(slot):
    def rule(gg, g, x, w, b, normalized_ndim, eps, index):
        composite = _layer_norm_composite(normalized_ndim, eps, w is not None, b is not None,
                                          index)
        return _retraced(composite, (g, x, w, b), slot, gg)
    return rule


defop("native_layer_norm", "NativeLayerNormBackward0", _layer_norm, promote="none",
      n_outputs=3, differentiable_outputs=(0,), save=(0, 1, 2),
      vjp=(_layer_norm_grad(0), _layer_norm_grad(1), _layer_norm_grad(2)))
defop("native_layer_norm_backward", "NativeLayerNormBackwardBackward0",
      lambda g, x, w, b, normalized_ndim, eps, index: _layer_norm_backward(
          g, x, w, b, normalized_ndim, eps, index),
      promote="none", save=(0, 1, 2, 3),
      vjp=(_layer_norm_double(0), _layer_norm_double(1), _layer_norm_double(2), None))


def layer_norm(x: Tensor, normalized_shape, weight=None, bias=None, eps: float = 1e-5) -> Tensor:
    """F.layer_norm, Python in torch: its arguments handed to the C++ torch.layer_norm."""
    bound = schemas.bind_cpp(
        "layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
        "float eps=1e-05, bool cudnn_enable=True)", x, normalized_shape, weight, bias, eps)
    shape, eps = bound["normalized_shape"], bound["eps"]
    given = [t for t in (weight, bias) if t is not None]
    if given and given[0].dtype is not x.dtype:  # layer_norm_cpu's mixed-dtype check comes first
        errors.check_norm_dtypes("LayerNormKernelImpl", x, (weight, bias))
    if not shape:  # then the shapes
        raise errors.runtime(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
            "one element, but got normalized_shape = []")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and t.shape != shape:
            raise errors.runtime(
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                f"shape {_sizes(t.shape)} and normalized_shape = {_sizes(shape)}")
    if x.shape[x.ndim - len(shape):] != shape or len(shape) > x.ndim:
        raise errors.runtime(
            f"Given normalized_shape={_sizes(shape)}, expected input with shape "
            f"[*, {', '.join(map(str, shape))}], but got input of size{_sizes(x.shape)}")
    errors.check_norm_dtypes("LayerNormKernelImpl", x, (weight, bias))
    out, _, _ = apply(OPS["native_layer_norm"], x, weight, bias, normalized_ndim=len(shape),
                      eps=eps)
    return out


def _mean(values: np.ndarray, axes: tuple, keepdims: bool = False) -> np.ndarray:
    """np.mean's values, NaN without NumPy's warning where there is nothing to average (an
    empty batch's moments are 0 / 0 in ATen too)."""
    total = values.sum(axis=axes, keepdims=keepdims)
    count = math.prod(values.shape[a] for a in axes)
    return total / count if count else np.full_like(total, np.nan)


def _channel_view(t, ndim):
    return t.reshape((1, -1) + (1,) * (ndim - 2))


def _exact_batch_norm(x, *params) -> bool:
    """Whether normalization_order reproduces torch's kernel: a C-ordered float input with
    parameters of its dtype."""
    return normalization_order.supported(x, *params) and x.ndim >= 2 and x.flags.c_contiguous


def _channels(x):
    """x as (N, C, S) rows."""
    return x.reshape(x.shape[0], x.shape[1], -1)


def _normalizing_stats(x, mean_in, var_in, training, eps, forward):
    """The mean and invstd batch_norm's kernels normalize x with."""
    if not training:
        return mean_in, normalization_order.eval_invstd(var_in, eps, forward)
    mean, var_sum = normalization_order.batch_norm_stats(_channels(x))
    return mean, normalization_order.batch_norm_invstd(var_sum, x.size // x.shape[1], eps)


def _batch_norm(x, w, b, mean_in, var_in, training, eps):
    out, mean, invstd = _batch_norm_values(x, w, b, mean_in, var_in, training, eps)
    fmt = memory_format.suggest(x.shape, memory_format.element_strides(x))
    if fmt is not memory_format.CONTIGUOUS or not out.flags.c_contiguous:
        out = memory_format.laid_out(out, fmt)  # torch's empty_like(input, suggested format)
    return out, mean, invstd


def _batch_norm_values(x, w, b, mean_in, var_in, training, eps):
    if STATE.reduced_kernel:
        return _reduced_batch_norm(x, w, b, mean_in, var_in, training, eps)
    if _exact_batch_norm(x, w, b, mean_in, var_in):
        mean, invstd = _normalizing_stats(x, mean_in, var_in, training, eps, forward=True)
        out = normalization_order.batch_norm_transform(_channels(x), w, b, mean, invstd)
        if training:
            return out.reshape(x.shape), mean, invstd
        return out.reshape(x.shape), np.zeros(0, x.dtype), np.zeros(0, x.dtype)
    axes = (0, *range(2, x.ndim))
    if training:
        wide = x.astype(np.float64)
        mean = _mean(wide, axes)
        var = _mean((wide - _channel_view(mean, x.ndim)) ** 2, axes)
        invstd = 1 / np.sqrt(var + eps)
    else:
        mean = mean_in.astype(np.float64)
        invstd = 1 / np.sqrt(var_in.astype(np.float64) + eps)
    scale = invstd if w is None else invstd * w
    shift = -mean * scale if b is None else b - mean * scale
    out = x * _channel_view(scale.astype(x.dtype), x.ndim) + _channel_view(
        shift.astype(x.dtype), x.ndim)
    if training:
        return out.astype(x.dtype), mean.astype(x.dtype), invstd.astype(x.dtype)
    return out.astype(x.dtype), np.zeros(0, x.dtype), np.zeros(0, x.dtype)


def _reduced_batch_norm(x, w, b, mean_in, var_in, training, eps):
    """batch_norm of bfloat16 or float16 values (as float32): the batch's statistics in float,
    kept (and saved) in the input's dtype, then (x - mean) * invstd, times the weight plus the
    bias, in float32."""
    if training:
        mean, var_sum = _reduced_batch_stats(x)
        var = (var_sum / np.float32(x.size // x.shape[1])).astype(np.float64)
        mean = dtypes.rounded_to(STATE.reduced_kernel, mean)
        invstd = dtypes.rounded_to(STATE.reduced_kernel, 1 / np.sqrt(var + eps))
    else:
        mean = np.asarray(mean_in, np.float32)
        invstd = (1 / np.sqrt(var_in.astype(np.float64) + eps)).astype(np.float32)
    out = (x - _channel_view(mean, x.ndim)) * _channel_view(invstd, x.ndim)
    if w is not None:
        out = out * _channel_view(w, x.ndim)
    if b is not None:
        out = out + _channel_view(b, x.ndim)
    if training:
        return out, mean, invstd
    return out, np.zeros(0, x.dtype), np.zeros(0, x.dtype)


def _reduced_batch_stats(x):
    """A bfloat16 or float16 batch's mean and sum of squared deviations per channel, in float
    (as float32)."""
    axes = (0, *range(2, x.ndim))
    wide = x.astype(np.float64)
    mean = wide.mean(axis=axes)
    var_sum = ((wide - _channel_view(mean, x.ndim)) ** 2).sum(axis=axes)
    return mean.astype(np.float32), var_sum.astype(np.float32)


def _batch_norm_composite(training, eps, index):
    def composite(g, x, w, b, mean_in, var_in):
        axes = (0, *range(2, x.ndim))
        shape = (1, -1) + (1,) * (x.ndim - 2)
        if training:
            mean = F.mean(x, axes, True)
            centered = F.sub(x, mean)
            invstd = F.rsqrt(F.add_scalar(F.mean(F.mul(centered, centered), axes, True), eps))
        else:
            centered = F.sub(x, F.reshape(mean_in, shape))
            invstd = F.reshape(F.rsqrt(F.add_scalar(var_in, eps)), shape)
        xhat = F.mul(centered, invstd)
        if index == 2:
            return F.sum(F.mul(g, xhat), axes)
        if index == 3:
            return F.sum(g, axes)
        scale = invstd if w is None else F.mul(invstd, F.reshape(w, shape))
        if not training:
            return F.mul(g, scale)
        inner = F.sub(F.sub(g, F.mean(g, axes, True)),
                      F.mul(xhat, F.mean(F.mul(g, xhat), axes, True)))
        return F.mul(inner, scale)
    return composite


def _batch_norm_backward(g, x, w, b, mean_in, var_in, training, eps, index):
    if _exact_batch_norm(x, w, mean_in, var_in, g):
        mean = invstd = None  # the bias's gradient needs neither
        if index != 3:
            mean, invstd = _normalizing_stats(x, mean_in, var_in, training, eps, forward=False)
        if g.size > 1 and not any(g.strides):  # one value expanded: torch's generic path
            grad = normalization_order.batch_norm_backward_expanded(
                g.flat[0], _channels(x), w, mean, invstd, training, index)
        else:
            grad = normalization_order.batch_norm_backward(
                _channels(np.ascontiguousarray(g)), _channels(x), w, mean, invstd, training,
                index)
        return grad.reshape(x.shape) if index == 1 else grad
    axes = (0, *range(2, x.ndim))
    wide, gd = x.astype(np.float64), g.astype(np.float64)
    if training:
        mean = _mean(wide, axes, keepdims=True)
        invstd = 1 / np.sqrt(_mean((wide - mean) ** 2, axes, keepdims=True) + eps)
    else:
        mean = _channel_view(mean_in.astype(np.float64), x.ndim)
        invstd = 1 / np.sqrt(_channel_view(var_in.astype(np.float64), x.ndim) + eps)
    xhat = (wide - mean) * invstd
    if index == 2:
        return (gd * xhat).sum(axis=axes).astype(g.dtype)
    if index == 3:
        return gd.sum(axis=axes).astype(g.dtype)
    scale = invstd if w is None else invstd * _channel_view(w.astype(np.float64), x.ndim)
    if not training:
        return (gd * scale).astype(g.dtype)
    inner = gd - _mean(gd, axes, keepdims=True) - xhat * _mean(gd * xhat, axes, keepdims=True)
    return (inner * scale).astype(g.dtype)


def _batch_norm_grad(index):
    def rule(g, x, w, b, mean_in, var_in, training, eps):
        return F.apply_op("native_batch_norm_backward", g[0], x, w, b, mean_in, var_in,
                          training=training, eps=eps, index=index + 1)
    return rule


def _batch_norm_double(slot):
    def rule(gg, g, x, w, b, mean_in, var_in, training, eps, index):
        return _retraced(_batch_norm_composite(training, eps, index),
                         (g, x, w, b, mean_in, var_in), slot, gg)
    return rule


defop("native_batch_norm", "NativeBatchNormBackward0", _batch_norm, promote="none",
      n_outputs=3, differentiable_outputs=(0,), save=(0, 1, 2, 3, 4),
      vjp=(_batch_norm_grad(0), _batch_norm_grad(1), _batch_norm_grad(2), None, None))
defop("native_batch_norm_backward", "NativeBatchNormBackwardBackward0",
      _batch_norm_backward, promote="none", save=(0, 1, 2, 3, 4, 5),
      vjp=(_batch_norm_double(0), _batch_norm_double(1), _batch_norm_double(2), None, None,
           None))


def batch_norm(x: Tensor, running_mean, running_var, weight=None, bias=None,
               training: bool = False, momentum=0.1, eps: float = 1e-5) -> Tensor:
    """F.batch_norm, Python in torch: the batch size checked when training, then the arguments
    handed to the C++ torch.batch_norm and its parser."""
    training = F.truth(training)
    if training:
        size = _size_of(x)  # torch's _verify_batch_size(input.size())
        if not size:
            raise errors.index_error("tuple index out of range")
        if size[0] * math.prod(size[2:]) == 1:
            raise errors.value_error(
                "Expected more than 1 value per channel when training, got input size "
                f"torch.Size([{', '.join(map(str, x.shape))}])")
    if training and F.truth(comparison.python_compare("<=", eps, 0.0)):
        raise errors.value_error(f"batch_norm eps must be positive during training, but got {eps}")
    if not training and F.truth(comparison.python_compare("<", eps, 0.0)):
        raise errors.value_error(f"batch_norm eps must be non-negative, but got {eps}")
    bound = schemas.bind_cpp(
        "batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
        "Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled)",
        x, weight, bias, running_mean, running_var, training, momentum, eps, True)
    momentum, eps = bound["momentum"], bound["eps"]
    channels = x.shape[1] if x.ndim > 1 else 0  # as torch reads it from a 0-D or 1-D input
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        if t is not None and t.numel() != channels:
            raise errors.runtime(
                f"{name} should contain {channels} elements not {t.numel()}")
        if t is None and not training and name.startswith("running"):
            raise errors.runtime(f"{name} must be defined in evaluation mode")
    F.wrap_dim(1, max(x.ndim, 1))  # the channel dimension a 0-D or 1-D input lacks
    F.check_constant("native_batch_norm", "running_mean", running_mean)
    F.check_constant("native_batch_norm", "running_var", running_var)
    errors.check_norm_dtypes("batch_norm", x, (weight, bias, running_mean, running_var),
                             dispatch_first=True)
    out, mean, invstd = apply(OPS["native_batch_norm"], x, weight, bias, running_mean,
                              running_var, training=bool(training), eps=eps)
    if training and running_mean is not None and running_var is not None:
        # updated inside the op, as torch's kernel does: no version bump
        _update_running(x, running_mean.data, running_var.data, mean.data, invstd.data,
                        momentum, eps)
    return out


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5) -> Tensor:
    """F.instance_norm: the spatial size checked, then torch's C++ instance_norm: a batch norm of
    the input seen as one sample of N*C channels, the running stats averaged back over N."""
    size = _size_of(x)
    if F.truth(use_input_stats) and math.prod(size[2:]) == 1:
        raise errors.value_error("Expected more than 1 spatial element when training, got "
                                 f"input size torch.Size([{', '.join(map(str, size))}])")
    bound = schemas.bind_cpp(
        "instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
        "Tensor? running_var, bool use_input_stats, float momentum, float eps, "
        "bool cudnn_enabled)", x, weight, bias, running_mean, running_var, use_input_stats,
        momentum, eps, True)
    use_input_stats, momentum, eps = (bound["use_input_stats"], bound["momentum"],
                                      bound["eps"])
    if not use_input_stats and (running_mean is None or running_var is None):
        raise errors.runtime("Expected running_mean and running_var to be defined when "
                             "use_input_stats is false")
    b, c = F.size_at(x, 0), F.size_at(x, 1)
    repeated = [None if t is None else F.repeat(t, (b,))
                for t in (weight, bias, running_mean, running_var)]
    out = batch_norm(F.view(F.contiguous(x), (1, b * c, *size[2:])), repeated[2], repeated[3],
                     repeated[0], repeated[1], use_input_stats, momentum, eps)
    for running, spread in zip((running_mean, running_var), repeated[2:]):
        if running is not None:
            np.copyto(running.data, F.mean(F.view(spread, (b, c)), 0).data)
    return F.view(out, size)


def _update_running(t, running_mean, running_var, mean, invstd, momentum, eps):
    x = t.data
    n = x.size // x.shape[1]
    if t.dtype in (dtypes.bfloat16, dtypes.float16):  # in double from the stored statistics
        mean, var_sum = _reduced_batch_stats(x)
        unbiased = (var_sum / np.float32(n - 1)).astype(np.float64)
        running_mean[...] = dtypes.stored(dtypes.rounded_to(t.dtype, momentum * mean.astype(
            np.float64) + (1 - momentum) * running_mean.astype(np.float64)), t.dtype)
        running_var[...] = dtypes.stored(dtypes.rounded_to(t.dtype, momentum * unbiased + (
            1 - momentum) * running_var.astype(np.float64)), t.dtype)
        return
    if _exact_batch_norm(x, running_mean, running_var):
        _, var_sum = normalization_order.batch_norm_stats(_channels(x))
        running_mean[...], running_var[...] = normalization_order.running_stats(
            running_mean, running_var, mean, var_sum, n, momentum)
        return
    unbiased = (1 / invstd.astype(np.float64)) ** 2 - eps
    unbiased = unbiased * n / (n - 1)
    running_mean[...] = (running_mean * (1 - momentum) + mean * momentum).astype(
        running_mean.dtype)
    running_var[...] = (running_var * (1 - momentum) + unbiased * momentum).astype(
        running_var.dtype)


# ---- losses -------------------------------------------------------------------------------------

def _huber(a, b, reduction, delta, dtype):
    """The loss computed in the operands' common dtype, written into a tensor of the input's
    `dtype` (torch's empty_like(self)), then reduced."""
    z = np.abs(a - b)
    loss = np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta)).astype(dtype.np)
    return losses.reduce_loss(loss, reduction)


def _huber_backward(g, a, b, reduction, delta):
    norm = a.dtype.type(losses.mean_norm(1.0, a, reduction))
    x = a - b
    return np.where(x < -delta, -norm * g * delta,
                    np.where(x > delta, norm * g * delta, norm * x * g)).astype(a.dtype)


def _huber_double_backward(grad, a, b, reduction, delta):
    inside = F.to_dtype(F.compare("lt", F.abs(F.sub(a, b)), delta), grad.dtype)
    result = F.mul(grad, inside)
    return F.div_scalar(result, a.numel()) if reduction == "mean" else result


def _huber_grad_output(gg, g, a, b, reduction, delta):
    if reduction == "none":
        return F.apply_op("huber_loss_backward", gg, a, b, reduction=reduction, delta=delta)
    r = F.apply_op("huber_loss_backward", F.ones_for(g), a, b, reduction=reduction,
                   delta=delta)
    return F.sum(F.mul(r, gg))


def _huber_input_backward(g, a, b, reduction, delta, dtype):
    """huber_loss_backward into a gradient of `a`'s dtype: its TensorIterator takes no other
    dtype among the operands (a float input with a double target fails here)."""
    for operand in (b, g):
        if operand.dtype is not a.dtype:
            raise errors.runtime(f"Found dtype {operand.dtype.scalar_name} but expected "
                                 f"{a.dtype.scalar_name}")
    return F.apply_op("huber_loss_backward", g, a, b, reduction=reduction, delta=delta)


defop("huber_loss", "HuberLossBackward0", _huber, save=(0, 1),
      out_dtype=lambda dtype, params: params["dtype"],
      vjp=(lambda g, a, b, **k: _huber_input_backward(g, a, b, **k),
           lambda g, a, b, **k: _huber_input_backward(g, b, a, **k)))
defop("huber_loss_backward", "HuberLossBackwardBackward0", _huber_backward, save=(0, 1, 2),
      vjp=(_huber_grad_output,
           lambda gg, g, a, b, **k: _huber_double_backward(F.mul(gg, g), a, b, **k),
           lambda gg, g, a, b, **k: F.neg(_huber_double_backward(F.mul(gg, g), a, b, **k))))


def huber_loss(a: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight=None) -> Tensor:
    """F.huber_loss, Python in torch: the size warning, the broadcast and the reduction, then
    the arguments handed to the C++ huber_loss and its parser."""
    shape = a.shape
    a, target, reduction = F.expanded_pair(a, target, reduction)
    if weight is None:
        reduction = F.checked_reduction(reduction)
    elif weight.shape != shape:
        raise errors.value_error("Weights and input must have the same size.")
    enum = F.REDUCTIONS.index("none" if weight is not None else reduction)
    bound = schemas.bind_cpp("huber_loss(Tensor self, Tensor target, int reduction=1, "
                             "float delta=1.0)", a, target, enum, delta)
    if bound["delta"] <= 0:
        raise errors.runtime("huber_loss does not support non-positive values for delta.")
    common = dtypes.promote(a.dtype, target.dtype)
    errors.check_cast(common, a.dtype)
    if not common.is_floating_point:
        raise errors.not_implemented_for("huber_cpu", common)
    a, target = autocast.cast_to_float32(a, target)  # the row's cast, which the result follows
    if weight is not None:
        loss = apply(OPS["huber_loss"], a, target, reduction="none", delta=bound["delta"],
                     dtype=a.dtype)
        return F.weighted_loss(loss, weight, shape, reduction, mean_by_weight=False)
    return apply(OPS["huber_loss"], a, target, reduction=reduction, delta=bound["delta"],
                 dtype=a.dtype)


def kl_div(a: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """F.kl_div, Python in torch: the reduction read, then the arguments handed to the C++
    kl_div and its parser."""
    if size_average is not None or reduce is not None:
        reduction = F.reduction_of(reduction, size_average, reduce)
    else:
        if reduction == "mean":
            STATE.warn("UserWarning", "reduction: 'mean' divides the total loss by both the "
                       "batch size and the support size.'batchmean' divides only by the batch "
                       "size, and aligns with the KL div math definition.'mean' will be changed "
                       "to behave the same as 'batchmean' in the next major release.")
        if reduction != "batchmean":
            F.checked_reduction(reduction)
    schemas.bind_cpp("kl_div(Tensor self, Tensor target, int reduction=1, *, "
                     "bool log_target=False)", a, target, log_target=log_target)
    a, target = autocast.cast_to_float32(a, target)
    if not (a.dtype.is_floating_point and target.dtype.is_floating_point):
        raise errors.runtime("kl_div: Integral inputs not supported.")
    if log_target:
        loss = F.mul(F.exp(target), F.sub(target, a))
    else:
        loss = F.sub(F.xlogy(target, target), F.mul(target, a))
    if reduction == "batchmean":
        total = F.sum(loss)
        return F.div(total, a.shape[0]) if a.ndim != 0 else total
    return F.apply_loss_reduction(loss, reduction)


def margin_ranking_loss(a: Tensor, b: Tensor, target: Tensor, margin: float = 0,
                        size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """F.margin_ranking_loss, Python in torch: the reduction read, the dimensions compared,
    then the arguments handed to the C++ margin_ranking_loss."""
    reduction = F.reduction_of(reduction, size_average, reduce)
    a, b, target = autocast.cast_to_float32(a, b, target)
    if _dim_of(a) != _dim_of(b) or a.ndim != _dim_of(target):
        sizes = [", ".join(map(str, _size_of(t))) for t in (a, b, target)]
        raise errors.runtime(
            f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: torch.Size([{sizes[0]}]), input2: torch.Size([{sizes[1]}]), target: "
            f"torch.Size([{sizes[2]}]) ")
    margin = schemas.bind_cpp("margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, "
                              "float margin=0.0, int reduction=1)", a, b, target,
                              margin)["margin"]
    output = F.clamp_min(F.add_scalar(F.mul(F.neg(target), F.sub(a, b)), margin), 0)  # clamp_min_
    return F.apply_loss_reduction(output, reduction)


def hinge_embedding_loss(a: Tensor, target: Tensor, margin: float = 1.0, size_average=None,
                         reduce=None, reduction: str = "mean") -> Tensor:
    """F.hinge_embedding_loss, Python in torch: the reduction read, then the arguments handed to
    the C++ hinge_embedding_loss, whose `margin - self` fills a tensor like self first."""
    reduction = F.reduction_of(reduction, size_average, reduce)
    a, target = autocast.cast_to_float32(a, target)
    bound = schemas.bind_cpp("hinge_embedding_loss(Tensor self, Tensor target, "
                             "float margin=1.0, int reduction=1)", a, target, margin)
    margin = bound["margin"]
    zeros = F.zeros_for(a)
    margin_clamp = F.clamp(F.sub(F.full_like(a, margin), a), 0, None)
    output_margin = F.where(F.compare("ne", target, 1), margin_clamp, zeros)
    output_self = F.where(F.compare("ne", target, -1), a, zeros)
    return F.apply_loss_reduction(F.add(output_margin, output_self), reduction)


def cosine_embedding_loss(a: Tensor, b: Tensor, target: Tensor, margin: float = 0,
                          size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    reduction = F.reduction_of(reduction, size_average, reduce)
    a, b, target = autocast.cast_to_float32(a, b, target)
    dim = target.ndim
    prod_sum = F.sum(F.mul(a, b), dim)
    mag1 = F.add_scalar(F.sum(F.mul(a, a), dim), 1e-12)
    mag2 = F.add_scalar(F.sum(F.mul(b, b), dim), 1e-12)
    denom = F.sqrt(F.mul(mag1, mag2))
    cos = F.div(prod_sum, denom)
    zeros = F.zeros_for(cos)
    pos = F.scalar_sub(1, cos)
    neg = F.clamp(F.sub_scalar(cos, margin), 0, None)
    output = F.add(F.where(F.compare("eq", target, 1), pos, zeros),
                   F.where(F.compare("eq", target, -1), neg, zeros))
    return F.apply_loss_reduction(output, reduction)


def poisson_nll_loss(a: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average=None, eps: float = 1e-8, reduce=None,
                     reduction: str = "mean") -> Tensor:
    reduction = F.reduction_of(reduction, size_average, reduce)
    a, target = autocast.cast_to_float32(a, target)
    bound = schemas.bind_cpp("poisson_nll_loss(Tensor input, Tensor target, bool log_input, "
                             "bool full, float eps, int reduction)", a, target, log_input, full,
                             eps, F.REDUCTIONS.index(reduction))
    log_input, full, eps = bound["log_input"], bound["full"], bound["eps"]
    if log_input:
        loss = F.sub(F.exp(a), F.mul(target, a))
    else:
        loss = F.sub(a, F.mul(target, F.log(F.add_scalar(a, eps))))
    if full:
        stirling = F.add(F.sub(F.mul(target, F.log(target)), target),
                         F.mul_scalar(F.log(F.mul_scalar(target, 2 * math.pi)), 0.5))
        loss = F.add(loss, F.masked_fill(stirling, F.compare("le", target, 1), 0))
    return F.apply_loss_reduction(loss, reduction)


def _size_of(value) -> tuple:
    """value.size(), as torch's Python code asks it."""
    if not isinstance(value, Tensor):
        raise errors.no_attribute(value, "size")
    return value.shape


def _dim_of(value) -> int:
    """value.dim(), as torch's Python code asks it."""
    if not isinstance(value, Tensor):
        raise errors.no_attribute(value, "dim")
    return value.ndim


def gaussian_nll_loss(a, target, var, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Tensor:
    """F.gaussian_nll_loss, Python in torch: its checks in its order."""
    if isinstance(var, float):
        if var < 0:
            raise errors.value_error("var has negative entry/entries")
        schemas.bind_cpp("ones_like(Tensor self)", a)
        var = F.full_like(a, var)
    elif F.truth(declarations.call("torch", "any", F.python_compare("<", var, 0))):
        raise errors.value_error("var has negative entry/entries")
    if _size_of(var) != _size_of(a):
        if a.shape[:-1] == var.shape:
            var = F.unsqueeze(var, -1)
        elif a.ndim != var.ndim or sum(y for x, y in zip(a.shape, var.shape) if x != y) != 1:
            raise errors.value_error("var is of incorrect size")  # else heteroscedastic
    if reduction not in ("none", "mean", "sum"):
        if not isinstance(reduction, str):
            raise errors.unsupported_operands("+", errors.type_name(reduction), "str")
        raise errors.value_error(reduction + " is not valid")
    var = F.clone(var)
    with grad_mode(False):
        declarations.call("method", "clamp_", var, min=eps)
    if not isinstance(target, (Tensor, bool, int, float)):
        raise errors.unsupported_operands("-", "Tensor", errors.type_name(target))
    diff = F.sub(a, target)
    loss = F.mul_scalar(F.add(F.log(var), F.div(F.mul(diff, diff), var)), 0.5)
    if F.truth(full):
        loss = F.add_scalar(loss, 0.5 * math.log(2 * math.pi))
    return F.apply_loss_reduction(loss, reduction)


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin=1.0, p=2.0,
                        eps=1e-6, swap: bool = False, size_average=None, reduce=None,
                        reduction: str = "mean") -> Tensor:
    reduction = F.reduction_of(reduction, size_average, reduce)
    anchor, positive, negative = autocast.cast_to_float32(anchor, positive, negative)
    dims = (anchor.ndim, positive.ndim, negative.ndim)
    if len(set(dims)) != 1:
        raise errors.runtime(
            "The anchor, positive, and negative tensors are expected to have the same number of "
            f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
            "inputs")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = F.minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    output = F.clamp_min(F.sub(F.add_scalar(dist_pos, margin), dist_neg), 0)
    return F.apply_loss_reduction(output, reduction)


# ---- declarations -------------------------------------------------------------------------------

_FUNCTIONAL = "functional"
# the order of torch's first checks: activations test `inplace`, then call X_ or X; feature
# dropouts compare p with 0, then ask input.dim()
_INPLACE = "; inplace: truth, input: Tensor@inplace"
_FEATURE = "; p: probability, input: .dim"
for _name, _fn, _signature in (
        ("relu6", relu6, "input, inplace=False" + _INPLACE),
        ("selu", selu, "input, inplace=False" + _INPLACE),
        ("celu", celu, "input, alpha=1.0, inplace=False" + _INPLACE),
        ("mish", mish, "input, inplace=False" + _INPLACE),
        ("softsign", softsign, "input; input: .abs"),
        ("hardtanh", hardtanh, "input: object, min_val=-1.0, max_val=1.0, inplace=False"),
        ("hardsigmoid", hardsigmoid, "input, inplace=False" + _INPLACE),
        ("hardswish", hardswish, "input, inplace=False" + _INPLACE),
        ("tanhshrink", tanhshrink, "input; input: .tanh"),
        ("softmin", softmin, "input: object, dim=None, _stacklevel=3, dtype=None"),
        ("normalize", normalize, "input, p=2.0, dim=1, eps=1e-12, out=None; input: .norm"),
        ("pad", pad, "input: Tensor, pad: int[], mode: str='constant', value: float=None"),
        ("dropout", dropout, "input, p=0.5, training=True, inplace=False; p: probability, "
         "input: Tensor@inplace"),
        ("dropout1d", dropout1d, "input, p=0.5, training=True, inplace=False" + _FEATURE),
        ("dropout2d", dropout2d, "input, p=0.5, training=True, inplace=False" + _FEATURE),
        ("dropout3d", dropout3d, "input, p=0.5, training=True, inplace=False" + _FEATURE),
        ("embedding", embedding, "input: object, weight: object, padding_idx=None, max_norm=None, "
         "norm_type=2.0, scale_grad_by_freq=False, sparse=False"),
        ("layer_norm", layer_norm, "input: object, normalized_shape, weight: object=None, "
         "bias: object=None, eps=1e-05"),
        ("batch_norm", batch_norm, "input: object, running_mean: object, running_var: object, "
         "weight: object=None, bias: object=None, training=False, momentum=0.1, eps=1e-05"),
        ("instance_norm", instance_norm, "input: object, running_mean: object=None, "
         "running_var: object=None, weight: object=None, bias: object=None, "
         "use_input_stats=True, momentum=0.1, eps=1e-05"),
        ("huber_loss", huber_loss, "input, target, reduction='mean', delta=1.0, weight=None; "
         "target: .size, input: .size"),
        ("kl_div", kl_div, "input: object, target: object, size_average=None, reduce=None, "
         "reduction='mean', log_target=False"),
        ("margin_ranking_loss", margin_ranking_loss, "input1: object, input2: object, "
         "target: object, margin=0, size_average=None, reduce=None, reduction='mean'"),
        ("hinge_embedding_loss", hinge_embedding_loss, "input: object, target: object, margin=1.0, "
         "size_average=None, reduce=None, reduction='mean'"),
        ("cosine_embedding_loss", cosine_embedding_loss, "input1, input2, target, margin=0, "
         "size_average=None, reduce=None, reduction='mean'"),
        ("poisson_nll_loss", poisson_nll_loss, "input, target, log_input=True, full=False, "
         "size_average=None, eps=1e-08, reduce=None, reduction='mean'"),
        ("gaussian_nll_loss", gaussian_nll_loss, "input: object, target: object, var, "
         "full=False, eps=1e-06, reduction='mean'"),
        ("triplet_margin_loss", triplet_margin_loss, "anchor, positive, negative, margin=1.0, "
         "p=2, eps=1e-06, swap=False, size_average=None, reduce=None, reduction='mean'")):
    declare(_name, _fn, python=_signature, variants=_FUNCTIONAL)
declare("threshold", threshold, python="input, threshold, value, inplace=False" + _INPLACE,
        variants=_FUNCTIONAL, title="_threshold")
declare("softshrink", softshrink, "softshrink(Tensor input, Scalar lambd=0.5)",
        variants="functional")
declare("hardshrink", hardshrink, "hardshrink(Tensor input, Scalar lambd=0.5)",
        variants="torch method functional")
declare("logsigmoid", logsigmoid, "log_sigmoid(Tensor input)", variants="functional")
declare("one_hot", one_hot, "one_hot(Tensor input, int num_classes=-1)", variants="functional")
declare("cosine_similarity", cosine_similarity,
        "cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08)",
        variants="torch functional")
declare("pairwise_distance", pairwise_distance,
        "pairwise_distance(Tensor x1, Tensor x2, float p=2., float eps=1e-06, "
        "bool keepdim=False)", variants="torch functional")
declare("constant_pad_nd", constant_pad_nd,
        "constant_pad_nd(Tensor input, int[] pad, Scalar value=0)", variants="torch")
for _name, _fn, _signature in (  # the C++ in-place activations F re-exports
        ("hardtanh_", lambda x, lo, hi: hardtanh(x, lo, hi, True),
         "hardtanh_(Tensor self, Scalar min_val=-1, Scalar max_val=1)"),
        ("celu_", lambda x, alpha: celu(x, alpha, True), "celu_(Tensor self, Scalar alpha=1.0)"),
        ("selu_", lambda x: selu(x, True), "selu_(Tensor self)"),
        ("threshold_", lambda x, threshold_, value: threshold(x, threshold_, value, True),
         "threshold_(Tensor self, Scalar threshold, Scalar value)")):
    declare(_name, _fn, _signature, variants="functional")
del _name, _fn, _signature


export(__name__, globals())
