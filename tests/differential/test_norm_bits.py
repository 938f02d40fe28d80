"""layer_norm and batch_norm (forward, saved statistics, gradients, running statistics) carry
torch's last bits: compared bit for bit with torch itself over many sizes (skipped without
torch)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine import dtypes
from gradcli.engine.functions import F
from gradcli.engine.grad_api import backward
from gradcli.engine.ops import nn_functional
from gradcli.engine.tensor import Tensor

torch = pytest.importorskip("torch")

FEATURES = [1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 100, 127, 128, 129, 257, 512]


def _tensor(values, requires_grad=False):
    t = Tensor(values.copy(), dtypes.from_numpy(values.dtype))
    t.requires_grad = requires_grad
    return t


def _differences(pairs) -> list[str]:
    return [name for name, ours, theirs in pairs
            if ours is not None and ours.tobytes() != theirs.detach().numpy().tobytes()]


def _layer_norm_case(rng, shape, normalized_ndim, dtype, affine):
    normalized = shape[len(shape) - normalized_ndim:]
    x = (rng.standard_normal(shape) * 10.0 ** rng.integers(-2, 3)
         + rng.standard_normal() * 3).astype(dtype)
    g = rng.standard_normal(shape).astype(dtype)
    params = [rng.standard_normal(normalized).astype(dtype) if on else None for on in affine]
    theirs_in = [torch.from_numpy(a).requires_grad_() if a is not None else None
                 for a in (x, *params)]
    theirs = torch.nn.functional.layer_norm(theirs_in[0], normalized, *theirs_in[1:])
    theirs.backward(torch.from_numpy(g))
    ours_in = [_tensor(a, True) if a is not None else None for a in (x, *params)]
    ours = nn_functional.layer_norm(ours_in[0], normalized, *ours_in[1:])
    backward(ours, _tensor(g))
    stats = torch.native_layer_norm(torch.from_numpy(x), normalized, *(
        torch.from_numpy(a) if a is not None else None for a in params), 1e-5)
    ours_stats = F.apply_op("native_layer_norm", _tensor(x), *(
        _tensor(a) if a is not None else None for a in params), normalized_ndim=normalized_ndim,
        eps=1e-5)
    pairs = [("out", ours.data, theirs), ("mean", ours_stats[1].data, stats[1]),
             ("rstd", ours_stats[2].data, stats[2])]
    pairs += [(f"grad{i}", o.grad.data, t.grad) for i, (o, t) in
              enumerate(zip(ours_in, theirs_in)) if o is not None]
    return _differences(pairs)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_layer_norm_and_its_gradients_match_torch_bit_for_bit(dtype):
    rng = np.random.default_rng(41)
    mismatches = []
    for features in FEATURES:
        for shape, normalized_ndim in [((1, features), 1), ((9, features), 1),
                                       ((3, 5, features), 1), ((2, 3, features), 2)]:
            for affine in [(True, True), (True, False), (False, True), (False, False)]:
                found = _layer_norm_case(rng, shape, normalized_ndim, dtype, affine)
                if found:
                    mismatches.append((shape, normalized_ndim, affine, found))
    assert not mismatches


BATCH_SHAPES = [(2, 1), (8, 3), (16, 7), (5, 8), (9, 17), (64, 32), (33, 100), (4, 257),
                (4, 3, 5), (2, 16, 8), (8, 4, 17), (2, 3, 33), (3, 2, 100), (7, 9, 1),
                (3, 2, 4, 4), (4, 8, 7, 7), (2, 5, 3, 11), (8, 16, 8, 8)]


def _batch_norm_case(rng, shape, dtype, training, affine, summed=False):
    """One batch_norm compared with torch's; `summed` backpropagates from .sum(), whose
    expanded gradient sends torch down its generic kernel."""
    channels = shape[1]
    x = (rng.standard_normal(shape) * 10.0 ** rng.integers(-2, 3)
         + rng.standard_normal() * 3).astype(dtype)
    g = rng.standard_normal(shape).astype(dtype)
    params = [rng.standard_normal(channels).astype(dtype) if affine else None for _ in "wb"]
    running = [rng.standard_normal(channels).astype(dtype),
               (rng.random(channels) + 0.5).astype(dtype)]
    theirs_in = [torch.from_numpy(a).requires_grad_() if a is not None else None
                 for a in (x, *params)]
    theirs_running = [torch.from_numpy(a.copy()) for a in running]
    theirs = torch.nn.functional.batch_norm(theirs_in[0], *theirs_running, *theirs_in[1:],
                                            training, 0.1, 1e-5)
    theirs.sum().backward() if summed else theirs.backward(torch.from_numpy(g))
    ours_in = [_tensor(a, True) if a is not None else None for a in (x, *params)]
    ours_running = [_tensor(a) for a in running]
    ours = nn_functional.batch_norm(ours_in[0], *ours_running, *ours_in[1:], training, 0.1,
                                    1e-5)
    backward(F.sum(ours)) if summed else backward(ours, _tensor(g))
    pairs = [("out", ours.data, theirs), ("running_mean", ours_running[0].data,
                                          theirs_running[0]),
             ("running_var", ours_running[1].data, theirs_running[1])]
    pairs += [(f"grad{i}", o.grad.data, t.grad) for i, (o, t) in
              enumerate(zip(ours_in, theirs_in)) if o is not None]
    if training:
        stats = torch.native_batch_norm(torch.from_numpy(x), None, None, None, None, True, 0.1,
                                        1e-5)
        ours_stats = F.apply_op("native_batch_norm", _tensor(x), None, None, None, None,
                                training=True, eps=1e-5)
        pairs += [("mean", ours_stats[1].data, stats[1]),
                  ("invstd", ours_stats[2].data, stats[2])]
    return _differences(pairs)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_its_statistics_and_gradients_match_torch_bit_for_bit(dtype, training):
    rng = np.random.default_rng(43)
    mismatches = []
    for shape in BATCH_SHAPES:
        for affine, summed in ((True, False), (False, False), (True, True)):
            found = _batch_norm_case(rng, shape, dtype, training, affine, summed)
            if found:
                mismatches.append((shape, affine, summed, found))
    assert not mismatches
