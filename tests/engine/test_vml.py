"""gradcli's float32 sin, cos, ... against torch's recorded results (tests/golden/vml.json):
the same bits, where gradcli reproduces MKL's kernels (AMD processors)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine import dtypes, vml
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
from golden.record_vml import GOLDEN, RANGES, inputs

pytestmark = pytest.mark.skipif(not vml.ACTIVE, reason="MKL's VML kernels are reproduced for "
                                "AMD processors only")
RECORDS = json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(RANGES))
def test_float32_op_gives_torchs_recorded_bits(name):
    values = inputs(name, 400, 0)
    ours = getattr(F, name)(Tensor(values, dtypes.float32)).data
    theirs = np.frombuffer(bytes.fromhex(RECORDS[name]), np.float32)
    assert ours.tobytes() == theirs.tobytes(), values[ours.view(np.int32) != theirs.view(np.int32)]


@pytest.mark.parametrize("name", sorted(RANGES))
def test_zero_dim_and_strided_inputs_give_the_same_bits(name):
    values = inputs(name, 50, 1)
    whole = getattr(F, name)(Tensor(values, dtypes.float32)).data
    strided = getattr(F, name)(Tensor(values[::2], dtypes.float32)).data
    single = getattr(F, name)(Tensor(values[3].reshape(()), dtypes.float32)).data
    assert strided.tobytes() == whole[::2].tobytes()
    assert single.shape == () and single.tobytes() == whole[3].tobytes()
