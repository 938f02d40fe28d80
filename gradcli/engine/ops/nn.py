"""Loss rows (mse, smooth_l1, binary cross entropy, nll) and the rows of their backward ops."""

from __future__ import annotations

import numpy as np

from gradcli.engine import activation as A, comparison as C, conversions, functional as F
from gradcli.engine import pointwise as P
from gradcli.engine.ops.registry import defop

EPSILON = 1e-12


def _reduce(loss, reduction):
    if reduction == "mean":
        return np.mean(loss, dtype=loss.dtype)
    if reduction == "sum":
        return np.sum(loss, dtype=loss.dtype)
    return loss


def _mean_scale(a, reduction):
    return 2.0 / a.size if reduction == "mean" else 2.0


# ---- mse_loss -----------------------------------------------------------------------------------

def _mse(a, b, reduction):
    diff = a - b
    return _reduce(diff * diff, reduction)


def _mse_backward(g, a, b, reduction, dtype):
    return a.dtype.type(_mean_scale(a, reduction)) * (a - b) * g


def _like_self(dtype, params):
    """Backward ops that allocate their result like `self` (zeros_like(input) in ATen)."""
    return params["dtype"]


def mse_loss_backward(g, a, b, reduction):
    return F.apply_op("mse_loss_backward", g, a, b, reduction=reduction, dtype=a.dtype)


def _mse_double_backward(grad, a, reduction):
    result = P.mul_scalar(grad, 2)
    return P.div_scalar(result, a.numel()) if reduction == "mean" else result


defop("mse_loss", "MseLossBackward0", _mse, save=(0, 1),
      vjp=(lambda g, a, b, reduction: mse_loss_backward(g, a, b, reduction),
           lambda g, a, b, reduction: mse_loss_backward(g, b, a, reduction)))
defop("mse_loss_backward", "MseLossBackwardBackward0", _mse_backward, save=(0, 1, 2),
      save_for=((1, 2), (0, 1), (0, 2)), out_dtype=_like_self,
      vjp=(lambda gg, g, a, b, reduction, dtype: mse_loss_backward(gg, a, b, reduction),
           lambda gg, g, a, b, reduction, dtype: _mse_double_backward(P.mul(gg, g), a,
                                                                      reduction),
           lambda gg, g, a, b, reduction, dtype: P.neg(_mse_double_backward(
               P.mul(gg, g), b, reduction))))


# ---- smooth_l1_loss -----------------------------------------------------------------------------

def _smooth_l1(a, b, reduction, beta):
    z = np.abs(a - b)
    return _reduce(np.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta).astype(a.dtype),
                   reduction)


def _smooth_l1_backward(g, a, b, reduction, beta, dtype):
    norm = a.dtype.type(1.0 / a.size if reduction == "mean" else 1.0)
    x = a - b
    return np.where(x <= -beta, -norm * g, np.where(x >= beta, norm * g, norm * x * g / beta))


def smooth_l1_backward(g, a, b, reduction, beta):
    return F.apply_op("smooth_l1_loss_backward", g, a, b, reduction=reduction, beta=beta,
                      dtype=a.dtype)


def _smooth_l1_double_backward(grad, a, b, reduction, beta):
    inside = conversions.to_dtype(C.compare("lt", P.abs(P.sub(a, b)), beta), grad.dtype)
    result = P.div_scalar(P.mul(grad, inside), beta)
    return P.div_scalar(result, a.numel()) if reduction == "mean" else result


defop("smooth_l1_loss", "SmoothL1LossBackward0", _smooth_l1, save=(0, 1),
      vjp=(lambda g, a, b, reduction, beta: smooth_l1_backward(g, a, b, reduction, beta),
           lambda g, a, b, reduction, beta: smooth_l1_backward(g, b, a, reduction, beta)))
defop("smooth_l1_loss_backward", "SmoothL1LossBackwardBackward0", _smooth_l1_backward,
      save=(0, 1, 2), save_for=((1, 2), (0, 1, 2), (0, 1, 2)), out_dtype=_like_self,
      vjp=(lambda gg, g, a, b, reduction, beta, dtype: smooth_l1_backward(gg, a, b, reduction,
                                                                          beta),
           lambda gg, g, a, b, reduction, beta, dtype: _smooth_l1_double_backward(
               P.mul(gg, g), a, b, reduction, beta),
           lambda gg, g, a, b, reduction, beta, dtype: P.neg(_smooth_l1_double_backward(
               P.mul(gg, g), a, b, reduction, beta))))


# ---- binary cross entropy -----------------------------------------------------------------------

def _bce(a, t, weight, reduction):
    one = a.dtype.type(1)
    floor = a.dtype.type(-100)
    loss = ((t - one) * np.maximum(np.log1p(-a), floor) - t * np.maximum(np.log(a), floor))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


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
        result = P.mul(result, weight)
    return P.div_scalar(result, a.numel()) if reduction == "mean" else result


def _bce_target_grad(g, a, t, weight, reduction):
    return _scaled(P.mul(P.neg(F.apply_op("logit", a)), g), a, weight, reduction)


