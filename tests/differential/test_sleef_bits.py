"""float32 elementwise functions whose vector code is SLEEF's (pow, exp2, expm1, log1p, sinh,
cosh, atanh) or that call glibc on every element (asinh, acosh), and float64 expm1, log1p,
exp2, sinh, cosh, atanh and pow (SLEEF's double functions), compared bit for bit with torch
itself on many sizes and layouts, where the vector body and the scalar tail round differently
(skipped without torch)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine import dtypes, sleef_dd
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor

torch = pytest.importorskip("torch")

SIZES = (*range(1, 41), 63, 64, 65, 100, 1000, 40_000)
UNARY = {"exp2": (-20, 20), "expm1": (-4, 4), "log1p": (-0.99, 6), "sinh": (-6, 6),
         "cosh": (-6, 6), "atanh": (-1, 1), "asinh": (-50, 50), "acosh": (1, 50)}


def _tensor(values: np.ndarray) -> Tensor:
    return Tensor(values.copy(), dtypes.from_numpy(values.dtype))


def _differs(ours: Tensor, theirs) -> bool:
    return ours.data.tobytes() != theirs.numpy().tobytes()


def _values(rng, size, low, high, dtype=np.float32):
    return rng.uniform(low, high, size).astype(dtype)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_matches_torch_bit_for_bit(name):
    rng = np.random.default_rng(5)
    mismatches = []
    for size in SIZES:
        x = _values(rng, size, *UNARY[name])
        if _differs(getattr(F, name)(_tensor(x)), getattr(torch, name)(torch.from_numpy(x))):
            mismatches.append(size)
    x = _values(rng, (3, 37), *UNARY[name])
    if _differs(getattr(F, name)(_tensor(x)), getattr(torch, name)(torch.from_numpy(x))):
        mismatches.append((3, 37))
    assert not mismatches


@pytest.mark.parametrize("name", ["expm1", "log1p", "exp2", "sinh", "cosh", "atanh"])
def test_float64_unary_matches_torch_bit_for_bit(name):
    rng = np.random.default_rng(9)
    mismatches = []
    for size in (*SIZES, (3, 37)):
        x = rng.uniform(*UNARY[name], size)
        if _differs(getattr(F, name)(_tensor(x)), getattr(torch, name)(torch.from_numpy(x))):
            mismatches.append(size)
    assert not mismatches


def test_sleef_double_pow_over_its_range():
    rng = np.random.default_rng(11)
    x = np.concatenate([rng.uniform(0, 3, 100_000), np.exp(rng.uniform(-745, 700, 100_000)),
                        rng.uniform(-3, 3, 50_000), rng.uniform(0.5, 2, 50_000)])
    y = np.concatenate([rng.uniform(-5, 5, 100_000), rng.uniform(-1.2, 1.2, 100_000),
                        np.rint(rng.uniform(-20, 20, 50_000)), rng.uniform(-1000, 1000, 50_000)])
    special = np.array([0.0, -0.0, 1.0, -1.0, 2.0, -2.0, np.inf, -np.inf, np.nan, 0.5, -3.0, 1e-310])
    x = np.concatenate([x, np.repeat(special, 12), np.ones(16)])[:len(x) + 144]
    y = np.concatenate([y, np.tile(special, 12)])
    theirs = torch.pow(torch.from_numpy(x), torch.from_numpy(y)).numpy()
    assert sleef_dd.powd(x, y).tobytes() == theirs.tobytes()


@pytest.mark.parametrize("name", ["expm1d", "log1pd", "exp2d", "sinhd", "coshd", "atanhd"])
def test_sleef_double_functions_over_their_range(name):
    rng = np.random.default_rng(10)
    magnitudes = np.exp(rng.uniform(-60, 6.6, 100_000))
    x = np.concatenate([magnitudes, -magnitudes, rng.uniform(-1, 1, 100_000),
                        rng.uniform(-1100, 1100, 20_000), np.exp(rng.uniform(6, 709, 20_000)),
                        [0.0, -0.0, -1.0, -2.0, np.inf, -np.inf, np.nan, 1e308, 710.0, -40.0]])
    x = np.concatenate([x, np.zeros(-len(x) % 16)])  # whole vectors: SLEEF on every element
    theirs = getattr(torch, name[:-1])(torch.from_numpy(x)).numpy()
    assert getattr(sleef_dd, name)(x).tobytes() == theirs.tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("exponent", [4, 5, 2.7, -1.5, 0.3, 7, -3])
def test_pow_with_a_scalar_exponent_matches_torch(exponent, dtype):
    rng = np.random.default_rng(6)
    mismatches = []
    for size in SIZES:
        x = _values(rng, size, -3, 3, dtype)
        if _differs(F.pow(_tensor(x), exponent), torch.from_numpy(x) ** exponent):
            mismatches.append(size)
    assert not mismatches


@pytest.mark.parametrize("shapes", [((70,), (70,)), ((70,), ()), ((), (70,)), ((4, 37), (37,)),
                                    ((4, 1), (1, 40)), ((2, 3, 40), (3, 40)), ((45,), (1,))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pow_of_two_tensors_matches_torch(shapes, dtype):
    rng = np.random.default_rng(7)
    a = _values(rng, shapes[0], 0.1, 3, dtype)
    b = _values(rng, shapes[1], -3, 3, dtype)
    theirs = torch.pow(torch.from_numpy(a), torch.from_numpy(b))
    assert not _differs(F.pow(_tensor(a), _tensor(b)), theirs)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pow_of_a_scalar_base_matches_torch(dtype):
    rng = np.random.default_rng(8)
    for size in (5, 33, 70, 1000):
        e = _values(rng, size, -5, 5, dtype)
        assert not _differs(F.pow(2.5, _tensor(e)), torch.pow(2.5, torch.from_numpy(e)))
