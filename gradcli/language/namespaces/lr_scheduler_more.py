"""torch.optim.lr_scheduler's ConstantLR, PolynomialLR and CosineAnnealingWarmRestarts, and the
schedulers that drive others (SequentialLR, ChainedScheduler), in torch's arithmetic order."""

from __future__ import annotations

import math
from bisect import bisect_right

from gradcli.engine import errors
from gradcli.language.namespaces.builtins import class_text
from gradcli.language.namespaces.lr_scheduler import (Plateau, Scheduler, SchedulerKind,
                                                      _check_optimizer, _lrs, _MODULE)
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.objects import TableInstance
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import iterate


def _constant_lr(s: Scheduler, ctx) -> list:
    a = s.attrs
    if a["last_epoch"] == 0:
        return [group["lr"] * a["factor"] for group in s.optimizer.param_groups]
    if a["last_epoch"] != a["total_iters"]:
        return _lrs(s.optimizer)
    return [group["lr"] * (1.0 / a["factor"]) for group in s.optimizer.param_groups]


def _closed_constant(s: Scheduler) -> list:
    a = s.attrs
    return [base * (a["factor"] + (a["last_epoch"] >= a["total_iters"]) * (1 - a["factor"]))
            for base in a["base_lrs"]]


def _prepare_constant(optimizer, options: dict, _last_epoch=-1) -> dict:
    if options["factor"] > 1.0 or options["factor"] < 0:
        raise errors.value_error("Constant multiplicative factor expected to be between 0 and 1.")
    return options


def _polynomial_lr(s: Scheduler, ctx) -> list:
    a = s.attrs
    if a["_is_initial"] or a["last_epoch"] > a["total_iters"]:
        return _lrs(s.optimizer)
    factor = ((1.0 - a["last_epoch"] / a["total_iters"])
              / (1.0 - (a["last_epoch"] - 1) / a["total_iters"])) ** a["power"]
    return [group["lr"] * factor for group in s.optimizer.param_groups]


def _closed_polynomial(s: Scheduler) -> list:
    a = s.attrs
    return [base * (1.0 - min(a["total_iters"], a["last_epoch"]) / a["total_iters"]) ** a["power"]
            for base in a["base_lrs"]]


def _warm_restarts_lr(s: Scheduler, ctx) -> list:
    a = s.attrs
    return [a["eta_min"] + (base - a["eta_min"]) * (1 + math.cos(math.pi * a["T_cur"] / a["T_i"]))
            / 2 for base in a["base_lrs"]]


def _prepare_warm_restarts(optimizer, options: dict, _last_epoch=-1) -> dict:
    t_0, t_mult, eta_min = options["T_0"], options["T_mult"], options["eta_min"]
    if not isinstance(t_0, int) or t_0 <= 0:
        raise errors.value_error(f"Expected positive integer T_0, but got {t_0}")
    if not isinstance(t_mult, int) or t_mult < 1:
        raise errors.value_error(f"Expected integer T_mult >= 1, but got {t_mult}")
    if not isinstance(eta_min, (float, int)):
        raise errors.value_error(f"Expected float or int eta_min, but got {eta_min} of type "
                                 f"{class_text(eta_min)}")
    # T_cur starts at last_epoch, which the first step reads
    return {"T_0": t_0, "T_i": t_0, "T_mult": t_mult, "eta_min": eta_min, "T_cur": None}


