"""F.group_norm: each sample's channels normalised in groups, then a per-channel affine map
(NativeGroupNormBackward0), with torch's checks and texts."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F
from gradcli.engine.ops.registry import OPS, apply, defop
from gradcli.engine.tensor import Tensor


def _sizes(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _channel(shape: tuple, ndim: int) -> tuple:
    return (1, shape[0]) + (1,) * (ndim - 2)


def _group_norm(x, w, b, groups, eps):
    """Moments in double, then torch's y = x * scale + shift with scale = rstd * weight."""
    n, c = x.shape[:2]
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


def _normalised(x: Tensor, groups: int, eps: float) -> Tensor:
    grouped = F.reshape(x, (x.shape[0], groups, -1))
    centered = F.sub(grouped, F.mean(grouped, (2,), True))
    rstd = F.rsqrt(F.add_scalar(F.mean(F.mul(centered, centered), (2,), True), eps))
    return F.mul(centered, rstd), rstd


def _grad(index: int):
    def rule(g, x, w, b, groups, eps):
        g = g[0]
        batch_axes = (0, *range(2, x.ndim))
        xhat, rstd = _normalised(x, groups, eps)
        if index == 2:
            return F.sum(F.mul(g, F.reshape(xhat, x.shape)), batch_axes)
        if index == 3:
            return F.sum(g, batch_axes)
        gw = g if w is None else F.mul(g, F.reshape(w, _channel(w.shape, x.ndim)))
        gw = F.reshape(gw, (x.shape[0], groups, -1))
        inner = F.sub(F.sub(gw, F.mean(gw, (2,), True)),
                      F.mul(xhat, F.mean(F.mul(gw, xhat), (2,), True)))
        return F.reshape(F.mul(rstd, inner), x.shape)
    return rule


defop("native_group_norm", "NativeGroupNormBackward0", _group_norm, promote="none",
      n_outputs=3, differentiable_outputs=(0,), save=(0, 1, 2),
      vjp=(_grad(1), _grad(2), _grad(3)))


def group_norm(x: Tensor, num_groups: int, weight=None, bias=None, eps: float = 1e-5) -> Tensor:
    if x.ndim < 2:
        raise errors.runtime(f"Expected at least 2 dimensions for input tensor but received "
                             f"{x.ndim}")
    channels = x.shape[1]
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
    out, _, _ = apply(OPS["native_group_norm"], x, weight, bias, groups=num_groups, eps=eps)
    return out


declare("group_norm", group_norm, "group_norm(Tensor input, int num_groups, Tensor? weight=None, "
        "Tensor? bias=None, float eps=1e-05)", variants="functional")
