"""torch.nn.functional losses with reduction=: functions and rows."""

from __future__ import annotations

import numpy as np

from gradcli.engine import autocast, dtypes, errors, kernels_order, libm_float
from gradcli.engine.cascade_sum import full_sum
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import NOT_FLOATING, OPS, apply, defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor


EPSILON = 1e-12


def reduce_loss(loss, reduction):
    """A loss's reduction in torch's order of additions (its sum, or the sum over the count)."""
    if reduction == "none":
        return loss
    total = full_sum(loss)
    if total is None:
        total = np.sum(loss, dtype=loss.dtype)
    if reduction == "mean":
        return np.asarray(total / loss.dtype.type(loss.size), dtype=loss.dtype)
    return total


def mean_norm(numerator: float, a, reduction) -> float:
    """A backward's scale: numerator / a's count for a mean (in double, as ATen divides: inf
    for an empty input, whose gradient has no element to take it), else numerator."""
    if reduction != "mean":
        return numerator
    return numerator / a.size if a.size else np.inf


def _mean_scale(a, reduction):
    return mean_norm(2.0, a, reduction)


# ---- mse_loss -----------------------------------------------------------------------------------

def _mse(a, b, reduction):
    diff = a - b
    return reduce_loss(diff * diff, reduction)


def _mse_backward(g, a, b, reduction, dtype):
    return a.dtype.type(_mean_scale(a, reduction)) * (a - b) * g


def _like_self(dtype, params):
    """Backward ops that allocate their result like `self` (zeros_like(input) in ATen)."""
    return params["dtype"]


def mse_loss_backward(g, a, b, reduction):
    return F.apply_op("mse_loss_backward", g, a, b, reduction=reduction, dtype=a.dtype)


def _mse_double_backward(grad, a, reduction):
    result = F.mul_scalar(grad, 2)
    return F.div_scalar(result, a.numel()) if reduction == "mean" else result


defop("mse_loss", "MseLossBackward0", _mse, save=(0, 1), refuses=("mse_cpu", NOT_FLOATING),
      vjp=(lambda g, a, b, reduction: mse_loss_backward(g, a, b, reduction),
           lambda g, a, b, reduction: mse_loss_backward(g, b, a, reduction)))
defop("mse_loss_backward", "MseLossBackwardBackward0", _mse_backward, save=(0, 1, 2),
      save_for=((1, 2), (0, 1), (0, 2)), out_dtype=_like_self,
      vjp=(lambda gg, g, a, b, reduction, dtype: mse_loss_backward(gg, a, b, reduction),
           lambda gg, g, a, b, reduction, dtype: _mse_double_backward(F.mul(gg, g), a,
                                                                      reduction),
           lambda gg, g, a, b, reduction, dtype: F.neg(_mse_double_backward(
               F.mul(gg, g), b, reduction))))


# ---- smooth_l1_loss -----------------------------------------------------------------------------

def _smooth_l1(a, b, reduction, beta):
    z = np.abs(a - b)
    return reduce_loss(np.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta).astype(a.dtype),
                   reduction)


def _smooth_l1_backward(g, a, b, reduction, beta, dtype):
    norm = a.dtype.type(mean_norm(1.0, a, reduction))
    x = a - b
    return np.where(x <= -beta, -norm * g, np.where(x >= beta, norm * g, norm * x * g / beta))


def smooth_l1_backward(g, a, b, reduction, beta):
    return F.apply_op("smooth_l1_loss_backward", g, a, b, reduction=reduction, beta=beta,
                      dtype=a.dtype)


def _smooth_l1_double_backward(grad, a, b, reduction, beta):
    inside = F.to_dtype(F.compare("lt", F.abs(F.sub(a, b)), beta), grad.dtype)
    result = F.div_scalar(F.mul(grad, inside), beta)
    return F.div_scalar(result, a.numel()) if reduction == "mean" else result


defop("smooth_l1_loss", "SmoothL1LossBackward0", _smooth_l1, save=(0, 1),
      refuses=("smooth_l1_cpu", NOT_FLOATING),
      vjp=(lambda g, a, b, reduction, beta: smooth_l1_backward(g, a, b, reduction, beta),
           lambda g, a, b, reduction, beta: smooth_l1_backward(g, b, a, reduction, beta)))
