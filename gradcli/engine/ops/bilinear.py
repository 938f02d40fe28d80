"""torch.bilinear (F.bilinear, nn.Bilinear's forward) as ATen composes it: its checks, the
inputs flattened to matrices, _trilinear, the output's shape and the bias added; and
_trilinear's row, whose gradients are _trilinear again."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import OPS, apply, defop
from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor


def _trilinear(a1, a2, a3, expand1, expand2, expand3, sumdim, unroll_dim):
    """ATen's _trilinear: the three inputs unsqueezed at their `expand` dims, multiplied and
    summed over `sumdim`, one slice of `unroll_dim` at a time through two sumproduct_pairs."""
    total = a1.ndim + len(expand1)
    i1, i2, i3 = (Tensor(a) for a in (a1, a2, a3))
    output_size, sum12, sum23, unroll_size = [], [], [], 0
    for i in range(total):
        size = 0
        if i in expand1:
            i1 = F.unsqueeze(i1, i)
        else:
            size = i1.shape[i]
        if i in expand2:
            i2 = F.unsqueeze(i2, i)
        else:
            size = i2.shape[i]
        if i in expand3:
            i3 = F.unsqueeze(i3, i)
            if i in sumdim and i != unroll_dim:
                sum12.append(i)
        else:
            size = i3.shape[i]
            if i in sumdim and i != unroll_dim:
                sum23.append(i)
        output_size.append(1 if i in sumdim else size)
        if i == unroll_dim:
            unroll_size = size
    output = np.zeros(output_size, a1.dtype)
    if i1.numel() and i2.numel() and i3.numel():
        step = [0 if unroll_dim in expand else 1 for expand in (expand1, expand2, expand3)]
        for k in range(unroll_size):
            buf = F.sumproduct_pair(F.narrow(i1, unroll_dim, k * step[0], 1),
                                    F.narrow(i2, unroll_dim, k * step[1], 1), sum12)
            buf = F.sumproduct_pair(buf, F.narrow(i3, unroll_dim, k * step[2], 1), sum23)
            if unroll_dim in sumdim:
                output += buf.data
            else:
                output[(slice(None),) * unroll_dim + (slice(k, k + 1),)] += buf.data
    return output.reshape([s for i, s in enumerate(output_size) if i not in sumdim])


def _forward(a1, a2, a3, **params):
    with grad_mode(False):
        return _trilinear(a1, a2, a3, **params)


def _grad(index: int):
    """_trilinear_backward's gradient of input `index`: _trilinear with the incoming gradient
    in its place, its expand dims and sumdim swapped."""
    def rule(g, i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim):
        inputs, expands = [i1, i2, i3], [expand1, expand2, expand3]
        inputs[index], target = g, expands[index]
        expands[index] = sumdim
        return trilinear(*inputs, *expands, target)
    return rule


defop("_trilinear", "TrilinearBackward0", _forward, promote="none", save=(0, 1, 2),
      save_for=((1, 2), (0, 2), (0, 1)), vjp=(_grad(0), _grad(1), _grad(2)))


def trilinear(i1: Tensor, i2: Tensor, i3: Tensor, expand1, expand2, expand3, sumdim,
              unroll_dim: int = 1) -> Tensor:
    return apply(OPS["_trilinear"], i1, i2, i3, expand1=tuple(expand1), expand2=tuple(expand2),
                 expand3=tuple(expand3), sumdim=tuple(sumdim), unroll_dim=unroll_dim)


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias=None) -> Tensor:
    """ATen's bilinear: dtypes, dimensions and sizes checked in its order."""
    named = [("input1", input1), ("input2", input2), ("weight", weight)]
    if bias is not None:
        named.append(("bias", bias))
    if any(t.dtype is not input1.dtype for _, t in named):
        raise errors.runtime("All tensors must have the same dtype, got " + ", ".join(
            f"{name}: {t.dtype.cpp_name}" for name, t in named))
    if input1.ndim != input2.ndim:
        raise errors.runtime(f"bilinear(): input dimensions do not match: got {input1.ndim} and "
                             f"{input2.ndim}")
    for i in range(input1.ndim - 1):
        if input1.shape[i] != input2.shape[i]:
            raise errors.runtime(f"bilinear(): input batch dimensions do not match at dim {i}: "
                                 f"got {input1.shape[i]} and {input2.shape[i]}")
    for name, t, dim in (("input1", input1, 1), ("input2", input2, 2)):
        size, expected = F.size_at(t, -1), F.size_at(weight, dim)
        if size != expected:
            raise errors.runtime(f"bilinear(): {name} size does not match weight size: got "
                                 f"{size} but expected {expected}")
    if bias is not None and F.size_at(bias, 0) != weight.shape[0]:
        raise errors.runtime(f"bilinear(): bias size does not match weight size: got "
                             f"{bias.shape[0]} but expected {weight.shape[0]}")
    output_size = (*input1.shape[:-1], weight.shape[0])
    flat1 = F.reshape(input1, (-1, input1.shape[-1]))
    flat2 = F.reshape(input2, (-1, input2.shape[-1]))
    output = F.reshape(trilinear(flat1, weight, flat2, (1, 3), (0,), (1, 2), (2, 3)),
                       output_size)
    return output if bias is None else F.add(output, bias)


declare("bilinear", bilinear, "bilinear(Tensor input1, Tensor input2, Tensor weight, "
        "Tensor? bias=None)", variants="torch functional")


export(__name__, globals())
