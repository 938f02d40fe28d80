"""F.multi_margin_loss (MultiMarginLossBackward0) in the arithmetic of ATen's CPU kernel: each
sample's hinge terms summed in the input's dtype over the classes, the samples summed in double.
F.soft_margin_loss (SoftMarginLossBackward0) in ATen's in-place arithmetic: log1p(exp(-x * y)) in
the input's dtype, its backward and double backward as derivatives.yaml writes them.
F.multilabel_margin_loss (MultilabelMarginLossBackward0) as its CPU kernel adds its hinges."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors, schemas
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F
from gradcli.engine.ops import losses
from gradcli.engine.ops.pointwise import rounded_from_double
from gradcli.engine.ops.registry import OPS, apply, defop, no_derivative, not_implemented
from gradcli.engine.tensor import Tensor


def _rows(x):
    """The input as (samples, classes)."""
    return x.reshape(1 if x.ndim <= 1 else x.shape[0], 1 if x.ndim == 0 else x.shape[-1])


def _per_sample(x, target, weight, p, margin):
    """multi_margin_inner_sum_cpu for every sample: the hinge of each other class, squared for
    p == 2, weighted by the target's weight, summed in order, divided by the class count."""
    rows, kind = _rows(x), x.dtype.type
    picked = np.take_along_axis(rows, target.reshape(-1, 1), 1)[:, 0]
    scale = None if weight is None else weight.reshape(-1)[target.reshape(-1)]
    total = np.zeros(rows.shape[0], x.dtype)
    for d in range(rows.shape[1]):
        z = (kind(margin) - picked) + rows[:, d]
        h = z if p == 1 else z * z
        if scale is not None:
            h = h * scale
        total = total + np.where((z > 0) & (target.reshape(-1) != d), h, kind(0))
    return total / kind(rows.shape[1])


def _multi_margin(x, target, weight, p, margin, reduction):
    sums = _per_sample(x, target, weight, p, margin)
    if reduction == "none" and target.ndim > 0:
        return sums
    total = 0.0
    for value in sums.astype(np.float64):
        total += value
    if reduction == "mean":
        total = total / sums.size if sums.size else np.nan
    return np.asarray(total, x.dtype)


def _multi_margin_backward(g, x, target, weight, p, margin, reduction):
    """multi_margin_loss_backward_cpu_kernel: g (1/dim, or 1/(samples * dim) for a mean) for
    each positive hinge, 2 * g * z for p == 2, weighted; the target class gets minus their sum."""
    rows, kind = _rows(x), x.dtype.type
    frames, dim = rows.shape
    step = kind(losses.mean_norm(1.0, rows, reduction) if reduction == "mean" else 1.0 / dim)
    flat_target = target.reshape(-1)
    picked = np.take_along_axis(rows, flat_target.reshape(-1, 1), 1)
    z = (kind(margin) - picked) + rows
    h = np.full(z.shape, step) if p == 1 else (kind(2) * step) * z
    if weight is not None:
        h = h * weight.reshape(-1)[flat_target][:, None]
    others = np.arange(dim)[None, :] != flat_target[:, None]
    grad = np.where((z > 0) & others, h, kind(0))
    target_grad = np.zeros(frames, x.dtype)
    for d in range(dim):
        target_grad = target_grad - grad[:, d]
    grad[np.arange(frames), flat_target] = target_grad
    if reduction != "none" or g.ndim == 0:
        grad = grad * g.reshape(-1)[0]
    else:
        grad = grad * g.reshape(-1, 1)
    return grad.reshape(x.shape)


defop("multi_margin_loss", "MultiMarginLossBackward0", _multi_margin, promote="none",
      save=(0, 1, 2),
      vjp=(lambda g, x, target, weight, **params: F.apply_op(
          "multi_margin_loss_backward", g, x, target, weight, **params), None,
           no_derivative("weight")))
