"""torch.optim's Rprop and ASGD: their options, checks, lazily made state and step."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors, optimizers
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.optim import (OptimizerKind, _per_param, _step_count,
                                               _zeros, register_user_optimizers)


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
