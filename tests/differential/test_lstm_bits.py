"""A float32 nn.LSTM layer (torch's oneDNN path: `MkldnnRnnLayerBackward0`, oneDNN's reference
RNN with its own sgemm) carries torch's last bits: gradcli/engine/onednn_lstm.py's output, last
states and every gradient (input, h0, c0, weights, biases) compared bit for bit with torch over
random shapes, both directions (skipped without torch)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.engine import onednn_lstm
from gradcli.engine.cpu_capability import ONEDNN_AVX512

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not ONEDNN_AVX512, reason="oneDNN's AVX-512 kernels only")

# (input, hidden, steps, batch): tutorial sizes, one-row products, K blocks past 384 terms
SHAPES = [(10, 20, 5, 3), (1, 8, 4, 2), (10, 20, 1, 1), (7, 3, 6, 1), (28, 64, 3, 16),
          (3, 1, 2, 2), (50, 33, 2, 5), (400, 30, 2, 2), (20, 200, 2, 3), (129, 17, 3, 1),
          (6, 5, 2, 130)]


def _bits(a) -> np.ndarray:
    return np.ascontiguousarray(a, np.float32).view(np.uint32)


def _case(seed: int, shape: tuple, reverse: bool) -> list:
    inputs, hidden, steps, batch = shape
    torch.manual_seed(seed)
    lstm = torch.nn.LSTM(inputs, hidden, bidirectional=reverse)
    d = int(reverse)
    x = torch.randn(steps, batch, inputs)
    h0, c0 = (torch.randn(1 + d, batch, hidden, requires_grad=True) for _ in range(2))
    out, (hn, cn) = lstm(x, (h0, c0))
    names = [f"{k}_l0{'_reverse' if reverse else ''}"
             for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
    params = [getattr(lstm, n) for n in names]
    w_ih, w_hh, b_ih, b_hh = (p.detach().numpy() for p in params)
    ours = onednn_lstm.forward(x.numpy(), h0[d].detach().numpy(), c0[d].detach().numpy(), w_ih,
                               w_hh, b_ih + b_hh, reverse)
    assert ours is not None, shape
    grads = [torch.randn_like(t) for t in (out, hn, cn)]
    theirs = torch.autograd.grad([out, hn, cn], [h0, c0, *params], grads)
    hidden_part = slice(d * hidden, (d + 1) * hidden)
    back = onednn_lstm.backward(ours[3], grads[0].numpy()[..., hidden_part], grads[1][d].numpy(),
                                grads[2][d].numpy())
    assert back is not None, shape
    _, d_w_ih, d_w_hh, d_bias, d_h, d_c = back
    pairs = [("output", ours[0], out.detach().numpy()[..., hidden_part]),
             ("h", ours[1], hn[d].detach()), ("c", ours[2], cn[d].detach()),
             ("h0", d_h, theirs[0][d]), ("c0", d_c, theirs[1][d]), ("w_ih", d_w_ih, theirs[2]),
             ("w_hh", d_w_hh, theirs[3]), ("b_ih", d_bias, theirs[4]), ("b_hh", d_bias, theirs[5])]
    if not reverse:  # (the input's gradient of a bidirectional layer sums both directions')
        x.requires_grad_()
        out, (hn, cn) = lstm(x, (h0, c0))
        pairs.append(("input", back[0], torch.autograd.grad([out, hn, cn], x, grads)[0]))
    return [(name, shape, reverse) for name, a, b in pairs
            if not np.array_equal(_bits(a), _bits(np.asarray(b)))]


@pytest.mark.parametrize("shape", SHAPES)
def test_lstm_layer_matches_torch_bit_for_bit(shape):
    mismatches = []
    for seed in range(2):
        for reverse in (False, True):
            mismatches += _case(seed, shape, reverse)
    assert not mismatches


# (input, hidden, steps, batch): as long inputs as states sum as one batch; one row merges steps
INFERENCE_SHAPES = SHAPES + [(700, 200, 1, 100), (24, 24, 12, 16), (20, 20, 3, 2), (10, 10, 1, 1),
                             (50, 50, 3, 1)]


@pytest.mark.parametrize("shape", INFERENCE_SHAPES)
def test_lstm_inference_matches_torch_without_grad_mode(shape):
    """Without grad mode torch runs oneDNN's brgemm inference kernel (`inference=True`)."""
    inputs, hidden, steps, batch = shape
    mismatches = []
    for seed in range(2):
        for reverse in (False, True):
            torch.manual_seed(seed)
            lstm = torch.nn.LSTM(inputs, hidden, bidirectional=reverse)
            d = int(reverse)
            x = torch.randn(steps, batch, inputs)
            h0, c0 = (torch.randn(1 + d, batch, hidden) for _ in range(2))
            with torch.no_grad():
                out, (hn, cn) = lstm(x, (h0, c0))
            suffix = "_l0_reverse" if reverse else "_l0"
            w_ih, w_hh, b_ih, b_hh = (getattr(lstm, k + suffix).detach().numpy()
                                      for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))
            ours = onednn_lstm.forward(x.numpy(), h0[d].numpy(), c0[d].numpy(), w_ih, w_hh,
                                       b_ih + b_hh, reverse, inference=True)
            theirs = (out[..., d * hidden:(d + 1) * hidden], hn[d], cn[d])
            mismatches += [(seed, reverse, i) for i, (a, b) in enumerate(zip(ours, theirs))
                           if not np.array_equal(_bits(a), _bits(b.numpy()))]
    assert not mismatches
