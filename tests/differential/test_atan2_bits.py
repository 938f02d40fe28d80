"""float32 atan2 (SLEEF's atan2 in torch's vector code, glibc's atan2f in its scalar tails),
compared bit for bit with torch itself (skipped without torch)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine import dtypes
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor

torch = pytest.importorskip("torch")


def _tensor(values: np.ndarray) -> Tensor:
    return Tensor(values.copy(), dtypes.from_numpy(values.dtype))


def _float32(rng, shape):
    return np.asarray(rng.standard_normal(shape) * np.exp(rng.uniform(-6, 6, shape)), np.float32)


def test_float32_atan2_matches_torch_bit_for_bit():
    rng = np.random.default_rng(5)
    mismatches = []
    for shape in ((), (1,), (3,), (17,), (31,), (32,), (33,), (100,), (40_000,), (300_000,)):
        y, x = _float32(rng, shape), _float32(rng, shape)
        theirs = torch.atan2(torch.from_numpy(y), torch.from_numpy(x)).numpy()
        if F.atan2(_tensor(y), _tensor(x)).data.tobytes() != theirs.tobytes():
            mismatches.append(shape)
    assert not mismatches


def test_float32_atan2_of_special_values_matches_torch():
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-40, -1e-40, 3e-39,
                        1e30, -1e30, 2.0], np.float32)
    y, x = (a.ravel() for a in np.meshgrid(special, special))
    theirs = torch.atan2(torch.from_numpy(y), torch.from_numpy(x)).numpy()
    assert np.array_equal(F.atan2(_tensor(y), _tensor(x)).data, theirs, equal_nan=True)


def test_float32_atan2_of_broadcast_and_strided_operands_matches_torch():
    rng = np.random.default_rng(13)
    column, row = _float32(rng, (70, 1)), _float32(rng, (1, 45))
    wide = _float32(rng, (45, 70))
    for y, x in ((column, row), (wide.T, wide[:, :70].T.copy()), (wide[:, ::2], np.float32(0.3)),
                 (np.float32(-2.0), wide)):
        y, x = np.asarray(y), np.asarray(x)
        theirs = torch.atan2(torch.from_numpy(y), torch.from_numpy(x)).numpy()
        assert np.array_equal(F.atan2(Tensor(y, dtypes.float32), Tensor(x, dtypes.float32)).data,
                              theirs)
