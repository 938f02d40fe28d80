"""The regularized incomplete gamma functions compared bit for bit with torch itself over random
shapes and arguments in every branch of calc_igamma / calc_igammac (skipped without torch)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine import dtypes
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor

torch = pytest.importorskip("torch")

# float's share (measured 99.95%): glibc's logf and powf are the double functions rounded here,
# which differ from them in the last bit now and then
FLOAT_AGREEMENT = {np.float64: 1.0, np.float32: 0.999}


def _arguments(dtype) -> tuple:
    """Pairs (a, x) across the series, continued fraction and asymptotic regions."""
    rng = np.random.default_rng(11)
    parts = [(10 ** rng.uniform(lo, hi, 1500), 10 ** rng.uniform(lo, hi, 1500))
             for lo, hi in ((-3, 3), (-1, 1.5), (1, 3))]
    a = 10 ** rng.uniform(1, 3, 1500)
    parts.append((a, a * rng.uniform(0.6, 1.4, 1500)))
    a = np.concatenate([p[0] for p in parts]).astype(dtype)
    x = np.concatenate([p[1] for p in parts]).astype(dtype)
    return a, x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_incomplete_gamma_matches_torch_bit_for_bit(name, dtype):
    a, x = _arguments(dtype)
    kind = dtypes.from_numpy(np.dtype(dtype))
    ours = getattr(F, name)(Tensor(a.copy(), kind), Tensor(x.copy(), kind)).data
    theirs = getattr(torch, name)(torch.from_numpy(a), torch.from_numpy(x)).numpy()
    agreement = float(np.mean((ours == theirs) | (np.isnan(ours) & np.isnan(theirs))))
    assert agreement >= FLOAT_AGREEMENT[dtype]

