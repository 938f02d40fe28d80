"""Clamps, relu and sign on the values where NumPy's ufuncs and torch's kernels part: -0.0, NaN
and the infinities, compared bit for bit with torch (skipped without torch)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine import dtypes
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor

torch = pytest.importorskip("torch")

VALUES = [-0.0, 0.0, float("nan"), float("inf"), -float("inf"), -1.5, 2.5, -7.0, 7.0, 6.0]

CASES = {
    "relu": (F.relu, torch.relu),
    "relu6": (F.relu6, torch.nn.functional.relu6),
    "hardtanh": (F.hardtanh, torch.nn.functional.hardtanh),
    "clamp(min=0)": (lambda t: F.clamp(t, 0), lambda t: torch.clamp(t, 0)),
    "clamp(max=0)": (lambda t: F.clamp(t, None, 0), lambda t: torch.clamp(t, None, 0)),
    "clamp_min": (lambda t: F.clamp_min(t, 0), lambda t: torch.clamp_min(t, 0)),
    "clamp_max": (lambda t: F.clamp_max(t, 0), lambda t: torch.clamp_max(t, 0)),
    "sign": (F.sign, torch.sign),
    "sgn": (F.sgn, torch.sgn),
    "heaviside": (lambda t: F.heaviside(t, Tensor(np.full(t.shape, 0.5, t.dtype.np), t.dtype)),
                  lambda t: torch.heaviside(t, torch.full(t.shape, 0.5, dtype=t.dtype))),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(CASES))
def test_special_values_match_torch(name, dtype):
    values = np.array(VALUES, dtype)
    ours_of, theirs_of = CASES[name]
    ours = ours_of(Tensor(values.copy(), dtypes.from_numpy(values.dtype))).data
    theirs = theirs_of(torch.from_numpy(values)).numpy()
    assert np.array_equal(ours, theirs, equal_nan=True)
    assert np.array_equal(np.signbit(ours) & ~np.isnan(ours), np.signbit(theirs) & ~np.isnan(theirs))
