"""torch.optim's single-tensor SGD and Adam steps, with torch's operation order and roundings.

Each update mirrors one CPU kernel: `add(alpha=)`, `lerp` and `addcmul` round once (vfmadd),
`addcdiv` divides then adds, `sqrt` is Tensor.sqrt's kernel (MKL's on AMD processors: see vml.py),
and Python scalars are cast to the tensor's dtype first.
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, errors, grad_api, vml
from gradcli.engine.declarations import call
from gradcli.engine.fma import add_scaled as _add, addcmul as _addcmul, fused, lerp as _lerp
from gradcli.engine.tensor import Tensor
from gradcli.engine.functions import F


_sqrt = vml.unary("sqrt", np.sqrt)  # Tensor.sqrt's forward


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


def _scalar(value, like: np.ndarray):
    return like.dtype.type(value)


def _write(t: Tensor, values: np.ndarray, chained: int = 1) -> None:
    """`values` into `t` by `chained` in-place ops torch chains (`buf.mul_(m).add_(g)`: two),
    each a new version."""
    np.copyto(t.data, values, casting="unsafe")
    for _ in range(chained):
        t.bump_version()


def sgd(params, grads, buffers: list, *, lr, momentum, dampening, weight_decay, nesterov,
        maximize) -> list:
    """One SGD step over `params`; returns the momentum buffers (None without momentum)."""
    out = []
    for param, grad_tensor, buffer in zip(params, grads, buffers):
        if grad_tensor.sparse is not None:
            _sparse_sgd(param, grad_tensor, lr, momentum, weight_decay, maximize)
            out.append(buffer)
            continue
        p = param.data
        grad = -grad_tensor.data if maximize else grad_tensor.data
        if weight_decay != 0:
            grad = _add(grad, p, weight_decay)
        if momentum != 0:
            if buffer is None:
                buffer = Tensor(np.array(grad, copy=True), param.dtype)
            else:
                scaled = buffer.data * _scalar(momentum, p)
                _write(buffer, _add(scaled, grad, 1 - dampening), chained=2)
            grad = _add(grad, buffer.data, momentum) if nesterov else buffer.data
        _write(param, _add(p, grad, -lr))
        out.append(buffer)
    return out


def _sparse_sgd(param: Tensor, grad: Tensor, lr, momentum, weight_decay, maximize) -> None:
    """SGD's plain step with a sparse gradient (param.add_(grad, alpha=-lr))."""
    if momentum != 0 or weight_decay != 0 or maximize:
        raise errors.TorchError("NotImplementedError", "gradcli does not support SGD's momentum, "
                                "weight decay or maximize with sparse gradients yet")
    F.add_into_dense(param.data, grad, -lr)
    param.bump_version()


def sparse_adam(param: Tensor, grad_tensor: Tensor, state: dict, *, lr, betas, eps, maximize,
                **_) -> None:
    """One SparseAdam step for one param, as torch's sparse_adam: the moments and the param
    change only at the coalesced gradient's indices."""
    beta1, beta2 = betas
    coo = F.coalesce(grad_tensor).sparse
    if coo.values.size == 0:
        return
    at = tuple(coo.indices)
    grad = -coo.values if maximize else coo.values
    state["step"] += 1
    exp_avg, exp_avg_sq, p = state["exp_avg"], state["exp_avg_sq"], param.data
    old_avg = exp_avg.data[at]
    avg_update = (grad - old_avg) * _scalar(1 - beta1, p)
    exp_avg.data[at] += avg_update
    old_sq = exp_avg_sq.data[at]
    sq_update = (grad * grad - old_sq) * _scalar(1 - beta2, p)
    exp_avg_sq.data[at] += sq_update
    numer = avg_update + old_avg
    denom = _sqrt(sq_update + old_sq) + _scalar(eps, p)
    step = state["step"]
    step_size = lr * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)
    p[at] += numer / denom * _scalar(-step_size, p)
    for written in (exp_avg, exp_avg_sq, param):
        written.bump_version()


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
        _write(exp_avg_sq, fused(grad * _scalar(1 - beta2, p), grad, scaled), chained=2)
        step = float(step_tensor.data)
        step_size = lr / (1 - beta1 ** step)
        bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
        second = exp_avg_sq
        if amsgrad:
            second = state["max_exp_avg_sq"]
            _write(second, np.maximum(second.data, exp_avg_sq.data))
        denom = _sqrt(second.data) / _scalar(bias_correction2_sqrt, p) + _scalar(eps, p)
        _write(param, p + (_scalar(-step_size, p) * exp_avg.data) / denom)


