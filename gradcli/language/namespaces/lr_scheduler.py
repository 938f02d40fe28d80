"""torch.optim.lr_scheduler: the schedulers tutorials use, with torch's chainable formulas (each
new lr computed from the group's current one, so the float roundings are torch's too)."""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from gradcli.engine.records import record
from typing import Callable

from gradcli.engine import errors
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.coercions import tensor_float
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.objects import TableInstance
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, parse_signature, table
from gradcli.language.runtime.values import Namespace, iterate

_MODULE = "torch.optim.lr_scheduler"
_EPOCH_DEPRECATION = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where "
    "possible. Please use `scheduler.step()` to step the scheduler. During the deprecation, if "
    "epoch is different from None, the closed form is used instead of the new chainable form, "
    "where available. Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose.")
_STEP_ORDER = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
    "later, you should call them in the opposite order: `optimizer.step()` before "
    "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first value "
    "of the learning rate schedule. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")


@record(eq=False)
class SchedulerKind:
    """One scheduler class: its options (set as attributes before the first step, as torch's
    __init__ does), their checks, and its chainable and closed-form lr rules."""

    name: str
    options: str
    get_lr: Callable  # (scheduler, ctx) -> list of lrs
    closed_form: Callable | None = None  # (scheduler) -> list of lrs
    prepare: Callable | None = None  # (optimizer, options, last_epoch) -> attributes, checked
    step: Callable | None = None  # (scheduler, ctx, epoch): a step of its own, if it has one
    module: str = _MODULE  # the Python module defining the class

    def __post_init__(self) -> None:
        self.option_names = [p.name for p in parse_signature(self.options)]
        self.type = PyType(f"{self.module}.{self.name}", (Scheduler,), BoundMethod(self, entry(
            "__init__", _construct, "self, optimizer, " + self.options,
            qualname=f"{self.name}.__init__", context=True)))


def _check_optimizer(optimizer) -> None:
    # an Optimizer (namespaces.optim, which this module stays beneath): the only table value
    # with param groups and a step flag
    if not (isinstance(optimizer, TableInstance) and hasattr(optimizer, "param_groups")
            and hasattr(optimizer, "stepped")):
        from gradcli.language.runtime.values import type_name
        raise errors.type_error(f"{type_name(optimizer)} is not an Optimizer")


def options_of(kind: SchedulerKind, optimizer, values: tuple) -> tuple:
    """The attributes a scheduler class's __init__ sets from its arguments, and last_epoch."""
    options = dict(zip(kind.option_names, values))
    _check_optimizer(optimizer)
    last_epoch = options.pop("last_epoch")
    return (kind.prepare(optimizer, options, last_epoch) if kind.prepare else options), last_epoch


def _construct(ctx, kind: SchedulerKind, optimizer, *values):
    return Scheduler(ctx, kind, optimizer, *options_of(kind, optimizer, values))


def _lrs(optimizer) -> list:
    return [group["lr"] for group in optimizer.param_groups]


