"""bfloat16: the snippet cases (tests/cases/bfloat16.cases), and random bfloat16 elementwise ops,
sums, means and matrix products compared bit for bit with torch itself (skipped without torch).
torch computes them in float32 and rounds each result once to bfloat16, which gradcli does by
rounding float32 results when it makes a bfloat16 tensor."""

from __future__ import annotations

import numpy as np
import pytest

from snippets import case_tests

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine import dtypes
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor

test_matches_golden, test_matches_live_torch = case_tests("bfloat16")

# Left out: rsqrt (and x ** -0.5), whose scalar tail (past the last whole vector) rounds the
# square root to bfloat16 before dividing.
UNARY = ("exp log sqrt sin cos tanh sigmoid abs neg reciprocal exp2 log2 log1p expm1 atan "
         "asinh erf floor ceil round trunc sign relu square").split()
POSITIVE = frozenset("log sqrt log2 log1p".split())
BINARY = ("add", "sub", "mul", "div", "maximum", "atan2")
SCALARS = ((F.add, "add"), (F.sub, "sub"), (F.mul, "mul"), (F.div, "div"), (F.pow, "pow"))


def _torch():
    return pytest.importorskip("torch")


def _pair(values: np.ndarray):
    """float32 values as bfloat16 tensors of gradcli and torch."""
    torch = _torch()
    return Tensor(values, dtypes.bfloat16), torch.from_numpy(values.copy()).to(torch.bfloat16)


def _unequal(ours: Tensor, theirs) -> int:
    """How many elements differ in their bits (NaNs of either sign count as equal)."""
    assert ours.dtype is dtypes.bfloat16 and str(theirs.dtype) == "torch.bfloat16"
    mine, torchs = ours.data, theirs.float().numpy()
    same = (mine.view(np.uint32) == torchs.view(np.uint32)) | (np.isnan(mine) & np.isnan(torchs))
    return int(mine.size - np.count_nonzero(same))


def test_elementwise_ops_match_torch_bit_for_bit():
    torch = _torch()
    rng = np.random.default_rng(5)
    values = (rng.standard_normal(3000) * 4).astype(np.float32)
    others = (rng.standard_normal(3000) * 4).astype(np.float32)
    positive = np.abs(values) + np.float32(0.01)
    compared, differing = 0, {}
    for name in UNARY:
        ours, theirs = _pair(positive if name in POSITIVE else values)
        differing[name] = _unequal(getattr(F, name)(ours), getattr(theirs, name)())
        compared += values.size
    (a, ta), (b, tb) = _pair(values), _pair(others)
    for name in BINARY:
        differing[name] = _unequal(getattr(F, name)(a, b), getattr(torch, name)(ta, tb))
        compared += values.size
    p, tp = _pair(positive)
    for function, name in SCALARS:
        for scalar in (0.1234567, 2, 3, -2, 2.5, -1.75):
            base, torch_base = (p, tp) if name == "pow" else (a, ta)
            differing[f"{name} {scalar}"] = _unequal(function(base, scalar),
                                                     getattr(torch, name)(torch_base, scalar))
            compared += values.size
    differing["add alpha"] = _unequal(F.add(a, b, alpha=2), torch.add(ta, tb, alpha=2))
    for shape in ((60, 50), (3, 1000), (1000, 3), (2, 5, 7)):
        for dim in range(len(shape)):
            m, tm = _pair(values[:np.prod(shape)].reshape(shape))
            differing[f"log_softmax {shape} {dim}"] = _unequal(F.log_softmax(m, dim),
                                                               torch.log_softmax(tm, dim))
    assert compared > 100_000
    assert {name: n for name, n in differing.items() if n} == {}


def test_sums_and_means_match_torch_bit_for_bit():
    rng = np.random.default_rng(6)
    differing = []
    for size in (1, 7, 16, 33, 100, 257, 1000, 4096, 10000):
        values = (rng.standard_normal(size) * 3).astype(np.float32)
        ours, theirs = _pair(values)
        for name in ("sum", "mean"):
            if _unequal(getattr(F, name)(ours), getattr(theirs, name)()):
                differing.append((name, size))
    for shape, dim in (((40, 50), 0), ((40, 50), 1), ((3, 300), 1), ((300, 3), 0),
                       ((4, 5, 6), 1)):
        ours, theirs = _pair((rng.standard_normal(shape) * 3).astype(np.float32))
        for name in ("sum", "mean"):
            if _unequal(getattr(F, name)(ours, dim), getattr(theirs, name)(dim)):
                differing.append((name, shape, dim))
    assert differing == []


def test_matrix_products_match_torch_bit_for_bit():
    torch = _torch()
    rng = np.random.default_rng(7)
    elements, differing = 0, []
    for m, k, n in ((3, 4, 5), (8, 16, 8), (20, 50, 30), (1, 64, 1), (64, 64, 64), (5, 300, 7),
                    (17, 9, 33)):
        (a, ta), (b, tb) = (_pair(rng.standard_normal(s).astype(np.float32))
                            for s in ((m, k), (k, n)))
        bias, tbias = _pair(rng.standard_normal(n).astype(np.float32))
        for ours, theirs in ((F.mm(a, b), torch.mm(ta, tb)),
                             (F.linear(a, F.t(b), bias), torch.nn.functional.linear(ta, tb.t(), tbias)),
                             (F.matmul(a, F.select(b, 1, 0)), torch.matmul(ta, tb[:, 0]))):
            elements += ours.data.size
            if _unequal(ours, theirs):
                differing.append((m, k, n))
    (a, ta), (b, tb) = (_pair(rng.standard_normal(s).astype(np.float32))
                        for s in ((3, 10, 12), (3, 12, 6)))
    assert _unequal(F.bmm(a, b), torch.bmm(ta, tb)) == 0
    assert elements > 9000
    assert differing == []
