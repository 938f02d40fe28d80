"""torch.optim.LBFGS's step, operation by operation as torch/optim/lbfgs.py makes it.

torch mixes 0-d tensors (dot products, their ratios) with Python floats; the helpers below
apply torch's rule to each mixed operation: a tensor on either side makes it a float32 tensor op
(`float - t` is rsub, `float / t` is reciprocal then mul), two numbers stay Python arithmetic.
"""

from __future__ import annotations

import operator

import numpy as np

from gradcli.engine import errors
from gradcli.engine.functions import F
from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor


def _both_numbers(a, b) -> bool:
    return not isinstance(a, Tensor) and not isinstance(b, Tensor)


def _add(a, b):
    if _both_numbers(a, b):
        return a + b
    return F.add(a, b) if isinstance(a, Tensor) else F.add(b, a)


def _sub(a, b):
    if _both_numbers(a, b):
        return a - b
    return F.sub(a, b) if isinstance(a, Tensor) else F.rsub(b, a)


def _mul(a, b):
    if _both_numbers(a, b):
        return a * b
    return F.mul(a, b) if isinstance(a, Tensor) else F.mul(b, a)


def _div(a, b):
    if _both_numbers(a, b):
        return a / b
    return F.div(a, b) if isinstance(a, Tensor) else F.mul(F.reciprocal(b), a)


_FLIPPED = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}
_NUMBER_COMPARISONS = {"lt": operator.lt, "gt": operator.gt, "le": operator.le, "ge": operator.ge}
_TENSOR_COMPARISONS = {"lt": lambda a, b: F.lt(a, b), "gt": lambda a, b: F.gt(a, b),
                       "le": lambda a, b: F.le(a, b), "ge": lambda a, b: F.ge(a, b)}


def _compare(name: str, a, b) -> bool:
    if _both_numbers(a, b):
        return _NUMBER_COMPARISONS[name](a, b)
    if not isinstance(a, Tensor):
        a, b, name = b, a, _FLIPPED[name]
    return bool(_TENSOR_COMPARISONS[name](a, b).data)


def _abs(a):
    return F.abs(a) if isinstance(a, Tensor) else abs(a)


def _min(*values):
    """Python's min over mixed values: the first, replaced by each one less than it."""
    best = values[0]
    for value in values[1:]:
        if _compare("lt", value, best):
            best = value
    return best


def _max(*values):
    best = values[0]
    for value in values[1:]:
        if _compare("gt", value, best):
            best = value
    return best


def _scalar(value) -> float:
    """A tensor alpha or loss as torch reads it: the element as a Python number."""
    return float(value.data.reshape(-1)[0]) if isinstance(value, Tensor) else value


def _loss(value) -> float:
    """float(loss), as torch's step reads the closure's result."""
    if not isinstance(value, Tensor):
        return float(value)
    if value.numel() != 1:
        raise errors.value_error("only one element tensors can be converted to Python scalars")
    return float(value.data.reshape(-1)[0])


def _add_into(target: Tensor, other: Tensor, alpha=1) -> None:
    """target.add_(other, alpha=alpha)."""
    np.copyto(target.data, F.add(target, other, alpha=_scalar(alpha)).data)
    target.bump_version()


def _abs_max(t: Tensor) -> Tensor:
    return F.max(F.abs(t))