defop("smooth_l1_loss_backward", "SmoothL1LossBackwardBackward0", _smooth_l1_backward,
      save=(0, 1, 2), save_for=((1, 2), (0, 1, 2), (0, 1, 2)), out_dtype=_like_self,
      vjp=(lambda gg, g, a, b, reduction, beta, dtype: smooth_l1_backward(gg, a, b, reduction,
                                                                          beta),
           lambda gg, g, a, b, reduction, beta, dtype: _smooth_l1_double_backward(
               F.mul(gg, g), a, b, reduction, beta),
           lambda gg, g, a, b, reduction, beta, dtype: F.neg(_smooth_l1_double_backward(
               F.mul(gg, g), a, b, reduction, beta))))


# ---- binary cross entropy -----------------------------------------------------------------------

def _bce(a, t, weight, reduction):
    one = a.dtype.type(1)
    floor = a.dtype.type(-100)
    # torch's scalar kernel: std::log1p and std::log, the C library's
    loss = ((t - one) * np.maximum(libm_float.scalar("log1p", -a), floor)
            - t * np.maximum(libm_float.scalar("log", a), floor))
    if weight is not None:
        loss = loss * weight
    return reduce_loss(loss, reduction)


def _bce_backward(g, a, t, weight, reduction):
    one = a.dtype.type(1)
    result = g * (a - t) / np.maximum((one - a) * a, a.dtype.type(EPSILON))
    if weight is not None:
        result = result * weight
    return result / a.dtype.type(a.size) if reduction == "mean" else result


def bce_backward(g, a, t, weight, reduction):
    return F.apply_op("binary_cross_entropy_backward", g, a, t, weight, reduction=reduction)


def _scaled(result, a, weight, reduction):
    if weight is not None:
        result = F.mul(result, weight)
    return F.div_scalar(result, a.numel()) if reduction == "mean" else result


def _bce_target_grad(g, a, t, weight, reduction):
    return _scaled(F.mul(F.neg(F.apply_op("logit", a)), g), a, weight, reduction)


def _bce_double_backward(gg, g, a, t, weight, reduction):
    plus_eps = F.add_scalar(a, EPSILON)
    one_minus = F.add_scalar(F.scalar_sub(1, a), EPSILON)
    numerator = F.add(F.sub(F.mul(a, a), F.mul(F.mul_scalar(a, 2), t)), t)
    result = F.div(numerator, F.mul(F.pow(plus_eps, 2), F.pow(one_minus, 2)))
    result = F.mul(result, F.mul(gg, g))
    return _scaled(result, a, weight, reduction)


def _bce_double_backward_grad_output(gg, a, t, weight, reduction):
    denominator = F.mul(F.add_scalar(a, EPSILON), F.add_scalar(F.scalar_sub(1, a), EPSILON))
    return _scaled(F.mul(F.div(F.sub(a, t), denominator), gg), a, weight, reduction)


def _bce_double_backward_target(gg, g, a, t, weight, reduction):
    result = F.mul(F.neg(gg), g)
    if weight is not None:
        result = F.mul(result, weight)
    denominator = F.mul(F.scalar_sub(1, a), a)
    denominator.data = np.maximum(denominator.data, EPSILON).astype(denominator.dtype.np)
    result = F.div(result, denominator)
    return F.div_scalar(result, t.numel()) if reduction == "mean" else result


defop("binary_cross_entropy", "BinaryCrossEntropyBackward0", _bce, save=(0, 1, 2),
      vjp=(lambda g, a, t, w, reduction: bce_backward(g, a, t, w, reduction),
           lambda g, a, t, w, reduction: _bce_target_grad(g, a, t, w, reduction)))
