"""F.local_response_norm as torch's Python code computes it (an average pool of the squares
across channels), with the stride-1 avg_pool3d row (AvgPool3DBackward0) it needs for inputs of
four or more dimensions."""

from __future__ import annotations

import itertools

import numpy as np

from gradcli.engine import errors
from gradcli.engine.declarations import call, declare
from gradcli.engine.functions import F
from gradcli.engine.ops.registry import OPS, apply, defop
from gradcli.engine.tensor import Tensor


def _offsets(kernel):
    return itertools.product(*(range(k) for k in kernel))


def _avg_pool3d(x, kernel):
    """ATen's cpu_avg_pool3d with stride 1 and no padding: each window summed in order, then
    divided by its size."""
    out = tuple(x.shape[2 + i] - kernel[i] + 1 for i in range(3))
    total = None
    for kd, kh, kw in _offsets(kernel):
        part = x[:, :, kd:kd + out[0], kh:kh + out[1], kw:kw + out[2]]
        total = part.copy() if total is None else total + part
    size = x.dtype.type(np.prod(kernel))
    if np.issubdtype(x.dtype, np.integer):  # C++'s integer division
        return np.trunc(total / size).astype(x.dtype)
    return total / size


def _avg_pool3d_backward(g, x, kernel):
    """Each output's share added to its window, outputs in order (offsets in reverse)."""
    out = g.shape[2:]
    share = g / g.dtype.type(np.prod(kernel))
    grad = np.zeros(x.shape, g.dtype)
    for kd, kh, kw in reversed(list(_offsets(kernel))):
        grad[:, :, kd:kd + out[0], kh:kh + out[1], kw:kw + out[2]] += share
    return grad


defop("avg_pool3d", "AvgPool3DBackward0", _avg_pool3d, promote="none", save=(0,),
      vjp=lambda g, x, kernel: F.apply_op("avg_pool3d_backward", g, x, kernel=kernel))
defop("avg_pool3d_backward", "AvgPool3DBackwardBackward0", _avg_pool3d_backward,
      promote="none", save=(1,),
      vjp=(lambda gg, g, x, kernel: F.apply_op("avg_pool3d", gg, kernel=kernel),
           lambda gg, g, x, kernel: F.zeros_for(x)))


def local_response_norm(x: Tensor, size: int, alpha=1e-4, beta=0.75, k=1.0) -> Tensor:
    """input / (k + alpha * mean of the squares over `size` neighbouring channels) ** beta."""
    dim = x.ndim
    if dim < 3:
        raise errors.value_error("Expected 3D or higher dimensionality                          "
                                 f"input (got {dim} dimensions)")
    if x.numel() == 0:
        return x
    div = call("method", "mul", x, x)
    if dim == 3:
        div = F.unsqueeze(div, 1)
        div = F.pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = F.squeeze(call("functional", "avg_pool2d", div, (size, 1), stride=1), 1)
    else:
        sizes = x.shape
        div = F.view(div, (sizes[0], 1, sizes[1], sizes[2], -1))
        div = F.pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = F.squeeze(apply(OPS["avg_pool3d"], div, kernel=(size, 1, 1)), 1)
        div = F.view(div, sizes)
    div = call("method", "pow", call("method", "add", call("method", "mul", div, alpha), k),
               beta)
    return call("torch", "div", x, div)


declare("local_response_norm", local_response_norm, python="input: .dim, size, alpha=0.0001, "
        "beta=0.75, k=1.0", variants="functional")
