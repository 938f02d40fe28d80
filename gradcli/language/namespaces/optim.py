"""torch.optim's SGD and Adam as values: param groups as dicts, steps run by the engine."""

from __future__ import annotations

import copy
from gradcli.engine.records import record, replace
from typing import Callable

import numpy as np

from gradcli.engine import conversions, errors, lbfgs, optimizers
from gradcli.engine.functions import F
from gradcli.engine.hooks import Hook, RemovableHandle
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.type_names import torch_typename
from gradcli.language.runtime import attributes, classes
from gradcli.language.runtime.objects import TableInstance
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.signatures import entry, parse_signature, table
from gradcli.language.namespaces.builtins import DICT_TYPE
from gradcli.language.runtime.values import (DefaultDict, iterate, qualified_type_name,
                                             type_name)
from gradcli.language.runtime.pytypes import PyType

_ONLY_SINGLE_TENSOR = ("foreach", "fused", "differentiable", "capturable")


@record(eq=False)
class OptimizerKind:
    """One optimizer class: its constructor, the checks on its options, and its step."""

    name: str
    module: str
    options: str  # constructor parameters after `params`
    defaults: str  # the order of the options in torch's `defaults` dict
    check: Callable[[dict], None]
    step: Callable[["Optimizer", dict], None]
    eager_state: Callable | None = None  # state made in the constructor (Adagrad's)
    construct: Callable | None = None  # the constructor, when not the options' one
    closure_step: Callable | None = None  # a step that runs the closure itself (LBFGS's)

    def __post_init__(self) -> None:
        self.option_names = [p.name for p in parse_signature(self.options)]
        self.type = PyType(f"torch.optim.{self.module}.{self.name}", (Optimizer,), BoundMethod(
            self, entry("__init__", self.construct or _construct, "self, params, " + self.options,
                        qualname=f"{self.name}.__init__")))


def _construct(kind: OptimizerKind, params, *values, **keywords):
    options = dict(zip(kind.option_names, values)) | keywords
    for name in _ONLY_SINGLE_TENSOR:
        if options.get(name):
            raise errors.TorchError("NotImplementedError", f"gradcli runs torch.optim's "
                                    f"single-tensor step only; {name}=True is not supported")
    lr = options.get("lr")
    if isinstance(lr, Tensor) and lr.numel() != 1:  # every optimizer's first check
        raise errors.value_error("Tensor lr must be 1-element")
    if isinstance(lr, Tensor):  # torch's steps then compute in the tensor's float32
        raise errors.TorchError("NotImplementedError", "gradcli's optimizers take a float lr "
                                "only; a Tensor lr is not supported yet")
    kind.check(options)
    return Optimizer(kind, {name: options[name] for name in kind.defaults.split(", ")}, params)


