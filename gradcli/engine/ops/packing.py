"""ATen's _pack_padded_sequence (the padded batch's valid steps, time-major, one after another)
with its checks and its backward, as aten/src/ATen/native/PackedSequence.cpp computes them."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.functions import F
from gradcli.engine.ops.inplace import copy_
from gradcli.engine.ops.registry import OPS, apply, defop
from gradcli.engine.ops.shapes import narrow, size_at
from gradcli.engine.tensor import Tensor


def _steps(lengths: tuple, batch: int):
    """(first step, last step, batch size) of each block of steps sharing a batch size."""
    previous = 0
    for i in range(batch):
        length = lengths[batch - 1 - i]
        if length > previous:
            yield previous, length, batch - i
            previous = length


def _pack(x, lengths, batch_first, batch_sizes, sizes):
    time_major = np.swapaxes(x, 0, 1) if batch_first else x
    pieces = [time_major[start:stop, :size].reshape((-1,) + time_major.shape[2:])
              for start, stop, size in _steps(lengths, time_major.shape[1])]
    return np.concatenate(pieces, 0)


def _pack_backward(g, x, lengths, batch_first, batch_sizes, sizes):
    """_pack_padded_sequence_backward: each step's rows copied into a zero padded gradient."""
    shape = (sizes[1], sizes[0], *sizes[2:]) if batch_first else sizes
    grad_input = F.zeros(shape, dtype=g.dtype)
    offset = 0
    for step, size in enumerate(batch_sizes):
        copy_(narrow(F.select(grad_input, 0, step), 0, 0, size), narrow(g, 0, offset, size))
        offset += size
    return F.transpose(grad_input, 0, 1) if batch_first else grad_input


defop("_pack_padded_sequence", "PackPaddedSequenceBackward0", _pack, promote="none",
      saves_params=True, vjp=(_pack_backward,))


def pack_padded(input: Tensor, lengths: Tensor, batch_first: bool) -> tuple:
    """_VF._pack_padded_sequence(input, lengths, batch_first): (data, batch_sizes)."""
    if not input.numel():
        raise errors.runtime("Cannot pack empty tensors.")
    if lengths.ndim != 1:  # lengths are int64 on the CPU by now
        raise errors.runtime("'lengths' argument should be a 1D CPU int64 tensor, but got "
                             f"{lengths.ndim}D cpu Long tensor")
    batch = size_at(input, 0 if batch_first else 1)
    values = tuple(int(v) for v in lengths.data.tolist())
    if len(values) != batch:
        raise errors.runtime("Expected `len(lengths)` to be equal to batch_size, but got "
                             f"{len(values)} (batch_size={batch})")
    if values[-1] <= 0:
        raise errors.runtime("Length of all samples has to be greater than 0, but found an "
                             "element in 'lengths' that is <= 0")
    if any(values[i + 1] > values[i] for i in range(batch - 1)):
        raise errors.runtime(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
            "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence "
            "to sidestep this requirement if you do not need ONNX exportability.")
    batch_sizes = [0] * values[0]
    for start, stop, size in _steps(values, batch):
        batch_sizes[start:stop] = [size] * (stop - start)
    data = apply(OPS["_pack_padded_sequence"], input, lengths=values, batch_first=batch_first,
                 batch_sizes=tuple(batch_sizes), sizes=tuple(input.shape))
    return data, Tensor(np.asarray(batch_sizes, np.int64), lengths.dtype)
