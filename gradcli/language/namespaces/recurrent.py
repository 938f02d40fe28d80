"""torch.nn's recurrent layers (RNN, LSTM, GRU) and cells (RNNCell, LSTMCell, GRUCell), computed
as ATen's CPU code computes them (aten/src/ATen/native/RNN.cpp): a layer projects its whole
input sequence first, then runs one cell per step; parameters are drawn as torch's
reset_parameters draws them. Their rows are in nn_table.KINDS.

A float32 nn.LSTM runs in torch through oneDNN, one `MkldnnRnnLayerBackward0` node per layer and
direction; gradcli computes oneDNN's values (`onednn_lstm`) where it reproduces them, else the
same layer from the cell's formulas (its last bits may then differ), under that node."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, errors, grad_api, onednn_lstm, parameters
from gradcli.engine.cpu_capability import ONEDNN_AVX512
from gradcli.engine.custom import NativeNode
from gradcli.engine.functions import F
from gradcli.engine.ops.shapes import transpose_
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.namespaces.modules import Module, options_repr
from gradcli.language.runtime.calls import get_item
from gradcli.language.runtime.values import iterate, type_name
from gradcli.language.runtime.signatures import entry, table
from gradcli.engine.triggered import triggered

GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


# ---- parameters ----------------------------------------------------------------------------

def _cell_parameters(module, prefix_suffix: str, input_size: int, hidden_size: int, gates: int,
                     bias: bool, dtype, proj_size: int = 0) -> None:
    """w_ih, w_hh (and b_ih, b_hh; and an LSTM's projection w_hr), drawn in that order, uniform
    in +-1/sqrt(hidden_size)."""
    bound = 1.0 / math.sqrt(hidden_size) if hidden_size > 0 else 0.0
    shapes = [("weight_ih", (gates * hidden_size, input_size)),
              ("weight_hh", (gates * hidden_size, proj_size or hidden_size))]
    if bias:
        shapes += [("bias_ih", (gates * hidden_size,)), ("bias_hh", (gates * hidden_size,))]
    if proj_size:
        shapes.append(("weight_hr", (proj_size, hidden_size)))
    for name, shape in shapes:
        module.params[name + prefix_suffix] = parameters.uniform(shape, bound, dtype)


def _mode(module) -> str:
    return module.attrs["mode"]


def build_layer(mode: str):
    """The constructor of RNN (mode None: from `nonlinearity`), LSTM or GRU."""
    def build(module, input_size, hidden_size, num_layers=1, *rest):
        if mode is None:
            nonlinearity, bias, batch_first, dropout, bidirectional, device, dtype = rest
            if nonlinearity not in ("tanh", "relu"):
                raise errors.value_error(f"Unknown nonlinearity '{nonlinearity}'. Select from "
                                         "'tanh' or 'relu'.")
            chosen, proj_size = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", 0
        elif mode == "LSTM":
            bias, batch_first, dropout, bidirectional, proj_size, device, dtype = rest
            chosen = mode
        else:
            bias, batch_first, dropout, bidirectional, device, dtype = rest
            chosen, proj_size = mode, 0
        _check_options(input_size, hidden_size, num_layers, bias, batch_first, dropout,
                       proj_size)
        module.attrs.update(mode=chosen, input_size=input_size, hidden_size=hidden_size,
                            num_layers=num_layers, bias=bias, batch_first=batch_first,
                            dropout=float(dropout), bidirectional=bidirectional,
                            proj_size=proj_size)
        directions = 2 if bidirectional else 1
        dtype = dtype or STATE.default_dtype
        for layer in range(num_layers):
            for direction in range(directions):
                size = input_size if layer == 0 else (proj_size or hidden_size) * directions
                suffix = f"_l{layer}" + ("_reverse" if direction else "")
                _cell_parameters(module, suffix, size, hidden_size, GATES[chosen], bias, dtype,
                                 proj_size)
    return build


def _check_options(input_size, hidden_size, num_layers, bias, batch_first, dropout,
                   proj_size) -> None:
    """RNNBase.__init__'s checks, in its order."""
    if isinstance(dropout, bool) or not isinstance(dropout, (int, float)) \
            or not 0 <= dropout <= 1:
        raise errors.value_error("dropout should be a number in range [0, 1] representing the "
                                 "probability of an element being zeroed")
    if dropout > 0 and num_layers == 1:
        STATE.warn("UserWarning", "dropout option adds dropout after all but last recurrent "
                   f"layer, so non-zero dropout expects num_layers greater than 1, but got "
                   f"dropout={dropout} and num_layers={num_layers}")
    for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                              ("input_size", input_size, int)):
        if not isinstance(value, kind):
            raise errors.type_error(f"{name} should be of type {kind.__name__}, got: "
                                    f"{type_name(value)}")
    if input_size <= 0:
        raise errors.value_error("input_size must be greater than zero")
    if not isinstance(hidden_size, int):
        raise errors.type_error(f"hidden_size should be of type int, got: "
                                f"{type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise errors.value_error("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise errors.value_error("num_layers must be greater than zero")
    if proj_size < 0:
        raise errors.value_error("proj_size should be a positive integer or zero to disable "
                                 "projections")
    if proj_size >= hidden_size:
        raise errors.value_error("proj_size has to be smaller than hidden_size")


def build_cell(mode: str | None):
    def build(module, input_size, hidden_size, bias=True, *rest):
        chosen = mode
        if mode is None:
            nonlinearity, device, dtype = rest
            chosen = "RNN_RELU" if nonlinearity == "relu" else "RNN_TANH"  # forward refuses others
            module.attrs["nonlinearity"] = nonlinearity
        else:
            device, dtype = rest
        module.attrs.update(mode=chosen, input_size=input_size, hidden_size=hidden_size,
                            bias=bias)
        _cell_parameters(module, "", input_size, hidden_size, GATES[chosen], bias,
                         dtype or STATE.default_dtype)
    return build


def layer_repr(module, printer) -> str:
    a = module.attrs
    return options_repr(module, printer, f"{a['input_size']}, {a['hidden_size']}",
                        ("proj_size", 0), ("num_layers", 1), ("bias", True), ("batch_first", False),
                        ("dropout", 0.0), ("bidirectional", False))


def cell_repr(module, printer) -> str:
    a = module.attrs
    text = f"{a['input_size']}, {a['hidden_size']}"
    if a["bias"] is not True:
        text += f", bias={a['bias']}"
    if a.get("nonlinearity", "tanh") != "tanh":
        text += f", nonlinearity={a['nonlinearity']}"
    return text


# ---- the cells, as ATen's --------------------------------------------------------------------

def _linear(x: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
    return F.linear(x, weight, bias)


def _simple_cell(mode: str, igates: Tensor, hidden: Tensor, p: tuple) -> Tensor:
    """SimpleCell: nonlinearity(linear_hh(h) + the input's projection)."""
    total = F.add(_linear(hidden, p[1], p[3]), igates)
    return F.tanh(total) if mode == "RNN_TANH" else F.relu(total)


def _gru_cell(igates: Tensor, hidden: Tensor, p: tuple) -> Tensor:
    ig = F.unsafe_chunk(igates, 3, 1)
    hg = F.unsafe_chunk(_linear(hidden, p[1], p[3]), 3, 1)
    # the gates' sums and sigmoids in place in hg's chunks, as ATen's: the sigmoid then walks
    # the chunk's rows, whose length decides which elements its vector code takes
    reset, update = (F.apply_inplace(F.apply_inplace(hg[k], lambda t, k=k: F.add(t, ig[k])),
                                     F.sigmoid) for k in (0, 1))
    new = F.tanh(F.add(ig[2], F.mul(hg[2], reset)))
    return F.add(F.mul(F.sub(hidden, new), update), new)


def _lstm_cell(igates: Tensor, hidden: tuple, p: tuple) -> tuple:
    hx, cx = hidden
    gates = F.unsafe_chunk(F.add(_linear(hx, p[1], p[3]), igates), 4, 1)
    ingate, forget = F.sigmoid(gates[0]), F.sigmoid(gates[1])
    cell, outgate = F.tanh(gates[2]), F.sigmoid(gates[3])
    cy = F.add(F.mul(forget, cx), F.mul(ingate, cell))
    hy = F.mul(outgate, F.tanh(cy))
    if len(p) > 4 and p[4] is not None:  # matmul_hr: the projection of the hidden state
        hy = F.mm(hy, F.t(p[4]))
    return hy, cy


def cell_step(mode: str, igates: Tensor, hidden, p: tuple):
    if mode == "LSTM":
        return _lstm_cell(igates, hidden, p)
    if mode == "GRU":
        return _gru_cell(igates, hidden, p)
    return _simple_cell(mode, igates, hidden, p)


def _run_direction(mode: str, sequence: Tensor, hidden, p: tuple, reverse: bool) -> tuple:
    """FullLayer on the CPU: the input projected at once, one cell per step (backwards for the
    reverse direction); the outputs stacked in time order, and the last hidden state."""
    steps = list(F.unbind(_linear(sequence, p[0], p[2]), 0))
    outputs = []
    for igates in (reversed(steps) if reverse else steps):
        hidden = cell_step(mode, igates, hidden, p)
        outputs.append(hidden[0] if mode == "LSTM" else hidden)
    if reverse:
        outputs.reverse()
    return F.stack(outputs, 0), hidden


def _layer_parameters(module, layer: int, direction: int) -> tuple:
    suffix = f"_l{layer}" + ("_reverse" if direction else "")
    params = module.params
    return (params["weight_ih" + suffix], params["weight_hh" + suffix],
            params.get("bias_ih" + suffix), params.get("bias_hh" + suffix),
            params.get("weight_hr" + suffix))


def _oneDNN_layer(mode: str, sequence: Tensor, hidden: tuple, p: tuple, reverse: bool) -> tuple:
    """One float32 LSTM layer and direction under one `MkldnnRnnLayerBackward0` node, as
    torch's oneDNN path records it: edges to the input, the four parameters, h0 and c0. Its
    values are oneDNN's (`onednn_lstm`) where that module reproduces the shapes, elsewhere the
    cell's formulas; gradients taken with create_graph follow torch's differentiable backward."""
    inputs = (sequence, p[0], p[1], p[2], p[3], hidden[0], hidden[1])
    exact = _exact_forward(inputs, reverse)
    if exact is None:
        output, (hy, cy) = _run_direction(mode, sequence, hidden, p, reverse)
        inner = (output, hy, cy)
        results = tuple(F.detach(t) for t in inner)
    else:
        inner, results = None, tuple(Tensor(a, dtypes.float32) for a in exact[:3])
    differentiable = [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]
    if not (STATE.grad_enabled and differentiable):
        return results

    def backward(grads):
        found = None
        if exact is not None and not STATE.grad_enabled:
            found = onednn_lstm.backward(exact[3], *(_array(g) for g in grads))
        if found is not None:
            d_x, d_w_ih, d_w_hh, d_bias, d_h, d_c = found
            arrays = (d_x, d_w_ih, d_w_hh, d_bias, d_bias, d_h, d_c)
            return tuple(Tensor(a, dtypes.float32) if isinstance(t, Tensor) and t.requires_grad
                         else None for a, t in zip(arrays, inputs))
        if STATE.grad_enabled:  # create_graph: torch's differentiable formulas
            found = _differentiable_backward(sequence, p, hidden, grads, reverse)
            return tuple(g if isinstance(t, Tensor) and t.requires_grad else None
                         for g, t in zip(found, inputs))
        graph = inner
        if graph is None:  # (a layer whose backward `onednn_lstm` does not reproduce)
            with grad_mode(True):
                output, (hy, cy) = _run_direction(mode, sequence, hidden, p, reverse)
            graph = (output, hy, cy)
        found = iter(grad_api.grad(list(graph), differentiable, list(grads), retain_graph=True,
                                   allow_unused=True))
        return tuple(next(found) if isinstance(t, Tensor) and t.requires_grad else None
                     for t in inputs)

    node = NativeNode("MkldnnRnnLayerBackward0", inputs, results, backward)
    for nr, out in enumerate(results):
        out._grad_fn, out.output_nr, out._requires_grad = node, nr, True
    return results


def _differentiable_backward(sequence: Tensor, p: tuple, hidden: tuple, grads, reverse: bool):
    """mkldnn_rnn_layer_differentiable_backward (torch's backward in grad mode): the gates
    recomputed step by step with ATen's ops, then the gradients step by step from the last; the
    input's gradient a cat of one row per step. Gradients of input, w_ih, w_hh, b_ih, b_hh, h0
    and c0 (the two biases' are one tensor)."""
    w_ih, w_hh = p[0], p[1]
    b_ih, b_hh = (p[2], p[3]) if p[2] is not None else (
        zeros((w_ih.shape[0],), w_ih), zeros((w_ih.shape[0],), w_ih))
    steps = sequence.shape[0]
    order = [steps - 1 - n if reverse else n for n in range(steps)]
    gates, states = [None] * steps, [hidden]
    for t in order:
        h, c = states[-1]
        gate = F.apply_inplace(F.linear(get_item(sequence, t), w_ih, b_ih),
                               lambda g, h=h: F.add(g, F.linear(h, w_hh, b_hh)))
        chunks = F.unsafe_chunk(gate, 4, 1)
        i, f, o = (F.apply_inplace(chunks[k], F.sigmoid) for k in (0, 1, 3))
        g = F.apply_inplace(chunks[2], F.tanh)
        gates[t] = (i, f, g, o)
        cy = F.add(F.mul(f, c), F.mul(i, g))
        states.append((F.mul(o, F.tanh(cy)), cy))
    grad_h, grad_c = grads[1], grads[2]
    d_x, totals = [None] * steps, None
    for n in range(steps - 1, -1, -1):
        t = order[n]
        i, f, g, o = gates[t]
        cy = states[n + 1][1]
        h, c = states[n]
        dh = F.add(get_item(grads[0], t), grad_h)
        d1 = F.add(grad_c, F.mul(F.mul(dh, o), F.rsub(F.mul(F.tanh(cy), F.tanh(cy)), 1)))
        dgp, dip, d_c, dfp = F.mul(d1, i), F.mul(d1, g), F.mul(d1, f), F.mul(d1, c)
        dop = F.mul(dh, F.tanh(cy))
        d_o = F.mul(F.mul(dop, o), F.rsub(o, 1))
        dg = F.mul(dgp, F.rsub(F.mul(g, g), 1))
        df = F.mul(F.mul(dfp, f), F.rsub(f, 1))
        di = F.mul(F.mul(dip, i), F.rsub(i, 1))
        da = F.cat([di, df, dg, d_o], 1)
        d_b = F.sum(da, 0)
        d_x[t] = F.unsqueeze(F.matmul(da, w_ih), 0)
        grad_h, grad_c = F.matmul(da, w_hh), d_c
        parts = (d_b, F.matmul(F.transpose(da, 0, 1), get_item(sequence, t)),
                 F.matmul(F.transpose(da, 0, 1), h))
        totals = parts if totals is None else tuple(
            F.apply_inplace(total, lambda x, part=part: F.add(x, part))
            for total, part in zip(totals, parts))
    d_b, d_w_ih, d_w_hh = totals
    return F.cat(d_x, 0), d_w_ih, d_w_hh, d_b, d_b, grad_h, grad_c


def _array(t: Tensor) -> np.ndarray:
    return np.ascontiguousarray(t.data, np.float32)


def _exact_forward(inputs: tuple, reverse: bool):
    """oneDNN's values of the layer (`onednn_lstm.forward`: forward_training in grad mode, the
    brgemm inference kernel without) on an AVX-512 CPU (oneDNN's kernels for it were measured,
    on a Zen 5 EPYC) when every tensor is float32 (and the layer's biases are there or absent
    together), else None."""
    sequence, w_ih, w_hh, b_ih, b_hh, h0, c0 = inputs
    present = [t for t in inputs if t is not None]
    if not ONEDNN_AVX512 or (b_ih is None) != (b_hh is None) or \
            any(t.dtype is not dtypes.float32 for t in present):
        return None
    hidden = w_hh.shape[1]
    bias = np.zeros(4 * hidden, np.float32) if b_ih is None else _array(b_ih) + _array(b_hh)
    return onednn_lstm.forward(_array(sequence), _array(h0), _array(c0), _array(w_ih),
                               _array(w_hh), bias, reverse, not STATE.grad_enabled)


def stack_layers(module, sequence: Tensor, hidden, run=None) -> tuple:
    """apply_layer_stack: each layer (both directions) over the previous one's output, dropout
    between layers in training; the final hidden states of every layer and direction. `run`
    runs one layer and direction (a packed sequence's); by default the full sequence's."""
    a, mode = module.attrs, _mode(module)
    directions = 2 if a["bidirectional"] else 1
    one_dnn = run is None and _onednn_kind(module, sequence)
    if one_dnn and a["proj_size"]:
        STATE.warn("UserWarning", triggered("LSTM with projections is not supported with "
                                            "oneDNN. Using default implementation.",
                                            "aten/src/ATen/native/RNN.cpp", 1512))
        one_dnn = False
    run = run or _run_direction
    if one_dnn:
        _check_oneDNN_states(hidden)
        count = a["num_layers"] * directions
        starts = list(zip(_onednn_rows(hidden[0], count), _onednn_rows(hidden[1], count)))
    else:
        starts = list(zip(F.unbind(hidden[0], 0), F.unbind(hidden[1], 0))) \
            if mode == "LSTM" else list(F.unbind(hidden, 0))
        _check_stacked(len(starts), a["num_layers"], directions)
    finals = []
    for layer in range(a["num_layers"]):
        outputs = []
        for direction in range(directions):
            p = _layer_parameters(module, layer, direction)
            start = starts[layer * directions + direction]
            if one_dnn:
                output, hy, cy = _oneDNN_layer(mode, sequence, start, p, direction == 1)
                last = (hy, cy)
            else:
                output, last = run(mode, sequence, start, p, direction == 1)
            outputs.append(output)
            finals.append(last)
        sequence = outputs[0] if directions == 1 else F.cat(outputs, outputs[0].ndim - 1)
        if a["dropout"] and module.attrs["training"] and layer < a["num_layers"] - 1:
            sequence = F.dropout(sequence, a["dropout"], True)
    if mode == "LSTM":
        return sequence, (F.stack([h for h, _ in finals], 0), F.stack([c for _, c in finals], 0))
    return sequence, F.stack(finals, 0)


def _onednn_kind(module, sequence: Tensor) -> bool:
    """Whether torch hands this layer stack to oneDNN, projections aside (which it then refuses
    with a warning): a float32 LSTM over a sequence with values."""
    return _mode(module) == "LSTM" and sequence.dtype is dtypes.float32 and \
        sequence.data.size > 0


def runs_on_onednn(module, sequence: Tensor) -> bool:
    """Whether torch runs this LSTM's layers over `sequence` through oneDNN."""
    return _onednn_kind(module, sequence) and not module.attrs["proj_size"]


def _check_oneDNN_states(states: tuple) -> None:
    """oneDNN's refusals of initial states of another dtype than float32."""
    for state in states:
        if state.dtype in (dtypes.uint8, dtypes.int8):
            raise errors.runtime("itensor_view_from_dense expects float, bfloat16 or half tensor "
                                 "input")
        if state.dtype is dtypes.float16:
            raise errors.runtime(
                "could not create a primitive descriptor for the LSTM forward propagation "
                "primitive. Run workload with environment variable ONEDNN_VERBOSE=all to get "
                "additional diagnostic information.")
        if state.dtype is not dtypes.float32:
            raise errors.runtime("get_mkldnn_dtype: unsupported data type")


def _check_stacked(rows: int, layers: int, directions: int) -> None:
    """apply_layer_stack's count of the initial states (unchecked before for a packed LSTM's):
    pairs of them for a bidirectional stack, one pair or state per layer."""
    if directions == 2 and rows % 2:
        raise errors.runtime("Odd number of params or hiddens given to a bidirectional RNN")
    if rows // directions != layers:
        raise errors.runtime("Expected more hidden states in stacked_rnn")


def _onednn_rows(hidden: Tensor, count: int) -> list:
    """oneDNN's initial states: rows 0..count-1 selected, any further rows (which only a
    packed LSTM's unchecked states can have) unread."""
    return [F.select_index(hidden, 0, i) for i in range(count)]


# ---- the modules' forwards -------------------------------------------------------------------

def state_shapes(module, batch: int) -> tuple:
    """The shapes of the initial hidden state (and an LSTM's cell state): an LSTM's hidden state
    has proj_size features when it projects."""
    a = module.attrs
    layers = a["num_layers"] * (2 if a["bidirectional"] else 1)
    return (layers, batch, a["proj_size"] or a["hidden_size"]), (layers, batch, a["hidden_size"])


def zeros(shape: tuple, like: Tensor) -> Tensor:
    return Tensor(np.zeros(shape, like.dtype.np), like.dtype)


def dim_of(value) -> int:
    """`value.dim()` as torch's Python code asks it (an AttributeError for a non-tensor)."""
    if not isinstance(value, Tensor):
        raise errors.no_attribute(value, "dim")
    return value.ndim


def check_hidden(hidden: Tensor, expected: tuple, which: str = "") -> None:
    if tuple(hidden.shape) != expected:
        raise errors.runtime(f"Expected hidden{which} size {expected}, got {list(hidden.shape)}")


def _check_lstm_dims(hx, batched: bool) -> None:
    """LSTM.forward's check of a given (h_0, c_0): hx[0] and hx[1] asked their dim()."""
    kind, dims = ("batched 3-D", 3) if batched else ("unbatched 2-D", 2)
    first = dim_of(get_item(hx, 0))
    if first != dims or dim_of(get_item(hx, 1)) != dims:
        raise errors.runtime(f"For {kind} input, hx and cx should also be {dims}-D but got "
                             f"({first}-D, {dim_of(get_item(hx, 1))}-D) tensors")


def check_input(module, input: Tensor, dims: int = 3) -> None:
    """RNNBase.check_input: the input's dtype against the weights', its number of dimensions
    (2 for a packed sequence's data), then its feature size."""
    weight = module.params["weight_ih_l0"]
    if input.dtype is not weight.dtype:
        raise errors.value_error(
            f"RNN input dtype ({input.dtype!r}) does not match weight dtype ({weight.dtype!r}). "
            f"Convert input: input.to({weight.dtype!r}), or convert model: "
            f"model.to({input.dtype!r})")
    if input.ndim != dims:
        raise errors.runtime(f"input must have {dims} dimensions, got {input.ndim}")
    if input.shape[-1] != module.attrs["input_size"]:
        raise errors.runtime(f"input.size(-1) must be equal to input_size. Expected "
                             f"{module.attrs['input_size']}, got {input.shape[-1]}")


def _lstm_hidden_tuple(module, hx) -> tuple:
    """_VF.lstm's reading of hx: a tuple or list of exactly two tensors."""
    if not isinstance(hx, (tuple, list)):
        weights = ", ".join(["Parameter"] * sum(p is not None for p in module.params.values()))
        given, weights = type_name(hx), f"list of [{weights}]"
        marked = "Tensor" if given == "Tensor" else f"!{given}!"
        raise errors.type_error(
            f"lstm() received an invalid combination of arguments - got (Tensor, {given}, list, "
            "bool, int, float, bool, bool, bool), but expected one of:\n"
            " * (Tensor data, Tensor batch_sizes, tuple of Tensors hx, tuple of Tensors params, "
            "bool has_biases, int num_layers, float dropout, bool train, bool bidirectional)\n"
            "      didn't match because some of the arguments have invalid types: (Tensor, "
            f"{marked}, !{weights}!, !bool!, !int!, !float!, !bool!, bool, bool)\n"
            " * (Tensor input, tuple of Tensors hx, tuple of Tensors params, bool has_biases, "
            "int num_layers, float dropout, bool train, bool bidirectional, bool batch_first)\n"
            "      didn't match because some of the arguments have invalid types: (Tensor, "
            f"!{given}!, !{weights}!, bool, int, float, bool, bool, bool)\n")
    if len(hx) != 2:
        raise errors.runtime("lstm expects two hidden states")
    return tuple(hx)


def _all_weight_names(module) -> list[list[str]]:
    """RNNBase._all_weights: each layer's and direction's parameter names, in torch's order."""
    a = module.attrs
    names = ["weight_ih", "weight_hh"] + (["bias_ih", "bias_hh"] if a["bias"] else []) + (
        ["weight_hr"] if a["proj_size"] else [])
    return [[f"{name}_l{layer}{'_reverse' if direction else ''}" for name in names]
            for layer in range(a["num_layers"])
            for direction in range(2 if a["bidirectional"] else 1)]


# RNNBase's attributes that list its weights: the names, and the tensors now registered there
_WEIGHT_LISTS = {
    "_all_weights": _all_weight_names,
    "_flat_weights_names": lambda m: [n for names in _all_weight_names(m) for n in names],
    "_flat_weights": lambda m: [m.params.get(n) for names in _all_weight_names(m)
                                for n in names],
    "all_weights": lambda m: [[m.params.get(n) for n in names]
                              for names in _all_weight_names(m)],
}


class RecurrentHost(Module):
    """The recurrent layers' values: nn.Module's methods, the lists of their weights, and
    flatten_parameters (which has nothing to do here)."""

    __slots__ = ()
    METHODS = table(entry("flatten_parameters", lambda module: None, "self"))

    def class_attribute(self, name: str):
        if name in _WEIGHT_LISTS:
            return _WEIGHT_LISTS[name](self)
        return super().class_attribute(name)


def host(name: str) -> type:
    """The host class of one recurrent module class (one per class, for isinstance)."""
    return type(name, (RecurrentHost,), {"__slots__": ()})


class CellHost(Module):
    """The recurrent cells' values (nn.RNNCellBase's)."""

    __slots__ = ()


def cell_host(name: str) -> type:
    return type(name, (CellHost,), {"__slots__": ()})


# torch's base classes of the layers and the cells, for isinstance and issubclass
RNN_BASE = PyType("torch.nn.modules.rnn.RNNBase", (RecurrentHost,))
RNN_CELL_BASE = PyType("torch.nn.modules.rnn.RNNCellBase", (CellHost,))


def layer_forward(ctx, module, input, hx=None):
    """RNN/LSTM/GRU.forward: shapes checked, unbatched input given a batch of one, zero initial
    states, the layers run on (time, batch, features), then the batch layout restored."""
    a, mode = module.attrs, _mode(module)
    lstm = mode == "LSTM"
    if input.ndim not in (2, 3):
        name, what = {"LSTM": ("LSTM", ""), "GRU": ("GRU", "")}.get(mode, ("RNN", " tensor"))
        raise errors.value_error(f"{name}: Expected input to be 2D or 3D, got {input.ndim}D"
                                 f"{what} instead")
    batched, batch_dim = input.ndim == 3, 0 if a["batch_first"] else 1
    if not batched:
        input = F.unsqueeze(input, batch_dim)
    if hx is not None:
        if lstm:
            _check_lstm_dims(hx, batched)
        elif dim_of(hx) != (3 if batched else 2):
            kind, dims = ("batched 3-D", 3) if batched else ("unbatched 2-D", 2)
            raise errors.runtime(f"For {kind} input, hx should also be {dims}-D but got "
                                 f"{hx.ndim}-D tensor")
        if not batched:
            hx = tuple(F.unsqueeze(get_item(hx, i), 1) for i in range(2)) if lstm else \
                F.unsqueeze(hx, 1)
    check_input(module, input)
    shapes = state_shapes(module, input.shape[batch_dim])
    if hx is None:
        hx = tuple(zeros(shape, input) for shape in shapes) if lstm else zeros(shapes[0], input)
    for i, state in enumerate((get_item(hx, 0), get_item(hx, 1)) if lstm else (hx,)):
        check_hidden(state, shapes[i], f"[{i}]" if lstm else "")
    states = _lstm_hidden_tuple(module, hx) if lstm else hx
    sequence = F.transpose(input, 0, 1) if a["batch_first"] else input
    if sequence.shape[0] == 0:
        raise errors.runtime("Expected sequence length to be larger than 0 in RNN")
    output, hidden = stack_layers(module, sequence, states)
    if a["batch_first"]:
        output = F.transpose(output, 0, 1) if lstm else transpose_(output, 0, 1)
    if not batched:
        output = F.squeeze(output, batch_dim)
        hidden = tuple(F.squeeze(h, 1) for h in hidden) if lstm else F.squeeze(hidden, 1)
    return output, hidden


def _check_cell_hidden(input: Tensor, hidden: Tensor, hidden_size: int, label: int) -> None:
    """ATen's check_rnn_cell_forward_hidden: the state's batch size, then its width."""
    if input.shape[0] != hidden.shape[0]:
        raise errors.runtime(f"Input batch size {input.shape[0]} doesn't match hidden{label} "
                             f"batch size {hidden.shape[0]}")
    if hidden.ndim < 2:
        raise errors.index_error("Dimension out of range (expected to be in range of [-1, 0], "
                                 "but got 1)")
    if hidden.shape[1] != hidden_size:
        raise errors.runtime(f"hidden{label} has inconsistent hidden_size: got "
                             f"{hidden.shape[1]}, expected {hidden_size}")


def _cell_states(mode: str, hx) -> tuple:
    """What the cell's ATen function takes as its states: lstm_cell a tuple of two tensors."""
    if mode != "LSTM":
        return (hx,)
    if not isinstance(hx, (tuple, list)):
        raise errors.type_error("lstm_cell(): argument 'hx' (position 2) must be tuple of "
                                f"Tensors, not {type_name(hx)}")
    if len(hx) != 2:
        raise errors.runtime("lstm_cell expects two hidden states")
    return tuple(hx)


def cell_forward(ctx, module, input, hx=None):
    """RNNCell/LSTMCell/GRUCell.forward: one step, an unbatched input given a batch of one."""
    a, mode = module.attrs, _mode(module)
    name = {"LSTM": "LSTMCell", "GRU": "GRUCell"}.get(mode, "RNNCell")
    if input.ndim not in (1, 2):
        raise errors.value_error(f"{name}: Expected input to be 1D or 2D, got {input.ndim}D "
                                 "instead")
    if hx is not None:
        for position, value in enumerate(iterate(hx) if mode == "LSTM" else (hx,)):
            if dim_of(value) not in (1, 2):
                which = f"hx[{position}]" if mode == "LSTM" else "hidden"
                raise errors.value_error(f"{name}: Expected {which} to be 1D or 2D, got "
                                         f"{value.ndim}D instead")
    batched = input.ndim == 2
    if not batched:
        input = F.unsqueeze(input, 0)
    shape = (input.shape[0], a["hidden_size"])
    if hx is None:
        hx = (zeros(shape, input), zeros(shape, input)) if mode == "LSTM" else \
            zeros(shape, input)
    elif not batched:
        hx = tuple(F.unsqueeze(get_item(hx, i), 0) for i in range(2)) if mode == "LSTM" else \
            F.unsqueeze(hx, 0)
    if a.get("nonlinearity", "tanh") not in ("tanh", "relu"):
        raise errors.runtime(f"Unknown nonlinearity: {a['nonlinearity']}")
    states = _cell_states(mode, hx)
    if input.shape[1] != a["input_size"]:
        raise errors.runtime(f"input has inconsistent input_size: got {input.shape[1]} "
                             f"expected {a['input_size']}")
    for label, state in enumerate(states):
        _check_cell_hidden(input, state, a["hidden_size"], label)
    p = (module.params["weight_ih"], module.params["weight_hh"], module.params.get("bias_ih"),
         module.params.get("bias_hh"))
    result = cell_step(mode, _linear(input, p[0], p[2]), states if mode == "LSTM" else hx, p)
    if not batched:
        result = tuple(F.squeeze(r, 0) for r in result) if mode == "LSTM" else \
            F.squeeze(result, 0)
    return result
