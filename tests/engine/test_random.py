"""The NumPy generator against torch's CPU generator: golden programs, live differential runs."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gradcli.engine import random as grandom
from gradcli.engine.fma import fma32, fma64, fma_accumulate
from gradcli.engine.random import Generator

GOLDEN_DIR = Path(__file__).parents[1] / "golden"


def _load_recorder():
    spec = importlib.util.spec_from_file_location("record_random", GOLDEN_DIR / "record_random.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


recorder = _load_recorder()
golden = json.loads(recorder.GOLDEN.read_text())


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def run_step(gen: Generator, step: dict) -> np.ndarray:
    """Perform a recorder step on our generator, the way the engine calls it."""
    op = step["op"]
    if op == "randperm":
        return gen.randperm(step["n"])
    shape, dtype = tuple(step["size"]), np.dtype(step["dtype"])
    if op == "rand":
        return gen.uniform(shape, dtype)
    if op == "randn":
        return gen.normal(shape, dtype)
    if op == "randint":
        return gen.randint(step["low"], step["high"], shape, dtype)
    if op == "uniform_":
        return gen.uniform(shape, dtype, step["low"], step["high"])
    if op == "normal_":
        return gen.normal(shape, dtype, step["mean"], step["std"])
    return gen.normal(shape, dtype, step["mean"], step["std"], contiguous=False)


def state_digest(gen: Generator) -> str:
    return hashlib.sha256(gen.get_state().tobytes()).hexdigest()


def assert_same(ours: np.ndarray, theirs: np.ndarray, context) -> None:
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, context
    assert ours.tobytes() == theirs.tobytes(), (context, ours, theirs)


@pytest.mark.parametrize("program", golden["programs"], ids=lambda p: f"seed{p['seed']}")
def test_golden_program(program):
    gen = Generator(program["seed"])
    for step, expected in zip(program["steps"], program["results"], strict=True):
        assert recorder.summarize(run_step(gen, step)) == expected, step
    assert state_digest(gen) == program["state_sha256"]


@pytest.mark.parametrize("seed", range(101))
def test_random_program_matches_torch(torch, seed):
    program = recorder.random_program(seed)
    gen, _ = Generator(seed), torch.manual_seed(seed)
    for step in program["steps"]:
        theirs = recorder.run_torch_step(torch, step).numpy()
        assert_same(run_step(gen, step), theirs, step)
    assert_same(gen.get_state(), torch.get_rng_state().numpy(), "state")


@pytest.mark.parametrize("dtype", recorder.FLOATS)
@pytest.mark.parametrize("op", ["rand", "randn"])
def test_every_small_size_from_a_fresh_seed(torch, op, dtype):
    for seed in range(3):
        for n in range(1, 41):
            step = {"op": op, "size": [n], "dtype": dtype}
            gen, _ = Generator(seed), torch.manual_seed(seed)
            assert_same(run_step(gen, step), recorder.run_torch_step(torch, step).numpy(), step)


@pytest.mark.parametrize("low, high", recorder.INT_RANGES)
def test_randint_ranges(torch, low, high):
    for seed in range(0, 101, 10):
        gen, _ = Generator(seed), torch.manual_seed(seed)
        for n in (1, 7, 1000):
            assert_same(gen.randint(low, high, (n,)), torch.randint(low, high, (n,)).numpy(), n)


@pytest.mark.parametrize("dtype", ["int16", "int32", "float32", "float64"])
def test_randint_dtypes(torch, dtype):
    gen, _ = Generator(5), torch.manual_seed(5)
    ours = gen.randint(-7, 300, (40,), np.dtype(dtype))
    assert_same(ours, torch.randint(-7, 300, (40,), dtype=getattr(torch, dtype)).numpy(), dtype)


def test_randperm_small_and_large_n(torch):
    for seed in range(0, 101, 25):
        gen, _ = Generator(seed), torch.manual_seed(seed)
        for n in (*range(0, 21), 1000, 10000):
            assert_same(gen.randperm(n), torch.randperm(n).numpy(), n)
    assert_same(gen.randperm(100000), torch.randperm(100000).numpy(), 100000)
    gen, _ = Generator(1), torch.manual_seed(1)
    assert_same(gen.randperm(30, np.float32), torch.randperm(30, dtype=torch.float32).numpy(), 30)


def test_interleaved_calls_share_state(torch):
    gen, _ = Generator(3), torch.manual_seed(3)
    calls = [
        (lambda: gen.normal((1,), np.float32), lambda: torch.randn(1)),
        (lambda: gen.uniform((3,), np.float32), lambda: torch.rand(3)),
        (lambda: gen.normal((1,), np.float64), lambda: torch.randn(1, dtype=torch.float64)),
        (lambda: gen.randint(0, 10, (5,)), lambda: torch.randint(0, 10, (5,))),
        (lambda: gen.normal((2, 3), np.float32), lambda: torch.randn(2, 3)),
        (lambda: gen.normal((20,), np.float32), lambda: torch.randn(20)),
        (lambda: gen.randperm(9), lambda: torch.randperm(9)),
        (lambda: gen.normal((1,), np.float16), lambda: torch.randn(1, dtype=torch.float16)),
        (lambda: gen.uniform((700,), np.float64), lambda: torch.rand(700, dtype=torch.float64)),
        (lambda: gen.normal((3,), np.float32), lambda: torch.randn(3)),
    ]
    for index, (ours, theirs) in enumerate(calls):
        assert_same(ours(), theirs().numpy(), index)
        assert_same(gen.get_state(), torch.get_rng_state().numpy(), f"state after {index}")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), n=st.sampled_from((1, 5, 16, 19, 100)),
       dtype=st.sampled_from(recorder.FLOATS), low=st.floats(-1e4, 1e4),
       width=st.floats(1e-3, 1e4), std=st.floats(0, 1e3))
def test_uniform_and_normal_parameters(torch, seed, n, dtype, low, width, std):
    gen, _ = Generator(seed), torch.manual_seed(seed)
    tdtype = getattr(torch, dtype)
    ours = gen.uniform((n,), np.dtype(dtype), low, low + width)
    assert_same(ours, torch.empty(n, dtype=tdtype).uniform_(low, low + width).numpy(), "uniform")
    # Known gap: with std == 0 and mean == -0.0, the sign of the zero result is not torch's.
    assume(not (std == 0 and low == 0 and math.copysign(1.0, low) < 0))
    ours = gen.normal((n,), np.dtype(dtype), low, std)
    assert_same(ours, torch.empty(n, dtype=tdtype).normal_(low, std).numpy(), "normal")


def test_state_round_trips_through_torch(torch):
    torch.manual_seed(11)
    torch.randn(3)  # leaves a cached normal in the state
    gen = Generator()
    gen.set_state(torch.get_rng_state().numpy())
    assert_same(gen.normal((5,), np.float32), torch.randn(5).numpy(), "after set_state")
    torch.set_rng_state(torch.from_numpy(gen.get_state()))
    assert_same(gen.uniform((4,), np.float64), torch.rand(4, dtype=torch.float64).numpy(), "back")


@pytest.mark.parametrize("seed", [0, 1, -1, -(2**63), 2**32 + 3, 2**64 - 1])
def test_manual_seed_matches_torch(torch, seed):
    gen, _ = Generator(seed), torch.manual_seed(seed)
    assert gen.initial_seed() == torch.initial_seed()
    assert_same(gen.normal((20,), np.float32), torch.randn(20).numpy(), seed)


def test_default_seed_and_reseeding():
    assert Generator().initial_seed() == grandom.DEFAULT_SEED
    gen = Generator()
    seed = gen.seed()
    assert gen.initial_seed() == seed and 0 <= seed < 2**64
    assert (gen.uniform((5,), np.float32) == Generator(seed).uniform((5,), np.float32)).all()
    with pytest.raises(ValueError):
        gen.manual_seed(2**64)


def exact_fma(a: float, b: float, c: float) -> Fraction:
    return Fraction(a) * Fraction(b) + Fraction(c)


@settings(max_examples=150, deadline=None)
@given(st.floats(-1e30, 1e30), st.floats(-1e30, 1e30), st.floats(-1e60, 1e60))
def test_fma64_is_correctly_rounded(a, b, c):
    result = float(fma64(np.array([a]), b, c)[0])
    exact = exact_fma(a, b, c)
    neighbours = (math.nextafter(result, -math.inf), math.nextafter(result, math.inf))
    assert all(abs(Fraction(result) - exact) <= abs(Fraction(v) - exact) for v in neighbours)


@settings(max_examples=150, deadline=None)
@given(*(st.floats(-(2.0**50), 2.0**50, width=32) for _ in range(3)))
def test_fma32_is_correctly_rounded(a, b, c):
    result = fma32(np.float32([a]), np.float32(b), np.float32(c))[0]
    exact = exact_fma(a, b, c)
    neighbours = [np.nextafter(result, np.float32(way)) for way in (-np.inf, np.inf)]
    assert all(abs(Fraction(float(result)) - exact) <= abs(Fraction(float(v)) - exact)
               for v in neighbours)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fma_accumulate_is_a_chain_of_correctly_rounded_fmas(dtype):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((40, 3, 9)).astype(dtype)
    b = rng.standard_normal((40, 3, 9)).astype(dtype)
    a[5:9] = 0  # zero products, and midpoints from integers
    a[20:30], b[20:30] = rng.integers(-2**12, 2**12, (2, 10, 3, 9)).astype(dtype)
    a[30:] *= dtype(2.0 ** -70)
    expected = np.zeros((3, 9), dtype)
    for k in range(len(a)):
        expected = (fma32 if dtype == np.float32 else fma64)(a[k], b[k], expected)
    assert fma_accumulate(a, b).tobytes() == expected.tobytes()
