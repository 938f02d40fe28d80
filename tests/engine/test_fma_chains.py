"""Float32 fused multiply-add chains run as double sums with exact redos (fma.fma_accumulate)
give what a step-by-step chain of exact fused multiply-adds gives, on operands that make the
double sums round wrongly (a double sum on a float midpoint that was not exact), on subnormal
sums, and on exact ties."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.engine import fma

# a * b + c whose exact value lies just below a float midpoint: its double sum lands on the
# midpoint and rounds (to even) the wrong way; the fused multiply-add keeps c
A, B, C = np.float32(1 + 2 ** -18), np.float32(2 ** -24 * (1 - 2 ** -18)), np.float32(1 + 2 ** -23)


def _stepwise(a: np.ndarray, b: np.ndarray, start: np.ndarray) -> np.ndarray:
    acc = start
    for k in range(len(a)):
        acc = fma.fma32(a[k], b[k], acc)
    return acc


def _naive(a: np.ndarray, b: np.ndarray, start: np.ndarray) -> np.ndarray:
    acc = start
    for k in range(len(a)):
        acc = (a[k].astype(np.float64) * b[k] + acc).astype(np.float32)
    return acc


def test_the_operands_round_wrongly_in_double():
    assert fma.fma32(A, B, C) == C
    assert _naive(np.array([[A]]), np.array([[B]]), np.array([C])) != C


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("steps, width", [(40, 7), (300, 33), (5000, 3)])
def test_chains_match_exact_steps(seed, steps, width):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((steps, width)).astype(np.float32)
    b = rng.standard_normal((steps, width)).astype(np.float32)
    start = rng.standard_normal(width).astype(np.float32)
    for _ in range(3 + seed):  # wrong double roundings, wherever the sum before reaches C
        k, e = rng.integers(1, steps), rng.integers(0, width)
        a[:k, e] = 0
        a[k, e], b[k, e], start[e] = A, B, C
    if seed % 2:  # subnormal sums and exact ties along a few columns
        a[:, 0] *= np.float32(2 ** -70)
        b[:, 0] *= np.float32(2 ** -70)
        a[:, -1] = np.float32(0.5)
    expected = _stepwise(a, b, start)
    got = fma.fma_accumulate(a, b, start)
    assert np.array_equal(got.view(np.uint32), expected.view(np.uint32))


def test_many_wrong_roundings_fall_back_to_exact_steps():
    steps, width = 200, 4
    a = np.zeros((steps, width), np.float32)
    b = np.zeros((steps, width), np.float32)
    a[::2], b[::2] = A, B  # every other step of every column rounds wrongly in double
    a[1::2], b[1::2] = np.float32(0), np.float32(0)
    start = np.full(width, C, np.float32)
    expected = _stepwise(a, b, start)
    assert np.array_equal(fma.fma_accumulate(a, b, start), expected)
    assert not np.array_equal(_naive(a, b, start), expected)
