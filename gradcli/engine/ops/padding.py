"""F.pad's reflect and replicate modes: a gather of the padded dims' source indices forward, a
scatter-add of the gradient backward (ReflectionPad1DBackward0, ReplicationPad2DBackward0, ...);
its circular mode: copies into slices of a new tensor, as ATen's _pad_circular makes them."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.functions import F
from gradcli.engine.ops.registry import OPS, apply, defop
from gradcli.engine.tensor import Tensor

_MODES = {"reflect": "reflection", "replicate": "replication"}
_SUPPORTED = ("Supported combinations for non-constant padding:\n"
              "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
              "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
              "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def _gather(x: np.ndarray, index: tuple) -> np.ndarray:
    for axis, positions in zip(range(-len(index), 0), index):
        x = np.take(x, positions, axis=axis)
    return x


def _scatter(g: np.ndarray, x: np.ndarray, index: tuple) -> np.ndarray:
    """The gradient of the gather: each padded dim's entries summed back onto their sources."""
    for axis, positions in reversed(list(zip(range(-len(index), 0), index))):
        shape = list(g.shape)
        shape[axis] = x.shape[axis]
        out = np.zeros(shape, g.dtype)
        np.add.at(np.moveaxis(out, axis, 0), positions, np.moveaxis(g, axis, 0))
        g = out
    return g


for _mode, _name in _MODES.items():
    for _dims in (1, 2, 3):
        _key, _label = f"{_name}_pad{_dims}d", f"{_name.capitalize()}Pad{_dims}D"
        defop(_key, f"{_label}Backward0", lambda x, index: _gather(x, index), promote="none",
              save=(0,), complex=True,  # (moves elements only: complex ones as any others)
              vjp=lambda g, x, index, key=_key: apply(OPS[key + "_backward"], g, x, index=index))
        defop(_key + "_backward", f"{_label}BackwardBackward0", _scatter, promote="none",
              complex=True,
              vjp=(lambda gg, g, x, index, key=_key: apply(OPS[key], gg, index=index),
                   lambda gg, g, x, index: F.zeros_like(gg)))


def _positions(mode: str, size: int, left: int, right: int) -> np.ndarray:
    j = np.arange(-left, size + right)
    if mode == "replicate":
        return np.clip(j, 0, size - 1)
    j = np.abs(j)
    return np.where(j >= size, 2 * (size - 1) - j, j)


def _circular(x: Tensor, pad: tuple) -> Tensor:
    """ATen's _pad_circular: the input copied into the middle of a new tensor, then each padded
    dim's ends copied from its other side (the corners more than once), each copy a CopySlices."""
    dims, lead = len(pad) // 2, x.ndim - len(pad) // 2
    shape = list(x.shape)
    for i in range(dims):
        left, right = pad[2 * (dims - i - 1)], pad[2 * (dims - i - 1) + 1]
        size = x.shape[lead + i]
        shape[lead + i] = size + left + right
        if left > size or right > size:
            raise errors.runtime("Padding value causes wrapping around more than once.")
        if shape[lead + i] < 0:
            raise errors.runtime("Negative padding value is resulting in an empty dimension")
    out = F.empty(*shape, dtype=x.dtype)
    out_slice, in_slice = out, x
    for i in range(dims):
        dim, left, right = x.ndim - i - 1, pad[2 * i], pad[2 * i + 1]
        out_slice = F.slice_dim(out_slice, dim, max(left, 0), shape[dim] - max(right, 0), 1)
        in_slice = F.slice_dim(in_slice, dim, max(-left, 0), x.shape[dim] - max(-right, 0), 1)
    F.copy_(out_slice, in_slice)
    for i in range(dims):
        dim, left, right = x.ndim - i - 1, pad[2 * i], pad[2 * i + 1]
        if left > 0:
            F.copy_(F.narrow(out, dim, 0, left),
                    F.narrow(out, dim, shape[dim] - left - max(right, 0), left))
        if right > 0:
            F.copy_(F.narrow(out, dim, shape[dim] - right, right),
                    F.narrow(out, dim, max(left, 0), right))
    return out


def pad(x: Tensor, pad: tuple, mode: str) -> Tensor:
    """F.pad(x, pad, mode='reflect', 'replicate' or 'circular') with torch's checks and texts."""
    dims = len(pad) // 2
    if not 1 <= dims <= 3 or x.ndim not in (dims + 1, dims + 2):
        raise errors.TorchError("NotImplementedError", f"Padding size {len(pad)} is not "
                                f"supported for {x.ndim}D input tensor.\n{_SUPPORTED}")
    if mode == "circular":
        return _circular(x, pad)
    if any(size == 0 for size in x.shape[x.ndim - dims:]) or (
            x.ndim == dims + 2 and x.shape[1] == 0):
        shape = "[" + ", ".join(str(s) for s in x.shape) + "]"
        raise errors.runtime(f"Expected {dims + 1}D or {dims + 2}D (batch mode) tensor with "
                             "possibly 0 batch size and other non-zero dimensions for input, but "
                             f"got: {shape}")
    index = []
    for pair in range(dims):
        dim = x.ndim - 1 - pair
        left, right = pad[2 * pair], pad[2 * pair + 1]
        if mode == "reflect" and (left >= x.shape[dim] or right >= x.shape[dim]):
            shape = "[" + ", ".join(str(s) for s in x.shape) + "]"
            raise errors.runtime(
                f"Argument #{4 + 2 * pair}: Padding size should be less than the corresponding "
                f"input dimension, but got: padding ({left}, {right}) at dimension {dim} of "
                f"input {shape}")
        index.insert(0, _positions(mode, x.shape[dim], left, right))
    return apply(OPS[f"{_MODES[mode]}_pad{dims}d"], x, index=tuple(index))
