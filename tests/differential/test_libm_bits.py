"""Ops whose torch kernels call the C library's scalar log and log1p (binary_cross_entropy,
xlogy, and kl_div through it), compared bit for bit with torch itself (skipped without torch)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine import dtypes
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor

torch = pytest.importorskip("torch")
tf = torch.nn.functional


def _pair(rng, shape, dtype):
    a = torch.sigmoid(torch.from_numpy(rng.standard_normal(shape) * 3)).to(dtype)
    b = torch.sigmoid(torch.from_numpy(rng.standard_normal(shape))).to(dtype)
    a.view(-1)[0], b.view(-1)[-1] = 0.0, 1.0  # log(0) and log1p(-1): clamped at -100
    return a, b


def _ours(t: torch.Tensor) -> Tensor:
    values = t.numpy().copy()
    return Tensor(values, dtypes.from_numpy(values.dtype))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
def test_binary_cross_entropy_kl_div_and_xlogy_match_torch_bit_for_bit(dtype, reduction):
    rng = np.random.default_rng(7)
    for shape in [(5,), (8, 16), (3, 100), (2000,)]:
        a, b = _pair(rng, shape, dtype)
        pairs = [
            (tf.binary_cross_entropy(a, b, reduction=reduction),
             F.binary_cross_entropy(_ours(a), _ours(b), reduction=reduction)),
            (tf.kl_div(a.log(), b, reduction=reduction),
             F.kl_div(_ours(a.log()), _ours(b), reduction=reduction)),
            (torch.xlogy(b, a), F.xlogy(_ours(b), _ours(a))),
        ]
        for theirs, ours in pairs:
            assert ours.data.tobytes() == theirs.numpy().tobytes(), (shape, reduction)