defop("binary_cross_entropy_backward", "BinaryCrossEntropyBackwardBackward0", _bce_backward,
      save=(0, 1, 2, 3),
      vjp=(lambda gg, g, a, t, w, reduction: _bce_double_backward_grad_output(
               gg, a, t, w, reduction),
           lambda gg, g, a, t, w, reduction: _bce_double_backward(gg, g, a, t, w, reduction),
           lambda gg, g, a, t, w, reduction: _bce_double_backward_target(
               gg, g, a, t, w, reduction)))


def _bce_logits(a, t, weight, pos_weight, reduction, dtype):
    """torch's formula, whose in-place steps keep the target's dtype: (1 - t) * x - log_sigmoid."""
    log_sigmoid = F.log_sigmoid_values(a)
    if pos_weight is not None:
        log_sigmoid = log_sigmoid * ((pos_weight - 1) * t + 1)
    loss = ((1 - t) * a).astype(dtype.np)
    loss = (loss - log_sigmoid).astype(dtype.np)
    if weight is not None:
        loss = (loss * weight).astype(dtype.np)
    return reduce_loss(loss, reduction)


def _bce_logits_grad(g, a, t, weight, pos_weight, reduction):
    if pos_weight is not None:
        weighted = F.mul(pos_weight, t)
        result = F.sub(F.mul(F.sub(F.add_scalar(weighted, 1), t), F.sigmoid(a)), weighted)
    else:
        result = F.sub(F.sigmoid(a), t)
    return _scaled(F.mul(result, g), a, weight, reduction)


def _bce_logits_target_grad(g, a, t, weight, pos_weight, reduction):
    if pos_weight is not None:
        log_sigmoid_neg = F.neg(F.softplus(a))
        log_sigmoid = F.neg(F.softplus(F.neg(a)))
        result = F.mul(F.sub(log_sigmoid_neg, F.mul(log_sigmoid, pos_weight)), g)
    else:
        result = F.mul(F.neg(a), g)
    return _scaled(result, a, weight, reduction)


defop("binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0", _bce_logits,
      promote="none", out_dtype=lambda dtype, params: params["dtype"], save=(0, 1, 2, 3),
      vjp=(lambda g, a, t, w, pw, reduction, dtype: _bce_logits_grad(g, a, t, w, pw, reduction),
           lambda g, a, t, w, pw, reduction, dtype: _bce_logits_target_grad(
               g, a, t, w, pw, reduction)))


# ---- nll_loss -----------------------------------------------------------------------------------

def _picked(a, target, weight, ignore_index):
    """Per-sample input at the target class and its weight (0 where ignored)."""
    rows = a.reshape(-1, a.shape[-1])
    flat = np.asarray(target).reshape(-1).astype(np.int64)
    valid = flat != ignore_index
    safe = np.where(valid, flat, 0)
    w = (np.ones(len(flat), a.dtype) if weight is None
         else np.reshape(weight, -1)[safe].astype(a.dtype))
    w = np.where(valid, w, 0).astype(a.dtype)
    return rows[np.arange(len(flat)), safe], w, safe


def _in_cascade(a) -> bool:
    return a.ndim <= 2 and a.dtype in (np.float32, np.float64)


def _total_weight(a, target, weight, w, ignore_index):
    """nll_loss's total_weight: the kept samples' count, or their weights' cascade sum."""
    if not _in_cascade(a):
        return np.asarray(np.sum(w, dtype=a.dtype))
    valid = np.asarray(target).reshape(-1) != ignore_index
    if weight is None:
        return np.asarray(valid.sum(), a.dtype)
    return kernels_order.nll_cascade_sum(w, valid, STATE.reduced_kernel)


def _nll_forward(a, target, weight, reduction, ignore_index):
    values, w, _ = _picked(a, target, weight, ignore_index)
    losses_ = -values * w
    if STATE.reduced_kernel:  # (the product of two values of the reduced dtype, as one)
        losses_ = dtypes.rounded_to(STATE.reduced_kernel, losses_)
    total = _total_weight(a, target, weight, w, ignore_index)
    if reduction == "none":
        return losses_.reshape(np.shape(target)), total
    if _in_cascade(a):
        valid = np.asarray(target).reshape(-1) != ignore_index
        summed = kernels_order.nll_cascade_sum(losses_, valid, STATE.reduced_kernel)
    else:
        summed = np.sum(losses_, dtype=a.dtype)
    return (summed / total if reduction == "mean" else summed), total


