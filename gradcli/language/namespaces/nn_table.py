"""torch.nn's classes: one table row per module kind, and nn.Parameter."""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable

import numpy as np

from gradcli.engine import errors, parameters
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.calls import invoke
from gradcli.language.namespaces.math_table import NN_FUNCTIONAL
from gradcli.language.namespaces.modules import (LEGACY_OPTIONS, Module, ModuleKind, check_module,
                                                register_user_modules)
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.signatures import entry
from gradcli.language.namespaces.torch_table import TORCH_TABLE
from gradcli.language.runtime.values import iterate, type_name
from gradcli.language.runtime.pytypes import PyType


def _functional(name: str, source: dict = NN_FUNCTIONAL.table) -> Callable:
    """A forward that calls torch's function `name` with the inputs and the stored options."""
    function = source[name]

    def forward(ctx, module: Module, *inputs):
        options = {key: module.attrs[key] for key in module.kind.option_names
                   if key not in LEGACY_OPTIONS}
        return invoke(ctx, function, list(inputs), options)
    return forward


def _options_repr(*names: str) -> Callable:
    return lambda m, printer: ", ".join(f"{n}={printer.str(m.attrs[n])}" for n in names)


def _build_linear(module: Module, in_features, out_features, bias, device, dtype) -> None:
    module.attrs.update(in_features=in_features, out_features=out_features)
    weight, bias = parameters.linear(in_features, out_features, bias, dtype)
    module.params.update(weight=weight, bias=bias)


def _linear_forward(ctx, module: Module, x):
    params = module.params
    return invoke(ctx, NN_FUNCTIONAL.table["linear"], [x, params["weight"], params["bias"]], {})


def _linear_repr(module: Module, printer) -> str:
    attrs = module.attrs
    return (f"in_features={attrs['in_features']}, out_features={attrs['out_features']}, "
            f"bias={module.params.get('bias') is not None}")


def _build_sequential(module: Module, *children) -> None:
    """Sequential(m1, m2, ...) names its children 0, 1, ...; Sequential(OrderedDict) by key."""
    if len(children) == 1 and isinstance(children[0], OrderedDict):
        for name, child in children[0].items():
            check_module(child)
            module.children[name] = child
        return
    for position, child in enumerate(children):
        check_module(child)
        module.children[str(position)] = child


def _build_module_list(module: Module, modules=None) -> None:
    _build_sequential(module, *(iterate(modules) if modules is not None else ()))


def _sequential_forward(ctx, module: Module, x):
    for child in module.members():
        x = ctx.call(child, [x], {})
    return x


def _leaky_relu_repr(module: Module, printer) -> str:
    inplace = ", inplace=True" if module.attrs["inplace"] else ""
    return f"negative_slope={printer.str(module.attrs['negative_slope'])}{inplace}"


def _ignore(module: Module, *args, **kwargs) -> None:
    """Identity takes any arguments and keeps none."""


def _no_forward(module: Module):
    raise errors.TorchError("NotImplementedError", f'Module [{module.class_name}] is missing the '
                            'required "forward" function')


_LOSS = "size_average=None, reduce=None, reduction='mean'"
_WEIGHTED = "weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'"


def _loss(name: str, function: str, options: str = _LOSS) -> ModuleKind:
    return ModuleKind(name, "loss", options, _functional(function), "input, target")


KINDS = [
    ModuleKind("Module", "module", "", lambda ctx, m, *inputs: _no_forward(m), "*input",
               host=Module),
    ModuleKind("Linear", "linear", "in_features, out_features, bias=True, device=None, dtype=None",
               _linear_forward, extra_repr=_linear_repr, build=_build_linear),
    ModuleKind("Identity", "linear", "*args, **kwargs", lambda ctx, m, x: x, build=_ignore),
    ModuleKind("Flatten", "flatten", "start_dim=1, end_dim=-1", _functional("flatten", TORCH_TABLE),
               extra_repr=_options_repr("start_dim", "end_dim")),
    ModuleKind("Sequential", "container", "*args", _sequential_forward, build=_build_sequential,
               sequence=True),
    ModuleKind("ModuleList", "container", "modules=None", lambda ctx, m, *inputs: _no_forward(m),
               "*input", build=_build_module_list, sequence=True, grouped=True),
    ModuleKind("ReLU", "activation", "inplace=False", _functional("relu"),
               extra_repr=lambda m, printer: "inplace=True" if m.attrs["inplace"] else ""),
    ModuleKind("LeakyReLU", "activation", "negative_slope=0.01, inplace=False",
               _functional("leaky_relu"), extra_repr=_leaky_relu_repr),
    ModuleKind("Sigmoid", "activation", "", _functional("sigmoid")),
    ModuleKind("Tanh", "activation", "", _functional("tanh")),
    ModuleKind("Softmax", "activation", "dim=None", _functional("softmax"),
               extra_repr=_options_repr("dim")),
    ModuleKind("LogSoftmax", "activation", "dim=None", _functional("log_softmax"),
               extra_repr=_options_repr("dim")),
    _loss("MSELoss", "mse_loss"),
    _loss("L1Loss", "l1_loss"),
    _loss("SmoothL1Loss", "smooth_l1_loss", _LOSS + ", beta=1.0"),
    _loss("BCELoss", "binary_cross_entropy", "weight=None, " + _LOSS),
    _loss("BCEWithLogitsLoss", "binary_cross_entropy_with_logits",
          "weight=None, " + _LOSS + ", pos_weight=None"),
    _loss("CrossEntropyLoss", "cross_entropy", _WEIGHTED + ", label_smoothing=0.0"),
    _loss("NLLLoss", "nll_loss", _WEIGHTED),
]


class _ParameterMeta(type):
    def __instancecheck__(cls, value) -> bool:
        return isinstance(value, Tensor) and value.is_parameter


class ParameterHost(Tensor, metaclass=_ParameterMeta):
    """The class isinstance sees for nn.Parameter: a Parameter is a Tensor marked by its flag."""

    __slots__ = ()


def _parameter(cls, data, requires_grad):
    if data is None:
        data = Tensor(np.zeros(0, STATE.default_dtype.np), STATE.default_dtype)
    if not isinstance(data, Tensor):
        raise errors.TorchError("AttributeError",
                                f"'{type_name(data)}' object has no attribute 'detach'")
    return parameters.parameter(data, requires_grad)


PARAMETER_TYPE = PyType("torch.nn.parameter.Parameter", (ParameterHost,), BoundMethod(
    None, entry("__new__", _parameter, "cls, data=None, requires_grad=True",
                qualname="Parameter.__new__")))

# What torch.nn holds besides torch.nn.functional.
NN_CLASSES = {"Parameter": PARAMETER_TYPE} | {kind.name: kind.type for kind in KINDS}
register_user_modules(NN_CLASSES["Module"])
