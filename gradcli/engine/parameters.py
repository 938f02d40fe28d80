"""torch.nn.Parameter, and layers' default parameters drawn as torch.nn.init draws them."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import errors
from gradcli.engine.dtypes import DType
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.functions import F


def parameter(data: Tensor, requires_grad: bool = True) -> Tensor:
    """A leaf sharing `data`'s values and version counter, marked as a Parameter."""
    out = F.detach(data)
    if requires_grad and not out.dtype.differentiable:
        raise errors.runtime("Only Tensors of floating point and complex dtype can require "
                             "gradients")
    out.requires_grad = requires_grad
    out.is_parameter = True
    return out


def _uniform_(t: Tensor, bound: float) -> None:
    """t.uniform_(-bound, bound) from the default generator, in place (a new version)."""
    t.data[...] = F.DEFAULT_GENERATOR.generator.uniform(t.shape, t.dtype.np, -bound, bound)
    t.bump_version()


def write(t: Tensor, values) -> None:
    """t.copy_(values) (a 0-d tensor's data may be a NumPy scalar: it is replaced)."""
    if isinstance(t.data, np.ndarray):
        np.copyto(t.data, values, casting="unsafe")
    else:
        t.data = np.array(values, t.dtype.np)
    t.bump_version()


def fill_(t: Tensor, value: float) -> Tensor:
    """t.fill_(value) as reset_parameters and reset_running_stats run it (a new version)."""
    t.data[...] = value
    t.bump_version()
    return t


def _empty(shape: tuple, dtype) -> Tensor:
    """A Parameter's memory, its sizes and dtype checked as torch.empty checks them."""
    if not isinstance(dtype, DType):
        raise errors.type_error(f"empty(): argument 'dtype' must be torch.dtype, not "
                                f"{errors.type_name(dtype)}")
    return parameter(Tensor(np.zeros(F.size_args(shape), dtype.np), dtype))


def kaiming_layer(weight_shape: tuple, bias: bool, fan_in: int, dtype=None, bias_size=None):
    """A layer's weight and bias (or None) as nn.Linear and nn.ConvNd reset them:
    kaiming_uniform_(weight, a=sqrt(5)), then bias uniform in +-1/sqrt(fan_in). The bias has
    `bias_size` elements (default: the weight's first size)."""
    dtype = dtype or STATE.default_dtype
    weight = _empty(tuple(weight_shape), dtype)
    bias = _empty((weight_shape[0] if bias_size is None else bias_size,), dtype) if bias else None
    if 0 in weight.shape:
        STATE.warn("UserWarning", "Initializing zero-element tensors is a no-op")
    else:
        gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))
        _uniform_(weight, math.sqrt(3.0) * (gain / math.sqrt(fan_in)))
    if bias is not None:
        _uniform_(bias, 1 / math.sqrt(fan_in) if fan_in > 0 else 0)
    return weight, bias


def linear(in_features: int, out_features: int, bias: bool, dtype=None):
    """nn.Linear's weight and bias (or None)."""
    return kaiming_layer((out_features, in_features), bias, in_features, dtype)


def uniform(shape: tuple, bound: float, dtype=None) -> Tensor:
    """A Parameter of `shape` drawn uniform in +-bound (the recurrent layers' initialisation)."""
    weight = _empty(tuple(shape), dtype or STATE.default_dtype)
    _uniform_(weight, bound)
    return weight


def filled(shape: tuple, value: float, dtype=None) -> Tensor:
    """A Parameter of `shape` filled with `value` in place (norm layers' ones_ and zeros_)."""
    return fill_(_empty(tuple(shape), dtype or STATE.default_dtype), value)


def buffer(shape: tuple, value: float, dtype) -> Tensor:
    """A buffer filled with `value` in place (BatchNorm's reset_running_stats)."""
    return fill_(Tensor(np.empty(F.size_args(shape), dtype.np), dtype), value)


def normal(shape: tuple, dtype=None) -> Tensor:
    """A Parameter drawn from N(0, 1) in place, as init.normal_ draws it (nn.Embedding)."""
    weight = _empty(tuple(shape), dtype or STATE.default_dtype)
    values = F.DEFAULT_GENERATOR.generator.normal(weight.shape, weight.dtype.np)
    weight.data[...] = np.asarray(values, weight.dtype.np)
    weight.bump_version()
    return weight
