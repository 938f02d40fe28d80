"""torch.nn.init: a tensor's values redrawn in place, without grad, as torch's init functions
draw them (the same generator calls, so values match torch's after torch.manual_seed)."""

from __future__ import annotations

import math

from gradcli.engine import creation, errors
from gradcli.engine.functions import F
from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace


def _fans(t: Tensor) -> tuple[int, int]:
    if t.ndim < 2:
        raise errors.value_error("Fan in and fan out can not be computed for tensor with fewer "
                                 "than 2 dimensions")
    receptive = math.prod(t.shape[2:])
    return t.shape[1] * receptive, t.shape[0] * receptive


def calculate_gain(nonlinearity: str, param=None) -> float:
    """torch.nn.init.calculate_gain."""
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise errors.value_error(f"Unsupported nonlinearity {nonlinearity}")


def _draw(t: Tensor, kind: str, low: float, high: float) -> Tensor:
    with grad_mode(False):
        return creation.fill_random(t, kind, low, high)


def _fill(t: Tensor, value) -> Tensor:
    with grad_mode(False):
        return F.fill_(t, value)


def _fan(t: Tensor, mode: str) -> int:
    if mode not in ("fan_in", "fan_out"):
        raise errors.value_error(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _fans(t)
    return fan_in if mode == "fan_in" else fan_out


def _xavier(t: Tensor, gain: float, kind: str) -> Tensor:
    fan_in, fan_out = _fans(t)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    if kind == "uniform":
        bound = math.sqrt(3.0) * std
        return _draw(t, "uniform", -bound, bound)
    return _draw(t, "normal", 0.0, std)


def _kaiming(t: Tensor, a, mode: str, nonlinearity: str, kind: str) -> Tensor:
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(t, mode))
    if kind == "uniform":
        bound = math.sqrt(3.0) * std
        return _draw(t, "uniform", -bound, bound)
    return _draw(t, "normal", 0.0, std)


_GENERATOR = ", generator=None"
NN_INIT = Namespace("torch.nn.init", table(
    entry("uniform_", lambda t, a, b, generator: _draw(t, "uniform", a, b),
          "tensor, a=0.0, b=1.0" + _GENERATOR),
    entry("normal_", lambda t, mean, std, generator: _draw(t, "normal", mean, std),
          "tensor, mean=0.0, std=1.0" + _GENERATOR),
    entry("constant_", _fill, "tensor, val"),
    entry("zeros_", lambda t: _fill(t, 0), "tensor"),
    entry("ones_", lambda t: _fill(t, 1), "tensor"),
    entry("xavier_uniform_", lambda t, gain, generator: _xavier(t, gain, "uniform"),
          "tensor, gain=1.0" + _GENERATOR),
    entry("xavier_normal_", lambda t, gain, generator: _xavier(t, gain, "normal"),
          "tensor, gain=1.0" + _GENERATOR),
    entry("kaiming_uniform_", lambda t, a, mode, nonlinearity, generator: _kaiming(
        t, a, mode, nonlinearity, "uniform"),
        "tensor, a=0, mode='fan_in', nonlinearity='leaky_relu'" + _GENERATOR),
    entry("kaiming_normal_", lambda t, a, mode, nonlinearity, generator: _kaiming(
        t, a, mode, nonlinearity, "normal"),
        "tensor, a=0, mode='fan_in', nonlinearity='leaky_relu'" + _GENERATOR),
    entry("calculate_gain", calculate_gain, "nonlinearity, param=None"),
))