def _nll_backward(g, a, target, weight, reduction, ignore_index):
    _, w, safe = _picked(a, target, weight, ignore_index)
    out = np.zeros(a.reshape(-1, a.shape[-1]).shape, dtype=a.dtype)
    if reduction == "none":
        scale = -np.asarray(g).reshape(-1)
    else:
        total = _total_weight(a, target, weight, w, ignore_index)
        scale = -(g / total if reduction == "mean" else g)
    kept = np.asarray(target).reshape(-1) != ignore_index  # ignored rows stay +0, as in torch
    out[np.flatnonzero(kept), safe[kept]] = (w * scale)[kept] if np.ndim(scale) else w[kept] * scale
    return out.reshape(a.shape)


def _rows(a):
    """A (N, C, H, W) input as nll_loss2d's kernel walks it: one row of C per (n, h, w)."""
    return np.moveaxis(a, 1, -1).reshape(-1, a.shape[1])


def _nll2d_forward(a, target, weight, reduction, ignore_index):
    output, total = _nll_forward(_rows(a), np.reshape(target, -1), weight, reduction,
                                 ignore_index)
    return (output.reshape(np.shape(target)) if reduction == "none" else output), total


def _nll2d_backward(g, a, target, weight, reduction, ignore_index):
    g = np.reshape(g, -1) if reduction == "none" else g
    rows = _nll_backward(g, _rows(a), np.reshape(target, -1), weight, reduction, ignore_index)
    n, c, h, w = a.shape
    return np.ascontiguousarray(np.moveaxis(rows.reshape(n, h, w, c), -1, 1))


def _define_nll(name: str, label: str, forward, backward) -> None:
    """An nll kernel's op row and its backward's: `name`_forward and `name`_backward."""
    def grad(g, a, target, weight, **params):
        grad = g[0] if isinstance(g, (list, tuple)) else g
        return F.apply_op(f"{name}_backward", grad, a, target, weight, **params)

    defop(f"{name}_forward", label, forward, promote="none", save=(0, 1, 2), n_outputs=2,
          vjp=(grad,))
    defop(f"{name}_backward", label.replace("Backward0", "BackwardBackward0"), backward,
          promote="none", save=(2, 3),
          vjp=(lambda gg, g, a, target, weight, **params: F.apply_op(
              f"{name}_forward", gg, target, weight, **params)[0],
               lambda gg, *_, **__: F.filled_like(gg, 0)))


_define_nll("nll_loss", "NllLossBackward0", _nll_forward, _nll_backward)
_define_nll("nll_loss2d", "NllLoss2DBackward0", _nll2d_forward, _nll2d_backward)


REDUCTIONS = ("none", "mean", "sum")


def reduction_of(reduction: str, size_average=None, reduce=None) -> str:
    """The reduction name, from `reduction` or the legacy size_average/reduce flags."""
    return checked_reduction(legacy_reduction(reduction, size_average, reduce))


def legacy_reduction(reduction, size_average=None, reduce=None):
    """`reduction`, or the name the legacy size_average/reduce flags give (with torch's
    warning); not yet checked."""
    if size_average is not None or reduce is not None:
        STATE.warn("UserWarning", "size_average and reduce args will be deprecated, please use "
                   f"reduction='{_legacy(size_average, reduce)}' instead.")
        return _legacy(size_average, reduce)
    return reduction


def checked_reduction(reduction) -> str:
    """torch's _Reduction.get_enum: one of REDUCTIONS, or its ValueError."""
    if reduction not in REDUCTIONS:
        raise errors.value_error(f"{reduction} is not a valid value for "
                                 "reduction")
    return reduction


