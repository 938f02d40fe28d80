"""gradcli's float32 and float64 ops that torch computes with MKL's VML kernels, against torch
itself on fresh random inputs, bit for bit (skipped without torch, and for the ops whose kernel
on this processor is not replayed: every op off AMD and Intel AVX-512 processors)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine import dtypes, vml
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
from golden.record_vml import CASES, inputs, torch_results

pytest.importorskip("torch")
REPLAYED = [pytest.param(name, dtype, marks=pytest.mark.skipif(
    not vml.reproduces(name, dtype == np.float64), reason="this processor's MKL kernel is not replayed"))
    for name, dtype in CASES]


@pytest.mark.parametrize("seed", [11, 12])
@pytest.mark.parametrize(("name", "dtype"), REPLAYED)
def test_op_matches_torch_bit_for_bit(name, dtype, seed):
    values = inputs(name, 20_000, seed, dtype)
    ours = getattr(F, name)(Tensor(values, {np.float32: dtypes.float32,
                                            np.float64: dtypes.float64}[dtype])).data
    theirs = torch_results(name, values)
    differ = ours.view(f"u{ours.itemsize}") != theirs.view(f"u{theirs.itemsize}")
    assert not differ.any(), (values[differ][:5], ours[differ][:5], theirs[differ][:5])