class _Flat:
    """The params seen as one flat vector: torch's _gather_flat_grad, _add_grad and friends."""

    def __init__(self, params: list):
        self.params = params

    def gather_grad(self) -> Tensor:
        views = [F.zeros_like(F.view(p, (-1,))) if p.grad is None else F.view(p.grad, (-1,))
                 for p in self.params]
        return F.cat(views, 0)

    def add_grad(self, step_size, update: Tensor) -> None:
        offset = 0
        for p in self.params:
            numel = p.numel()
            _add_into(p, F.view_as(F.narrow(update, 0, offset, numel), p), step_size)
            offset += numel

    def clone(self) -> list:
        return [F.clone(p) for p in self.params]

    def set(self, values: list) -> None:
        for p, value in zip(self.params, values):
            np.copyto(p.data, value.data)
            p.bump_version()

    def directional_evaluate(self, closure, x, t, d):
        self.add_grad(t, d)
        loss = _loss(closure())
        flat_grad = self.gather_grad()
        self.set(x)
        return loss, flat_grad


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    if bounds is not None:
        xmin_bound, xmax_bound = bounds
    else:
        xmin_bound, xmax_bound = (x1, x2) if _compare("le", x1, x2) else (x2, x1)
    d1 = _sub(_add(g1, g2), _div(_mul(3, _sub(f1, f2)), _sub(x1, x2)))
    d2_square = _sub(_mul(d1, d1) if not isinstance(d1, Tensor) else F.pow(d1, 2),
                     _mul(g1, g2))
    if _compare("ge", d2_square, 0):
        d2 = F.sqrt(d2_square)
        if _compare("le", x1, x2):
            ratio = _div(_sub(_add(g2, d2), d1), _add(_sub(g2, g1), _mul(2, d2)))
            min_pos = _sub(x2, _mul(_sub(x2, x1), ratio))
        else:
            ratio = _div(_sub(_add(g1, d2), d1), _add(_sub(g1, g2), _mul(2, d2)))
            min_pos = _sub(x1, _mul(_sub(x1, x2), ratio))
        return _min(_max(min_pos, xmin_bound), xmax_bound)
    return _div(_add(xmin_bound, xmax_bound), 2.0)


def _strong_wolfe(obj_func, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9,
                  max_ls=25):
    d_norm = _abs_max(d)
    g = F.clone(g)
    f_new, g_new = obj_func(x, t, d)
    ls_func_evals = 1
    gtd_new = F.dot(g_new, d)

    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    armijo = lambda: _add(f, _mul(_mul(c1, t), gtd))  # noqa: E731
    curvature = lambda: _mul(-c2, gtd)  # noqa: E731
    while ls_iter < max_ls:
        if _compare("gt", f_new, armijo()) or (ls_iter > 1 and _compare("ge", f_new, f_prev)):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, F.clone(g_new)], [gtd_prev, gtd_new]
            break
        if _compare("le", _abs(gtd_new), curvature()):
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if _compare("ge", gtd_new, 0):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, F.clone(g_new)], [gtd_prev, gtd_new]
            break
        min_step = _add(t, _mul(0.01, _sub(t, t_prev)))
        max_step = _mul(t, 10)
        tmp = t
        t = _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                               bounds=(min_step, max_step))
        t_prev, f_prev, g_prev, gtd_prev = tmp, f_new, F.clone(g_new), gtd_new
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = F.dot(g_new, d)
        ls_iter += 1

    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]

    insuf_progress = False
    low_pos, high_pos = (0, 1) if _compare("le", bracket_f[0], bracket_f[-1]) else (1, 0)
    while not done and ls_iter < max_ls:
        if _compare("lt", _mul(_abs(_sub(bracket[1], bracket[0])), d_norm), tolerance_change):
            break
        t = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0],
                               bracket[1], bracket_f[1], bracket_gtd[1])
        high, low = _max(*bracket), _min(*bracket)
        eps = _mul(0.1, _sub(high, low))
        if _compare("lt", _min(_sub(high, t), _sub(t, low)), eps):
            if insuf_progress or _compare("ge", t, high) or _compare("le", t, low):
                if _compare("lt", _abs(_sub(t, high)), _abs(_sub(t, low))):
                    t = _sub(high, eps)
                else:
                    t = _add(low, eps)
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False

        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = F.dot(g_new, d)
        ls_iter += 1

        if _compare("gt", f_new, armijo()) or _compare("ge", f_new, bracket_f[low_pos]):
            bracket[high_pos], bracket_f[high_pos] = t, f_new
            bracket_g[high_pos], bracket_gtd[high_pos] = F.clone(g_new), gtd_new
            low_pos, high_pos = (0, 1) if _compare("le", bracket_f[0], bracket_f[1]) else (1, 0)
        else:
            if _compare("le", _abs(gtd_new), curvature()):
                done = True
            elif _compare("ge", _mul(gtd_new, _sub(bracket[high_pos], bracket[low_pos])), 0):
                bracket[high_pos], bracket_f[high_pos] = bracket[low_pos], bracket_f[low_pos]
                bracket_g[high_pos] = bracket_g[low_pos]
                bracket_gtd[high_pos] = bracket_gtd[low_pos]
            bracket[low_pos], bracket_f[low_pos] = t, f_new
            bracket_g[low_pos], bracket_gtd[low_pos] = F.clone(g_new), gtd_new

    return bracket_f[low_pos], bracket_g[low_pos], bracket[low_pos], ls_func_evals