def _legacy(size_average, reduce) -> str:
    """torch's legacy_get_string, its truth tests in its order."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if F.truth(size_average) and F.truth(reduce):
        return "mean"
    return "sum" if F.truth(reduce) else "none"


def apply_loss_reduction(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return F.mean(loss)
    if reduction == "sum":
        return F.sum(loss)
    return loss


def _size_text(shape: tuple) -> str:
    return f"torch.Size([{', '.join(str(s) for s in shape)}])"


def expanded_pair(a: Tensor, target: Tensor, reduction, size_average=None, reduce=None):
    """The regression losses' preamble in torch's order: the size warning, the legacy flags,
    then input and target broadcast together."""
    if a.shape != target.shape:
        STATE.warn("UserWarning",
                   f"Using a target size ({_size_text(target.shape)}) that is different to the "
                   f"input size ({_size_text(a.shape)}). This will likely lead to incorrect "
                   "results due to broadcasting. Please ensure they have the same size.")
    reduction = legacy_reduction(reduction, size_average, reduce)
    if a.shape != target.shape:
        shape = F.broadcast_shape(a.shape, target.shape)
        a, target = F.expand(a, shape), F.expand(target, shape)
    return a, target, reduction


def weighted_loss(loss: Tensor, weight: Tensor, input_shape: tuple, reduction,
              mean_by_weight: bool = True) -> Tensor:
    """torch's weighted regression loss: elementwise loss times weight, then reduced (a mean
    divides by the weights' sum, except huber_loss's, which takes the plain mean)."""
    if weight.shape != input_shape:
        raise errors.value_error("Weights and input must have the same size.")
    weighted = F.mul(loss, weight)
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return F.sum(weighted)
    if reduction == "mean":
        return F.div(F.sum(weighted), F.sum(weight)) if mean_by_weight else F.mean(weighted)
    raise errors.value_error(f"Invalid reduction mode: {reduction}. Expected one of 'none', "
                             "'mean', 'sum'.")


def mse_loss(a: Tensor, target: Tensor, size_average=None, reduce=None,
             reduction: str = "mean", weight=None) -> Tensor:
    shape = a.shape
    a, target, reduction = expanded_pair(a, target, reduction, size_average, reduce)
    if weight is not None:
        return weighted_loss(F.pow(F.sub(a, target), 2), weight, shape, reduction)
    return apply(OPS["mse_loss"], a, target, reduction=checked_reduction(reduction))


def l1_loss(a: Tensor, target: Tensor, size_average=None, reduce=None,
            reduction: str = "mean", weight=None) -> Tensor:
    a, target, weight = autocast.cast_to_float32(a, target, weight)
    shape = a.shape
    a, target, reduction = expanded_pair(a, target, reduction, size_average, reduce)
    if weight is not None:
        return weighted_loss(F.abs(F.sub(a, target)), weight, shape, reduction)
    return apply_loss_reduction(F.abs(F.sub(a, target)), checked_reduction(reduction))


def smooth_l1_loss(a: Tensor, target: Tensor, size_average=None, reduce=None,
                   reduction: str = "mean", beta: float = 1.0) -> Tensor:
    a, target, reduction = expanded_pair(a, target, reduction, size_average, reduce)
    reduction = checked_reduction(reduction)
    if beta < 0:
        raise errors.runtime("smooth_l1_loss does not support negative values for beta.")
    if beta == 0:
        return apply_loss_reduction(F.abs(F.sub(a, target)), reduction)
    return apply(OPS["smooth_l1_loss"], a, target, reduction=reduction, beta=float(beta))


def binary_cross_entropy(a: Tensor, target: Tensor, weight=None, size_average=None, reduce=None,
                         reduction: str = "mean") -> Tensor:
    reduction = reduction_of(reduction, size_average, reduce)
    if target.shape != a.shape:
        raise errors.value_error(
            f"Using a target size ({_size_text(target.shape)}) that is different to the input "
            f"size ({_size_text(a.shape)}) is deprecated. Please ensure they have the same size.")
    if weight is not None:
        if not isinstance(weight, Tensor):
            raise errors.no_attribute(weight, "size")
        weight = F.expand(weight, _refs_broadcast(target.shape, weight.shape))
        if weight.shape != a.shape:
            raise errors.runtime(f"output with shape {F.size_list(a.shape)} doesn't match the "
                                 f"broadcast shape {F.size_list(weight.shape)}")
    for name, t in (("input", a), ("target", target)):
        values = t.data
        if np.any((values < 0) | (values > 1)) or np.any(np.isnan(values)):
            raise errors.runtime(f"all elements of {name} should be between 0 and 1")
    if target.dtype is not a.dtype:
        raise errors.runtime(
            f"Found dtype {target.dtype.scalar_name} but expected {a.dtype.scalar_name}")
    check_constant("binary_cross_entropy", "weight", weight)
    if weight is not None:
        weight = F.to_dtype(weight, a.dtype)
    return apply(OPS["binary_cross_entropy"], a, target, weight, reduction=reduction)


def _refs_broadcast(*shapes: tuple) -> tuple:
    """torch._refs' broadcast of sizes (behind F's `_infer_size`), with its message."""
    common = [1] * max(len(shape) for shape in shapes)
    for index, shape in enumerate(shapes):
        for dim in range(-1, -1 - len(shape), -1):
            if common[dim] == 1:
                common[dim] = shape[dim]
            elif shape[dim] != 1 and common[dim] != shape[dim]:
                raise errors.runtime(
                    f"Attempting to broadcast a dimension of length {shape[dim]} at {dim}! "
                    f"Mismatching argument at index {index} had {_size_text(shape)}; but "
                    f"expected shape should be broadcastable to {common}")
    return tuple(common)


def binary_cross_entropy_with_logits(a: Tensor, target: Tensor, weight=None, size_average=None,
                                     reduce=None, reduction: str = "mean",
                                     pos_weight=None) -> Tensor:
    reduction = reduction_of(reduction, size_average, reduce)
    a, target, weight, pos_weight = autocast.cast_to_float32(a, target, weight, pos_weight)
    if target.shape != a.shape:
        raise errors.value_error(f"Target size ({_size_text(target.shape)}) must be the same as "
                                 f"input size ({_size_text(a.shape)})")
    for position, name, value in ((3, "weight", weight), (4, "pos_weight", pos_weight)):
        if value is not None and not isinstance(value, Tensor):  # the C++ op's parser, after
            raise errors.type_error(  # F's size check
                f"binary_cross_entropy_with_logits(): argument '{name}' (position {position}) "
                f"must be Tensor, not {errors.type_name(value)}")
    check_constant("binary_cross_entropy_with_logits", "weight", weight)
    check_constant("binary_cross_entropy_with_logits", "pos_weight", pos_weight)
    # torch's formula: log_sigmoid(input), then (1 - target).mul_(input), in the target's dtype
    if not a.dtype.is_floating_point:
        raise errors.not_implemented_for("log_sigmoid_cpu", a.dtype)
    if pos_weight is not None:  # log_sigmoid(input).mul_((pos_weight - 1).mul(target).add_(1))
        _check_written(a.shape, F.broadcast_shape(pos_weight.shape, target.shape))
    F.check_bool_subtraction(target, target)
    errors.check_cast(dtypes.result_type([target, a], STATE.default_dtype), target.dtype)
    if weight is not None:  # loss.mul_(weight)
        _check_written(a.shape, F.broadcast_shape(a.shape, weight.shape))
    return apply(OPS["binary_cross_entropy_with_logits"], a, target, weight, pos_weight,
                 reduction=reduction, dtype=target.dtype)


def _check_written(shape: tuple, operand: tuple) -> None:
    """An in-place op of torch's formula, writing into a tensor of `shape`: the operand's shape
    must broadcast to it."""
    wanted = F.broadcast_shape(shape, operand)
    if wanted != tuple(shape):
        raise errors.runtime(f"output with shape {F.size_list(shape)} doesn't match the "
                             f"broadcast shape {F.size_list(wanted)}")


def check_constant(function: str, argument: str, value) -> None:
    """torch's autograd refusal of an argument its function has no derivative for, while grad
    mode is on."""
    if value is not None and value.requires_grad and STATE.grad_enabled:
        raise errors.runtime(
            f"The function '{function}' is not differentiable with respect to argument "
            f"'{argument}'. This input cannot have requires_grad True.")


def _check_target_dtype(target: Tensor) -> None:
    if target.dtype not in (dtypes.int64, dtypes.uint8):
        name = target.dtype.scalar_name
        raise errors.runtime(f"expected target dtype to be Long or Byte, but got {name}")


def _check_target_values(target: Tensor, classes: int, ignore_index: int) -> None:
    for value in np.reshape(target.data, -1):
        if value != ignore_index and not 0 <= value < classes:
            raise errors.index_error(f"Target {value} is out of bounds.")


def _check_weight_dtype(a: Tensor, weight) -> None:
    if weight is not None and weight.dtype is not a.dtype:
        raise errors.scalar_type_mismatch(a.dtype, weight.dtype)


def _nll_loss(a: Tensor, target: Tensor, weight, reduction: str, ignore_index: int) -> Tensor:
    """nll_loss's meta checks in their order, then its kernel (1-D and 2-D inputs)."""
    if target.ndim > 1:
        raise errors.runtime("0D or 1D target tensor expected, multi-target not supported")
    _check_target_dtype(target)
    if a.ndim == 1 and target.ndim == 1 and target.shape[0] != 1:
        raise errors.value_error(
            f"For 1D input, 1D target must have size 1, but got target size: {target.shape[0]}")
    classes = a.shape[-1]
    if weight is not None and (weight.ndim != 1 or weight.numel() != classes):
        raise errors.runtime(
            f"weight tensor should be defined either for all {classes} classes or no classes "
            f"but got weight tensor of shape: {list(weight.shape)}")
    if not a.dtype.is_floating_point:
        raise errors.not_implemented_for("nll_loss_out_frame", a.dtype)
    _check_weight_dtype(a, weight)
    _check_target_values(target, classes, ignore_index)
    output, _ = apply(OPS["nll_loss_forward"], a, target, weight, reduction=reduction,
                      ignore_index=ignore_index)
    return output


