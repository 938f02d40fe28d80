"""gradcli's float32 and float64 sin, cos, exp, ... against torch's recorded results (tests/golden/vml.json,
and this machine kind's own beside it): the same bits, where gradcli reproduces MKL's kernels (AMD
processors, and Intel processors with AVX-512 for the ops whose AVX-512 kernels it replays)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine import dtypes, vml
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
from golden.record_vml import CASES, GOLDEN, inputs, key
from golden_machine import read_records

RECORDS = read_records(GOLDEN)
REPLAYED = [pytest.param(name, dtype, marks=pytest.mark.skipif(
    not vml.reproduces(name, dtype == np.float64), reason="this processor's MKL kernel is not replayed"))
    for name, dtype in CASES]


DTYPES = {np.float32: dtypes.float32, np.float64: dtypes.float64}


@pytest.mark.parametrize(("name", "dtype"), REPLAYED)
def test_op_gives_torchs_recorded_bits(name, dtype):
    values = inputs(name, 400, 0, dtype)
    ours = getattr(F, name)(Tensor(values, DTYPES[dtype])).data
    theirs = np.frombuffer(bytes.fromhex(RECORDS[key(name, dtype)]), dtype)
    assert ours.tobytes() == theirs.tobytes(), values[ours.view(f"u{ours.itemsize}") != theirs.view(f"u{theirs.itemsize}")]


@pytest.mark.parametrize(("name", "dtype"), REPLAYED)
def test_zero_dim_strided_transposed_and_stacked_inputs_give_the_same_bits(name, dtype):
    values = inputs(name, 50, 1, dtype)
    whole = getattr(F, name)(Tensor(values, DTYPES[dtype])).data
    strided = getattr(F, name)(Tensor(values[::2], DTYPES[dtype])).data
    single = getattr(F, name)(Tensor(values[3].reshape(()), DTYPES[dtype])).data
    rows = getattr(F, name)(Tensor(values[:50].reshape(5, 10).T, DTYPES[dtype])).data
    grid = getattr(F, name)(Tensor(values[:50].reshape(5, 2, 5), DTYPES[dtype])).data
    assert rows.tobytes() == whole[:50].reshape(5, 10).T.tobytes()
    assert grid.shape == (5, 2, 5) and grid.tobytes() == whole[:50].tobytes()
    assert strided.tobytes() == whole[::2].tobytes()
    assert single.shape == () and single.tobytes() == whole[3].tobytes()