defop("multi_margin_loss_backward", "NotImplemented", _multi_margin_backward,
      name="torch::autograd::NotImplemented", promote="none",
      vjp=(not_implemented("aten::multi_margin_loss_backward"),) * 2)


def _sizes(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _check(x: Tensor, target: Tensor, weight) -> None:
    """multi_margin_loss_shape_check, then the kernel's dtype checks, in ATen's order."""
    if not ((x.ndim == 2 and x.shape[1] != 0) or (x.ndim == 1 and x.shape[0] != 0)
            or x.ndim == 0):
        raise errors.runtime("Expected non-empty vector or matrix with optional 0-dim batch "
                             f"size, but got: {_sizes(x.shape)}")
    frames = 1 if x.ndim <= 1 else x.shape[0]
    dim = 1 if x.ndim == 0 else x.shape[-1]
    if target.ndim > 1 or target.numel() != frames:
        raise errors.runtime("multi_margin_loss: target tensor should be 1-D with size equal to "
                             "the number of input samples (batch size). Expected target size "
                             f"[{frames}], but got {_sizes(target.shape)}. Input has shape "
                             f"{_sizes(x.shape)}.")
    if weight is not None and (weight.ndim > 1 or weight.numel() != dim):
        raise errors.runtime(f"inconsistent weight size, expected {dim} but got "
                             f"{_sizes(weight.shape)}")
    if not x.dtype.is_floating_point:
        raise errors.not_implemented_for("multi_margin_loss_cpu_kernel", x.dtype)
    if target.dtype is not dtypes.int64:
        raise errors.runtime(f"expected scalar type Long but found {target.dtype.scalar_name}")
    if weight is not None and weight.dtype is not x.dtype:
        raise errors.runtime(f"expected scalar type {x.dtype.scalar_name} but found "
                             f"{weight.dtype.scalar_name}")
    classes = target.data.reshape(-1)
    if classes.size and (classes.min() < 0 or classes.max() >= dim):
        raise errors.runtime("target out of range")


def multi_margin_loss(x: Tensor, target: Tensor, p=1, margin=1.0, weight=None,
                      size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """torch's Python checks (reduction, p, the weight's dimensions), then the C++ function's
    parser and checks."""
    reduction = F.reduction_of(reduction, size_average, reduce)
    if F.truth(F.python_compare("!=", p, 1)) and F.truth(F.python_compare("!=", p, 2)):
        raise errors.value_error("only p == 1 and p == 2 supported")
    if weight is not None:
        if not isinstance(weight, Tensor):
            raise errors.no_attribute(weight, "dim")
        if weight.ndim != 1:
            raise errors.value_error("weight must be one-dimensional")
    bound = schemas.bind_cpp("multi_margin_loss(Tensor input, Tensor target, Scalar p, "
                             "Scalar margin, Tensor? weight, int reduction)", x, target, p,
                             margin, weight, 0)
    x, target = bound["input"], bound["target"]
    _check(x, target, weight)
    return apply(OPS["multi_margin_loss"], x, target, weight, p=int(bound["p"]),
                 margin=float(bound["margin"]), reduction=reduction)


declare("multi_margin_loss", multi_margin_loss, python="input: object, target: object, p=1, "
        "margin=1.0, weight=None, size_average=None, reduce=None, reduction='mean'",
        variants="functional")


# ---- soft_margin_loss ---------------------------------------------------------------------------

_exp, _log1p = rounded_from_double(np.exp), rounded_from_double(np.log1p)


def _soft_margin(x, target, reduction):
    """neg_out(output, input).mul_(target).exp_().log1p_(), then the reduction."""
    z = np.multiply(np.negative(x), target).astype(x.dtype)
    return losses.reduce_loss(_log1p(_exp(z)), reduction)


def _soft_margin_backward(g, x, target, reduction):
    """mul_out(grad_input, target, z).mul_(-norm), then div_(z + 1).mul_(grad_output)."""
    kind = x.dtype.type
    norm = kind(losses.mean_norm(1.0, x, reduction))
    z = _exp(np.multiply(np.negative(target), x).astype(x.dtype))
    grad = np.multiply(target, z).astype(x.dtype) * -norm
    return ((grad / (z + kind(1))) * g).astype(x.dtype)


def _backward(g, x, target, reduction):
    return F.apply_op("soft_margin_loss_backward", g, x, target, reduction=reduction)


def _double_backward(grad, x, target, reduction):
    """soft_margin_loss_double_backward: grad * y^2 z / (1 + z)^2, over the count for a mean."""
    z = F.exp(F.mul(x, F.neg(target)))
    plus = F.add_scalar(z, 1)
    gi = F.div(F.div(F.mul(F.mul(F.mul(grad, target), target), z), plus), plus)
    return F.div_scalar(gi, x.numel()) if reduction == "mean" else gi


def _double_backward_grad_output(grad, g, x, target, reduction):
    if reduction == "none":
        return _backward(grad, x, target, reduction)
    return F.sum(F.mul(_backward(F.ones_like(g), x, target, reduction), grad))


defop("soft_margin_loss", "SoftMarginLossBackward0", _soft_margin, promote="none", save=(0, 1),
      vjp=(lambda g, x, target, reduction: _backward(g, x, target, reduction), None))
defop("soft_margin_loss_backward", "SoftMarginLossBackwardBackward0", _soft_margin_backward,
      promote="none", save=(0, 1, 2),
      vjp=(lambda gg, g, x, target, reduction: _double_backward_grad_output(
          gg, g, x, target, reduction),
           lambda gg, g, x, target, reduction: _double_backward(
               F.mul(gg, g), x, target, reduction), None))


def soft_margin_loss(x, target, size_average=None, reduce=None, reduction: str = "mean"):
    """torch's Python (the reduction), the C++ parser, then the in-place kernel's checks."""
    reduction = F.reduction_of(reduction, size_average, reduce)
    bound = schemas.bind_cpp("soft_margin_loss(Tensor input, Tensor target, int reduction)",
                             x, target, 0)
    x, target = bound["input"], bound["target"]
    F.check_constant("soft_margin_loss", "target", target)
    if x.dtype is dtypes.bool_:
        F.neg(x)  # its error for bool
    if target.shape != x.shape:
        wanted = F.broadcast_shape(x.shape, target.shape)
        if wanted != x.shape:
            raise errors.runtime(f"output with shape {F.size_list(x.shape)} doesn't match the "
                                 f"broadcast shape {F.size_list(wanted)}")
        target = F.expand(target, x.shape)
    if not x.dtype.is_floating_point:
        raise errors.runtime("result type Float can't be cast to the desired output type "
                             f"{x.dtype.scalar_name}")
    return apply(OPS["soft_margin_loss"], x, target, reduction=reduction)


declare("soft_margin_loss", soft_margin_loss, python="input: object, target: object, "
        "size_average=None, reduce=None, reduction='mean'", variants="functional")


# ---- multilabel_margin_loss ----------------------------------------------------------------------

def _hinges(x, target):
    """Per sample, its positive hinges (target class, other class, z) in the kernel's order: each
    listed target (up to the first -1) against each class not listed."""
    dim = 1 if x.ndim == 0 else x.shape[-1]
    rows, kind = x.reshape(-1, dim), x.dtype.type
    for row, targets in zip(rows, target.reshape(-1, dim)):
        listed = []
        for t in targets:
            if t < 0:
                break
            listed.append(int(t))
        others = [d for d in range(dim) if d not in listed]
        yield [(t, d, z) for t in listed for d in others
               if (z := (kind(1) - row[t]) + row[d]) > 0]


def _multilabel_margin(x, target, reduction):
    """multilabel_margin_loss_forward_out_frame: each sample's hinges summed in double and
    rounded, the samples summed in double (a scalar for a reduction or a 1-D target)."""
    dim, kind = 1 if x.ndim == 0 else x.shape[-1], x.dtype.type
    sums = [kind(sum((float(z) for _, _, z in hinges), 0.0)) for hinges in _hinges(x, target)]
    if not sums:  # torch leaves an empty input's scalar loss unwritten: 0 here
        return np.zeros((0,) if reduction == "none" and target.ndim > 1 else (), x.dtype)
    if reduction == "none" and target.ndim > 1:
        return np.array([s / kind(dim) for s in sums], x.dtype).reshape(-1)
    total = 0.0
    for s in sums:
        total += float(s)
    total /= dim
    if reduction == "mean":
        total = total / len(sums) if len(sums) else np.nan
    return np.asarray(total, x.dtype)


def _multilabel_margin_backward(g, x, target, reduction):
    """multilabel_margin_loss_backward_out_frame: -step at the target, +step at the other class
    for each positive hinge (added in order), then times grad_output."""
    dim, kind = 1 if x.ndim == 0 else x.shape[-1], x.dtype.type
    frames = x.size // dim
    step = kind(losses.mean_norm(1.0, x, reduction) if reduction == "mean" else 1.0 / dim)
    grad = np.zeros((frames, dim), x.dtype)
    for row, hinges in zip(grad, _hinges(x, target)):
        for t, d, _ in hinges:
            row[t] -= step
            row[d] += step
    if reduction != "none" or g.ndim == 0:
        grad = grad * g.reshape(-1)[0]
    else:
        grad = grad * g.reshape(-1, 1)
    return grad.reshape(x.shape)


defop("multilabel_margin_loss_forward", "MultilabelMarginLossBackward0", _multilabel_margin,
      promote="none", save=(0,),
      vjp=lambda g, x, target, reduction: F.apply_op(
          "multilabel_margin_loss_backward", g, x, target=target, reduction=reduction))
defop("multilabel_margin_loss_backward", "NotImplemented", _multilabel_margin_backward,
      name="torch::autograd::NotImplemented", promote="none",
      vjp=(not_implemented("aten::multilabel_margin_loss_backward"),) * 2)


def multilabel_margin_loss(x, target, size_average=None, reduce=None, reduction: str = "mean"):
    """torch's Python (the reduction), the C++ parser, then ATen's checks in its order: shapes,
    the target's range, the input's dtype, the target's."""
    reduction = F.reduction_of(reduction, size_average, reduce)
    bound = schemas.bind_cpp("multilabel_margin_loss(Tensor input, Tensor target, "
                             "int reduction)", x, target, 0)
    x, target = bound["input"], bound["target"]
    if not ((x.ndim == 2 and x.shape[1] != 0) or (x.ndim == 1 and x.shape[0] != 0)
            or x.ndim == 0):
        raise errors.runtime("Expected non-empty vector or matrix with optional 0-dim batch "
                             f"size, but got: {_sizes(x.shape)}")
    dim = 1 if x.ndim == 0 else x.shape[-1]
    fits = (target.ndim <= 1 and target.numel() == dim) if x.ndim <= 1 else target.shape == x.shape
    if not fits:
        raise errors.runtime(f"inconsistent target size: {_sizes(target.shape)} for input of "
                             f"size: {_sizes(x.shape)}")
    if x.numel():
        if target.data.min() < -1 or target.data.max() >= dim:
            raise errors.runtime("argument #2 'target' is out of range")
        if x.dtype not in (dtypes.float32, dtypes.float64):
            raise errors.not_implemented_for("multilabel_margin_loss_forward_out_frame", x.dtype)
        if target.dtype is not dtypes.int64:
            raise errors.runtime("expected scalar type Long but found "
                                 f"{target.dtype.scalar_name}")
    return apply(OPS["multilabel_margin_loss_forward"], x, target=target.data,
                 reduction=reduction)


declare("multilabel_margin_loss", multilabel_margin_loss, python="input: object, "
        "target: object, size_average=None, reduce=None, reduction='mean'", variants="functional")