def _check_spatial_weight(weight, classes: int) -> None:
    if weight is not None and weight.numel() != classes:
        raise errors.runtime("weight tensor should be defined either for all or no classes")


def _nll_loss_spatial(a: Tensor, target: Tensor, weight, reduction: str,
                      ignore_index: int) -> Tensor:
    """nll_loss over (N, C, d1, ...): torch views the input as (N, C, H, W) and runs
    nll_loss2d, viewing an unreduced result back to (N, d1, ...)."""
    n, classes = a.shape[:2]
    out_size = (n, *a.shape[2:])
    if a.ndim == 4:  # nll_loss2d's own checks
        if target.ndim != 3:
            raise errors.runtime("only batches of spatial targets supported (3D tensors) but got "
                                 f"targets of dimension: {target.ndim}")
        _check_target_dtype(target)
        _check_spatial_weight(weight, classes)
        if target.shape != out_size:
            raise errors.runtime(f"size mismatch (got input: {list(a.shape)} , target: "
                                 f"{list(target.shape)}")
    elif target.shape[1:] != a.shape[2:]:
        raise errors.runtime(
            f"Expected target size {list(out_size)}, got {list(target.shape)}")
    _check_target_dtype(target)
    _check_spatial_weight(weight, classes)
    if not a.dtype.is_floating_point:
        raise errors.not_implemented_for("nll_loss2d_forward_out_frame", a.dtype)
    _check_weight_dtype(a, weight)
    if target.dtype is not dtypes.int64 and (reduction == "none" or target.numel()):
        raise errors.scalar_type_mismatch(dtypes.int64, target.dtype)
    _check_target_values(target, classes, ignore_index)
    if a.ndim != 4:
        a = F.view(F.contiguous(a), (n, classes, 1, -1) if a.numel() else (n, classes, 0, 0))
        target = F.view(F.contiguous(target), (n, 1, -1) if target.numel() else (n, 0, 0))
    output, _ = apply(OPS["nll_loss2d_forward"], a, target, weight, reduction=reduction,
                      ignore_index=ignore_index)
    return F.view(output, out_size) if reduction == "none" and output.shape != out_size else output


