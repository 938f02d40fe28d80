"""nn.RNN, nn.LSTM and nn.GRU over a PackedSequence, as ATen's PackedLayer and
ReversedPackedLayer (aten/src/ATen/native/RNN.cpp) run it: each step's batch is the sequences
still running, a finished sequence's hidden state is set aside at its own length, and the
initial states are permuted into (and the final ones out of) the sorted order."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.functions import F
from gradcli.engine.ops.selection import index_select
from gradcli.engine.ops.shapes import narrow, view
from gradcli.language.namespaces import recurrent as R
from gradcli.language.namespaces.rnn_utils import PackedSequence
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.calls import get_item
from gradcli.language.runtime.values import type_name


def _slice(hidden, start: int, stop: int):
    """hidden_slice: rows start..stop of the state (of both states of an LSTM)."""
    if isinstance(hidden, tuple):
        return tuple(narrow(h, 0, start, stop - start) for h in hidden)
    return narrow(hidden, 0, start, stop - start)


def _concat(parts: list):
    """hidden_concat: the states' rows concatenated (each of an LSTM's two states)."""
    if isinstance(parts[0], tuple):
        return tuple(F.cat([part[i] for part in parts], 0) for i in range(2))
    return F.cat(parts, 0)


def _runner(batch_sizes: list):
    """One layer and direction over the packed data: (output data, final hidden state)."""
    def run(mode: str, data, hidden, p: tuple, reverse: bool) -> tuple:
        projected = F.linear(data, p[0], p[2])
        outputs = []
        if reverse:
            offset, last, initial = data.shape[0], batch_sizes[-1], hidden
            hidden = _slice(initial, 0, last)
            for size in reversed(batch_sizes):
                if size > last:
                    hidden = _concat([hidden, _slice(initial, last, size)])
                offset, last = offset - size, size
                hidden = R.cell_step(mode, narrow(projected, 0, offset, size), hidden, p)
                outputs.append(hidden[0] if mode == "LSTM" else hidden)
            outputs.reverse()
            return F.cat(outputs, 0), hidden
        offset, last, finished = 0, batch_sizes[0], []
        for size in batch_sizes:
            if size < last:
                finished.append(_slice(hidden, size, last))
                hidden = _slice(hidden, 0, size)
            last = size
            hidden = R.cell_step(mode, narrow(projected, 0, offset, size), hidden, p)
            offset += size
            outputs.append(hidden[0] if mode == "LSTM" else hidden)
        finished.append(hidden)
        finished.reverse()
        return F.cat(outputs, 0), _concat(finished)
    return run


def _permute(hidden, permutation, lstm: bool):
    """permute_hidden: the states' batch reordered by `permutation` (None: as they are)."""
    if permutation is None:
        return hidden
    if lstm:
        return tuple(index_select(get_item(hidden, i), 1, permutation) for i in range(2))
    return index_select(hidden, 1, permutation)


def _sizes(batch_sizes) -> list:
    """The batch sizes, as far as `batch_sizes[0]` and torch.zeros take them."""
    if not isinstance(batch_sizes, Tensor):
        raise errors.type_error(f"'{type_name(batch_sizes)}' object is not subscriptable")
    if batch_sizes.ndim == 0:
        raise errors.index_error("invalid index of a 0-dim tensor. Use `tensor.item()` in "
                                 "Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor "
                                 "to a number")
    if not batch_sizes.shape[0]:
        raise errors.index_error("index 0 is out of bounds for dimension 0 with size 0")
    return [int(v) for v in batch_sizes.data.reshape(-1).tolist()]


def _lstm_states(module, hx) -> tuple:
    """_VF.lstm's reading of a packed sequence's (h_0, c_0)."""
    if not isinstance(hx, (tuple, list)):
        weights = ", ".join(["Parameter"] * sum(p is not None for p in module.params.values()))
        given, weights = type_name(hx), f"list of [{weights}]"
        raise errors.type_error(
            f"lstm() received an invalid combination of arguments - got (Tensor, Tensor, {given}, "
            "list, bool, int, float, bool, bool), but expected one of:\n"
            " * (Tensor data, Tensor batch_sizes, tuple of Tensors hx, tuple of Tensors params, "
            "bool has_biases, int num_layers, float dropout, bool train, bool bidirectional)\n"
            "      didn't match because some of the arguments have invalid types: (Tensor, Tensor, "
            f"!{given}!, !{weights}!, bool, int, float, bool, bool)\n"
            " * (Tensor input, tuple of Tensors hx, tuple of Tensors params, bool has_biases, "
            "int num_layers, float dropout, bool train, bool bidirectional, bool batch_first)\n"
            "      didn't match because some of the arguments have invalid types: (Tensor, "
            f"!Tensor!, !{given}!, !{weights}!, !bool!, int, !float!, bool, bool)\n")
    for i, state in enumerate(hx):
        if not isinstance(state, Tensor):
            raise errors.type_error(f"expected Tensor as element {i} in argument 2, but got "
                                    f"{type_name(state)}")
    if len(hx) != 2:
        raise errors.runtime("lstm expects two hidden states")
    return tuple(hx)


def packed_forward(module, packed: PackedSequence, hx) -> tuple:
    """RNNBase.forward for a PackedSequence: a PackedSequence out, and the final states. LSTM's
    forward checks neither the input nor the states of a packed sequence; RNN's and GRU's do."""
    a = module.attrs
    lstm = a["mode"] == "LSTM"
    data, batch_sizes, sorted_indices, unsorted_indices = packed
    sizes = _sizes(batch_sizes)
    shapes = R.state_shapes(module, sizes[0])
    if not isinstance(data, Tensor):
        raise errors.no_attribute(data, "dtype")
    if batch_sizes.dtype.is_floating_point or batch_sizes.ndim != 1:
        raise errors.type_error("zeros(): argument 'size' failed to unpack the object at pos 2 "
                                'with error "type must be tuple of ints,but got Tensor"')
    if hx is None:
        hx = tuple(R.zeros(shape, data) for shape in shapes) if lstm else \
            R.zeros(shapes[0], data)
    else:
        hx = _permute(hx, sorted_indices, lstm)
    if lstm:
        hx = _lstm_states(module, hx)
    else:
        R.check_input(module, data, 2)
        if not isinstance(hx, Tensor):
            raise errors.no_attribute(hx, "size")
        R.check_hidden(hx, shapes[0])
    if lstm and len(set(sizes)) == 1 and R.runs_on_onednn(module, data):
        # every step holds the whole batch: torch runs oneDNN's layers on the data viewed as
        # the (steps, batch, features) sequence, and views their output back
        steps = view(data, (len(sizes), sizes[0], data.shape[-1]))
        output, hidden = R.stack_layers(module, steps, hx)
        output = view(output, (data.shape[0], output.shape[-1]))
    else:
        output, hidden = R.stack_layers(module, data, hx, _runner(sizes))
    return (PackedSequence((output, batch_sizes, sorted_indices, unsorted_indices)),
            _permute(hidden, unsorted_indices, lstm))


def forward(ctx, module, input, hx=None):
    """RNN/LSTM/GRU.forward: a PackedSequence's path, or the padded tensor's."""
    if isinstance(input, PackedSequence):
        return packed_forward(module, input, hx)
    R.dim_of(input)
    return R.layer_forward(ctx, module, input, hx)