def _warm_restarts_step(s: Scheduler, ctx, epoch) -> None:
    """CosineAnnealingWarmRestarts.step, which replaces LRScheduler.step (no order warning)."""
    a = s.attrs
    if a["T_cur"] is None:
        a["T_cur"] = a["last_epoch"]
    if epoch is None and a["last_epoch"] < 0:
        epoch = 0
    if epoch is None:
        epoch = a["last_epoch"] + 1
        a["T_cur"] += 1
        if a["T_cur"] >= a["T_i"]:
            a["T_cur"] %= a["T_i"]
            a["T_i"] *= a["T_mult"]
    elif epoch < 0:
        raise errors.value_error(f"Expected non-negative epoch, but got {epoch}")
    elif epoch >= a["T_0"]:
        if a["T_mult"] == 1:
            a["T_cur"] = epoch % a["T_0"]
        else:
            n = int(math.log((epoch / a["T_0"] * (a["T_mult"] - 1) + 1), a["T_mult"]))
            a["T_cur"] = epoch - a["T_0"] * (a["T_mult"] ** n - 1) / (a["T_mult"] - 1)
            a["T_i"] = a["T_0"] * a["T_mult"] ** n
    else:
        a["T_i"], a["T_cur"] = a["T_0"], epoch
    a["last_epoch"] = math.floor(epoch)
    a["_get_lr_called_within_step"] = True
    try:
        values = _warm_restarts_lr(s, ctx)
    finally:
        a["_get_lr_called_within_step"] = False
    for group, lr in zip(s.optimizer.param_groups, values):
        group["lr"] = lr
    a["_last_lr"] = _lrs(s.optimizer)


KINDS = (
    SchedulerKind("ConstantLR", "factor=0.3333333333333333, total_iters=5, last_epoch=-1",
                  _constant_lr, _closed_constant, _prepare_constant),
    SchedulerKind("PolynomialLR", "total_iters=5, power=1.0, last_epoch=-1", _polynomial_lr,
                  _closed_polynomial),
    SchedulerKind("CosineAnnealingWarmRestarts", "T_0, T_mult=1, eta_min=0.0, last_epoch=-1",
                  _warm_restarts_lr, None, _prepare_warm_restarts, _warm_restarts_step),
)


class Composite(TableInstance):
    """SequentialLR or ChainedScheduler: schedulers of one optimizer, stepped in turn."""

    PROPERTIES = {"optimizer": lambda s: s.optimizer}
    __slots__ = ("name", "optimizer", "attrs")

    def __init__(self, ctx, name: str, optimizer, schedulers, attrs: dict):
        self.name = name
        schedulers = list(iterate(schedulers))
        if not schedulers:
            raise errors.value_error(
                f"{name} expects at least one scheduler" + (", but got no scheduler." if name ==
                                                            "SequentialLR" else
                                                            " to be chained, but got no scheduler."))
        if optimizer is None:  # (ChainedScheduler's, read before the checks)
            if not isinstance(schedulers[0], (Scheduler, Plateau, Composite)):
                raise errors.no_attribute(schedulers[0], "optimizer")
            optimizer = schedulers[0].optimizer
        for number, scheduler in enumerate(schedulers):
            owner = _optimizer_of(scheduler, number, name)
            if isinstance(scheduler, Plateau):
                raise errors.value_error(
                    f"{name} does not support `ReduceLROnPlateau` scheduler as it requires "
                    "additional kwargs to be specified when calling `step`, but got one at index "
                    f"{number} in the given schedulers sequence.")
            if owner is not optimizer:
                raise errors.value_error(
                    f"{name} expects all schedulers to belong to the same optimizer, but got "
                    f"scheduler {scheduler.language_type.name.rsplit('.', 1)[-1]} at index "
                    f"{number} has {ctx.printer.repr(owner)}, which is different from "
                    f"{optimizer.class_name}.")
        self.optimizer = optimizer
        self.attrs = {"_schedulers": schedulers, **attrs}

    @property
    def language_type(self) -> PyType:
        return TYPES[self.name]

    def repr(self, printer) -> str:
        return f"<{_MODULE}.{self.name} object at 0x{id(self):x}>"

    def state_dict(self) -> dict:
        state = {key: value for key, value in self.attrs.items() if key != "_schedulers"}
        state["_schedulers"] = [s.state_dict() for s in self.attrs["_schedulers"]]
        return state

    def load_state_dict(self, state: dict) -> None:
        inner = state.pop("_schedulers")
        self.attrs.update(state)
        state["_schedulers"] = inner
        for scheduler, each in zip(self.attrs["_schedulers"], inner):
            if isinstance(scheduler, Composite):
                scheduler.load_state_dict(each)
            else:
                scheduler.attrs.update(each)