def nll_loss(a: Tensor, target: Tensor, weight=None, size_average=None, ignore_index: int = -100,
             reduce=None, reduction: str = "mean") -> Tensor:
    """F.nll_loss: torch's nll_loss_nd, which picks the kernel by the input's dimensions."""
    reduction = reduction_of(reduction, size_average, reduce)
    if a.ndim < 1:
        raise errors.value_error(f"Expected 1 or more dimensions (got {a.ndim})")
    if a.ndim != 1 and a.shape[0] != (target.shape[0] if target.ndim else 0):
        batch = target.shape[0] if target.ndim else 0  # torch reads a 0-d target's size as 0
        raise errors.value_error(
            f"Expected input batch_size ({a.shape[0]}) to match target batch_size ({batch}).")
    if a.ndim <= 2:
        return _nll_loss(a, target, weight, reduction, ignore_index)
    return _nll_loss_spatial(a, target, weight, reduction, ignore_index)


def cross_entropy(a: Tensor, target: Tensor, weight=None, size_average=None,
                  ignore_index: int = -100, reduce=None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    a, target, weight = autocast.cast_to_float32(a, target, weight)
    reduction = reduction_of(reduction, size_average, reduce)
    class_dim = 0 if a.ndim == 1 else 1
    if a.shape == target.shape:  # class probabilities, as torch assumes for equal shapes
        if not target.dtype.is_floating_point:
            raise errors.runtime("Expected floating point type for target with class "
                                 f"probabilities, got {target.dtype.scalar_name}")
        if ignore_index >= 0:
            raise errors.runtime("ignore_index is not supported for floating point target")
        return _cross_entropy_probabilities(a, target, weight, reduction, label_smoothing)
    if label_smoothing > 1.0:
        raise errors.runtime(
            f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    log_probs = F.log_softmax(a, class_dim)
    loss = nll_loss(log_probs, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing <= 0.0:
        return loss
    smooth = _smoothing_loss(log_probs, target, weight, reduction, ignore_index, class_dim)
    return F.add(F.mul_scalar(loss, 1 - label_smoothing),
                 F.mul_scalar(smooth, label_smoothing / a.shape[class_dim]))


def _smoothing_loss(log_probs, target, weight, reduction, ignore_index, class_dim):
    """cross_entropy's label-smoothing term, as torch's cross_entropy_loss_label_smoothing:
    weighted by class, and a mean over the kept targets' weights."""
    if weight is not None:
        shape = tuple(weight.shape[0] if d == class_dim else 1 for d in range(log_probs.ndim))
        log_probs = F.mul(log_probs, F.view(weight, shape))
    ignored = F.compare("eq", target, ignore_index)
    smooth = F.masked_fill(F.neg(F.sum(log_probs, class_dim)), ignored, 0.0)
    if reduction == "none":
        return smooth
    if reduction == "sum":
        return F.sum(smooth)
    if weight is None:
        return F.div(F.sum(smooth), F.sum(F.logical_not(ignored)))
    kept = F.flatten(F.masked_select(target, F.logical_not(ignored)))
    return F.div(F.sum(smooth), F.sum(F.gather(weight, 0, kept)))


def _cross_entropy_probabilities(a, target, weight, reduction, label_smoothing):
    class_dim = 0 if a.ndim == 1 else 1
    classes = a.shape[class_dim]
    log_probs = F.log_softmax(a, class_dim)
    if label_smoothing > 0.0:
        target = F.add_scalar(F.mul_scalar(target, 1 - label_smoothing),
                              label_smoothing / classes)
    product = F.mul(log_probs, target)
    if weight is not None:
        shape = tuple(classes if d == class_dim else 1 for d in range(a.ndim))
        product = F.mul(product, F.view(weight, shape) if a.ndim > 1 else weight)
    if reduction == "mean" and a.numel() == 0:  # ATen: -(...).sum().fill_(nan)
        return F.neg(F.fill_(F.sum(product), float("nan")))
    if reduction == "mean":
        return F.div_scalar(F.neg(F.sum(product)), a.numel() // classes)
    if reduction == "sum":
        return F.neg(F.sum(product))
    return F.neg(F.sum(product, class_dim))


export(__name__, globals())
