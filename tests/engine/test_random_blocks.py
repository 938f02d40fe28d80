"""Random tensors are drawn in blocks: the values are torch's across every block boundary, and
the peak memory stays near the result's size."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from gradcli.engine import creation, dtypes
from gradcli.engine.random import _ROWS_PER_BLOCK, Generator
from gradcli.engine.state import STATE

BLOCK = 16 * _ROWS_PER_BLOCK
SIZES = [BLOCK - 1, BLOCK, BLOCK + 5, 2 * BLOCK + 17]
DRAWS = {
    "randn": (lambda g, n: g.normal((n,), np.float32),
              lambda torch, g, n: torch.randn(n, generator=g)),
    "rand": (lambda g, n: g.uniform((n,), np.float32),
             lambda torch, g, n: torch.rand(n, generator=g)),
    "randint": (lambda g, n: g.randint(3, 1000, (n,)),
                lambda torch, g, n: torch.randint(3, 1000, (n,), generator=g)),
    "randint64": (lambda g, n: g.randint(0, 2**40, (n,)),
                  lambda torch, g, n: torch.randint(0, 2**40, (n,), generator=g)),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("kind", DRAWS)
def test_block_boundaries_draw_torchs_values(kind, size):
    torch = pytest.importorskip("torch")
    ours, theirs = DRAWS[kind]
    expected = theirs(torch, torch.Generator().manual_seed(7), size).numpy()
    generator = Generator(7)
    got = ours(generator, size)
    assert np.array_equal(got, expected)
    torch_generator = torch.Generator().manual_seed(7)  # and the stream goes on alike
    theirs(torch, torch_generator, size)
    assert np.array_equal(ours(generator, 3), theirs(torch, torch_generator, 3).numpy())


@pytest.mark.parametrize("make, dtype", [
    (lambda n: creation.randn(n), dtypes.float32),
    (lambda n: creation.rand(n), dtypes.float32),
    (lambda n: creation.randint(0, 10, (n,)), dtypes.int64),
])
def test_peak_memory_stays_near_the_result(make, dtype):
    n = 5_000_000  # the blocks' working memory (a few MB) is small beside the result
    STATE.reset()  # the default dtype as a program starts (a test before may have changed it)
    tracemalloc.start()
    try:
        make(n)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= 1.5 * n * np.dtype(dtype.np).itemsize