def _optimizer_of(scheduler, number: int, name: str):
    if not isinstance(scheduler, (Scheduler, Plateau, Composite)):
        raise errors.type_error(f"{name} at index {number} should have `optimizer` as its "
                                "attribute.")
    return scheduler.optimizer


def _sequential(ctx, optimizer, schedulers, milestones, last_epoch=-1) -> Composite:
    _check_optimizer(optimizer)
    milestones = list(iterate(milestones))
    made = Composite(ctx, "SequentialLR", optimizer, schedulers,
                     {"_milestones": milestones, "last_epoch": last_epoch + 1})
    inner = made.attrs["_schedulers"]
    if len(milestones) != len(inner) - 1:
        raise errors.value_error(
            "Sequential Schedulers expects number of schedulers provided to be one more than the "
            f"number of milestone points, but got number of schedulers {len(inner)} and the "
            f"number of milestones to be equal to {len(milestones)}")
    for group in optimizer.param_groups:
        group["lr"] = group["initial_lr"]
    _undo(made)
    first = inner[bisect_right(milestones, 0)]
    first.initial_step(ctx)
    made.attrs["_last_lr"] = first.attrs["_last_lr"]
    return made


def _undo(scheduler) -> None:
    """SequentialLR.recursive_undo: every scheduler inside goes back one epoch."""
    if isinstance(scheduler, Composite):
        for each in scheduler.attrs["_schedulers"]:
            _undo(each)
    elif "last_epoch" in scheduler.attrs:
        scheduler.attrs["last_epoch"] -= 1


def _sequential_step(ctx, s: Composite) -> None:
    a = s.attrs
    a["last_epoch"] += 1
    number = bisect_right(a["_milestones"], a["last_epoch"])
    scheduler = a["_schedulers"][number]
    if number > 0 and a["_milestones"][number - 1] == a["last_epoch"]:
        scheduler.update_lr(ctx, 0)
    else:
        _step(ctx, scheduler)
    a["_last_lr"] = scheduler.attrs["_last_lr"]


def _chained(ctx, schedulers, optimizer=None) -> Composite:
    made = Composite(ctx, "ChainedScheduler", optimizer, schedulers, {})
    made.attrs["_last_lr"] = _lrs(made.attrs["_schedulers"][-1].optimizer)
    return made


def _chained_step(ctx, s: Composite) -> None:
    for scheduler in s.attrs["_schedulers"]:
        _step(ctx, scheduler)
    s.attrs["_last_lr"] = _lrs(s.attrs["_schedulers"][-1].optimizer)


def _step(ctx, scheduler) -> None:
    if isinstance(scheduler, Composite):
        STEPS[scheduler.name](ctx, scheduler)
    else:
        scheduler.step(ctx, None)


STEPS = {"SequentialLR": _sequential_step, "ChainedScheduler": _chained_step}
Composite.METHODS = table(
    entry("step", lambda ctx, s: _step(ctx, s), "self", context=True),
    entry("get_last_lr", lambda s: s.attrs["_last_lr"], "self"),
    entry("state_dict", lambda s: s.state_dict(), "self"),
    entry("load_state_dict", lambda s, state: s.load_state_dict(state), "self, state_dict"),
)
TYPES = {
    "SequentialLR": PyType(f"{_MODULE}.SequentialLR", (Composite,), BoundMethod(None, entry(
        "__init__", lambda ctx, _, *args: _sequential(ctx, *args),
        "self, optimizer, schedulers, milestones, last_epoch=-1",
        qualname="SequentialLR.__init__", context=True))),
    "ChainedScheduler": PyType(f"{_MODULE}.ChainedScheduler", (Composite,), BoundMethod(None, entry(
        "__init__", lambda ctx, _, *args: _chained(ctx, *args), "self, schedulers, optimizer=None",
        qualname="ChainedScheduler.__init__", context=True))),
}
MORE_SCHEDULERS = {kind.name: kind.type for kind in KINDS} | TYPES
