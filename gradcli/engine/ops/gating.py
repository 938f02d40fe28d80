"""F.glu: the first half of a dimension times the sigmoid of the second (GluBackward0)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F
from gradcli.engine.ops.registry import NOT_FLOATING, OPS, apply, defop
from gradcli.engine.ops.shapes import wrap_dim
from gradcli.engine.tensor import Tensor


def _halves(x: np.ndarray, dim: int):
    return np.split(x, 2, axis=dim)


def _glu(x: np.ndarray, dim: int) -> np.ndarray:
    a, b = _halves(x, dim)
    one = x.dtype.type(1)
    return a * (one / (one + np.exp(-b)))


def _glu_vjp(g: Tensor, x: Tensor, dim: int) -> Tensor:
    """d/da = sigmoid(b) * g, d/db = (1 - sigmoid(b)) * sigmoid(b) * a * g."""
    half = x.shape[dim] // 2
    a, b = F.narrow(x, dim, 0, half), F.narrow(x, dim, half, half)
    gate = F.sigmoid(b)
    grad_a = F.mul(gate, g)
    grad_b = F.sigmoid_backward(F.mul(a, g), gate)
    return F.cat([grad_a, grad_b], dim)


defop("glu", "GluBackward0", _glu, promote="none", save=(0,), vjp=_glu_vjp,
      refuses=("glu_cpu", NOT_FLOATING))


def glu(x: Tensor, dim: int = -1) -> Tensor:
    if x.ndim == 0:
        raise errors.runtime("glu does not support scalars because halving size must be even")
    if not isinstance(dim, int) or isinstance(dim, bool):  # then the C++ parser's check
        raise errors.type_error(f"glu(): argument 'dim' (position 2) must be int, not "
                                f"{errors.type_name(dim)}")
    dim = wrap_dim(dim, x.ndim)
    if x.shape[dim] % 2:
        raise errors.runtime(f"Halving dimension must be even, but dimension {dim} is size "
                             f"{x.shape[dim]}")
    return apply(OPS["glu"], x, dim=dim)


# torch's F.glu is Python: it asks input.dim() first, then calls the C++ glu
declare("glu", glu, python="input, dim=-1; input: .dim", variants="functional")