def _addcdiv(a: np.ndarray, t1: np.ndarray, t2: np.ndarray, value=1) -> np.ndarray:
    """a.addcdiv(t1, t2, value=value): (value * t1) / t2 + a."""
    return a + (_scalar(value, a) * t1) / t2


def _count(step_tensor: Tensor) -> float:
    """`step_t += 1` on the float32 step tensor, then its value as a Python float."""
    _write(step_tensor, step_tensor.data + np.float32(1))
    return float(step_tensor.data)


def _decayed(param: Tensor, grad: np.ndarray, weight_decay, lr=None, decoupled=False):
    """Weight decay as torch's steps apply it: into the grad, or (decoupled) onto the param."""
    if weight_decay == 0:
        return grad
    if decoupled:
        _write(param, param.data * _scalar(1 - lr * weight_decay, param.data))
        return grad
    return _add(grad, param.data, weight_decay)


def rmsprop(param: Tensor, grad: np.ndarray, state: dict, *, lr, alpha, eps, weight_decay,
            momentum, centered, maximize, **_) -> None:
    grad = -grad if maximize else grad
    _count(state["step"])
    grad = _decayed(param, grad, weight_decay)
    square_avg = state["square_avg"]
    _write(square_avg, _addcmul(square_avg.data * _scalar(alpha, grad), grad, grad, 1 - alpha),
           chained=2)
    if centered:
        grad_avg = state["grad_avg"]
        _write(grad_avg, _lerp(grad_avg.data, grad, 1 - alpha))
        avg = _sqrt(_addcmul(square_avg.data, grad_avg.data, grad_avg.data, -1))
    else:
        avg = _sqrt(square_avg.data)
    avg = avg + _scalar(eps, avg)
    if momentum > 0:
        buffer = state["momentum_buffer"]
        _write(buffer, _addcdiv(buffer.data * _scalar(momentum, avg), grad, avg), chained=2)
        _write(param, _add(param.data, buffer.data, -lr))
    else:
        _write(param, _addcdiv(param.data, grad, avg, -lr))


def adagrad(param: Tensor, grad: np.ndarray, state: dict, *, lr, lr_decay, weight_decay, eps,
            maximize, **_) -> None:
    step = _count(state["step"])
    grad = -grad if maximize else grad
    grad = _decayed(param, grad, weight_decay)
    clr = lr / (1 + (step - 1) * lr_decay)
    total = state["sum"]
    _write(total, _addcmul(total.data, grad, grad))
    std = _sqrt(total.data)
    _write(param, _addcdiv(param.data, grad, std + _scalar(eps, std), -clr))


def adadelta(param: Tensor, grad: np.ndarray, state: dict, *, lr, rho, eps, weight_decay,
             maximize, **_) -> None:
    _count(state["step"])
    grad = -grad if maximize else grad
    grad = _decayed(param, grad, weight_decay)
    square_avg, acc_delta = state["square_avg"], state["acc_delta"]
    _write(square_avg, _addcmul(square_avg.data * _scalar(rho, grad), grad, grad, 1 - rho),
           chained=2)
    std = _sqrt(square_avg.data + _scalar(eps, grad))
    delta = _sqrt(acc_delta.data + _scalar(eps, grad)) / std * grad
    _write(acc_delta, _addcmul(acc_delta.data * _scalar(rho, grad), delta, delta, 1 - rho),
           chained=2)
    _write(param, _add(param.data, delta, -lr))


def adamax(param: Tensor, grad: np.ndarray, state: dict, *, lr, betas, eps, weight_decay,
           maximize, **_) -> None:
    beta1, beta2 = betas
    grad = -grad if maximize else grad
    step = _count(state["step"])
    grad = _decayed(param, grad, weight_decay)
    exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
    _write(exp_avg, _lerp(exp_avg.data, grad, 1 - beta1))
    _write(exp_inf, np.maximum(exp_inf.data * _scalar(beta2, grad),
                               np.abs(grad) + _scalar(eps, grad)), chained=2)
    clr = lr / (1 - beta1 ** step)
    _write(param, _addcdiv(param.data, exp_avg.data, exp_inf.data, -clr))


