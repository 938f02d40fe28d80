"""torch.optim's Rprop, ASGD, Adafactor and Muon: their options, checks, lazily made state and
step."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors, optimizers
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.functional_checks import size_text
from gradcli.language.namespaces.optim import (OptimizerKind, _construct as construct_optimizer,
                                               _per_param, _step_count, _with_grads, _zeros,
                                               register_user_optimizers)


def _check_lr(options: dict) -> None:
    lr = options["lr"]
    if not 0.0 <= lr:
        raise errors.value_error(f"Invalid learning rate: {lr}")


def _check_rprop(options: dict) -> None:
    _check_lr(options)
    options["etas"] = etas = options["etas"] or (0.5, 1.2)  # the defaults, tuples
    options["step_sizes"] = options["step_sizes"] or (1e-06, 50)
    if not 0.0 < etas[0] < 1.0 < etas[1]:
        raise errors.value_error(f"Invalid eta values: {etas[0]}, {etas[1]}")


def _check_asgd(options: dict) -> None:
    _check_lr(options)
    if not 0.0 <= options["weight_decay"]:
        raise errors.value_error(f"Invalid weight_decay value: {options['weight_decay']}")


def _rprop_state(param: Tensor, group: dict) -> dict:
    return {"step": _step_count(), "prev": _zeros(param),
            "step_size": Tensor(np.full(param.shape, group["lr"], param.dtype.np), param.dtype)}


def _asgd_state(param: Tensor, group: dict) -> dict:
    return {"step": _step_count(), "eta": _step_count(group["lr"]), "mu": _step_count(1.0),
            "ax": _zeros(param)}


RPROP = OptimizerKind(
    "Rprop", "rprop", "lr=0.01, etas=None, step_sizes=None, *, capturable=False, "
    "foreach=None, maximize=False, differentiable=False",
    "lr, etas, step_sizes, foreach, maximize, differentiable, capturable", _check_rprop,
    _per_param(_rprop_state, optimizers.rprop))
ASGD = OptimizerKind(
    "ASGD", "asgd", "lr=0.01, lambd=0.0001, alpha=0.75, t0=1000000.0, weight_decay=0, "
    "foreach=None, maximize=False, differentiable=False, capturable=False",
    "lr, lambd, alpha, t0, weight_decay, foreach, maximize, differentiable, capturable",
    _check_asgd, _per_param(_asgd_state, optimizers.asgd))

MORE_OPTIMIZERS = {kind.name: kind.type for kind in (RPROP, ASGD)}
register_user_optimizers((RPROP, ASGD))


def _check_adafactor(options: dict) -> None:
    options["eps"] = eps = options["eps"] or (None, 0.001)  # the default, a tuple
    lr = options["lr"]
    checks = (
        (isinstance(lr, Tensor) and lr.numel() != 1, "Tensor lr must be 1-element"),
        (not 0.0 <= lr, f"Learning rate should be >= 0 but is: {lr}"),
        (not 0.0 >= options["beta2_decay"],
         f"beta2_decay should be <= 0 but is: {options['beta2_decay']}"),
        (eps[0] is not None and not 0.0 <= eps[0], f"epsilon1 should be >= 0 but is: {eps[0]}"),
        (not 0.0 <= eps[1], f"epsilon2 should be >= 0 but is: {eps[1]}"),
        (not 1.0 <= options["d"], f"Clipping threshold d should be >= 1 but is: {options['d']}"),
        (not 0.0 <= options["weight_decay"],
         f"weight_decay should be >= 0 but is: {options['weight_decay']}"))
    for failed, message in checks:
        if failed:
            raise errors.value_error(message)


def _adafactor_state(param: Tensor, group: dict) -> dict:
    """A matrix's row and column factors (its last dim, then the one before, reduced to 1), a
    vector's whole variance."""
    if param.dtype.is_complex:
        raise errors.runtime("Adafactor does not support complex parameters")
    if param.grad.ndim > 1:
        rows, cols = list(param.shape), list(param.shape)
        rows[-1], cols[-2] = 1, 1
        return {"step": _step_count(),
                "row_var": Tensor(np.zeros(rows, param.dtype.np), param.dtype),
                "col_var": Tensor(np.zeros(cols, param.dtype.np), param.dtype)}
    return {"step": _step_count(), "variance": _zeros(param)}


def _adafactor_step(optimizer, group: dict) -> None:
    """Each param with a grad, its state made on first use (not checked against the grad's
    shape: a matrix's factors are narrower)."""
    for param in _with_grads(group):
        state = optimizer.state.get(param)
        if not state:
            state = optimizer.state[param] = _adafactor_state(param, group)
        optimizers.adafactor(param, param.grad.data, state, **group)


ADAFACTOR = OptimizerKind(
    "Adafactor", "_adafactor", "lr=0.01, beta2_decay=-0.8, eps=None, d=1.0, "
    "weight_decay=0.0, *, foreach=None, maximize=False",
    "lr, beta2_decay, eps, d, weight_decay, foreach, maximize", _check_adafactor,
    _adafactor_step)
MORE_OPTIMIZERS[ADAFACTOR.name] = ADAFACTOR.type
register_user_optimizers((ADAFACTOR,))


_MUON_COEFFICIENTS = (3.4445, -4.7750, 2.0315)


def _check_muon(options: dict) -> None:
    if options["ns_coefficients"] is None:
        options["ns_coefficients"] = _MUON_COEFFICIENTS
    checks = (
        (not 0.0 <= options["lr"], f"Learning rate should be >= 0 but is: {options['lr']}"),
        (not 0.0 <= options["momentum"],
         f"momentum should be >= 0 but is: {options['momentum']}"),
        (not 0.0 <= options["weight_decay"],
         f"weight decay should be >= 0 but is: {options['weight_decay']}"),
        (options["adjust_lr_fn"] not in (None, "original", "match_rms_adamw"),
         f"Adjust learning rate function {options['adjust_lr_fn']} is not supported"))
    for failed, message in checks:
        if failed:
            raise errors.value_error(message)


def _muon_state(param: Tensor, group: dict) -> dict:
    if param.dtype.is_complex:
        raise errors.runtime("Muon does not support complex parameters")
    return {"momentum_buffer": _zeros(param)}


def _construct_muon(kind: OptimizerKind, params, *values, **keywords):
    """Muon's constructor: the options' checks, then every param a matrix."""
    optimizer = construct_optimizer(kind, params, *values, **keywords)
    for group in optimizer.param_groups:
        for param in group["params"]:
            if param.ndim != 2:
                raise errors.value_error("Muon only supports 2D parameters whereas we found a "
                                         f"parameter with size: {size_text(param)}")
    return optimizer


MUON = OptimizerKind(
    "Muon", "_muon", "lr=0.001, weight_decay=0.1, momentum=0.95, nesterov=True, "
    "ns_coefficients=None, eps=1e-07, ns_steps=5, adjust_lr_fn=None",
    "lr, weight_decay, momentum, nesterov, ns_coefficients, eps, ns_steps, adjust_lr_fn",
    _check_muon, _per_param(_muon_state, optimizers.muon), construct=_construct_muon)
MORE_OPTIMIZERS[MUON.name] = MUON.type
register_user_optimizers((MUON,))
