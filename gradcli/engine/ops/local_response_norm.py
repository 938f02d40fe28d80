"""F.local_response_norm as torch's Python code computes it (an average pool of the squares
across channels), through the avg_pool3d row (ops/pool3d.py) for inputs of four or more
dimensions."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.declarations import call, declare
from gradcli.engine.functions import F
from gradcli.engine.ops.registry import OPS, apply
from gradcli.engine.tensor import Tensor


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
        div = F.squeeze(apply(OPS["avg_pool3d"], div, kernel=(size, 1, 1), stride=(1, 1, 1),
                              padding=(0, 0, 0), ceil_mode=False, count_include_pad=True,
                              divisor_override=None), 1)
        div = F.view(div, sizes)
    div = call("method", "pow", call("method", "add", call("method", "mul", div, alpha), k),
               beta)
    return call("torch", "div", x, div)


declare("local_response_norm", local_response_norm, python="input: .dim, size, alpha=0.0001, "
        "beta=0.75, k=1.0", variants="functional")