def nadam(param: Tensor, grad: np.ndarray, state: dict, *, lr, betas, eps, weight_decay,
          momentum_decay, decoupled_weight_decay, maximize, **_) -> None:
    beta1, beta2 = betas
    grad = -grad if maximize else grad
    step = _count(state["step"])
    bias_correction2 = 1 - beta2 ** step
    grad = _decayed(param, grad, weight_decay, lr, decoupled_weight_decay)
    mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * momentum_decay))
    mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * momentum_decay))
    mu_product = state["mu_product"]
    _write(mu_product, mu_product.data * np.float32(mu))
    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
    _write(exp_avg, _lerp(exp_avg.data, grad, 1 - beta1))
    _write(exp_avg_sq, _addcmul(exp_avg_sq.data * _scalar(beta2, grad), grad, grad, 1 - beta2),
           chained=2)
    denom = _sqrt(exp_avg_sq.data / _scalar(bias_correction2, grad))
    product = float(mu_product.data)
    product_next = product * mu_next
    denom = denom + _scalar(eps, denom)
    _write(param, _addcdiv(param.data, grad, denom, -lr * (1.0 - mu) / (1.0 - product)))
    _write(param, _addcdiv(param.data, exp_avg.data, denom, -lr * mu_next / (1.0 - product_next)))


def radam(param: Tensor, grad: np.ndarray, state: dict, *, lr, betas, eps, weight_decay,
          decoupled_weight_decay, maximize, **_) -> None:
    beta1, beta2 = betas
    grad = -grad if maximize else grad
    step = _count(state["step"])
    grad = _decayed(param, grad, weight_decay, lr, decoupled_weight_decay)
    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
    _write(exp_avg, _lerp(exp_avg.data, grad, 1 - beta1))
    _write(exp_avg_sq, _addcmul(exp_avg_sq.data * _scalar(beta2, grad), grad, grad, 1 - beta2),
           chained=2)
    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    corrected = exp_avg.data / _scalar(bias_correction1, grad)
    rho_inf = 2 / (1 - beta2) - 1
    rho_t = rho_inf - 2 * step * beta2 ** step / bias_correction2
    update = corrected * _scalar(lr, grad)
    if rho_t > 5.0:
        rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
        root = _sqrt(exp_avg_sq.data)
        root = root + _scalar(eps, root)
        adaptive = (np.ones_like(root) / root) * _scalar(bias_correction2 ** 0.5, root)
        update = update * adaptive * _scalar(rect, root)
    _write(param, param.data - update)


def rprop(param: Tensor, grad: np.ndarray, state: dict, *, etas, step_sizes, maximize,
          **_) -> None:
    """Rprop: each step size grows by etaplus or shrinks by etaminus with the grad's sign
    change; where it shrank, the grad counts as 0 (and so does the next sign change)."""
    etaminus, etaplus = etas
    grad = -grad if maximize else grad
    _count(state["step"])
    prev, step_size = state["prev"], state["step_size"]
    sign = np.sign(grad * prev.data)
    sign = np.where(sign > 0, _scalar(etaplus, sign), sign)
    sign = np.where(sign < 0, _scalar(etaminus, sign), sign)
    sign = np.where(sign == 0, _scalar(1, sign), sign)
    low, high = step_sizes
    _write(step_size, np.minimum(np.maximum(step_size.data * sign, _scalar(low, sign)),
                                 _scalar(high, sign)), chained=2)
    grad = np.where(sign == _scalar(etaminus, sign), _scalar(0, sign), grad)
    _write(param, _addcmul(param.data, np.sign(grad), step_size.data, -1))
    _write(prev, grad)


def asgd(param: Tensor, grad: np.ndarray, state: dict, *, lr, lambd, alpha, t0, weight_decay,
         maximize, **_) -> None:
    """ASGD: an SGD step with a decaying eta, and `ax` the running average of the params once
    the step passes t0."""
    grad = -grad if maximize else grad
    _count(state["step"])
    grad = _decayed(param, grad, weight_decay)
    eta = float(state["eta"].data)
    _write(param, param.data * _scalar(1 - lambd * eta, param.data))
    _write(param, _add(param.data, grad, -eta))
    ax, mu = state["ax"], state["mu"]
    if float(mu.data) != 1:
        _write(ax, ax.data + (param.data - ax.data) * mu.data.astype(param.data.dtype))
    else:
        _write(ax, param.data)
    step = float(state["step"].data)
    _write(state["eta"], np.float32(lr / ((1 + lambd * lr * step) ** alpha)))
    _write(mu, np.float32(1 / max(1, step - t0)))


