"""F.alpha_dropout and F.feature_alpha_dropout (ATen's _dropout_impl: a bernoulli mask turned
into an affine map that keeps SELU's mean and variance), channel_shuffle
(ChannelShuffleBackward0) and its native kernel (no derivative), and torch's Python composites
F.multilabel_soft_margin_loss and F.lp_pool1d/2d/3d."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import declarations, errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.nn_functional import _bernoulli_noise, dropout_arguments
from gradcli.engine.forward_ad import LINEAR
from gradcli.engine.ops.registry import OPS, apply, defop, not_implemented
from gradcli.engine.tensor import Tensor

_ALPHA = 1.7580993408473766


def _alpha_dropout(x: Tensor, p, training, inplace: bool, feature: bool) -> Tensor:
    name = ("feature_alpha_dropout" if feature else "alpha_dropout") + ("_" if inplace else "")
    p, training = dropout_arguments(name, x, p, training)
    if p == 0 or not training or x.numel() == 0:
        return x
    if p == 1:
        zero = Tensor(np.zeros((), x.dtype.np), x.dtype)
        return F.apply_inplace(x, lambda t: F.mul(t, zero)) if inplace else F.mul(x, zero)
    if feature and x.ndim < 2:
        raise errors.runtime("Feature dropout requires at least 2 dimensions in the input")
    shape = tuple(x.shape[:2]) + (1,) * (x.ndim - 2) if feature else None
    kind = x.dtype.np.type
    noise = _bernoulli_noise(x, shape, 1 - p).astype(x.dtype.np)
    a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    shift = Tensor((noise - kind(1)) * kind(_ALPHA * a) + kind(_ALPHA * a * p), x.dtype)
    scale = Tensor(noise * kind(a), x.dtype)
    if inplace:
        return F.apply_inplace(x, lambda t: F.add(F.mul(t, scale), shift))
    return F.add(F.mul(x, scale), shift)


def alpha_dropout(x: Tensor, p=0.5, training: bool = False, inplace: bool = False) -> Tensor:
    return _alpha_dropout(x, p, training, inplace, False)


def feature_alpha_dropout(x: Tensor, p=0.5, training: bool = False,
                          inplace: bool = False) -> Tensor:
    return _alpha_dropout(x, p, training, inplace, True)


def _channel_shuffle(x: np.ndarray, groups: int) -> np.ndarray:
    b, c = x.shape[:2]
    grouped = x.reshape(b, groups, c // groups, -1).transpose(0, 2, 1, 3)
    return np.ascontiguousarray(grouped).reshape(x.shape)


defop("channel_shuffle", "ChannelShuffleBackward0", _channel_shuffle, promote="none",
      vjp=lambda g, x, groups: apply(OPS["channel_shuffle"], g, groups=g.shape[1] // groups),
      jvp=LINEAR)
defop("native_channel_shuffle", "NotImplemented", _channel_shuffle,
      name="torch::autograd::NotImplemented", promote="none",
      vjp=not_implemented("aten::native_channel_shuffle"))


def channel_shuffle(x: Tensor, groups: int, op: str = "channel_shuffle") -> Tensor:
    """F.channel_shuffle, or its native kernel (`op`), which has no derivative."""
    if x.ndim <= 2:
        raise errors.runtime("channel_shuffle expects input with > 2 dims, but got input with "
                             f"sizes [{', '.join(map(str, x.shape))}]")
    if groups <= 0:
        raise errors.runtime("Number of groups to divide channels in must be positive. Value of "
                             f"groups:{groups}")
    if x.shape[1] % groups:
        raise errors.runtime(f"Number of channels must be divisible by groups. Got {x.shape[1]} "
                             f"channels and {groups} groups.")
    return apply(OPS[op], x, groups=groups)


def multilabel_soft_margin_loss(x: Tensor, target: Tensor, weight=None, size_average=None,
                                reduce=None, reduction: str = "mean") -> Tensor:
    """-(target * logsigmoid(x) + (1 - target) * logsigmoid(-x)), weighted, averaged over the
    classes (the last dim), then reduced; an unknown reduction fails after the computation."""
    reduction = F.legacy_reduction(reduction, size_average, reduce)
    log_p = declarations.call("functional", "logsigmoid", x)
    _check_factor(target, "left")  # torch's Python: target * logsigmoid(x)
    loss = F.neg(F.add(_times(target, log_p),
                       _times(declarations.call("torch", "rsub", target, 1)
                              if isinstance(target, Tensor) else 1 - target,
                              F.logsigmoid(F.neg(x)))))
    if weight is not None:
        _check_factor(weight, "right")  # loss * weight
        loss = F.mul(loss, weight)
    class_dim = x.ndim - 1
    loss = declarations.call("torch", "div", F.sum(loss, class_dim), x.shape[class_dim])
    if reduction == "none":
        return loss
    if reduction == "mean":
        return F.mean(loss)
    if reduction == "sum":
        return F.sum(loss)
    raise errors.value_error(f"{reduction} is not valid")


def _check_factor(value, side: str) -> None:
    """Python's error for a float tensor times `value` (on the tensor's `side`) when that is no
    tensor or number: a sequence is repeated, asking the tensor for an index."""
    if isinstance(value, (str, list, tuple)):
        raise errors.type_error("only integer tensors of a single element can be converted to an "
                                "index")
    if not isinstance(value, (Tensor, bool, int, float)):
        names = (errors.type_name(value), "Tensor")
        raise errors.unsupported_operands("*", *(names if side == "left" else names[::-1]))


def _times(weight, t: Tensor) -> Tensor:
    """weight * t, for a tensor or a Python number weight."""
    return F.mul(weight, t) if isinstance(weight, Tensor) else F.mul_scalar(t, weight)


def _lp_pool(dims: int):
    """F.lp_pool1d/2d/3d: max pooling of |x| for an infinite norm, else the average pool of
    x ** p, times the window size, to the power 1 / p (the sign kept through a relu)."""
    pool = f"avg_pool{dims}d"

    def run(x: Tensor, norm_type, kernel_size, stride=None, ceil_mode: bool = False) -> Tensor:
        if dims > 1:  # `kw, kh = _pair(kernel_size)` (or _triple) comes first
            sizes = (tuple(kernel_size) if isinstance(kernel_size, (tuple, list, str))
                     else (kernel_size,) * dims)  # an iterable (a string too) as a tuple
            if len(sizes) != dims:
                few = len(sizes) < dims
                raise errors.value_error(f"{'not enough' if few else 'too many'} values to "
                                         f"unpack (expected {dims}"
                                         f"{', got ' + str(len(sizes)) if few else ''})")
        infinite = isinstance(norm_type, (int, float)) and abs(norm_type) == math.inf
        if not isinstance(x, Tensor):
            raise errors.no_attribute(x, "abs" if infinite else "pow")
        if infinite:
            magnitude = F.abs(x) if norm_type > 0 else F.neg(F.abs(x))
            max_pool = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[dims - 1]
            extreme = max_pool(magnitude, kernel_size, stride, 0, 1, ceil_mode)
            return extreme if norm_type > 0 else F.neg(extreme)
        powered = declarations.call("method", "pow", x, norm_type)
        if stride is not None:
            out = declarations.call("functional", pool, powered, kernel_size, stride, 0,
                                    ceil_mode)
        else:
            out = declarations.call("functional", pool, powered, kernel_size, padding=0,
                                    ceil_mode=ceil_mode)
        window = kernel_size if dims == 1 else math.prod(sizes)
        signed = F.mul(declarations.call("torch", "sign", out), F.relu(F.abs(out)))
        return declarations.call("method", "pow", declarations.call("method", "mul", signed,
                                                                     window), 1.0 / norm_type)
    return run


lp_pool1d, lp_pool2d, lp_pool3d = _lp_pool(1), _lp_pool(2), _lp_pool(3)
for _dims, _fn in ((1, lp_pool1d), (2, lp_pool2d), (3, lp_pool3d)):
    declare(f"lp_pool{_dims}d", _fn, python="input: object, norm_type, kernel_size, "
            "stride=None, ceil_mode=False", variants="functional")
del _dims, _fn
declare("multilabel_soft_margin_loss", multilabel_soft_margin_loss, python="input: object, "
        "target: object, weight: object = None, size_average=None, reduce=None, "
        "reduction='mean'",
        variants="functional")
declare("channel_shuffle", lambda input, groups: channel_shuffle(input, groups),
        "channel_shuffle(Tensor input, int groups)", variants="torch functional")
declare("native_channel_shuffle", lambda input, groups: channel_shuffle(
    input, groups, "native_channel_shuffle"), "native_channel_shuffle(Tensor input, int groups)",
        variants="torch functional")
for _name, _fn in (("alpha_dropout", alpha_dropout),
                   ("feature_alpha_dropout", feature_alpha_dropout)):
    declare(_name, _fn, python="input, p=0.5, training=False, inplace=False; p: probability",
            variants="functional")
del _name, _fn


export(__name__, globals())
