"""group_norm's output and gradients (input, weight, bias) carry torch's last bits in float32,
and its forward in float64: compared bit for bit with torch itself over many sizes, groups and
spatial sizes (skipped without torch)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine.grad_api import backward
from gradcli.engine.ops import group_norm

from tests.differential.test_norm_bits import _differences, _tensor

torch = pytest.importorskip("torch")

SHAPES = [(4, 2, 5), (8, 2, 5), (2, 4, 3, 3), (3, 6, 7), (2, 8, 17), (5, 32, 4), (2, 64, 9),
          (4, 6, 40), (2, 12, 100), (3, 4, 1), (2, 40, 1), (1, 6, 300), (3, 48, 20),
          (2, 24, 2, 5), (7, 24, 33), (2, 10, 8), (2, 62, 3), (3, 30, 5)]


def _case(rng, shape, groups, affine, dtype):
    x = (rng.standard_normal(shape) * 10.0 ** rng.integers(-2, 3)
         + rng.standard_normal() * 3).astype(dtype)
    g = rng.standard_normal(shape).astype(dtype)
    params = [rng.standard_normal(shape[1]).astype(dtype) if on else None for on in affine]
    theirs_in = [torch.from_numpy(a).requires_grad_() if a is not None else None
                 for a in (x, *params)]
    theirs = torch.nn.functional.group_norm(theirs_in[0], groups, *theirs_in[1:])
    theirs.backward(torch.from_numpy(g))
    ours_in = [_tensor(a, True) if a is not None else None for a in (x, *params)]
    ours = group_norm.group_norm(ours_in[0], groups, *ours_in[1:])
    backward(ours, _tensor(g))
    pairs = [("out", ours.data, theirs)]
    if dtype == np.float32:
        pairs += [(f"grad{i}", o.grad.data, t.grad) for i, (o, t) in
                  enumerate(zip(ours_in, theirs_in)) if o is not None]
    return _differences(pairs)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_group_norm_and_its_gradients_match_torch_bit_for_bit(dtype):
    rng = np.random.default_rng(47)
    mismatches = []
    for shape in SHAPES:
        for groups in [g for g in (1, 2, 3, 4, 8) if shape[1] % g == 0]:
            for affine in [(True, True), (True, False), (False, False)]:
                found = _case(rng, shape, groups, affine, dtype)
                if found:
                    mismatches.append((shape, groups, affine, found))
    assert not mismatches