def adafactor(param: Tensor, grad: np.ndarray, state: dict, *, lr, beta2_decay, eps, d,
              weight_decay, maximize, **_) -> None:
    """Adafactor (torch's single-tensor step): a vector's second moment kept whole, a matrix's
    factored into row and column means over its last two dims; the update is clipped by its
    RMS over `d` and scaled by the param's RMS (at least eps2) times min(lr, 1/sqrt(step))."""
    grad = Tensor(-grad if maximize else grad, param.dtype)
    eps1, eps2 = eps
    if eps1 is None:
        eps1 = float(np.finfo(param.dtype.np).eps)
    step = _count(state["step"])
    one_minus_beta2_t = step ** beta2_decay
    rho_t = min(lr, 1 / (step ** 0.5))
    plain = Tensor(param.data, param.dtype)
    rms = float(call("linalg", "vector_norm", plain, 2).data) / (param.numel() ** 0.5)
    alpha = max(eps2, rms) * rho_t
    if weight_decay != 0:
        _write(param, param.data * _scalar(1 - lr * weight_decay, param.data))
    if grad.ndim > 1:
        means = []
        for name, dim in (("row_var", -1), ("col_var", -2)):
            norm = call("linalg", "vector_norm", grad, 2, dim=dim, keepdim=True)
            mean = call("torch", "div", call("torch", "square", norm), grad.shape[dim])
            var = state[name]
            _write(var, call("torch", "lerp", var, mean, one_minus_beta2_t).data)
            means.append(var)
        row_var, col_var = means
        estimate = call("torch", "matmul", row_var, col_var)
        floor = call("torch", "clamp", call("method", "mean", row_var, dim=-2, keepdim=True),
                     min=eps1)
        estimate = call("torch", "div", estimate, floor)
    else:
        variance = state["variance"]
        _write(variance, call("torch", "lerp", variance, call("torch", "mul", grad, grad),
                              one_minus_beta2_t).data)
        estimate = Tensor(variance.data.copy(), variance.dtype)
    update = call("torch", "rsqrt", call("torch", "clamp", estimate, min=eps1 * eps1))
    update = call("torch", "mul", update, grad)
    update_rms = float(call("linalg", "vector_norm", update, 2).data) / (update.numel() ** 0.5)
    denom = max(1.0, update_rms / d)
    _write(param, _add(param.data, update.data, -alpha / denom))


def _newton_schulz(update: Tensor, coefficients, steps: int, eps: float) -> Tensor:
    """Muon's orthogonalization: the update in bfloat16 (wide side last), scaled to norm 1,
    then `steps` quintic Newton-Schulz iterations X = aX + (bG + cG^2)X with G = XX^T."""
    if steps >= 100:
        raise errors.value_error("Number of steps must be less than 100 for computational "
                                 "efficiency")
    if len(coefficients) != 3:
        raise errors.value_error("Coefficients must be a tuple of exactly 3 values")
    a, b, c = coefficients
    tall = update.shape[0] > update.shape[1]
    x = F.to_dtype(update, dtypes.bfloat16)
    if tall:
        x = call("method", "t", x)
    norm = call("linalg", "vector_norm", x, 2)
    x = call("torch", "div", x, call("torch", "clamp", norm, min=eps))
    for _ in range(steps):
        gram = call("torch", "matmul", x, call("method", "t", x))
        gram_update = call("torch", "addmm", gram, gram, gram, beta=b, alpha=c)
        x = call("torch", "addmm", x, gram_update, x, beta=a)
    return call("method", "t", x) if tall else x


def _muon_lr(lr: float, adjust_lr_fn, shape: tuple) -> float:
    rows, cols = shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        return lr * math.sqrt(max(1, rows / cols))
    if adjust_lr_fn == "match_rms_adamw":
        return lr * (0.2 * math.sqrt(max(rows, cols)))
    return lr * 1.0


def muon(param: Tensor, grad: np.ndarray, state: dict, *, lr, weight_decay, momentum,
         nesterov, ns_coefficients, eps, ns_steps, adjust_lr_fn, **_) -> None:
    """Muon (torch's single-tensor step): momentum by lerp (Nesterov's by default), the update
    orthogonalized by Newton-Schulz in bfloat16, decoupled weight decay, a shape-scaled lr."""
    grad = Tensor(grad, param.dtype)
    if grad.ndim != 2:
        raise errors.value_error("Param gradient must be a 2D matrix")
    buffer = state["momentum_buffer"]
    _write(buffer, call("torch", "lerp", buffer, grad, 1 - momentum).data)
    update = call("torch", "lerp", grad, buffer, momentum) if nesterov else buffer
    update = _newton_schulz(update, ns_coefficients, ns_steps, eps)
    adjusted = _muon_lr(float(lr), adjust_lr_fn, param.shape)
    _write(param, param.data * _scalar(1 - lr * weight_decay, param.data))
    _write(param, call("torch", "add", Tensor(param.data, param.dtype), update,
                       alpha=-adjusted).data)