class Scheduler(TableInstance):
    """An LRScheduler: its attributes (what torch keeps in __dict__) live in `attrs`."""

    PROPERTIES = {"optimizer": lambda s: s.optimizer}
    __slots__ = ("kind", "optimizer", "attrs")

    def __init__(self, ctx, kind: SchedulerKind, optimizer, attrs: dict,
                 last_epoch: int):
        self.kind, self.attrs = kind, {}
        self.start(ctx, optimizer, attrs, last_epoch)

    def start(self, ctx, optimizer, attrs: dict, last_epoch: int) -> None:
        """LRScheduler.__init__, after the class's own attributes: the base lrs, then a first
        step."""
        self.optimizer = optimizer
        self.attrs.update(attrs)
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for number, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise errors.TorchError("KeyError", (
                        f"param 'initial_lr' is not specified in param_groups[{number}] when "
                        "resuming scheduler with last_epoch >= 0.\nThis typically happens when:\n"
                        "1. You're trying to resume training from a checkpoint but haven't "
                        "properly loaded the optimizer state\n2. You're using last_epoch >= 0 "
                        "for a fresh training run (not recommended)"))
        self.attrs |= {"base_lrs": [g["initial_lr"] for g in optimizer.param_groups],
                       "last_epoch": last_epoch, "_step_count": 0, "_is_initial": False,
                       "_get_lr_called_within_step": False}
        optimizer.watched = True
        self.initial_step(ctx)

    @property
    def language_type(self) -> PyType:
        return self.kind.type

    def repr(self, printer) -> str:
        return f"<{self.kind.module}.{self.kind.name} object at 0x{id(self):x}>"

    def initial_step(self, ctx) -> None:
        """LRScheduler._initial_step: a first step, in initial mode."""
        self.attrs["_step_count"] = 0
        self.attrs["_is_initial"] = True
        try:
            self.first_step(ctx)
        finally:
            self.attrs["_is_initial"] = False

    def first_step(self, ctx) -> None:
        self.step(ctx, None)

    def step(self, ctx, epoch) -> None:
        if self.kind.step is not None:
            self.kind.step(self, ctx, epoch)
            return
        attrs = self.attrs
        if attrs["_step_count"] == 1 and not self.optimizer.stepped:
            STATE.warn("UserWarning", _STEP_ORDER)
        attrs["_step_count"] += 1
        if epoch is not None:
            STATE.warn("UserWarning", _EPOCH_DEPRECATION)
        self.update_lr(ctx, epoch)

    def update_lr(self, ctx, epoch) -> None:
        """LRScheduler._update_lr: the next lrs (the closed form's at a given epoch)."""
        attrs = self.attrs
        attrs["_get_lr_called_within_step"] = True
        try:
            if epoch is None:
                attrs["last_epoch"] += 1
                values = self.next_lrs(ctx)
            else:
                attrs["last_epoch"] = epoch
                values = self.closed_form_lrs(ctx)
        finally:
            attrs["_get_lr_called_within_step"] = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        attrs["_last_lr"] = _lrs(self.optimizer)

    def next_lrs(self, ctx) -> list:
        """get_lr(), as step calls it."""
        return self.kind.get_lr(self, ctx)

    def closed_form_lrs(self, ctx) -> list:
        """_get_closed_form_lr() where the class has one, else get_lr()."""
        form = self.kind.closed_form
        return form(self) if form else self.next_lrs(ctx)

    def state_dict(self) -> dict:
        state = dict(self.attrs)
        if "lr_lambdas" in state:  # torch keeps only callable objects' __dict__s
            state["lr_lambdas"] = [None] * len(state.pop("lr_lambdas"))
        if "_scale_fn_custom" in state:  # CyclicLR's, moved last (a function is not kept)
            state["_scale_fn_custom"] = state.pop("_scale_fn_custom") and None
        return state

    def get_lr(self, ctx):
        if not self.attrs.get("_get_lr_called_within_step", True):
            STATE.warn("UserWarning", "To get the last learning rate computed by the scheduler, "
                       "please use `get_last_lr()`.")
        return self.kind.get_lr(self, ctx)


def _group_lrs_times(scheduler: Scheduler, factor) -> list:
    return [group["lr"] * factor for group in scheduler.optimizer.param_groups]


def _step_lr(s: Scheduler, ctx) -> list:
    epoch, size = s.attrs["last_epoch"], s.attrs["step_size"]
    if epoch == 0 or epoch % size != 0:
        return _lrs(s.optimizer)
    return _group_lrs_times(s, s.attrs["gamma"])


def _multi_step_lr(s: Scheduler, ctx) -> list:
    milestones = s.attrs["milestones"]
    if s.attrs["last_epoch"] not in milestones:
        return _lrs(s.optimizer)
    return _group_lrs_times(s, s.attrs["gamma"] ** milestones[s.attrs["last_epoch"]])


def _exponential_lr(s: Scheduler, ctx) -> list:
    if s.attrs["_is_initial"]:
        return _lrs(s.optimizer)
    return _group_lrs_times(s, s.attrs["gamma"])


