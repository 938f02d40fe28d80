"""torch.optim's single-tensor SGD and Adam steps, with torch's operation order and roundings.

Each update mirrors one CPU kernel: `add(alpha=)`, `lerp` and `addcmul` round once (vfmadd),
`addcdiv` divides then adds, and Python scalars are cast to the tensor's dtype first. SGD matches
torch bit for bit; Adam's sqrt is correctly rounded where torch's (MKL's) may be one ulp off.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import grad_api
from gradcli.engine.fma import fma32, fma64
from gradcli.engine.tensor import Tensor
from gradcli.engine.functions import F


def zero_grad(params, set_to_none: bool = True) -> None:
    """Module.zero_grad / Optimizer.zero_grad: drop each grad, or detach and zero it."""
    for p in params:
        grad = p.grad
        if grad is None:
            continue
        if set_to_none:
            p.grad = None
            continue
        if grad.grad_fn is not None:
            grad_api.detach_(grad)
        else:
            grad.requires_grad = False
        F.zero_(grad)


def _fma(a, b, c) -> np.ndarray:
    """a * b + c rounded once, in the dtype of `a`."""
    if a.dtype == np.float64:
        return fma64(a, b, c)
    return fma32(a, b, c).astype(a.dtype)


def _scalar(value, like: np.ndarray):
    return like.dtype.type(value)


def _add(a: np.ndarray, b: np.ndarray, alpha) -> np.ndarray:
    """a.add(b, alpha=alpha)."""
    return _fma(b, _scalar(alpha, b), a)


def _lerp(start: np.ndarray, end: np.ndarray, weight) -> np.ndarray:
    """start.lerp(end, weight), from whichever end is nearer to the weight."""
    weight = _scalar(weight, start)
    if abs(weight) < 0.5:
        return _fma(end - start, weight, start)
    return _fma(end - start, weight - 1, end)


def _write(t: Tensor, values: np.ndarray) -> None:
    np.copyto(t.data, values, casting="unsafe")
    t.bump_version()


def sgd(params, grads, buffers: list, *, lr, momentum, dampening, weight_decay, nesterov,
        maximize) -> list:
    """One SGD step over `params`; returns the momentum buffers (None without momentum)."""
    out = []
    for param, grad_tensor, buffer in zip(params, grads, buffers):
        p = param.data
        grad = -grad_tensor.data if maximize else grad_tensor.data
        if weight_decay != 0:
            grad = _add(grad, p, weight_decay)
        if momentum != 0:
            if buffer is None:
                buffer = Tensor(np.array(grad, copy=True), param.dtype)
            else:
                scaled = buffer.data * _scalar(momentum, p)
                _write(buffer, _add(scaled, grad, 1 - dampening))
            grad = _add(grad, buffer.data, momentum) if nesterov else buffer.data
        _write(param, _add(p, grad, -lr))
        out.append(buffer)
    return out


def adam(params, grads, states: list[dict], *, lr, beta1, beta2, eps, weight_decay, amsgrad,
         maximize, decoupled_weight_decay=False) -> None:
    """One Adam step; each state dict holds step, exp_avg, exp_avg_sq (and max_exp_avg_sq)."""
    for param, grad_tensor, state in zip(params, grads, states):
        p = param.data
        grad = -grad_tensor.data if maximize else grad_tensor.data
        step_tensor = state["step"]
        _write(step_tensor, step_tensor.data + np.float32(1))
        if weight_decay != 0 and decoupled_weight_decay:
            _write(param, p * _scalar(1 - lr * weight_decay, p))
        elif weight_decay != 0:
            grad = _add(grad, p, weight_decay)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        _write(exp_avg, _lerp(exp_avg.data, grad, 1 - beta1))
        scaled = exp_avg_sq.data * _scalar(beta2, p)
        _write(exp_avg_sq, _fma(grad * _scalar(1 - beta2, p), grad, scaled))
        step = float(step_tensor.data)
        step_size = lr / (1 - beta1 ** step)
        bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
        second = exp_avg_sq
        if amsgrad:
            second = state["max_exp_avg_sq"]
            _write(second, np.maximum(second.data, exp_avg_sq.data))
        denom = np.sqrt(second.data) / _scalar(bias_correction2_sqrt, p) + _scalar(eps, p)
        _write(param, p + (_scalar(-step_size, p) * exp_avg.data) / denom)
