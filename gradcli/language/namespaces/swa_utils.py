"""torch.optim.swa_utils: AveragedModel (a deep copy whose parameters average the model's),
SWALR, update_bn and the averaging functions, in torch's order of operations."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, errors, parameters
from gradcli.engine.fma import lerp
from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.lr_scheduler import SchedulerKind
from gradcli.language.namespaces.modules import Module, ModuleKind, _named_buffers
from gradcli.language.namespaces.python_copy import deepcopy
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, iterate

PATH = "torch.optim.swa_utils"


def _swa(averaged: np.ndarray, current: np.ndarray, count: int) -> np.ndarray:
    """get_swa_avg_fn: averaged + (current - averaged) / (num_averaged + 1)."""
    return averaged + (current - averaged) / averaged.dtype.type(count + 1)


def _ema_multi(decay):
    """get_ema_multi_avg_fn(decay): a foreach lerp of the averages towards the model's."""
    def update(ema_params, current_params, _):
        for ema, current in zip(ema_params, current_params):
            if ema.dtype.is_floating_point:
                parameters.write(ema, lerp(ema.data, current.data, 1 - decay))
            else:
                parameters.write(ema, ema.data * decay + current.data * (1 - decay))
    return entry("ema_update", update, "ema_param_list, current_param_list, _",
                 qualname="get_ema_multi_avg_fn.<locals>.ema_update")


def _swa_avg():
    """get_swa_avg_fn()."""
    def update(averaged, current, num_averaged):
        return Tensor(_swa(averaged.data, current.data.astype(averaged.data.dtype),
                           int(num_averaged.data)), averaged.dtype)
    return entry("swa_update", update, "averaged_param, current_param, num_averaged",
                 qualname="get_swa_avg_fn.<locals>.swa_update")


def _ema(decay):
    """get_ema_avg_fn(decay): decay * ema + (1 - decay) * current, as a tensor expression."""
    def update(ema, current, num_averaged):
        return Tensor(lerp(ema.data, current.data, 1 - decay), ema.dtype)
    return entry("ema_update", update, "ema_param, current_param, num_averaged",
                 qualname="get_ema_avg_fn.<locals>.ema_update")


def _build(module: Module, model, device, avg_fn, multi_avg_fn, use_buffers) -> None:
    if avg_fn is not None and multi_avg_fn is not None:
        raise errors.TorchError("AssertionError",
                                "Only one of avg_fn and multi_avg_fn should be provided")
    module.children["module"] = deepcopy(model)
    module.buffers["n_averaged"] = Tensor(np.array(0, np.int64), dtypes.int64)
    module.attrs.update(avg_fn=avg_fn, multi_avg_fn=multi_avg_fn, use_buffers=use_buffers)


def _members(module: Module, use_buffers: bool) -> list:
    params = [p for _, p in module.named_parameters()]
    return params + [b for _, b in _named_buffers(module)] if use_buffers else params


def update_parameters(ctx, averaged: Module, model) -> None:
    """AveragedModel.update_parameters: copy on the first call, then average."""
    a, inner = averaged.attrs, averaged.children["module"]
    mine = _members(inner if a["use_buffers"] else averaged, a["use_buffers"])
    theirs = _members(model, a["use_buffers"])
    pairs = list(zip(mine, theirs))
    count = int(averaged.buffers["n_averaged"].data)
    if count == 0:
        for p_avg, p_model in pairs:
            parameters.write(p_avg, p_model.data)
    else:
        with grad_mode(False):
            _average(ctx, a, pairs, count, averaged.buffers["n_averaged"])
    if not a["use_buffers"]:
        for b_swa, b_model in zip(_named_buffers(inner), _named_buffers(model)):
            parameters.write(b_swa[1], b_model[1].data)
    counter = averaged.buffers["n_averaged"]
    parameters.write(counter, counter.data + 1)


def _average(ctx, a: dict, pairs: list, count: int, n_averaged: Tensor) -> None:
    if a["multi_avg_fn"] is not None:
        groups: dict = {}  # _group_tensors_by_device_and_dtype
        for p_avg, p_model in pairs:
            group = groups.setdefault(p_avg.dtype, ([], []))
            group[0].append(p_avg)
            group[1].append(p_model)
        for ema_params, model_params in groups.values():
            ctx.call(a["multi_avg_fn"], [ema_params, model_params, n_averaged], {})
    elif a["avg_fn"] is None:
        for p_avg, p_model in pairs:
            parameters.write(p_avg, _swa(p_avg.data, p_model.data.astype(p_avg.data.dtype), count))
    else:
        for p_avg, p_model in pairs:
            result = ctx.call(a["avg_fn"], [p_avg, p_model, n_averaged], {})
            parameters.write(p_avg, result.data)


