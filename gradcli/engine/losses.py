"""torch.nn.functional losses (mse, l1, smooth_l1, BCE, cross_entropy, nll) with reduction=."""

from __future__ import annotations

import numpy as np

from gradcli.engine import activation as A, dtypes, errors, pointwise as P, reductions as R
from gradcli.engine import shapes as S
from gradcli.engine.ops.registry import OPS, apply
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

REDUCTIONS = ("none", "mean", "sum")


def reduction_of(reduction: str, size_average=None, reduce=None) -> str:
    """The reduction name, from `reduction` or the legacy size_average/reduce flags."""
    if size_average is not None or reduce is not None:
        STATE.warn("UserWarning", "size_average and reduce args will be deprecated, please use "
                   f"reduction='{_legacy(size_average, reduce)}' instead.")
        return _legacy(size_average, reduce)
    if reduction not in REDUCTIONS:
        raise errors.value_error(f"{reduction} is not a valid value for reduction")
    return reduction


def _legacy(size_average, reduce) -> str:
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"


def apply_loss_reduction(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return R.mean(loss)
    if reduction == "sum":
        return R.sum(loss)
    return loss


def _type_name(t: Tensor) -> str:
    return t.dtype.legacy_name.removesuffix("Tensor")


def _size_text(shape: tuple) -> str:
    return f"torch.Size([{', '.join(str(s) for s in shape)}])"


def _broadcast_pair(a: Tensor, target: Tensor):
    if a.shape != target.shape:
        STATE.warn("UserWarning",
                   f"Using a target size ({_size_text(target.shape)}) that is different to the "
                   f"input size ({_size_text(a.shape)}). This will likely lead to incorrect "
                   "results due to broadcasting. Please ensure they have the same size.")
        shape = P.broadcast_shape(a.shape, target.shape)
        return S.expand(a, shape), S.expand(target, shape)
    return a, target


def mse_loss(a: Tensor, target: Tensor, size_average=None, reduce=None,
             reduction: str = "mean") -> Tensor:
    reduction = reduction_of(reduction, size_average, reduce)
    a, target = _broadcast_pair(a, target)
    return apply(OPS["mse_loss"], a, target, reduction=reduction)


def l1_loss(a: Tensor, target: Tensor, size_average=None, reduce=None,
            reduction: str = "mean") -> Tensor:
    reduction = reduction_of(reduction, size_average, reduce)
    a, target = _broadcast_pair(a, target)
    return apply_loss_reduction(P.abs(P.sub(a, target)), reduction)


def smooth_l1_loss(a: Tensor, target: Tensor, size_average=None, reduce=None,
                   reduction: str = "mean", beta: float = 1.0) -> Tensor:
    reduction = reduction_of(reduction, size_average, reduce)
    if beta < 0:
        raise errors.runtime("smooth_l1_loss does not support negative values for beta.")
    a, target = _broadcast_pair(a, target)
    if beta == 0:
        return apply_loss_reduction(P.abs(P.sub(a, target)), reduction)
    return apply(OPS["smooth_l1_loss"], a, target, reduction=reduction, beta=float(beta))


def binary_cross_entropy(a: Tensor, target: Tensor, weight=None, size_average=None, reduce=None,
                         reduction: str = "mean") -> Tensor:
    reduction = reduction_of(reduction, size_average, reduce)
    if target.shape != a.shape:
        raise errors.value_error(
            f"Using a target size ({_size_text(target.shape)}) that is different to the input "
            f"size ({_size_text(a.shape)}) is deprecated. Please ensure they have the same size.")
    for name, t in (("input", a), ("target", target)):
        values = t.data
        if np.any((values < 0) | (values > 1)) or np.any(np.isnan(values)):
            raise errors.runtime(f"all elements of {name} should be between 0 and 1")
    if target.dtype is not a.dtype:
        raise errors.runtime(f"Found dtype {_type_name(target)} but expected {_type_name(a)}")
    _check_constant("binary_cross_entropy", "weight", weight)
    if weight is not None:
        weight = S.expand(weight, a.shape)
    return apply(OPS["binary_cross_entropy"], a, target, weight, reduction=reduction)


def binary_cross_entropy_with_logits(a: Tensor, target: Tensor, weight=None, size_average=None,
                                     reduce=None, reduction: str = "mean",
                                     pos_weight=None) -> Tensor:
    reduction = reduction_of(reduction, size_average, reduce)
    if target.shape != a.shape:
        raise errors.value_error(f"Target size ({_size_text(target.shape)}) must be the same as "
                                 f"input size ({_size_text(a.shape)})")
    _check_constant("binary_cross_entropy_with_logits", "weight", weight)
    _check_constant("binary_cross_entropy_with_logits", "pos_weight", pos_weight)
    return apply(OPS["binary_cross_entropy_with_logits"], a, target, weight, pos_weight,
                 reduction=reduction, dtype=target.dtype)


def _check_constant(function: str, argument: str, value) -> None:
    if value is not None and value.requires_grad:
        raise errors.runtime(
            f"The function '{function}' is not differentiable with respect to argument "
            f"'{argument}'. This input cannot have requires_grad True.")


def _check_targets(a: Tensor, target: Tensor, ignore_index: int) -> None:
    if target.dtype not in (dtypes.int64, dtypes.uint8):
        name = target.dtype.legacy_name.removesuffix("Tensor")
        raise errors.runtime(f"expected target dtype to be Long or Byte, but got {name}")
    if a.ndim not in (1, 2):
        raise errors.value_error(f"Expected 2 or more dimensions (got {a.ndim})")
    if a.ndim == 2 and target.shape != (a.shape[0],):
        batch = target.shape[0] if target.ndim else 1
        raise errors.value_error(
            f"Expected input batch_size ({a.shape[0]}) to match target batch_size ({batch}).")
    classes = a.shape[-1]
    for value in np.atleast_1d(target.data):
        if value != ignore_index and not 0 <= value < classes:
            raise errors.index_error(f"Target {value} is out of bounds.")


def nll_loss(a: Tensor, target: Tensor, weight=None, size_average=None, ignore_index: int = -100,
             reduce=None, reduction: str = "mean") -> Tensor:
    reduction = reduction_of(reduction, size_average, reduce)
    _check_targets(a, target, ignore_index)
    if weight is not None and weight.dtype is not a.dtype:
        raise errors.runtime(
            f"expected scalar type {_type_name(a)} but found {_type_name(weight)}")
    output, _ = apply(OPS["nll_loss_forward"], a, target, weight, reduction=reduction,
                      ignore_index=ignore_index)
    return output


def cross_entropy(a: Tensor, target: Tensor, weight=None, size_average=None,
                  ignore_index: int = -100, reduce=None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    reduction = reduction_of(reduction, size_average, reduce)
    class_dim = 0 if a.ndim == 1 else 1
    if a.shape == target.shape and target.dtype.is_floating_point:
        return _cross_entropy_probabilities(a, target, weight, reduction, label_smoothing)
    log_probs = A.log_softmax(a, class_dim)
    loss = nll_loss(log_probs, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing <= 0.0:
        return loss
    if label_smoothing > 1.0:
        raise errors.runtime(
            f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    from gradcli.engine import comparison as C
    ignored = C.compare("eq", target, ignore_index)
    smooth = P.neg(R.sum(log_probs, class_dim))
    smooth = P.masked_fill(smooth, ignored, 0.0)
    if reduction == "mean":
        smooth = P.div(R.sum(smooth), R.sum(C.logical_not(ignored)))
    elif reduction == "sum":
        smooth = R.sum(smooth)
    classes = a.shape[class_dim]
    return P.add(P.mul_scalar(loss, 1 - label_smoothing),
                 P.mul_scalar(smooth, label_smoothing / classes))


def _cross_entropy_probabilities(a, target, weight, reduction, label_smoothing):
    class_dim = 0 if a.ndim == 1 else 1
    classes = a.shape[class_dim]
    log_probs = A.log_softmax(a, class_dim)
    if label_smoothing > 0.0:
        target = P.add_scalar(P.mul_scalar(target, 1 - label_smoothing),
                              label_smoothing / classes)
    product = P.mul(log_probs, target)
    if weight is not None:
        shape = tuple(classes if d == class_dim else 1 for d in range(a.ndim))
        product = P.mul(product, S.view(weight, shape) if a.ndim > 1 else weight)
    if reduction == "mean":
        return P.div_scalar(P.neg(R.sum(product)), a.numel() // classes)
    if reduction == "sum":
        return P.neg(R.sum(product))
    return P.neg(R.sum(product, class_dim))