def step(params: list, group: dict, state: dict, closure):
    """One LBFGS.step(closure) under no_grad; `closure` runs with grad enabled. Returns the
    closure's first loss."""
    def evaluate():
        with grad_mode(True):
            return closure()

    with grad_mode(False):
        return _step(_Flat(params), group, state, evaluate)


def _step(flat: _Flat, group: dict, state: dict, closure):
    lr = group["lr"]
    max_iter, max_eval = group["max_iter"], group["max_eval"]
    tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
    line_search_fn, history_size = group["line_search_fn"], group["history_size"]

    state.setdefault("func_evals", 0)
    state.setdefault("n_iter", 0)

    orig_loss = closure()
    loss = _loss(orig_loss)
    current_evals = 1
    state["func_evals"] += 1

    flat_grad = flat.gather_grad()
    opt_cond = _compare("le", _abs_max(flat_grad), tolerance_grad)
    if opt_cond:
        return orig_loss

    d, t = state.get("d"), state.get("t")
    old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
    H_diag = state.get("H_diag")
    prev_flat_grad, prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")

    n_iter = 0
    while n_iter < max_iter:
        n_iter += 1
        state["n_iter"] += 1

        if state["n_iter"] == 1:
            d = F.neg(flat_grad)
            old_dirs, old_stps, ro = [], [], []
            H_diag = 1
        else:
            y = F.sub(flat_grad, prev_flat_grad)
            s = _mul(d, t)
            ys = F.dot(y, s)
            if _compare("gt", ys, 1e-10):
                if len(old_dirs) == history_size:
                    old_dirs.pop(0)
                    old_stps.pop(0)
                    ro.pop(0)
                old_dirs.append(y)
                old_stps.append(s)
                ro.append(_div(1.0, ys))
                H_diag = F.div(ys, F.dot(y, y))
            num_old = len(old_dirs)
            if "al" not in state:
                state["al"] = [None] * history_size
            al = state["al"]
            q = F.neg(flat_grad)
            for i in range(num_old - 1, -1, -1):
                al[i] = F.mul(F.dot(old_stps[i], q), ro[i])
                _add_into(q, old_dirs[i], F.neg(al[i]))
            d = r = _mul(q, H_diag)
            for i in range(num_old):
                be_i = F.mul(F.dot(old_dirs[i], r), ro[i])
                _add_into(r, old_stps[i], F.sub(al[i], be_i))

        if prev_flat_grad is None:
            prev_flat_grad = F.clone(flat_grad)
        else:
            np.copyto(prev_flat_grad.data, flat_grad.data)
            prev_flat_grad.bump_version()
        prev_loss = loss

        if state["n_iter"] == 1:
            t = _mul(_min(1.0, _div(1.0, F.sum(F.abs(flat_grad)))), lr)
        else:
            t = lr

        gtd = F.dot(flat_grad, d)
        if _compare("gt", gtd, -tolerance_change):
            break

        ls_func_evals = 0
        if line_search_fn is not None:
            if line_search_fn != "strong_wolfe":
                raise errors.TorchError("RuntimeError", "only 'strong_wolfe' is supported")
            x_init = flat.clone()
            loss, flat_grad, t, ls_func_evals = _strong_wolfe(
                lambda x, t, d: flat.directional_evaluate(closure, x, t, d),
                x_init, t, d, loss, flat_grad, gtd, max_ls=max_eval - current_evals)
            flat.add_grad(t, d)
            opt_cond = _compare("le", _abs_max(flat_grad), tolerance_grad)
        else:
            flat.add_grad(t, d)
            if n_iter != max_iter:
                loss = _loss(closure())
                flat_grad = flat.gather_grad()
                opt_cond = _compare("le", _abs_max(flat_grad), tolerance_grad)
                ls_func_evals = 1

        current_evals += ls_func_evals
        state["func_evals"] += ls_func_evals

        if n_iter == max_iter or current_evals >= max_eval or opt_cond:
            break
        if _compare("le", _abs_max(_mul(d, t)), tolerance_change):
            break
        if abs(loss - prev_loss) < tolerance_change:
            break

    state.update(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=H_diag,
                 prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
    return orig_loss
