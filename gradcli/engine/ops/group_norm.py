"""F.group_norm: each sample's channels normalised in groups, then a per-channel affine map
(NativeGroupNormBackward0), with torch's checks and texts."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import errors, group_norm_order, normalization_order, schemas
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.state import STATE
from gradcli.engine.ops.registry import OPS, apply, defop
from gradcli.engine.tensor import Tensor


def _sizes(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _channel(shape: tuple, ndim: int) -> tuple:
    return (1, shape[0]) + (1,) * (ndim - 2)


def _exact(x, *params) -> bool:
    """Whether group_norm_order reproduces torch's kernel: a C-ordered float input with
    parameters of its dtype."""
    return normalization_order.supported(x, *params) and x.flags.c_contiguous


def _group_norm(x, w, b, groups, eps):
    """torch's kernel where group_norm_order has it; otherwise moments in double, then
    y = x * scale + shift with scale = rstd * weight."""
    n, c = x.shape[:2]
    if x.size == 0:  # the moments of no values are NaN (0 / 0), as ATen's
        nan = np.full((n, groups), np.nan, x.dtype)
        return x.copy(), nan, nan.copy()
    if _exact(x, w, b):
        return group_norm_order.group_norm(x, w, b, groups, eps)
    wide = x.reshape(n, groups, -1).astype(np.float64)
    mean = wide.mean(axis=2)
    rstd = 1 / np.sqrt(((wide - mean[..., None]) ** 2).mean(axis=2) + eps)
    mean, rstd = mean.astype(x.dtype), rstd.astype(x.dtype)
    per_channel = c // groups
    scale = np.repeat(rstd, per_channel, axis=1)
    if w is not None:
        scale = scale * w
    shift = -scale * np.repeat(mean, per_channel, axis=1)
    if b is not None:
        shift = shift + b
    view = (n, c) + (1,) * (x.ndim - 2)
    out = x * scale.reshape(view) + shift.reshape(view)
    return out.astype(x.dtype), mean, rstd


def _statistics(x: Tensor, groups: int, eps: float):
    """Per-(sample, group) mean and 1/std, shaped (N, G, 1)."""
    grouped = F.reshape(x, (x.shape[0], groups, -1))
    mean = F.mean(grouped, (2,), True)
    centered = F.sub(grouped, mean)
    return mean, F.rsqrt(F.add_scalar(F.mean(F.mul(centered, centered), (2,), True), eps))


def _grad(index: int):
    """torch's GroupNorm backward: its kernel (group_norm_order) unless the graph is being
    built, when torch too takes infinitely_differentiable_native_group_norm_backward, on
    (N, G, D, HxW) views: ds = sum(g * x), db = sum(g) over HxW; dx = a g + b x + c, reshaped
    back; dgamma = sum_n (ds - db mean) rstd; dbeta = sum_n db."""
    def rule(g, x, w, b, groups, eps):
        g = g[0]
        if x.numel() == 0 and index == 1:  # nothing normalized: an empty gradient
            return F.zeros_for(x)
        if x.numel() == 0 and index == 2:  # sum_n (ds - db * mean) * rstd, the moments NaN
            zeros = F.zeros_for(w)
            return F.mul_scalar(zeros, float("nan")) if x.shape[0] else zeros
        weight = None if w is None else w.data
        if not STATE.grad_enabled and _exact(x.data, weight, g.data):
            return Tensor(group_norm_order.group_norm_backward(
                np.ascontiguousarray(g.data), x.data, weight, groups, eps, index), x.dtype)
        n, c = x.shape[:2]
        grouped = (n, groups, c // groups, x.numel() // (n * c) if n * c else 0)
        g4 = F.reshape(g, grouped)
        db = F.unsqueeze(F.sum(g4, (3,)), -1)
        if index == 3:
            return F.reshape(F.sum(db, (0,)), w.shape)
        mean, rstd = (F.unsqueeze(t, -1) for t in _statistics(x, groups, eps))
        x4 = F.reshape(x, grouped)
        ds = F.unsqueeze(F.sum(F.mul(g4, x4), (3,)), -1)
        if index == 2:
            return F.reshape(F.sum(F.mul(F.sub(ds, F.mul(db, mean)), rstd), (0,)), w.shape)
        gamma = None if w is None else F.reshape(w, (1, groups, c // groups, 1))
        rstd_cube = F.mul(F.mul(rstd, rstd), rstd)
        a = rstd if gamma is None else F.mul(rstd, gamma)
        coef_b = F.unsqueeze(F.sum(ds if gamma is None else F.mul(ds, gamma), (2,)), -2)
        coef_c = F.unsqueeze(F.sum(db if gamma is None else F.mul(db, gamma), (2,)), -2)
        scale = 1.0 / (grouped[2] * grouped[3])
        coef_b = F.mul_scalar(F.mul(F.sub(F.mul(coef_c, mean), coef_b), rstd_cube), scale)
        coef_c = F.sub(F.mul(F.neg(coef_b), mean), F.mul_scalar(F.mul(coef_c, rstd), scale))
        dx = F.add(F.add(F.mul(a, g4), F.mul(coef_b, x4)), coef_c)
        return F.reshape(dx, x.shape)
    return rule


defop("native_group_norm", "NativeGroupNormBackward0", _group_norm, promote="none",
      n_outputs=3, differentiable_outputs=(0,), save=(0, 1, 2),
      vjp=(_grad(1), _grad(2), _grad(3)))


def _verify_batch_size(shape: tuple, num_groups) -> None:
    """torch's `_verify_batch_size([N * C // num_groups, num_groups, *spatial])`, in Python's
    arithmetic on whatever num_groups is (a tensor divides as torch's floor_divide)."""
    if isinstance(num_groups, Tensor):
        batch = F.floor_divide(shape[0] * shape[1], num_groups)
        size_prods = F.mul(batch, math.prod(shape[2:]))
    elif not isinstance(num_groups, (int, float)):
        raise errors.unsupported_operands("//", "int", errors.type_name(num_groups))
    elif num_groups == 0:
        raise errors.TorchError("ZeroDivisionError", "integer division or modulo by zero"
                                if isinstance(num_groups, int) else "float floor division by zero")
    else:
        batch = shape[0] * shape[1] // num_groups
        size_prods = batch * math.prod(shape[2:])
    if F.truth(F.python_compare("==", size_prods, 1)):
        sizes = [v.data.item() if isinstance(v, Tensor) else v for v in (batch, num_groups)]
        raise errors.value_error("Expected more than 1 value per channel when training, got "
                                 f"input size {[*sizes, *shape[2:]]}")


def group_norm(x: Tensor, num_groups, weight=None, bias=None, eps=1e-5) -> Tensor:
    """F.group_norm, Python in torch: the input's dimensions checked, then its arguments handed
    to the C++ torch.group_norm and its parser."""
    if x.ndim < 2:
        raise errors.runtime(f"Expected at least 2 dimensions for input tensor but received "
                             f"{x.ndim}")
    _verify_batch_size(x.shape, num_groups)
    bound = schemas.bind_cpp(
        "group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, "
        "float eps=1e-05, bool cudnn_enabled=True)", x, num_groups, weight, bias, eps)
    num_groups, eps = bound["num_groups"], bound["eps"]
    channels = x.shape[1]
    if num_groups <= 0:
        raise errors.runtime(f"Expected num groups to be greater than 0, got {num_groups}")
    if channels % num_groups:
        raise errors.runtime(
            "Expected number of channels in input to be divisible by num_groups, but got input "
            f"of shape {_sizes(x.shape)} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.ndim != 1 or t.shape[0] != channels):
            raise errors.runtime(
                f"Expected {name} to be a vector of size equal to the number of channels in "
                f"input, but got {name} of shape {_sizes(t.shape)} and input of shape "
                f"{_sizes(x.shape)}")
    errors.check_norm_dtypes("GroupNormKernelImpl", x, (weight, bias))
    out, _, _ = apply(OPS["native_group_norm"], x, weight, bias, groups=num_groups, eps=eps)
    return out


declare("group_norm", group_norm, python="input, num_groups, weight: object=None, "
        "bias: object=None, eps=1e-05; "
        "input: .dim", variants="functional")


export(__name__, globals())
