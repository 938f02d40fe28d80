"""torch.optim.lr_scheduler.OneCycleLR: the 1cycle policy's lr (and momentum) phases, in
torch's arithmetic order."""

from __future__ import annotations

import math

from gradcli.engine import errors
from gradcli.language.namespaces.lr_scheduler import Scheduler, SchedulerKind


def _per_group(name: str, optimizer, value) -> list:
    count = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != count:
            raise errors.value_error(
                f"{name} must have the same length as optimizer.param_groups. {name} has "
                f"{len(value)} values, param_groups has {count}.")
        return list(value)
    return [value] * count


def _positive(name: str, value) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise errors.value_error(f"Expected positive integer {name}, but got {value}")


def _total_steps(options: dict) -> int:
    if options["total_steps"] is not None:
        total = options["total_steps"]
        if total <= 0 or not isinstance(total, int):
            raise errors.value_error(f"Expected positive integer total_steps, but got {total}")
        return total
    if options["epochs"] is not None and options["steps_per_epoch"] is not None:
        _positive("epochs", options["epochs"])
        _positive("steps_per_epoch", options["steps_per_epoch"])
        return options["epochs"] * options["steps_per_epoch"]
    raise errors.value_error("You must define either total_steps OR (epochs AND steps_per_epoch)")


def _phases(total: int, pct: float, three_phase: bool) -> list:
    first = (float(pct * total) - 1, "initial_lr", "max_lr", "max_momentum", "base_momentum")
    if three_phase:
        return [first, (float(2 * pct * total) - 2, "max_lr", "initial_lr", "base_momentum",
                        "max_momentum"),
                (total - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum")]
    return [first, (total - 1, "max_lr", "min_lr", "base_momentum", "max_momentum")]


def _prepare(optimizer, options: dict, _last_epoch=-1) -> dict:
    total = _total_steps(options)
    pct, strategy = options["pct_start"], options["anneal_strategy"]
    if not isinstance(pct, float) or pct < 0 or pct > 1:
        raise errors.value_error(f"Expected float between 0 and 1 pct_start, but got {pct}")
    if strategy not in ("cos", "linear"):
        raise errors.value_error(f"anneal_strategy must be one of 'cos' or 'linear', instead got "
                                 f"{strategy}")
    groups = optimizer.param_groups
    for lr, group in zip(_per_group("max_lr", optimizer, options["max_lr"]), groups):
        group["initial_lr"] = lr / options["div_factor"]
        group["max_lr"] = lr
        group["min_lr"] = group["initial_lr"] / options["final_div_factor"]
    attrs = {"total_steps": total, "_schedule_phases": _phases(total, pct, options[
        "three_phase"]), "_anneal_func_type": strategy, "cycle_momentum": options[
        "cycle_momentum"]}
    if options["cycle_momentum"]:
        if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
            raise errors.value_error("optimizer must support momentum or beta1 with "
                                     "`cycle_momentum` option enabled")
        attrs["use_beta1"] = "betas" in optimizer.defaults
        highs = _per_group("max_momentum", optimizer, options["max_momentum"])
        lows = _per_group("base_momentum", optimizer, options["base_momentum"])
        for high, low, group in zip(highs, lows, groups):
            _set_momentum(group, high, attrs["use_beta1"])
            group["max_momentum"], group["base_momentum"] = high, low
    return attrs


def _set_momentum(group: dict, value, beta1: bool) -> None:
    if beta1:
        group["betas"] = (value, *group["betas"][1:])
    else:
        group["momentum"] = value


def _anneal(kind: str, start, end, pct):
    if kind == "cos":
        return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
    return (end - start) * pct + start


def _one_cycle_lr(s: Scheduler, ctx) -> list:
    a = s.attrs
    step = a["last_epoch"]
    if step > a["total_steps"]:
        raise errors.value_error(f"Tried to step {step} times. The specified number of total "
                                 f"steps is {a['total_steps']}")
    lrs, phases = [], a["_schedule_phases"]
    for group in s.optimizer.param_groups:
        start = 0.0
        for number, (end, lr_from, lr_to, m_from, m_to) in enumerate(phases):
            if step <= end or number == len(phases) - 1:
                pct = (step - start) / (end - start)
                lrs.append(_anneal(a["_anneal_func_type"], group[lr_from], group[lr_to], pct))
                if a["cycle_momentum"]:
                    _set_momentum(group, _anneal(a["_anneal_func_type"], group[m_from],
                                                 group[m_to], pct), a["use_beta1"])
                break
            start = end
    return lrs


ONE_CYCLE = SchedulerKind(
    "OneCycleLR", "max_lr, total_steps=None, epochs=None, steps_per_epoch=None, pct_start=0.3, "
    "anneal_strategy='cos', cycle_momentum=True, base_momentum=0.85, max_momentum=0.95, "
    "div_factor=25.0, final_div_factor=10000.0, three_phase=False, last_epoch=-1",
    _one_cycle_lr, None, _prepare)