def _cosine_lr(s: Scheduler, ctx) -> list:
    a = s.attrs
    epoch, t_max, eta_min = a["last_epoch"], a["T_max"], a["eta_min"]
    if a["_is_initial"]:
        return _lrs(s.optimizer)
    if a["_step_count"] == 1 and epoch > 0:
        return [eta_min + (base - eta_min) * (1 + math.cos(epoch * math.pi / t_max)) / 2
                for base in a["base_lrs"]]
    if (epoch - 1 - t_max) % (2 * t_max) == 0:
        return [group["lr"] + (base - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
                for base, group in zip(a["base_lrs"], s.optimizer.param_groups)]
    return [(1 + math.cos(math.pi * epoch / t_max)) / (1 + math.cos(math.pi * (epoch - 1) / t_max))
            * (group["lr"] - eta_min) + eta_min for group in s.optimizer.param_groups]


def _linear_lr(s: Scheduler, ctx) -> list:
    a = s.attrs
    epoch, start, end, total = a["last_epoch"], a["start_factor"], a["end_factor"], \
        a["total_iters"]
    if epoch == 0:
        return _group_lrs_times(s, start)
    if a["_is_initial"] or epoch > total:
        return _lrs(s.optimizer)
    return _group_lrs_times(s, 1.0 + (end - start) / (total * start + (epoch - 1) * (end - start)))


def _lambda_lr(s: Scheduler, ctx) -> list:
    epoch = s.attrs["last_epoch"]
    return [base * ctx.call(fn, [epoch], {})
            for fn, base in zip(s.attrs["lr_lambdas"], s.attrs["base_lrs"])]


def _multiplicative_lr(s: Scheduler, ctx) -> list:
    epoch = s.attrs["last_epoch"]
    if epoch > 0:
        return [group["lr"] * ctx.call(fn, [epoch], {})
                for fn, group in zip(s.attrs["lr_lambdas"], s.optimizer.param_groups)]
    return _lrs(s.optimizer)


def _prepare_lambdas(optimizer, options: dict, _last_epoch=-1) -> dict:
    fn = options.pop("lr_lambda")
    count = len(optimizer.param_groups)
    if isinstance(fn, (list, tuple)):
        if len(fn) != count:
            raise errors.value_error(f"Expected {count} lr_lambdas, but got {len(fn)}")
        return {"lr_lambdas": list(fn)}
    return {"lr_lambdas": [fn] * count}


def _prepare_multi_step(optimizer, options: dict, _last_epoch=-1) -> dict:
    return {"milestones": Counter(iterate(options["milestones"])), "gamma": options["gamma"]}


def _prepare_linear(optimizer, options: dict, _last_epoch=-1) -> dict:
    if options["start_factor"] > 1.0 or options["start_factor"] <= 0:
        raise errors.value_error("Starting multiplicative factor expected to be greater than 0 "
                                 "and less or equal to 1.")
    if options["end_factor"] > 1.0 or options["end_factor"] < 0:
        raise errors.value_error("Ending multiplicative factor expected to be between 0 and 1.")
    return options


def _closed_step(s: Scheduler) -> list:
    a = s.attrs
    return [base * a["gamma"] ** (a["last_epoch"] // a["step_size"]) for base in a["base_lrs"]]


def _closed_multi_step(s: Scheduler) -> list:
    a = s.attrs
    milestones = sorted(a["milestones"].elements())
    return [base * a["gamma"] ** bisect_right(milestones, a["last_epoch"])
            for base in a["base_lrs"]]


def _closed_exponential(s: Scheduler) -> list:
    return [base * s.attrs["gamma"] ** s.attrs["last_epoch"] for base in s.attrs["base_lrs"]]


def _closed_cosine(s: Scheduler) -> list:
    a = s.attrs
    return [a["eta_min"] + (base - a["eta_min"]) * (1 + math.cos(
        math.pi * a["last_epoch"] / a["T_max"])) / 2 for base in a["base_lrs"]]


def _closed_linear(s: Scheduler) -> list:
    a = s.attrs
    return [base * (a["start_factor"] + (a["end_factor"] - a["start_factor"]) * min(
        a["total_iters"], a["last_epoch"]) / a["total_iters"]) for base in a["base_lrs"]]


def _per_group(name: str, optimizer, value) -> list:
    """torch's _format_param: one value per param group (a list's length checked)."""
    count = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != count:
            raise errors.value_error(
                f"{name} must have the same length as optimizer.param_groups. {name} has "
                f"{len(value)} values, param_groups has {count}.")
        return list(value)
    return [value] * count


_CYCLIC_SCALE_MODES = {"triangular": "cycle", "triangular2": "cycle", "exp_range": "iterations"}


def _prepare_cyclic(optimizer, options: dict, last_epoch: int) -> dict:
    """CyclicLR.__init__: the lrs set to base_lr, the cycle's sizes, the momentum bounds."""
    base_lrs = _per_group("base_lr", optimizer, options["base_lr"])
    if last_epoch == -1:
        for lr, group in zip(base_lrs, optimizer.param_groups):
            group["lr"] = lr
    up = float(options["step_size_up"])
    down = up if options["step_size_down"] is None else float(options["step_size_down"])
    mode, custom = options["mode"], options["scale_fn"]
    if mode not in _CYCLIC_SCALE_MODES and custom is None:
        raise errors.value_error("mode is invalid and scale_fn is None")
    attrs = {"max_lrs": _per_group("max_lr", optimizer, options["max_lr"]),
             "total_size": up + down, "step_ratio": up / (up + down), "mode": mode,
             "gamma": options["gamma"], "_scale_fn_custom": custom,
             "scale_mode": options["scale_mode"] if custom is not None
             else _CYCLIC_SCALE_MODES[mode], "cycle_momentum": options["cycle_momentum"]}
    if options["cycle_momentum"]:
        defaults = optimizer.defaults
        if "momentum" not in defaults and "betas" not in defaults:
            raise errors.value_error(
                "optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
        attrs["use_beta1"] = "betas" in defaults
        attrs["base_momentums"] = _per_group("base_momentum", optimizer,
                                             options["base_momentum"])
        attrs["max_momentums"] = _per_group("max_momentum", optimizer, options["max_momentum"])
        if last_epoch == -1:
            for top, bottom, group in zip(attrs["max_momentums"], attrs["base_momentums"],
                                          optimizer.param_groups):
                _set_momentum(group, top, attrs["use_beta1"])
                group["max_momentum"], group["base_momentum"] = top, bottom
    return attrs


def _set_momentum(group: dict, value, use_beta1: bool) -> None:
    if use_beta1:
        group["betas"] = (value, *group["betas"][1:])
    else:
        group["momentum"] = value


def _cyclic_scale(s: Scheduler, ctx, x):
    a = s.attrs
    if a["_scale_fn_custom"] is not None:
        return ctx.call(a["_scale_fn_custom"], [x], {})
    if a["mode"] == "triangular":
        return 1.0
    if a["mode"] == "triangular2":
        return 1 / (2.0 ** (x - 1))
    return a["gamma"] ** x


def _cyclic_lr(s: Scheduler, ctx) -> list:
    a = s.attrs
    epoch, total, ratio = a["last_epoch"], a["total_size"], a["step_ratio"]
    cycle = math.floor(1 + epoch / total)
    x = 1.0 + epoch / total - cycle
    scale_factor = x / ratio if x <= ratio else (x - 1) / (ratio - 1)
    at = cycle if a["scale_mode"] == "cycle" else epoch
    lrs = [base + (top - base) * scale_factor * _cyclic_scale(s, ctx, at)
           for base, top in zip(a["base_lrs"], a["max_lrs"])]
    if a["cycle_momentum"]:
        momentums = [top - (top - bottom) * scale_factor * _cyclic_scale(s, ctx, at)
                     for bottom, top in zip(a["base_momentums"], a["max_momentums"])]
        for group, momentum in zip(s.optimizer.param_groups, momentums):
            _set_momentum(group, momentum, a["use_beta1"])
    return lrs


KINDS = (
    SchedulerKind("StepLR", "step_size, gamma=0.1, last_epoch=-1", _step_lr, _closed_step),
    SchedulerKind("MultiStepLR", "milestones, gamma=0.1, last_epoch=-1", _multi_step_lr,
                  _closed_multi_step, _prepare_multi_step),
    SchedulerKind("ExponentialLR", "gamma, last_epoch=-1", _exponential_lr, _closed_exponential),
    SchedulerKind("CosineAnnealingLR", "T_max, eta_min=0.0, last_epoch=-1", _cosine_lr,
                  _closed_cosine),
    SchedulerKind("LinearLR", "start_factor=0.3333333333333333, end_factor=1.0, total_iters=5, "
                  "last_epoch=-1", _linear_lr, _closed_linear, _prepare_linear),
    SchedulerKind("LambdaLR", "lr_lambda, last_epoch=-1", _lambda_lr, None, _prepare_lambdas),
    SchedulerKind("MultiplicativeLR", "lr_lambda, last_epoch=-1", _multiplicative_lr, None,
                  _prepare_lambdas),
    SchedulerKind("CyclicLR", "base_lr, max_lr, step_size_up=2000, step_size_down=None, "
                  "mode='triangular', gamma=1.0, scale_fn=None, scale_mode='cycle', "
                  "cycle_momentum=True, base_momentum=0.8, max_momentum=0.9, last_epoch=-1",
                  _cyclic_lr, None, _prepare_cyclic),
)


def _metric(value) -> float:
    """float(metrics), as ReduceLROnPlateau.step reads its metric."""
    return tensor_float(value) if isinstance(value, Tensor) else float(value)


class Plateau(TableInstance):
    """ReduceLROnPlateau: the lr shrinks by `factor` after `patience` epochs without progress."""

    PROPERTIES = {"optimizer": lambda s: s.optimizer}
    __slots__ = ("optimizer", "attrs")

    def __init__(self, optimizer, mode, factor, patience, threshold, threshold_mode, cooldown,
                 min_lr, eps):
        if factor >= 1.0:
            raise errors.value_error("Factor should be < 1.0.")
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        count = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != count:
                raise errors.value_error(f"expected {count} min_lrs, got {len(min_lr)}")
            default, min_lrs = None, list(min_lr)
        else:
            default, min_lrs = min_lr, [min_lr] * count
        if mode not in {"min", "max"}:
            raise errors.value_error("mode " + mode + " is unknown!")
        if threshold_mode not in {"rel", "abs"}:
            raise errors.value_error("threshold mode " + threshold_mode + " is unknown!")
        worse = math.inf if mode == "min" else -math.inf
        self.attrs = {"factor": factor, "default_min_lr": default, "min_lrs": min_lrs,
                      "patience": patience, "cooldown": cooldown, "eps": eps, "last_epoch": 0,
                      "_last_lr": _lrs(optimizer), "mode_worse": worse, "mode": mode,
                      "threshold": threshold, "threshold_mode": threshold_mode, "best": worse,
                      "cooldown_counter": 0, "num_bad_epochs": 0}

    @property
    def language_type(self) -> PyType:
        return PLATEAU

    def repr(self, printer) -> str:
        return f"<{_MODULE}.ReduceLROnPlateau object at 0x{id(self):x}>"

    def _is_better(self, a: float) -> bool:
        mode, threshold, best = self.attrs["mode"], self.attrs["threshold"], self.attrs["best"]
        if self.attrs["threshold_mode"] == "rel":
            return a < best * (1.0 - threshold) if mode == "min" else a > best * (threshold + 1.0)
        return a < best - threshold if mode == "min" else a > best + threshold

    def step(self, metrics, epoch) -> None:
        a = self.attrs
        current = _metric(metrics)
        if epoch is None:
            epoch = a["last_epoch"] + 1
        else:
            STATE.warn("UserWarning", _EPOCH_DEPRECATION)
        a["last_epoch"] = epoch
        if self._is_better(current):
            a["best"], a["num_bad_epochs"] = current, 0
        else:
            a["num_bad_epochs"] += 1
        if a["cooldown_counter"] > 0:
            a["cooldown_counter"] -= 1
            a["num_bad_epochs"] = 0
        if a["num_bad_epochs"] > a["patience"]:
            self._reduce()
            a["cooldown_counter"], a["num_bad_epochs"] = a["cooldown"], 0
        a["_last_lr"] = _lrs(self.optimizer)

    def _reduce(self) -> None:
        a = self.attrs
        groups = self.optimizer.param_groups
        if len(groups) != len(a["min_lrs"]):
            if a["default_min_lr"] is None:
                raise errors.runtime(
                    f"The number of param groups in the `optimizer` ({len(groups)}) differs from "
                    f"when `ReduceLROnPlateau` was initialized ({len(a['min_lrs'])}), usually due "
                    "to a new param group being added to the optimizer. Please modify the "
                    "`min_lrs` field to match the length of the `optimizer` param groups.")
            a["min_lrs"] = [a["default_min_lr"]] * len(groups)
        for number, group in enumerate(groups):
            old = float(group["lr"])
            new = max(old * a["factor"], a["min_lrs"][number])
            if old - new > a["eps"]:
                group["lr"] = new

    def state_dict(self) -> dict:
        return dict(self.attrs)


_COMMON = table(
    entry("get_last_lr", lambda s: s.attrs["_last_lr"], "self",
          qualname="LRScheduler.get_last_lr"),
    entry("state_dict", lambda s: s.state_dict(), "self", qualname="LRScheduler.state_dict"),
    entry("load_state_dict", lambda s, state: s.attrs.update(state), "self, state_dict",
          qualname="LRScheduler.load_state_dict"),
)
Scheduler.METHODS = _COMMON | table(
    entry("step", lambda ctx, s, epoch: s.step(ctx, epoch), "self, epoch=None", context=True,
          qualname="LRScheduler.step"),
    entry("get_lr", lambda ctx, s: s.get_lr(ctx), "self", context=True),
)
Plateau.METHODS = _COMMON | table(
    entry("step", lambda s, metrics, epoch: s.step(metrics, epoch), "self, metrics, epoch=None",
          qualname="ReduceLROnPlateau.step"),
    entry("load_state_dict", lambda s, state: s.attrs.update(state), "self, state_dict",
          qualname="ReduceLROnPlateau.load_state_dict"),
)

PLATEAU = PyType(f"{_MODULE}.ReduceLROnPlateau", (Plateau,), BoundMethod(None, entry(
    "__init__", lambda _, *args: Plateau(*args),
    "self, optimizer, mode='min', factor=0.1, patience=10, threshold=0.0001, "
    "threshold_mode='rel', cooldown=0, min_lr=0, eps=1e-08",
    qualname="ReduceLROnPlateau.__init__")))

LR_SCHEDULER = Namespace(_MODULE, {kind.name: kind.type for kind in KINDS} | {
    "ReduceLROnPlateau": PLATEAU})