class Optimizer(TableInstance):
    """An optimizer: its defaults, its param groups (dicts, as in torch) and per-tensor state."""

    PROPERTIES = {"param_groups": lambda optimizer: optimizer.param_groups,
                  "defaults": lambda optimizer: optimizer.defaults,
                  "state": lambda optimizer: optimizer.state}

    __slots__ = ("kind", "defaults", "param_groups", "state", "attrs", "watched", "stepped",
                 "step_hooks")

    def __init__(self, kind: OptimizerKind, defaults: dict | None = None, params=None):
        self.kind, self.defaults, self.param_groups, self.state = kind, {}, [], _state()
        self.watched = self.stepped = False  # whether an lr scheduler watches it, and saw a step
        self.attrs: dict = {}
        self.step_hooks: dict = {"pre": [], "post": []}  # register_step_pre_hook and post
        if params is not None:
            self.setup(defaults, params)

    def setup(self, defaults: dict, params) -> None:
        """torch's Optimizer.__init__: the defaults, then each param group."""
        self.defaults = defaults
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
        if self.kind.eager_state is not None:
            for group in self.param_groups:
                for param in group["params"]:
                    self.state[param] = self.kind.eager_state(param, group)

    @property
    def language_type(self) -> PyType:
        return self.kind.type

    def attribute(self, name: str):
        if name == "step" and name not in self.attrs:
            kind = self.kind.name
            step = _STEPS.get(kind) or _STEPS.setdefault(
                kind, replace(OPTIMIZER_METHODS["step"], qualname=f"{kind}.step"))
            return BoundMethod(self, step)
        return super().attribute(name)

    def add_param_group(self, group) -> None:
        """torch's Optimizer.add_param_group: check the tensors, then fill in the defaults."""
        if not isinstance(group, dict):
            raise errors.type_error(
                f"param_group must be a dict, but got <class '{qualified_type_name(group)}'>")
        params = group["params"]
        if isinstance(params, set):
            raise errors.type_error("optimizer parameters need to be organized in ordered "
                                    "collections, but the ordering of tensors in sets will change "
                                    "between runs. Please use a list instead.")
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

    def state_dict(self) -> dict:
        """torch's Optimizer.state_dict: params numbered across groups, state by number."""
        numbers: dict = {}
        groups = []
        for group in self.param_groups:
            packed = {key: value for key, value in group.items() if key != "params"}
            for param in group["params"]:
                numbers.setdefault(id(param), len(numbers))
            packed["params"] = [numbers[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {numbers[id(p)] if id(p) in numbers else p: value
                 for p, value in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict) -> None:
        """torch's Optimizer.load_state_dict: the saved groups (copied) with this optimizer's
        params, state tensors cast to their param's dtype (the step counts as they are)."""
        attributes.get(state_dict, "copy")  # its first step, state_dict.copy(), on any value
        saved = [_copy_group(group) for group in state_dict["param_groups"]]
        if len(saved) != len(self.param_groups):
            raise errors.value_error(
                "loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(self.param_groups, saved)):
            raise errors.value_error("loaded state dict contains a parameter group that "
                                     "doesn't match the size of optimizer's group")
        by_number = {number: param for g, s in zip(self.param_groups, saved)
                     for number, param in zip(s["params"], g["params"])}
        state = {}
        for key, value in state_dict["state"].items():
            param = by_number.get(key)
            state[key if param is None else param] = value if param is None else {
                name: _cast_state(param, name, v) for name, v in value.items()}
        for group, new in zip(self.param_groups, saved):
            new["params"] = group["params"]
            if "param_names" in group and "param_names" not in new:
                new["param_names"] = group["param_names"]
        self.state = _state(state)
        self.param_groups[:] = saved

    def step(self, ctx, closure):
        self.stepped = self.stepped or self.watched
        if self.kind.closure_step is not None:
            return self.kind.closure_step(self, ctx, closure)
        loss = None
        if closure is not None:
            with grad_mode(True):
                loss = ctx.call(closure, [], {})
        for group in self.param_groups:
            self.kind.step(self, group)
        return loss


def _state(values=()) -> DefaultDict:
    """An optimizer's state: torch's defaultdict(dict), keyed by parameter."""
    state = DefaultDict(dict, values)
    state.language_factory = DICT_TYPE
    return state


def _copy_group(group: dict) -> dict:
    """deepcopy of a saved param group (its values are numbers, tuples and index lists)."""
    return {key: value if isinstance(value, Tensor) else copy.deepcopy(value)
            for key, value in group.items()}


def _cast_state(param: Tensor, name: str, value):
    if not isinstance(value, Tensor) or name == "step" or not param.dtype.is_floating_point:
        return value
    return conversions.to_dtype(value, param.dtype)


def _with_grads(group: dict, optimizer: "Optimizer | None" = None) -> list:
    """The group's params that have a grad; with the optimizer, each one's state is checked
    against its grad as the step's in-place ops on that state check it."""
    params = [p for p in group["params"] if p.grad is not None]
    for param in params if optimizer is not None else ():
        for kept in optimizer.state.get(param, {}).values():
            if isinstance(kept, Tensor) and kept.ndim and kept.shape != param.grad.shape:
                wanted = F.broadcast_shape(kept.shape, param.grad.shape)
                if wanted != kept.shape:
                    raise errors.runtime(f"output with shape {F.size_list(kept.shape)} doesn't "
                                         f"match the broadcast shape {F.size_list(wanted)}")
    return params


def _sgd_step(optimizer: Optimizer, group: dict) -> None:
    params = _with_grads(group, optimizer)
    momentum = group["momentum"]
    buffers = [optimizer.state.get(p, {}).get("momentum_buffer") for p in params]
    buffers = optimizers.sgd(
        params, [p.grad for p in params], buffers, lr=group["lr"], momentum=momentum,
        dampening=group["dampening"], weight_decay=group["weight_decay"],
        nesterov=group["nesterov"], maximize=group["maximize"])
    if momentum != 0:
        for param, buffer in zip(params, buffers):
            optimizer.state.setdefault(param, {})["momentum_buffer"] = buffer


def _zeros(param: Tensor) -> Tensor:
    return Tensor(np.zeros(param.shape, param.dtype.np), param.dtype)


def _step_count(value: float = 0.0) -> Tensor:
    return Tensor(np.array(value, np.float32))


def _adam_state(param: Tensor, group: dict) -> dict:
    state = {"step": _step_count(), "exp_avg": _zeros(param), "exp_avg_sq": _zeros(param)}
    if group["amsgrad"]:
        state["max_exp_avg_sq"] = _zeros(param)
    return state


def _adam_step(optimizer: Optimizer, group: dict) -> None:
    params = _with_grads(group, optimizer)
    for param in params:
        if param.grad.sparse is not None:
            raise errors.runtime("Adam does not support sparse gradients, please consider "
                                 "SparseAdam instead")
        if param not in optimizer.state:  # lazy state, as torch's _init_group makes it
            optimizer.state[param] = _adam_state(param, group)
    states = [optimizer.state[p] for p in params]
    beta1, beta2 = group["betas"]
    optimizers.adam(params, [p.grad for p in params], states, lr=group["lr"], beta1=beta1,
                    beta2=beta2, eps=group["eps"], weight_decay=group["weight_decay"],
                    amsgrad=group["amsgrad"], maximize=group["maximize"],
                    decoupled_weight_decay=group["decoupled_weight_decay"])


def _per_param(make_state, update):
    """A step that runs `update` on each param with a grad, its state made on first use."""
    def step(optimizer: Optimizer, group: dict) -> None:
        for param in _with_grads(group, optimizer):
            state = optimizer.state.get(param)
            if not state:
                state = optimizer.state[param] = make_state(param, group)
            update(param, param.grad.data, state, **group)
    return step


def _rmsprop_state(param: Tensor, group: dict) -> dict:
    state = {"step": _step_count(), "square_avg": _zeros(param)}
    if group["momentum"] > 0:
        state["momentum_buffer"] = _zeros(param)
    if group["centered"]:
        state["grad_avg"] = _zeros(param)
    return state


def _adagrad_state(param: Tensor, group: dict) -> dict:
    value = group["initial_accumulator_value"]
    return {"step": _step_count(), "sum": Tensor(np.full(param.shape, value, param.dtype.np),
                                                   param.dtype)}


def _named_state(*names, **scalars):
    def make(param: Tensor, group: dict) -> dict:
        return {"step": _step_count()} | {k: _step_count(v) for k, v in scalars.items()} | {
            name: _zeros(param) for name in names}
    return make


_LIMITS = {  # option -> (its label in torch's ValueError, whether a value is valid)
    "lr": ("learning rate", lambda v: 0.0 <= v),
    "eps": ("epsilon value", lambda v: 0.0 <= v),
    "momentum": ("momentum value", lambda v: 0.0 <= v),
    "weight_decay": ("weight_decay value", lambda v: 0.0 <= v),
    "alpha": ("alpha value", lambda v: 0.0 <= v),
    "lr_decay": ("lr_decay value", lambda v: 0.0 <= v),
    "initial_accumulator_value": ("initial_accumulator_value value", lambda v: 0.0 <= v),
    "rho": ("rho value", lambda v: 0.0 <= v <= 1.0),
    "momentum_decay": ("momentum_decay value", lambda v: 0.0 <= v),
}


def _checks(*keys):
    """torch's option checks, in `keys` order; "betas" checks both betas."""
    def check(options: dict) -> None:
        for key in keys:
            if key == "betas":
                if options["betas"] is None:
                    options["betas"] = (0.9, 0.999)
                betas = options["betas"]
                for index in (0, 1):
                    if not 0.0 <= betas[index] < 1.0:
                        raise errors.value_error(f"Invalid beta parameter at index {index}: "
                                                 f"{betas[index]}")
                options["betas"] = tuple(betas)
                continue
            label, valid = _LIMITS[key]
            if not valid(options[key]):
                raise errors.value_error(f"Invalid {label}: {options[key]}")
    return check


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

ADAMW = OptimizerKind(
    "AdamW", "adamw", "lr=0.001, betas=None, eps=1e-08, weight_decay=0.01, amsgrad=False, *, "
    "maximize=False, foreach=None, capturable=False, differentiable=False, fused=None",
    "lr, betas, eps, weight_decay, amsgrad, maximize, foreach, capturable, differentiable, fused, "
    "decoupled_weight_decay", lambda options: _check_adam(
        options.setdefault("decoupled_weight_decay", True) and options), _adam_step)
RMSPROP = OptimizerKind(
    "RMSprop", "rmsprop", "lr=0.01, alpha=0.99, eps=1e-08, weight_decay=0, momentum=0, "
    "centered=False, capturable=False, foreach=None, maximize=False, differentiable=False",
    "lr, momentum, alpha, eps, centered, weight_decay, capturable, foreach, maximize, "
    "differentiable", _checks("lr", "eps", "momentum", "weight_decay", "alpha"),
    _per_param(_rmsprop_state, optimizers.rmsprop))
ADAGRAD = OptimizerKind(
    "Adagrad", "adagrad", "lr=0.01, lr_decay=0, weight_decay=0, initial_accumulator_value=0, "
    "eps=1e-10, foreach=None, *, maximize=False, differentiable=False, fused=None",
    "lr, lr_decay, eps, weight_decay, initial_accumulator_value, foreach, maximize, "
    "differentiable, fused",
    _checks("lr", "lr_decay", "weight_decay", "initial_accumulator_value", "eps"),
    _per_param(_adagrad_state, optimizers.adagrad), eager_state=_adagrad_state)
ADADELTA = OptimizerKind(
    "Adadelta", "adadelta", "lr=1.0, rho=0.9, eps=1e-06, weight_decay=0, foreach=None, *, "
    "capturable=False, maximize=False, differentiable=False",
    "lr, rho, eps, weight_decay, maximize, capturable, foreach, differentiable",
    _checks("lr", "rho", "eps", "weight_decay"),
    _per_param(_named_state("square_avg", "acc_delta"), optimizers.adadelta))
ADAMAX = OptimizerKind(
    "Adamax", "adamax", "lr=0.002, betas=None, eps=1e-08, weight_decay=0, foreach=None, *, "
    "maximize=False, differentiable=False, capturable=False",
    "lr, betas, eps, weight_decay, foreach, maximize, differentiable, capturable",
    _checks("lr", "eps", "betas", "weight_decay"),
    _per_param(_named_state("exp_avg", "exp_inf"), optimizers.adamax))
NADAM = OptimizerKind(
    "NAdam", "nadam", "lr=0.002, betas=None, eps=1e-08, weight_decay=0, momentum_decay=0.004, "
    "decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False, "
    "differentiable=False",
    "lr, betas, eps, weight_decay, momentum_decay, decoupled_weight_decay, maximize, foreach, "
    "capturable, differentiable",
    _checks("lr", "eps", "betas", "weight_decay", "momentum_decay"),
    _per_param(_named_state("exp_avg", "exp_avg_sq", mu_product=1.0), optimizers.nadam))
RADAM = OptimizerKind(
    "RAdam", "radam", "lr=0.001, betas=None, eps=1e-08, weight_decay=0, "
    "decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False, "
    "differentiable=False",
    "lr, betas, eps, weight_decay, maximize, foreach, capturable, decoupled_weight_decay, "
    "differentiable", _checks("lr", "eps", "betas", "weight_decay"),
    _per_param(_named_state("exp_avg", "exp_avg_sq"), optimizers.radam))

def _hooked_step(ctx, optimizer: Optimizer, closure):
    """Optimizer.step as torch's profile_hook_step wraps it: the step pre-hooks (optimizer,
    args, kwargs), which may return new (args, kwargs), then the step, then the post-hooks."""
    hooks = optimizer.step_hooks
    if not hooks["pre"] and not hooks["post"]:
        return optimizer.step(ctx, closure)
    args, kwargs = ((optimizer,) if closure is None else (optimizer, closure)), {}
    for hook in list(hooks["pre"]):
        result = ctx.call(hook.fn, [optimizer, args, kwargs], {})
        if result is not None:
            if not (isinstance(result, tuple) and len(result) == 2):
                raise errors.runtime(
                    f"<function {optimizer.kind.name}.step at 0x{id(optimizer.kind):x}> must "
                    "return None or a tuple of (new_args, new_kwargs), but got "
                    f"{ctx.printer.str(result)}.")
            args, kwargs = result
    closure = args[1] if len(args) > 1 else kwargs.get("closure") if isinstance(kwargs, dict) \
        else None
    out = optimizer.step(ctx, closure)
    for hook in list(hooks["post"]):
        ctx.call(hook.fn, [optimizer, args, kwargs], {})
    return out


def _step_hook(optimizer: Optimizer, which: str, hook) -> RemovableHandle:
    registered = Hook(hook, "hook")
    optimizer.step_hooks[which].append(registered)
    return RemovableHandle(optimizer.step_hooks[which], registered)


OPTIMIZER_METHODS = table(
    entry("step", _hooked_step, "self, closure=None", context=True),
    entry("register_step_pre_hook", lambda optimizer, hook: _step_hook(optimizer, "pre", hook),
          "self, hook"),
    entry("register_step_post_hook", lambda optimizer, hook: _step_hook(optimizer, "post", hook),
          "self, hook"),
    entry("zero_grad", lambda optimizer, set_to_none: optimizers.zero_grad(
        [p for group in optimizer.param_groups for p in group["params"]], set_to_none),
          "self, set_to_none=True"),
    entry("state_dict", lambda optimizer: optimizer.state_dict(), "self"),
    entry("load_state_dict", lambda optimizer, state_dict: optimizer.load_state_dict(state_dict),
          "self, state_dict"),
    entry("add_param_group", lambda optimizer, group: optimizer.add_param_group(group),
          "self, param_group"),
)

# Named as torch's Python methods are: Optimizer.zero_grad, and each class's own step (SGD.step).
Optimizer.METHODS = {name: replace(method, qualname=f"Optimizer.{name}")
                     for name, method in OPTIMIZER_METHODS.items()}
_STEPS: dict = {}  # by class name


# ---- torch.optim.Optimizer itself, and the optimizers programs derive from it ------------------

def _defaults_of(defaults) -> dict:
    if not isinstance(defaults, dict):
        raise errors.TorchError("AttributeError",
                                f"'{type_name(defaults)}' object has no attribute 'get'")
    return defaults


def _no_step(optimizer: Optimizer, group: dict) -> None:
    raise errors.TorchError("NotImplementedError", "")


BASE = OptimizerKind("Optimizer", "optimizer", "defaults", "", lambda options: None, _no_step,
                     construct=lambda kind, params, defaults: Optimizer(
                         kind, _defaults_of(defaults), params))


class UserOptimizer(classes.UserInstance, Optimizer):
    """An instance of a program's class derived from torch.optim.Optimizer or one of torch's
    optimizers (`kind`): its own attributes and torch's (param_groups, state, defaults), then
    the program's methods, then torch's."""

    __slots__ = ("cls",)

    def __init__(self, cls, kind: OptimizerKind = BASE):
        super().__init__(kind)
        self.cls = cls

    def attribute(self, name: str):
        if name in self.attrs or name in self.PROPERTIES:
            return Optimizer.attribute(self, name)
        defined = self.cls.find(name)
        if defined is classes.MISSING:
            return Optimizer.attribute(self, name)
        if name == "step" and self.watched:  # an lr scheduler counts the steps, as torch's does
            return BoundMethod(classes.bind(defined, self, self.cls), _COUNTED_STEP)
        return classes.bind(defined, self, self.cls)

    def base_attribute(self, name: str):
        return Optimizer.attribute(self, name)


def _counted_step(ctx, step, *args, **kwargs):
    step.receiver.stepped = True
    return ctx.call(step, list(args), kwargs)


_COUNTED_STEP = entry("step", _counted_step, "self, *args, **kwargs", context=True)
# what torch's optimizer classes define that a program's class after them in the MRO (a
# mixin) does not override
_DEFINED = frozenset((*OPTIMIZER_METHODS, "__init__", "__repr__")).__contains__
classes.BASE_INSTANCES[BASE.type] = lambda cls, args: UserOptimizer(cls)
classes.BASE_DEFINES[BASE.type] = _DEFINED
classes.BASE_INITS[BASE.type] = entry(
    "__init__", lambda optimizer, params, defaults: optimizer.setup(_defaults_of(defaults), params),
    "self, params, defaults", qualname="Optimizer.__init__")


def _class_init(kind: OptimizerKind):
    """An optimizer class's __init__ for a program's subclass: what its constructor makes
    (options checked, param groups filled in) becomes the instance's."""
    def init(optimizer, params, *values, **keywords) -> None:
        if not isinstance(optimizer, UserOptimizer) or optimizer.kind is not kind:
            raise errors.type_error("super(type, obj): obj must be an instance or subtype of "
                                    "type")
        made = (kind.construct or _construct)(kind, params, *values, **keywords)
        optimizer.defaults, optimizer.param_groups = made.defaults, made.param_groups
        optimizer.state = made.state
    return entry("__init__", init, "self, params, " + kind.options,
                 qualname=f"{kind.name}.__init__")


def register_user_optimizers(kinds) -> None:
    """Let programs derive their own classes from torch's optimizers."""
    for kind in kinds:
        classes.BASE_INSTANCES[kind.type] = lambda cls, args, kind=kind: UserOptimizer(cls, kind)
        classes.BASE_INITS[kind.type] = _class_init(kind)
        classes.BASE_INIT_INHERITED.add(kind.type)
        classes.BASE_DEFINES[kind.type] = _DEFINED

def _construct_lbfgs(kind: OptimizerKind, params, lr=1, max_iter=20, max_eval=None,
                     tolerance_grad=1e-07, tolerance_change=1e-09, history_size=100,
                     line_search_fn=None):
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise errors.value_error("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise errors.value_error(f"Invalid learning rate: {lr}")
    if max_eval is None:
        max_eval = max_iter * 5 // 4
    optimizer = Optimizer(kind, {
        "lr": lr, "max_iter": max_iter, "max_eval": max_eval, "tolerance_grad": tolerance_grad,
        "tolerance_change": tolerance_change, "history_size": history_size,
        "line_search_fn": line_search_fn}, params)
    if len(optimizer.param_groups) != 1:
        raise errors.value_error("LBFGS doesn't support per-parameter options (parameter groups)")
    return optimizer


def _lbfgs_step(optimizer: Optimizer, ctx, closure):
    if closure is None:
        raise errors.type_error("LBFGS.step() missing 1 required positional argument: 'closure'")
    params = optimizer.param_groups[0]["params"]
    return lbfgs.step(params, optimizer.param_groups[0], optimizer.state[params[0]],
                      lambda: ctx.call(closure, [], {}))


def _sparse_adam_step(optimizer: Optimizer, group: dict) -> None:
    """SparseAdam's step: sparse gradients only; its state's step a Python int."""
    for param in _with_grads(group):
        if param.grad.sparse is None:
            raise errors.runtime("SparseAdam does not support dense gradients, please consider "
                                 "Adam instead")
        state = optimizer.state.get(param)
        if not state:
            state = optimizer.state[param] = {"step": 0, "exp_avg": _zeros(param),
                                              "exp_avg_sq": _zeros(param)}
        optimizers.sparse_adam(param, param.grad, state, **group)


SPARSE_ADAM = OptimizerKind(
    "SparseAdam", "sparse_adam", "lr=0.001, betas=None, eps=1e-08, maximize=False",
    "lr, betas, eps, maximize", _checks("lr", "eps", "betas"), _sparse_adam_step)

LBFGS = OptimizerKind(
    "LBFGS", "lbfgs", "lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-07, "
    "tolerance_change=1e-09, history_size=100, line_search_fn=None", "", lambda options: None,
    _no_step, construct=_construct_lbfgs, closure_step=_lbfgs_step)

# What torch.optim holds.
OPTIMIZERS = {kind.name: kind.type for kind in (BASE, SGD, ADAM, ADAMW, RMSPROP, ADAGRAD,
                                                 ADADELTA, ADAMAX, NADAM, RADAM, SPARSE_ADAM,
                                                 LBFGS)}
register_user_optimizers((SGD, ADAM, ADAMW, RMSPROP, ADAGRAD, ADADELTA, ADAMAX, NADAM, RADAM,
                          SPARSE_ADAM, LBFGS))
