"""torch.nn.utils.rnn: PackedSequence and the functions that pad, pack and unpack sequences,
following torch's Python code (torch/nn/utils/rnn.py) step by step, so that values, grad_fn
labels and errors are torch's."""

from __future__ import annotations

import numpy as np

from gradcli.engine import creation, dtypes, errors
from gradcli.engine.functions import F
from gradcli.engine.ops import shapes as S
from gradcli.engine.ops.inplace import copy_
from gradcli.engine.ops.packing import pack_padded
from gradcli.engine.ops.selection import index_select
from gradcli.engine.ops.sorting import sort
from gradcli.engine.tensor import Tensor, require_tensors
from gradcli.language.runtime import attributes, protocols
from gradcli.language.runtime.calls import get_item
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import (NamedTuple, Namespace, Printer, iterate,
                                             type_name)


def _method(ctx, value, name: str, *args, **kwargs):
    """value.name(*args, **kwargs), as the program would call it."""
    return ctx.call(attributes.get(value, name), list(args), kwargs)


def invert_permutation(permutation):
    """The permutation that undoes `permutation` (None for None)."""
    if permutation is None:
        return None
    out = np.empty_like(permutation.data)
    out[permutation.data] = np.arange(permutation.data.size)
    return Tensor(out, permutation.dtype)


def _fields(data, batch_sizes=None, sorted_indices=None, unsorted_indices=None) -> tuple:
    """_packed_sequence_init_args: the four fields, unsorted_indices inverted when missing."""
    if unsorted_indices is None:
        unsorted_indices = invert_permutation(sorted_indices)
    if batch_sizes is not None:
        if not isinstance(batch_sizes, Tensor):
            raise errors.no_attribute(batch_sizes, "device")
        return data, batch_sizes, sorted_indices, unsorted_indices
    if not isinstance(data, (list, tuple)) or len(data) != 2:
        raise errors.TorchError("AssertionError",
                                "Expected data to be a list or tuple of length 2")
    return data[0], data[1], sorted_indices, unsorted_indices


def _to(ctx, packed, *args, **kwargs):
    """PackedSequence.to: the data moved or cast; the indices follow the data's device."""
    data = _method(ctx, packed[0], "to", *args, **kwargs)
    if data is packed[0]:
        return packed
    return PackedSequence((data, *packed[1:]))


def _cast(dtype: dtypes.DType):
    return lambda ctx, packed: _to(ctx, packed, dtype=dtype)


class PackedSequence(NamedTuple):
    """A PackedSequence: (data, batch_sizes, sorted_indices, unsorted_indices)."""

    __slots__ = ()
    language_fields = ("data", "batch_sizes", "sorted_indices", "unsorted_indices")
    language_attrs = {"is_cuda": lambda packed: False}
    language_methods = table(
        entry("to", _to, "self, *args, **kwargs", context=True),
        entry("cpu", lambda ctx, packed, *args, **kwargs: _to(ctx, packed, "cpu"),
              "self, *args, **kwargs", context=True),
        entry("is_pinned", lambda packed: False, "self"),
        *(entry(name, _cast(dtype), "self", context=True) for name, dtype in (
            ("double", dtypes.float64), ("float", dtypes.float32), ("half", dtypes.float16),
            ("long", dtypes.int64), ("int", dtypes.int32), ("short", dtypes.int16),
            ("char", dtypes.int8), ("byte", dtypes.uint8))))


PACKED_SEQUENCE_TYPE = PyType("torch.nn.utils.rnn.PackedSequence", (PackedSequence,), entry(
    "PackedSequence", lambda *args: PackedSequence(_fields(*args)),
    "data, batch_sizes=None, sorted_indices=None, unsorted_indices=None", frames=0))
protocols.register_type(PACKED_SEQUENCE_TYPE)


def _packed(sequence) -> PackedSequence:
    if not isinstance(sequence, PackedSequence):
        raise errors.no_attribute(sequence, "batch_sizes")
    return sequence


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right") -> Tensor:
    """Sequences stacked along a new batch dimension, each padded at its end (or start) to the
    longest, copied into a filled tensor as torch's kernel copies them."""
    try:
        sequences = tuple(iterate(sequences))
    except errors.TorchError as error:
        if error.kind != "TypeError" or isinstance(sequences, Tensor):
            raise
        raise errors.runtime("pad_sequence: Expected iterable for input sequences, but got arg "
                             f"of type: <class '{type_name(sequences)}'>") from None
    if padding_side not in ("left", "right"):
        raise errors.runtime(
            f"Expected padding_side to be one of left or right, but got {padding_side}.")
    require_tensors(sequences)  # the C++ parser's check, before the kernel's own
    if not sequences:
        raise errors.runtime("received an empty list of sequences")
    first = sequences[0]
    if first.ndim == 0:
        raise errors.runtime("ArrayRef: invalid slice, N = 1; size = 0")
    longest = max(S.size_at(seq, 0) for seq in sequences)
    lead = (len(sequences), longest) if batch_first else (longest, len(sequences))
    out = creation.full(lead + first.shape[1:], padding_value, dtype=first.dtype)
    for i, seq in enumerate(sequences):
        length = seq.shape[0]
        start = longest - length if padding_side == "left" else 0
        if batch_first:
            target = S.narrow(F.select(out, 0, i), 0, start, length)
        else:
            target = F.select(S.narrow(out, 0, start, length), 1, i)
        copy_(target, seq)
    return out


