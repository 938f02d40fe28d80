"""torch.optim's SGD and Adam as values: param groups as dicts, steps run by the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from gradcli.engine import errors, optimizers
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.modules import torch_typename
from gradcli.language.runtime.objects import TableInstance
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.signatures import entry, parse_signature, table
from gradcli.language.runtime.values import iterate, qualified_type_name
from gradcli.language.runtime.pytypes import PyType

_ONLY_SINGLE_TENSOR = ("foreach", "fused", "differentiable", "capturable")


@dataclass(eq=False)
class OptimizerKind:
    """One optimizer class: its constructor, the checks on its options, and its step."""

    name: str
    module: str
    options: str  # constructor parameters after `params`
    defaults: str  # the order of the options in torch's `defaults` dict
    check: Callable[[dict], None]
    step: Callable[["Optimizer", dict], None]

    def __post_init__(self) -> None:
        self.option_names = [p.name for p in parse_signature(self.options)]
        self.type = PyType(f"torch.optim.{self.module}.{self.name}", (Optimizer,), BoundMethod(
            self, entry("__init__", _construct, "self, params, " + self.options,
                        qualname=f"{self.name}.__init__")))


def _construct(kind: OptimizerKind, params, *values, **keywords):
    options = dict(zip(kind.option_names, values)) | keywords
    for name in _ONLY_SINGLE_TENSOR:
        if options.get(name):
            raise errors.TorchError("NotImplementedError", f"gradcli runs torch.optim's "
                                    f"single-tensor step only; {name}=True is not supported")
    kind.check(options)
    return Optimizer(kind, {name: options[name] for name in kind.defaults.split(", ")}, params)


class Optimizer(TableInstance):
    """An optimizer: its defaults, its param groups (dicts, as in torch) and per-tensor state."""

    PROPERTIES = {"param_groups": lambda optimizer: optimizer.param_groups,
                  "defaults": lambda optimizer: optimizer.defaults}

    __slots__ = ("kind", "defaults", "param_groups", "state", "attrs")

    def __init__(self, kind: OptimizerKind, defaults: dict, params):
        self.kind, self.defaults, self.param_groups, self.state = kind, defaults, [], {}
        self.attrs: dict = {}
        if isinstance(params, Tensor):
            raise errors.type_error("params argument given to the optimizer should be an "
                                    "iterable of Tensors or dicts, but got "
                                    + torch_typename(params))
        groups = list(iterate(params))
        if not groups:
            raise errors.value_error("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    @property
    def language_type(self) -> PyType:
        return self.kind.type

    def add_param_group(self, group) -> None:
        """torch's Optimizer.add_param_group: check the tensors, then fill in the defaults."""
        if not isinstance(group, dict):
            raise errors.type_error(
                f"param_group must be a dict, but got <class '{qualified_type_name(group)}'>")
        params = group["params"]
        params = [params] if isinstance(params, Tensor) else list(iterate(params))
        named = [p for p in params if isinstance(p, tuple)]
        group["params"] = [p[1] if isinstance(p, tuple) else p for p in params]
        if named:
            if len(named) != len(params):
                raise errors.value_error("all optimizer params should be with/without names. "
                                         "Some param names are missing")
            group["param_names"] = [p[0] for p in named]
        for param in group["params"]:
            if not isinstance(param, Tensor):
                raise errors.type_error("optimizer can only optimize Tensors, but one of the "
                                        "params is " + torch_typename(param))
            if not (param.is_leaf or param.retains_grad):
                raise errors.value_error("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        if len({id(p) for p in group["params"]}) != len(group["params"]):
            STATE.warn("UserWarning", "optimizer contains a parameter group with duplicate "
                       "parameters; in future, this will cause an error; see "
                       "github.com/pytorch/pytorch/issues/40967 for more information")
        taken = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in taken for p in group["params"]):
            raise errors.value_error("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def repr(self, printer) -> str:
        """torch's Optimizer.__repr__: each group's options, sorted by name."""
        text = self.class_name + " ("
        for number, group in enumerate(self.param_groups):
            text += f"\nParameter Group {number}\n"
            text += "".join(f"    {key}: {printer.str(group[key])}\n"
                            for key in sorted(group) if key != "params")
        return text + ")"

    def step(self, ctx, closure):
        loss = None
        if closure is not None:
            with grad_mode(True):
                loss = ctx.call(closure, [], {})
        for group in self.param_groups:
            self.kind.step(self, group)
        return loss


def _with_grads(group: dict) -> list:
    return [p for p in group["params"] if p.grad is not None]


def _sgd_step(optimizer: Optimizer, group: dict) -> None:
    params = _with_grads(group)
    momentum = group["momentum"]
    buffers = [optimizer.state.get(p, {}).get("momentum_buffer") for p in params]
    buffers = optimizers.sgd(
        params, [p.grad for p in params], buffers, lr=group["lr"], momentum=momentum,
        dampening=group["dampening"], weight_decay=group["weight_decay"],
        nesterov=group["nesterov"], maximize=group["maximize"])
    if momentum != 0:
        for param, buffer in zip(params, buffers):
            optimizer.state.setdefault(param, {})["momentum_buffer"] = buffer


def _adam_state(param: Tensor, amsgrad: bool) -> dict:
    def zeros():
        return Tensor(np.zeros(param.shape, param.dtype.np), param.dtype)
    state = {"step": Tensor(np.array(0.0, np.float32)), "exp_avg": zeros(), "exp_avg_sq": zeros()}
    if amsgrad:
        state["max_exp_avg_sq"] = zeros()
    return state


def _adam_step(optimizer: Optimizer, group: dict) -> None:
    params = _with_grads(group)
    for param in params:
        if param not in optimizer.state:  # lazy state, as torch's _init_group makes it
            optimizer.state[param] = _adam_state(param, group["amsgrad"])
    states = [optimizer.state[p] for p in params]
    beta1, beta2 = group["betas"]
    optimizers.adam(params, [p.grad for p in params], states, lr=group["lr"], beta1=beta1,
                    beta2=beta2, eps=group["eps"], weight_decay=group["weight_decay"],
                    amsgrad=group["amsgrad"], maximize=group["maximize"],
                    decoupled_weight_decay=group["decoupled_weight_decay"])


def _check_sgd(options: dict) -> None:
    for key, label in (("lr", "learning rate"), ("momentum", "momentum value"),
                       ("weight_decay", "weight_decay value")):
        if options[key] < 0.0:
            raise errors.value_error(f"Invalid {label}: {options[key]}")
    if options["nesterov"] and (options["momentum"] <= 0 or options["dampening"] != 0):
        raise errors.value_error("Nesterov momentum requires a momentum and zero dampening")


def _check_adam(options: dict) -> None:
    if options["betas"] is None:
        options["betas"] = (0.9, 0.999)
    betas = options["betas"]
    checks = (("learning rate", options["lr"], 0.0 <= options["lr"]),
              ("epsilon value", options["eps"], 0.0 <= options["eps"]),
              ("beta parameter at index 0", betas[0], 0.0 <= betas[0] < 1.0),
              ("beta parameter at index 1", betas[1], 0.0 <= betas[1] < 1.0),
              ("weight_decay value", options["weight_decay"], 0.0 <= options["weight_decay"]))
    for label, value, valid in checks:
        if not valid:
            raise errors.value_error(f"Invalid {label}: {value}")
    if not all(isinstance(beta, float) for beta in betas):
        raise errors.value_error("betas must be either both floats or both Tensors")
    options["betas"] = tuple(betas)


SGD = OptimizerKind(
    "SGD", "sgd", "lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, "
    "maximize=False, foreach=None, differentiable=False, fused=None",
    "lr, momentum, dampening, weight_decay, nesterov, maximize, foreach, differentiable, fused",
    _check_sgd, _sgd_step)
ADAM = OptimizerKind(
    "Adam", "adam", "lr=0.001, betas=None, eps=1e-08, weight_decay=0, amsgrad=False, *, "
    "foreach=None, maximize=False, capturable=False, differentiable=False, fused=None, "
    "decoupled_weight_decay=False",
    "lr, betas, eps, weight_decay, amsgrad, maximize, foreach, capturable, differentiable, fused, "
    "decoupled_weight_decay", _check_adam, _adam_step)

OPTIMIZER_METHODS = table(
    entry("step", lambda ctx, optimizer, closure: optimizer.step(ctx, closure),
          "self, closure=None", context=True),
    entry("zero_grad", lambda optimizer, set_to_none: optimizers.zero_grad(
        [p for group in optimizer.param_groups for p in group["params"]], set_to_none),
          "self, set_to_none=True"),
    entry("add_param_group", lambda optimizer, group: optimizer.add_param_group(group),
          "self, param_group"),
)

Optimizer.METHODS = OPTIMIZER_METHODS

# What torch.optim holds.
OPTIMIZERS = {kind.name: kind.type for kind in (SGD, ADAM)}
