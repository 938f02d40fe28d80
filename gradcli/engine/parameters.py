"""torch.nn.Parameter, and layers' default parameters drawn as torch.nn.init draws them."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import errors
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.functions import F


def parameter(data: Tensor, requires_grad: bool = True) -> Tensor:
    """A leaf sharing `data`'s values and version counter, marked as a Parameter."""
    out = F.detach(data)
    if requires_grad and not out.dtype.is_floating_point:
        raise errors.runtime("Only Tensors of floating point and complex dtype can require "
                             "gradients")
    out.requires_grad = requires_grad
    out.is_parameter = True
    return out


def _uniform_(t: Tensor, bound: float) -> None:
    """t.uniform_(-bound, bound) from the default generator."""
    t.data[...] = F.DEFAULT_GENERATOR.generator.uniform(t.shape, t.dtype.np, -bound, bound)


def _empty(shape: tuple, dtype) -> Tensor:
    return parameter(Tensor(np.zeros(shape, dtype.np), dtype))


def linear(in_features: int, out_features: int, bias: bool, dtype=None):
    """nn.Linear's weight and bias (or None), initialised as its reset_parameters does:
    kaiming_uniform_(weight, a=sqrt(5)), then bias uniform in +-1/sqrt(in_features)."""
    dtype = dtype or STATE.default_dtype
    weight = _empty((out_features, in_features), dtype)
    bias = _empty((out_features,), dtype) if bias else None
    if 0 in weight.shape:
        STATE.warn("UserWarning", "Initializing zero-element tensors is a no-op")
    else:
        gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))
        _uniform_(weight, math.sqrt(3.0) * (gain / math.sqrt(in_features)))
    if bias is not None:
        _uniform_(bias, 1 / math.sqrt(in_features) if in_features > 0 else 0)
    return weight, bias