class AveragedModelHost(Module):
    """AveragedModel's values: nn.Module's methods and update_parameters."""

    __slots__ = ()
    METHODS = table(entry("update_parameters", update_parameters, "self, model", context=True))


AVERAGED_MODEL = ModuleKind(
    "AveragedModel", "", "model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False",
    lambda ctx, m, *args, **kwargs: ctx.call(m.children["module"], list(args), kwargs),
    inputs="*args, **kwargs", build=_build, host=AveragedModelHost, path=PATH)


def update_bn(ctx, loader, model, device=None) -> None:
    """update_bn: reset the BatchNorm layers' statistics and recompute them over the loader
    (cumulative averages), in training mode, without grad."""
    norms = [m for _, m in model.named_modules() if m.kind.name.startswith("BatchNorm")]
    if not norms:
        return
    momenta = [m.attrs["momentum"] for m in norms]
    for norm in norms:
        b = norm.buffers
        if b.get("running_mean") is not None:
            parameters.write(b["running_mean"], 0)
            parameters.write(b["running_var"], 1)
            parameters.write(b["num_batches_tracked"], 0)
        norm.attrs["momentum"] = None
    was_training = model.attrs["training"]
    for _, each in model.named_modules():
        each.attrs["training"] = True
    with grad_mode(False):
        for batch in iterate(loader):
            if isinstance(batch, (list, tuple)):
                batch = batch[0]
            ctx.call(model, [batch], {})
    for norm, momentum in zip(norms, momenta):
        norm.attrs["momentum"] = momentum
    for _, each in model.named_modules():
        each.attrs["training"] = was_training


def _format_swa_lr(optimizer, swa_lr) -> list:
    groups = optimizer.param_groups
    if isinstance(swa_lr, (list, tuple)):
        if len(swa_lr) != len(groups):
            raise errors.value_error(f"swa_lr must have the same length as optimizer.param_groups."
                                     f" swa_lr has {len(swa_lr)} values, param_groups has "
                                     f"{len(groups)}.")
        return list(swa_lr)
    return [swa_lr] * len(groups)


def _prepare_swalr(optimizer, options: dict, _last_epoch=-1) -> dict:
    for swa_lr, group in zip(_format_swa_lr(optimizer, options["swa_lr"]),
                             optimizer.param_groups):
        group["swa_lr"] = swa_lr
    strategy, epochs = options["anneal_strategy"], options["anneal_epochs"]
    if strategy not in ("cos", "linear"):
        raise errors.value_error(f"anneal_strategy must be one of 'cos' or 'linear', instead got "
                                 f"{strategy}")
    if not isinstance(epochs, int) or isinstance(epochs, bool) or epochs < 0:
        raise errors.value_error(f"anneal_epochs must be equal or greater than 0, got {epochs}")
    return {"_anneal_strategy": strategy, "anneal_epochs": epochs}


def _anneal(strategy: str, t):
    return t if strategy == "linear" else (1 - math.cos(math.pi * t)) / 2


def _swalr(s, ctx) -> list:
    """SWALR.get_lr: from the lr the previous step's alpha implies, the next alpha's mix."""
    a = s.attrs
    step = a["_step_count"] - 1
    if a["anneal_epochs"] == 0:
        step = max(1, step)
    prev_alpha = _anneal(a["_anneal_strategy"],
                         max(0, min(1, (step - 1) / max(1, a["anneal_epochs"]))))
    groups = s.optimizer.param_groups
    prev_lrs = [group["swa_lr"] if prev_alpha == 1 else
                (group["lr"] - prev_alpha * group["swa_lr"]) / (1 - prev_alpha)
                for group in groups]
    alpha = _anneal(a["_anneal_strategy"], max(0, min(1, step / max(1, a["anneal_epochs"]))))
    return [group["swa_lr"] * alpha + lr * (1 - alpha) for group, lr in zip(groups, prev_lrs)]


SWALR = SchedulerKind("SWALR", "swa_lr, anneal_epochs=10, anneal_strategy='cos', last_epoch=-1",
                      _swalr, prepare=_prepare_swalr, module=PATH)

SWA_UTILS = Namespace(PATH, {"AveragedModel": AVERAGED_MODEL.type, "SWALR": SWALR.type} | table(
    entry("update_bn", update_bn, "loader, model, device=None", context=True),
    entry("get_ema_multi_avg_fn", _ema_multi, "decay=0.999"),
    entry("get_ema_avg_fn", _ema, "decay=0.999"),
    entry("get_swa_avg_fn", _swa_avg, "")))
