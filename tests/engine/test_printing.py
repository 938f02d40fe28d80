"""Tensor repr against torch: golden cases recorded from torch, and a live differential run."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import numpy as np
import pytest

from gradcli.engine import dtypes
from gradcli.engine.printing import PrintOptions, tensor_repr

GOLDEN_DIR = Path(__file__).parents[1] / "golden"
LIVE_CASES = int(os.environ.get("GRADCLI_PRINTING_CASES", "10000"))


def _load_recorder():
    spec = importlib.util.spec_from_file_location(
        "record_printing", GOLDEN_DIR / "record_printing.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


recorder = _load_recorder()
golden_cases = json.loads(recorder.GOLDEN.read_text())


def options_after(print_calls: list[dict]) -> PrintOptions:
    """PrintOptions after the given torch.set_printoptions calls, from the defaults."""
    opts = PrintOptions()
    for kwargs in print_calls:
        kwargs = dict(kwargs)
        opts = opts.updated(sci_mode=kwargs.pop("sci_mode", None), **kwargs)
    return opts


def gradcli_repr(values: np.ndarray, case: dict) -> str:
    return tensor_repr(
        values,
        dtypes.BY_NAME[case["dtype"]],
        options_after(case["print_calls"]),
        default_dtype=dtypes.BY_NAME[case["default_dtype"]],
        requires_grad=case["grad"] != "none",
        grad_fn_label="MulBackward0" if case["grad"] == "mul" else None,
    )


def strided_view(values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same values as a non-contiguous view: permuted axes, reversed, or every other row."""
    if values.ndim == 0:
        return values
    kind = rng.integers(3)
    if kind == 0:
        perm = rng.permutation(values.ndim)
        return np.ascontiguousarray(values.transpose(perm)).transpose(np.argsort(perm))
    if kind == 1:
        return np.ascontiguousarray(values[::-1])[::-1]
    spaced = np.zeros((2 * values.shape[0],) + values.shape[1:], dtype=values.dtype)
    spaced[::2] = values
    return spaced[::2]


@pytest.mark.parametrize("case", golden_cases, ids=lambda c: f"{c['dtype']}{c['shape']}")
def test_golden_repr(case):
    dtype = dtypes.BY_NAME[case["dtype"]]
    values = np.array(case["values"], dtype=dtype.np).reshape(case["shape"])
    assert gradcli_repr(values, case) == case["repr"]


@pytest.mark.parametrize("case", golden_cases[:60], ids=lambda c: str(c["print_calls"]))
def test_golden_print_options(case):
    assert vars(options_after(case["print_calls"])) == case["options"]


def test_updated_keeps_sci_mode_unless_given():
    opts = PrintOptions(sci_mode=True)
    assert opts.updated(precision=2).sci_mode is True
    assert opts.updated(precision=2, sci_mode=None).sci_mode is None


@pytest.mark.slow  # long: CI runs it; `-m 'not slow'` leaves it out
def test_live_differential_against_torch():
    pytest.importorskip("torch")
    rng = np.random.default_rng(7)
    mismatches = []
    for _ in range(LIVE_CASES):
        case = recorder.random_case(rng)
        expected, torch_options = recorder.torch_repr(case)
        assert vars(options_after(case["print_calls"])) == torch_options
        got = gradcli_repr(strided_view(case["values"], rng), case)
        if got != expected:
            mismatches.append((case, expected, got))
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[0]}"