def _bce_double_backward(gg, g, a, t, weight, reduction):
    plus_eps = P.add_scalar(a, EPSILON)
    one_minus = P.add_scalar(P.scalar_sub(1, a), EPSILON)
    numerator = P.add(P.sub(P.mul(a, a), P.mul(P.mul_scalar(a, 2), t)), t)
    result = P.div(numerator, P.mul(P.pow(plus_eps, 2), P.pow(one_minus, 2)))
    result = P.mul(result, P.mul(gg, g))
    return _scaled(result, a, weight, reduction)


def _bce_double_backward_grad_output(gg, a, t, weight, reduction):
    denominator = P.mul(P.add_scalar(a, EPSILON), P.add_scalar(P.scalar_sub(1, a), EPSILON))
    return _scaled(P.mul(P.div(P.sub(a, t), denominator), gg), a, weight, reduction)


def _bce_double_backward_target(gg, g, a, t, weight, reduction):
    result = P.mul(P.neg(gg), g)
    if weight is not None:
        result = P.mul(result, weight)
    denominator = P.mul(P.scalar_sub(1, a), a)
    denominator.data = np.maximum(denominator.data, EPSILON).astype(denominator.dtype.np)
    result = P.div(result, denominator)
    return P.div_scalar(result, t.numel()) if reduction == "mean" else result


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
defop("logit", "LogitBackward0", lambda a: np.log(a / (1 - a)), promote="float", save=(0,),
      vjp=lambda g, a: P.where(C.logical_and(C.compare("ge", a, 0.0), C.compare("le", a, 1.0)),
                               P.div(g, P.mul(a, P.scalar_sub(1.0, a))),
                               P.scalar_tensor(float("nan"), g.dtype)))


def _log_sigmoid(a):
    biggest = np.maximum(0, -a)
    return -(biggest + np.log(np.exp(-biggest) + np.exp(-a - biggest)))


def _bce_logits(a, t, weight, pos_weight, reduction, dtype):
    """torch's formula, whose in-place steps keep the target's dtype: (1 - t) * x - log_sigmoid."""
    log_sigmoid = _log_sigmoid(a)
    if pos_weight is not None:
        log_sigmoid = log_sigmoid * ((pos_weight - 1) * t + 1)
    loss = ((1 - t) * a).astype(dtype.np)
    loss = (loss - log_sigmoid).astype(dtype.np)
    if weight is not None:
        loss = (loss * weight).astype(dtype.np)
    return _reduce(loss, reduction)


def _bce_logits_grad(g, a, t, weight, pos_weight, reduction):
    if pos_weight is not None:
        weighted = P.mul(pos_weight, t)
        result = P.sub(P.mul(P.sub(P.add_scalar(weighted, 1), t), P.sigmoid(a)), weighted)
    else:
        result = P.sub(P.sigmoid(a), t)
    return _scaled(P.mul(result, g), a, weight, reduction)


def _bce_logits_target_grad(g, a, t, weight, pos_weight, reduction):
    if pos_weight is not None:
        log_sigmoid_neg = P.neg(A.softplus(a))
        log_sigmoid = P.neg(A.softplus(P.neg(a)))
        result = P.mul(P.sub(log_sigmoid_neg, P.mul(log_sigmoid, pos_weight)), g)
    else:
        result = P.mul(P.neg(a), g)
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
    w = np.ones(len(flat), a.dtype) if weight is None else weight[safe].astype(a.dtype)
    w = np.where(valid, w, 0).astype(a.dtype)
    return rows[np.arange(len(flat)), safe], w, safe


def _nll_forward(a, target, weight, reduction, ignore_index):
    values, w, _ = _picked(a, target, weight, ignore_index)
    losses_ = -values * w
    total = np.asarray(np.sum(w, dtype=a.dtype))
    if reduction == "none":
        return losses_.reshape(np.shape(target)), total
    summed = np.sum(losses_, dtype=a.dtype)
    return (summed / total if reduction == "mean" else summed), total


def _nll_backward(g, a, target, weight, reduction, ignore_index):
    _, w, safe = _picked(a, target, weight, ignore_index)
    out = np.zeros(a.reshape(-1, a.shape[-1]).shape, dtype=a.dtype)
    if reduction == "none":
        scale = -np.asarray(g).reshape(-1)
    else:
        total = np.sum(w, dtype=a.dtype)
        scale = -(g / total if reduction == "mean" else g)
    out[np.arange(len(safe)), safe] = w * scale
    return out.reshape(a.shape)


def _nll_grad(g, a, target, weight, reduction, ignore_index):
    grad = g[0] if isinstance(g, (list, tuple)) else g
    return F.apply_op("nll_loss_backward", grad, a, target, weight, reduction=reduction,
                      ignore_index=ignore_index)


defop("nll_loss_forward", "NllLossBackward0", _nll_forward, promote="none", save=(0, 1, 2),
      n_outputs=2, vjp=(lambda g, a, t, w, **k: _nll_grad(g, a, t, w, **k),))
defop("nll_loss_backward", "NllLossBackwardBackward0", _nll_backward, promote="none",
      save=(2, 3),
      vjp=(lambda gg, g, a, t, w, reduction, ignore_index:
           F.apply_op("nll_loss_forward", gg, t, w, reduction=reduction,
                      ignore_index=ignore_index)[0],
           lambda gg, *_, **__: P.full_like(gg, 0)))
