"""One float32 LSTM layer and direction as oneDNN's reference RNN (`rnn,ref,forward_training` and
`backward`, alg:vanilla_lstm) computes it under torch's `mkldnn_rnn_layer`, in its order:

forward (and, with the products of oneDNN's brgemm, forward_inference): the input's gates for
every step in one product (oneDNN's merged layer GEMM), then per step (backwards for the reverse
direction) the hidden state's product added to them (beta = 1), the combined bias b_ih + b_hh
added, the JIT post-GEMM's logistic and tanh (`onednn_eltwise`), c = fma(i, g, f * c_prev) and
h = o * tanh(c).

backward (jit_uni_lstm_cell_postgemm_bwd), per step from the last: dh = dy[t] + dh_next,
dc = dc_next + ((1 - tanh(c)^2 as one fma) * dh) * o, the gates' gradients from the saved
activations (x - x^2 and 1 - x^2 each one fma), dc_prev = dc * f, dh_prev = dG @ W_hh; then the
input's gradient dG @ W_ih over all steps at once, dW_ih over all steps in the order they ran,
dW_hh over the steps after the first and then the first's added (its h0; the reverse direction
takes all in one product), and the bias gradient summed step by step from the last, rows in
order. The products follow `onednn_gemm` (the training kernel forces its nocopy GEMM below 500
hidden features); where one of them is not reproduced these return None and the caller computes
the layer its own way.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import onednn_gemm
from gradcli.engine.fma import fma32
from gradcli.engine.onednn_eltwise import logistic, tanh

_F = np.float32
_ONE = _F(1)


def _ld(dim: int) -> int:
    return onednn_gemm.good_ld(dim)


def _gemm(a, b, c, lds: tuple, hidden: int, transb: bool = False):
    """oneDNN's sgemm as the training RNN calls it: `force_nocopy` below 500 hidden features."""
    return onednn_gemm.gemm(a, b, c, lds, transb, hidden < 500)


def forward(x, h0, c0, w_ih, w_hh, bias, reverse: bool, inference: bool = False):
    """x (T, B, I), h0 and c0 (B, H), torch's weights and the combined bias (4H,), all float32
    arrays: (output (T, B, H), h_T, c_T, saved for `backward`) or None. `inference`: oneDNN's
    brgemm kernel (torch without grad mode), whose products are `onednn_gemm.brgemm`."""
    steps, batch, inputs = x.shape
    hidden = w_hh.shape[1]
    gates_ld = _ld(4 * hidden)

    # the brgemm kernel sums a step's input and hidden products as one batch (one chain) when
    # they are as long and the input's are not merged over the steps (one row, several steps)
    further = inference and inputs == hidden and not (batch == 1 and steps > 1)

    def product(a, b, c, ld):
        if inference:
            return onednn_gemm.brgemm(a, b, c, further and c is not None)
        return _gemm(a, b, c, (gates_ld, ld, gates_ld), hidden)

    # oneDNN's reference kernel merges the input's products over the steps for fewer than 128
    # rows; else it runs one product a step (the same sums, another kernel choice)
    rows = batch if batch >= 128 and not inference else steps * batch
    parts = [product(x.reshape(steps * batch, inputs)[i:i + rows], w_ih.T, None, inputs)
             for i in range(0, steps * batch, rows)]
    if any(p is None for p in parts) or (batch > 1 and product(h0, w_hh.T, None, hidden) is None):
        return None
    projected = np.concatenate(parts)
    projected = projected.reshape(steps, batch, 4 * hidden)
    order = range(steps - 1, -1, -1) if reverse else range(steps)
    h, c = h0, c0
    output = np.empty((steps, batch, hidden), _F)
    gates = np.empty((steps, batch, 4 * hidden), _F)
    cells = np.empty((steps, batch, hidden), _F)
    for t in order:
        g = product(h, w_hh.T, projected[t], hidden) + bias
        i, f = logistic(g[:, :hidden]), logistic(g[:, hidden:2 * hidden])
        cell, o = tanh(g[:, 2 * hidden:3 * hidden]), logistic(g[:, 3 * hidden:])
        c = fma32(i, cell, f * c)
        h = o * tanh(c)
        output[t], cells[t] = h, c
        gates[t] = np.concatenate([i, f, cell, o], axis=1)
    return output, h, c, (x, h0, c0, w_ih, w_hh, output, gates, cells, reverse)


def backward(saved, d_output, d_h, d_c):
    """The gradients (input, w_ih, w_hh, bias, h0, c0) from the output's and the last states'
    (float32 arrays, zeros where undefined), or None."""
    x, h0, c0, w_ih, w_hh, output, gates, cells, reverse = saved
    steps, batch, inputs = x.shape
    hidden = w_hh.shape[1]
    order = list(range(steps - 1, -1, -1) if reverse else range(steps))
    states_ld = _ld(max(inputs, hidden))
    d_gates = np.empty_like(gates)
    d_bias = np.zeros(4 * hidden, _F)
    for n in range(steps - 1, -1, -1):
        t = order[n]
        c_prev = c0 if n == 0 else cells[order[n - 1]]
        i, f, cell, o = (gates[t][:, k * hidden:(k + 1) * hidden] for k in range(4))
        tanh_c = tanh(cells[t])
        dh = d_output[t] + d_h
        dc = d_c + ((fma32(-tanh_c, tanh_c, _ONE) * dh) * o)
        dg = np.concatenate([(fma32(-i, i, i) * dc) * cell, (fma32(-f, f, f) * dc) * c_prev,
                             fma32(-cell, cell, _ONE) * (i * dc),
                             (fma32(-o, o, o) * dh) * tanh_c], axis=1)
        d_gates[t] = dg
        d_c = dc * f
        d_h = _gemm(dg, w_hh, None, (_ld(hidden), _ld(4 * hidden), states_ld), hidden)
        if d_h is None:
            return None
        for row in dg:
            d_bias = d_bias + row
    flat = d_gates.reshape(steps * batch, 4 * hidden)
    d_x = _gemm(flat, w_ih, None, (_ld(inputs), _ld(4 * hidden), states_ld), hidden)
    gates_ld = _ld(4 * hidden)
    in_order = np.concatenate([x[t] for t in order]), np.concatenate([d_gates[t] for t in order])
    d_w_ih = _gemm(in_order[0].T, in_order[1], None, (gates_ld, inputs, gates_ld), hidden, True)
    # dW_hh: the reverse direction sums every step in one product (h0 first), the forward one
    # the steps after the first and then adds the first's (h0: oneDNN reads it in place)
    merged = range(0 if reverse else 1, steps)
    d_w_hh = None
    if len(merged):
        prev = np.concatenate([output[order[n - 1]] if n else h0 for n in merged])
        d_w_hh = _gemm(prev.T, np.concatenate([d_gates[order[n]] for n in merged]), None,
                       (gates_ld, hidden, gates_ld), hidden, True)
        if d_w_hh is None:
            return None
    if not reverse:
        d_w_hh = _gemm(h0.T, d_gates[order[0]], d_w_hh, (gates_ld, hidden, gates_ld), hidden,
                       True)
    if d_x is None or d_w_ih is None or d_w_hh is None:
        return None
    return (d_x.reshape(x.shape), d_w_ih.T, d_w_hh.T, d_bias, d_h, d_c)