def pack_padded_sequence(ctx, input, lengths, batch_first=False, enforce_sorted=True):
    if lengths is None:
        raise errors.type_error("'NoneType' object cannot be interpreted as an integer")
    if not isinstance(lengths, Tensor):
        lengths = creation.as_tensor(lengths, dtypes.int64)
    else:
        lengths = _method(ctx, lengths, "to", dtype=dtypes.int64)
    if F.truth(enforce_sorted):
        sorted_indices = None
    else:
        lengths, sorted_indices = sort(lengths, descending=True)
        input = _method(ctx, input, "index_select", 0 if batch_first else 1, sorted_indices)
    if not isinstance(input, Tensor):
        raise errors.type_error("_pack_padded_sequence(): argument 'input' (position 1) must be "
                                f"Tensor, not {type_name(input)}")
    if not isinstance(batch_first, bool):
        raise errors.type_error("_pack_padded_sequence(): argument 'batch_first' (position 3) "
                                f"must be bool, not {type_name(batch_first)}")
    data, batch_sizes = pack_padded(input, lengths, batch_first)
    return PackedSequence(_fields(data, batch_sizes, sorted_indices, None))


def _pad_packed(data: Tensor, batch_sizes: Tensor, batch_first: bool, padding_value,
                total_length: int) -> tuple:
    """ATen's _pad_packed_sequence: the packed steps copied block by block into a filled
    tensor, and each sequence's length."""
    sizes = [int(v) for v in batch_sizes.data.tolist()]
    longest = max(total_length, len(sizes))
    output = creation.full((longest, sizes[0], *data.shape[1:]), padding_value,
                           dtype=data.dtype)
    lengths = [0] * sizes[0]
    offset, previous_size, previous_i = 0, sizes[0], 0
    for i in range(len(sizes) + 1):
        size = sizes[i] if i < len(sizes) else 0
        if size != previous_size:
            count = previous_size * (i - previous_i)
            block = F.view(S.narrow(data, 0, offset, count),
                           (i - previous_i, previous_size, *data.shape[1:]))
            copy_(S.narrow(S.narrow(output, 0, previous_i, i - previous_i), 1, 0,
                           previous_size), block)
            offset += count
            previous_i = i
        lengths[size:previous_size] = [i] * max(previous_size - size, 0)
        previous_size = size
    if batch_first:
        output = F.transpose(output, 0, 1)
    return output, Tensor(np.asarray(lengths, np.int64), dtypes.int64)


def pad_packed_sequence(ctx, sequence, batch_first=False, padding_value=0.0, total_length=None):
    sequence = _packed(sequence)
    longest = S.size_at(sequence[1], 0)
    if total_length is not None:
        if F.truth(F.python_compare("<", total_length, longest)):
            raise errors.value_error(
                "Expected total_length to be at least the length of the longest sequence in "
                f"input, but got total_length={Printer().str(total_length)} and max sequence "
                f"length being {longest}")
        longest = total_length
    if not isinstance(padding_value, (int, float, complex, Tensor)):
        raise errors.type_error("_pad_packed_sequence(): argument 'padding_value' (position 4) "
                                f"must be Number, not {type_name(padding_value)}")
    padded, lengths = _pad_packed(sequence[0], sequence[1], bool(batch_first), padding_value,
                                  int(longest))
    unsorted = sequence[3]
    if unsorted is not None:
        return (index_select(padded, 0 if batch_first else 1, unsorted),
                index_select(lengths, 0, unsorted))
    return padded, lengths


def pack_sequence(ctx, sequences, enforce_sorted=True):
    lengths = creation.as_tensor([S.size_at(_tensor(v, "size"), 0) for v in iterate(sequences)])
    return pack_padded_sequence(ctx, pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


def _tensor(value, attribute: str) -> Tensor:
    if not isinstance(value, Tensor):
        raise errors.no_attribute(value, attribute)
    return value


def unpad_sequence(ctx, padded_sequences, lengths, batch_first=False) -> list:
    padded = _tensor(padded_sequences, "transpose_")
    if not batch_first:
        _method(ctx, padded, "transpose_", 0, 1)
    index = creation.arange(S.size_at(padded, 1))
    _tensor(lengths, "device")
    sequences, lengths = list(iterate(padded)), list(iterate(lengths))
    if len(sequences) != len(lengths):  # zip(..., strict=True)
        which = "shorter" if len(lengths) < len(sequences) else "longer"
        raise errors.value_error(f"zip() argument 2 is {which} than argument 1")
    return [get_item(seq, F.lt(index, length)) for seq, length in zip(sequences, lengths)]


def unpack_sequence(ctx, packed_sequences) -> list:
    padded, lengths = pad_packed_sequence(ctx, packed_sequences, batch_first=True)
    return unpad_sequence(ctx, padded, lengths, batch_first=True)


RNN_UTILS = Namespace("torch.nn.utils.rnn", {"PackedSequence": PACKED_SEQUENCE_TYPE, **table(
    entry("pad_sequence", pad_sequence,
          "sequences, batch_first=False, padding_value=0.0, padding_side='right'"),
    entry("pack_padded_sequence", pack_padded_sequence,
          "input, lengths, batch_first=False, enforce_sorted=True", context=True),
    entry("pad_packed_sequence", pad_packed_sequence,
          "sequence, batch_first=False, padding_value=0.0, total_length=None", context=True),
    entry("pack_sequence", pack_sequence, "sequences, enforce_sorted=True", context=True),
    entry("unpack_sequence", unpack_sequence, "packed_sequences", context=True),
    entry("unpad_sequence", unpad_sequence, "padded_sequences, lengths, batch_first=False",
          context=True),
    entry("invert_permutation", lambda permutation: invert_permutation(permutation),
          "permutation"),
)})
