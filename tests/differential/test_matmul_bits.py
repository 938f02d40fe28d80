"""float32 matrix products (mm, addmm, F.linear, matmul, mv, dot, bmm) carry torch's last bits
where gradcli/engine/matmul_order.py knows torch's summation order: compared bit for bit with
torch itself on random small shapes and layouts (skipped without torch).  The rules are those
of this machine's CPU vendor (torch 2.13.0 CPU wheel, MKL, one thread); the products gradcli
falls back to np.matmul for are only required to be close.  On AMD, whose rules cover every
small tutorial product, those must all be claimed; on Intel the rules claim about 91% of the
random cases below (1363 of 1500)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine import dtypes, matmul_order
from gradcli.engine.cpu_capability import VENDOR
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor

torch = pytest.importorskip("torch")

AMD = VENDOR == "AuthenticAMD"

M_SIZES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 32, 50, 64, 100]
N_SIZES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 17, 32]
K_SIZES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 16, 20, 32, 64, 100, 128, 300]


def _pair(rng, rows: int, cols: int, transposed: bool):
    """A float32 (rows, cols) matrix as gradcli and torch tensors, row- or column-major."""
    values = rng.standard_normal((cols, rows) if transposed else (rows, cols)).astype(np.float32)
    ours, theirs = Tensor(values, dtypes.float32), torch.from_numpy(values.copy())
    return (F.t(ours), theirs.t()) if transposed else (ours, theirs)


def _bits_equal(ours: Tensor, theirs) -> bool:
    return np.array_equal(ours.data.view(np.uint32), theirs.numpy().view(np.uint32))


def _agrees(ours: Tensor, theirs, known) -> bool:
    """Bit for bit where the emulation claims the product (`known` is its result) and, on AMD,
    whose rules cover every small tutorial product, everywhere (a one-term product is exact
    unclaimed); else close."""
    if known is None and not AMD:
        return np.allclose(ours.data, theirs.numpy(), rtol=1e-4, atol=1e-4)
    return _bits_equal(ours, theirs)


def _random_cases(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        m, n, k = (int(rng.choice(sizes)) for sizes in (M_SIZES, N_SIZES, K_SIZES))
        yield rng, m, k, n, bool(rng.integers(2)), bool(rng.integers(2)), bool(rng.integers(2))


def test_mm_and_addmm_match_torch_bit_for_bit_where_the_order_is_known():
    emulated, mismatches = 0, []
    for rng, m, k, n, a_t, b_t, with_bias in _random_cases(3, 1500):
        a, ta = _pair(rng, m, k, a_t)
        b, tb = _pair(rng, k, n, b_t)
        if with_bias:
            bias = rng.standard_normal(n).astype(np.float32)
            ours = F.addmm(Tensor(bias, dtypes.float32), a, b)
            theirs = torch.addmm(torch.from_numpy(bias), ta, tb)
        else:
            ours, theirs = F.mm(a, b), torch.mm(ta, tb)
        known = matmul_order.mm(a.data, b.data, bias if with_bias else None) is not None
        emulated += known
        if known and not _bits_equal(ours, theirs):
            mismatches.append((m, k, n, a_t, b_t, with_bias))
        assert np.allclose(ours.data, theirs.numpy(), rtol=1e-4, atol=1e-4)
    assert not mismatches
    assert emulated > (600 if AMD else 1000)  # the rules cover a good part of these small shapes


# Products of small tutorial models: nn.Linear(1, 1) / (3, 2) / (3, 1) on batches of 4 to 100,
# forward (addmm with W.t()) and backward (g @ W, g.t() @ x), x @ w for a column w.
TUTORIAL = [(batch, inputs, outputs) for batch in (1, 2, 3, 4, 5, 6, 8, 10, 16, 32, 64, 100)
            for inputs, outputs in ((1, 1), (3, 2), (3, 1), (2, 1), (4, 3), (1, 3))]


@pytest.mark.parametrize("batch,inputs,outputs", TUTORIAL)
def test_small_linear_layers_forward_and_backward_match_torch(batch, inputs, outputs):
    rng = np.random.default_rng(batch * 100 + inputs * 10 + outputs)
    x, tx = _pair(rng, batch, inputs, False)
    w, tw = _pair(rng, outputs, inputs, False)
    bias = rng.standard_normal(outputs).astype(np.float32)
    g, tg = _pair(rng, batch, outputs, False)
    wt = w.data.T
    assert _agrees(F.linear(x, w, Tensor(bias, dtypes.float32)),
                   torch.nn.functional.linear(tx, tw, torch.from_numpy(bias)),
                   matmul_order.mm(x.data, wt, bias))
    assert _agrees(F.linear(x, w), torch.nn.functional.linear(tx, tw), matmul_order.mm(x.data, wt))
    assert _agrees(F.mm(g, w), tg.mm(tw), matmul_order.mm(g.data, w.data))  # grad of x
    assert _agrees(F.mm(F.t(g), x), tg.t().mm(tx), matmul_order.mm(g.data.T, x.data))  # of W
    column, tcolumn = _pair(rng, inputs, 1, False)
    assert _agrees(F.matmul(x, column), tx.matmul(tcolumn), matmul_order.mm(x.data, column.data))
    g1, tg1 = _pair(rng, batch, 1, False)  # the gradient of x @ column
    assert _agrees(F.mm(F.t(x), g1), tx.t().mm(tg1), matmul_order.mm(x.data.T, g1.data))


@pytest.mark.parametrize("rows", [1, 2, 3, 4, 5, 8, 12, 16, 64, 100])
@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 7, 8, 16, 37, 100])
def test_mv_and_vector_matmul_match_torch_where_known(rows, k):
    rng = np.random.default_rng(rows * 1000 + k)
    a, ta = _pair(rng, rows, k, False)
    v = rng.standard_normal(k).astype(np.float32)
    ours = F.mv(a, Tensor(v, dtypes.float32))
    theirs = ta.mv(torch.from_numpy(v))
    if matmul_order.mv(a.data, v) is not None:
        assert _bits_equal(ours, theirs)
        assert _bits_equal(F.matmul(a, Tensor(v, dtypes.float32)), ta.matmul(torch.from_numpy(v)))
    else:
        assert np.allclose(ours.data, theirs.numpy(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 8, 16])
def test_short_dot_products_match_torch(k):
    rng = np.random.default_rng(k)
    for _ in range(200):
        x, y = (rng.standard_normal(k).astype(np.float32) for _ in range(2))
        ours = F.dot(Tensor(x, dtypes.float32), Tensor(y, dtypes.float32))
        assert _agrees(ours, torch.dot(torch.from_numpy(x), torch.from_numpy(y)),
                       matmul_order.dot(x, y))


def test_small_bmm_and_batched_matmul_match_torch():
    rng = np.random.default_rng(5)
    for _ in range(300):
        count, m, k, n = (int(rng.integers(1, 8)) for _ in range(4))
        a = rng.standard_normal((count, m, k)).astype(np.float32)
        b = rng.standard_normal((count, k, n)).astype(np.float32)
        ours = F.bmm(Tensor(a, dtypes.float32), Tensor(b, dtypes.float32))
        theirs = torch.bmm(torch.from_numpy(a), torch.from_numpy(b))
        assert _bits_equal(ours, theirs), (count, m, k, n)
        ours = F.matmul(Tensor(a, dtypes.float32), Tensor(b, dtypes.float32))
        assert _bits_equal(ours, torch.matmul(torch.from_numpy(a), torch.from_numpy(b)))


def test_float64_products_match_torch_bit_for_bit_where_the_order_is_known():
    """dgemm's order is known on Zen 5 (tiles and dots) and on Intel (fused chains): on other
    AMD CPUs every float64 product stays on BLAS."""
    rng = np.random.default_rng(8)
    claimed, mismatches, rank_one = 0, [], 0
    for _ in range(600):
        m, k, n = (int(np.exp(rng.uniform(0, np.log(70)))) for _ in range(3))
        a_t, b_t, with_bias = (bool(rng.integers(2)) for _ in range(3))
        a = rng.standard_normal((k, m) if a_t else (m, k))
        b = rng.standard_normal((n, k) if b_t else (k, n))
        ours_a, ours_b = (F.t(Tensor(v, dtypes.float64)) if t else Tensor(v, dtypes.float64)
                          for v, t in ((a, a_t), (b, b_t)))
        theirs_a, theirs_b = (torch.from_numpy(v).t() if t else torch.from_numpy(v)
                              for v, t in ((a, a_t), (b, b_t)))
        bias = rng.standard_normal(n) if with_bias else None
        if with_bias:
            ours = F.addmm(Tensor(bias, dtypes.float64), ours_a, ours_b)
            theirs = torch.addmm(torch.from_numpy(bias), theirs_a, theirs_b)
        else:
            ours, theirs = F.mm(ours_a, ours_b), torch.mm(theirs_a, theirs_b)
        known = matmul_order.mm(ours_a.data, ours_b.data, bias) is not None
        claimed += known
        rank_one += with_bias and k == 1 and not AMD
        if known and ours.data.tobytes() != theirs.numpy().tobytes():
            mismatches.append((m, k, n, a_t, b_t, with_bias))
        assert np.allclose(ours.data, theirs.numpy(), rtol=1e-12, atol=1e-12)
    assert not mismatches
    assert claimed > 100 if matmul_order._AMD_ZEN5 or not AMD else claimed == rank_one


@pytest.mark.skipif(AMD, reason="the one-term and lane-dot kernels were measured on Intel")
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_one_term_addmm_and_narrow_linear_match_torch_on_intel(dtype):
    """addmm over one term (F.linear of one input feature) is one fused multiply-add from the
    bias outside the matrix-vector shapes; x @ W.t() of few columns sums in sixteen lanes."""
    gen = torch.Generator().manual_seed(11)
    for m in (1, 2, 3, 5, 9, 16, 40):
        for n in (1, 2, 3, 4, 7, 13):
            for layout in range(4):
                a = (torch.randn(m, 1, generator=gen, dtype=dtype) if layout < 2
                     else torch.randn(1, m, generator=gen, dtype=dtype).t())
                b = (torch.randn(1, n, generator=gen, dtype=dtype) if layout % 2 == 0
                     else torch.randn(n, 1, generator=gen, dtype=dtype).t())
                bias = torch.randn(n, generator=gen, dtype=dtype)
                ours = matmul_order.mm(a.numpy(), b.numpy(), bias.numpy(), a.stride(), b.stride())
                assert ours.tobytes() == torch.addmm(bias, a, b).numpy().tobytes(), (m, n, layout)
            if dtype is torch.float64 or min(m, n) < 2:
                continue
            for k in (2, 3, 7, 16, 17, 31):
                x, w = torch.randn(m, k, generator=gen), torch.randn(n, k, generator=gen)
                ours = F.linear(Tensor(x.numpy(), dtypes.float32),
                                Tensor(w.numpy(), dtypes.float32))
                assert _bits_equal(ours, x @ w.t()), (m, k, n)


def test_large_products_stay_on_blas():
    a = np.ones((256, 256), np.float32)
    b = np.ones((256, matmul_order._MAX_WORK // 256 ** 2 + 1), np.float32)
    assert matmul_order.mm(a, b) is None


def _aligned(values: np.ndarray):
    """A torch tensor of `values` in torch's own (64-byte aligned) storage, as a script's are."""
    return torch.empty(values.shape, dtype=torch.float32).copy_(torch.from_numpy(values))


def _assert_linear_claimed_and_exact(rng, m: int, k: int, n: int) -> None:
    """F.linear of random (m, k) rows by n outputs (a bias when m + n is odd): claimed and
    torch's bits."""
    x = rng.standard_normal((m, k)).astype(np.float32)
    w = rng.standard_normal((n, k)).astype(np.float32)
    bias = rng.standard_normal(n).astype(np.float32) if (m + n) % 2 else None
    theirs = torch.nn.functional.linear(_aligned(x), _aligned(w),
                                        None if bias is None else _aligned(bias))
    ours = matmul_order.mm(x, w.T, bias)
    assert ours is not None, (m, k, n)
    assert np.array_equal(ours.view(np.uint32), theirs.numpy().view(np.uint32)), (m, k, n)


@pytest.mark.skipif(not matmul_order._AMD_ZEN5, reason="the aligned dot kernel is Zen 5's")
@pytest.mark.parametrize("k", [8, 9, 10, 16, 20, 27, 50, 64, 100, 128, 784])
def test_linear_with_few_output_columns_is_claimed_and_exact(k):
    """F.linear / x @ W.t() with 2..11 outputs (final layers) on 2..64 rows: every row peels
    the terms before its 16-byte boundary, so rows of odd k differ; bias or not."""
    rng = np.random.default_rng(k)
    for m in (2, 3, 4, 5, 7, 8, 16, 33, 64):
        for n in range(2, 12):
            _assert_linear_claimed_and_exact(rng, m, k, n)


@pytest.mark.skipif(AMD, reason="the sixteen-lane dot kernel is Intel's")
@pytest.mark.parametrize("k", [2, 3, 4, 5, 7, 9, 16, 17, 24, 31])
def test_linear_with_few_outputs_or_terms_takes_sixteen_lanes_on_intel(k):
    """F.linear / x @ W.t() of 2..10 rows that MKL's fused chain does not take (2 or 3 outputs,
    or no more terms than outputs): each entry sums in sixteen lanes; bias or not."""
    rng = np.random.default_rng(k)
    for m in (2, 3, 4, 5, 7, 10):
        for n in range(2, 12):
            if matmul_order._intel_fma_chain(m, k, n, True, False):
                continue
            _assert_linear_claimed_and_exact(rng, m, k, n)


@pytest.mark.skipif(AMD, reason="MKL's kernel choice on Intel")
def test_linear_of_sixteen_rows_by_384_terms_is_one_chain_on_intel():
    """x @ W.t() of 16 rows and 384 terms (24 a row, where fewer rows take the grouped dots):
    one fused chain per entry, as for more rows; bias or not."""
    rng = np.random.default_rng(384)
    for n in (2, 3, 17, 100):
        _assert_linear_claimed_and_exact(rng, 16, 384, n)


@pytest.mark.skipif(AMD, reason="the sixteen-lane dot kernel is Intel's")
@pytest.mark.parametrize("k", [32, 33, 40, 47, 48, 64, 65, 100, 150, 239])
def test_linear_of_two_or_three_outputs_over_long_rows_on_intel(k):
    """F.linear / x @ W.t() of 2..15 rows to 2 or 3 outputs and k < 24 m terms: the even rows
    sum whole 32s of terms in two sets of sixteen lanes, the odd rows in one; bias or not."""
    rng = np.random.default_rng(k)
    for m in range(2, 16):
        for n in (2, 3):
            if k < 24 * m and not matmul_order._intel_fma_chain(m, k, n, True, False):
                _assert_linear_claimed_and_exact(rng, m, k, n)


_FEW_ROWS_MANY_TERMS = """
import numpy as np, torch
import gradcli.engine.ops
from gradcli.engine import dtypes, matmul_order
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
rng = np.random.default_rng(16)
for m in (2, 3, 4, 5, 8, 10, 15):
    for k in sorted({24 * m, 24 * m + 9, 400, 784, 3001}):
        for n in (2, 3, 4, 10, 17, 64):
            x = rng.standard_normal((m, k)).astype(np.float32)
            w = rng.standard_normal((n, k)).astype(np.float32)
            bias = rng.standard_normal(n).astype(np.float32)
            tx, tw, tb = (torch.from_numpy(v) for v in (x, w, bias))
            ox, ow, ob = (Tensor(v, dtypes.float32) for v in (x, w, bias))
            if matmul_order.mm(x, w.T) is None:
                assert matmul_order.THREADS > 1 and m > 3, (m, k, n)
                continue
            theirs = torch.nn.functional.linear(tx, tw, tb).numpy()
            assert F.linear(ox, ow, ob).data.tobytes() == theirs.tobytes(), (m, k, n)
            assert F.mm(ox, F.t(ow)).data.tobytes() == (tx @ tw.t()).numpy().tobytes(), (m, k, n)
"""


_MANY_SHORT_DOTS = """
import numpy as np, torch
import gradcli.engine.ops
from gradcli.engine import dtypes, matmul_order
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
rng = np.random.default_rng(17)
def same(ours, theirs, *shape):
    assert ours.data.tobytes() == theirs.numpy().tobytes(), shape
for count, ks in ((5, (8051, 8052)), (29, (1149, 1150)), (50, (545, 546)), (100, (50, 128, 129)),
                  (133, (61, 64, 200)), (201, (39, 42, 100)), (1001, (7, 10)), (4001, (3,))):
    for k in ks:
        if matmul_order._intel_dot_split(count, k) is None:
            assert matmul_order.THREADS > 1, (count, k)
            continue
        a = rng.standard_normal((count, k)).astype(np.float32)
        v = rng.standard_normal(k).astype(np.float32)
        bias = rng.standard_normal(count).astype(np.float32)
        ta, tv, tb = (torch.from_numpy(u) for u in (a, v, bias))
        oa, ov, ob = (Tensor(u, dtypes.float32) for u in (a, v, bias))
        # a batch through a one-output layer, and one sample through a layer of `count` outputs
        same(F.linear(oa, F.unsqueeze(ov, 0)), torch.nn.functional.linear(ta, tv[None]), count, k)
        same(F.linear(F.unsqueeze(ov, 0), oa, ob), torch.nn.functional.linear(tv[None], ta, tb),
             count, k)
        same(F.mv(oa, ov), torch.mv(ta, tv), count, k)
"""


@pytest.mark.skipif(AMD, reason="the sixteen-lane dot kernel is Intel's")
@pytest.mark.parametrize("threads", [1, 2])
def test_one_column_or_row_of_many_dots_as_threads_share_them_on_intel(threads):
    """A one-output F.linear over a batch, one sample through a wide layer, mv: on two threads
    MKL gives the first ceil(count / 2) dots to one thread once the product is large enough
    (`_intel_dot_split`), each share summed as one call; cases on both sides of the measured
    bounds. Run apart, with torch and gradcli on `threads` threads."""
    _run_apart(_MANY_SHORT_DOTS, threads, timeout=300)

_BATCH_INTO_WIDE_LAYER = """
import numpy as np, torch
from gradcli.engine import matmul_order
rng = np.random.default_rng(18)
for m, k, n in ((148, 784, 99), (256, 784, 128), (200, 770, 100), (300, 799, 120),
                (128, 784, 100), (256, 784, 96), (256, 800, 100)):
    x = rng.standard_normal((m, k)).astype(np.float32)
    w = rng.standard_normal((n, k)).astype(np.float32)
    bias = rng.standard_normal(n).astype(np.float32)
    tx, tw, tb = (torch.from_numpy(v) for v in (x, w, bias))
    rows = np.ascontiguousarray(w.T)  # x @ W of a row-major W
    for ours, theirs in ((matmul_order.mm(x, w.T, bias), torch.nn.functional.linear(tx, tw, tb)),
                         (matmul_order.mm(x, w.T), tx @ tw.t()),
                         (matmul_order.mm(x, rows, bias),
                          torch.addmm(tb, tx, torch.from_numpy(rows)))):
        assert ours is not None and ours.tobytes() == theirs.numpy().tobytes(), (m, k, n)
"""


@pytest.mark.skipif(AMD, reason="MKL's threading on Intel")
@pytest.mark.parametrize("threads", [1, 2])
def test_batch_into_a_wide_layer_as_threads_share_it_on_intel(threads):
    """F.linear (and addmm of a row-major W) of a batch of 128..300 rows into 96..128 outputs
    over 769..800 terms (an MNIST image into a hidden layer): on two threads MKL shares the
    outputs of the larger ones, each thread's chains of 384 over the whole sum from the bias
    (`_threads_share_outputs`), and splits the terms of the others. Run apart, with torch and
    gradcli on `threads` threads."""
    _run_apart(_BATCH_INTO_WIDE_LAYER, threads, timeout=300)

@pytest.mark.skipif(AMD, reason="the grouped dot kernel is Intel's")
@pytest.mark.parametrize("threads", [1, 2])
def test_linear_of_a_few_rows_over_many_terms_on_intel(threads):
    """F.linear / x @ W.t() of 2..15 rows with 24 or more terms a row (a small batch into a
    784-input layer): one chain in sixteen lanes per entry, folded by groups of four; bias or
    not. Run apart, with torch and gradcli on `threads` threads (two threads give the larger
    products of four or more rows to the blocked chains, the bias first, or leave them
    unclaimed)."""
    _run_apart(_FEW_ROWS_MANY_TERMS, threads, timeout=300)


_ONE_ROW_OR_COLUMN = """
import numpy as np, torch
import gradcli.engine.ops
from gradcli.engine import dtypes, matmul_order
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
rng = np.random.default_rng(15)
def same(ours, theirs, *shape):
    assert ours.data.tobytes() == theirs.numpy().tobytes(), shape
for k in (18, 31, 32, 33, 47, 64, 100, 129, 385, 1000, 2000, 4097):
    for n in range(1, 9):  # one sample through a linear layer of n outputs
        x = rng.standard_normal(k).astype(np.float32)
        w = rng.standard_normal((n, k)).astype(np.float32)
        bias = rng.standard_normal(n).astype(np.float32)
        tx, tw, tb = (torch.from_numpy(v) for v in (x, w, bias))
        ox, ow, ob = (Tensor(v, dtypes.float32) for v in (x, w, bias))
        assert matmul_order.mm(x[None], w.T) is not None, (k, n)
        same(F.linear(ox, ow, ob), torch.nn.functional.linear(tx, tw, tb), k, n)
        same(F.linear(F.unsqueeze(ox, 0), ow, ob),
             torch.nn.functional.linear(tx[None], tw, tb), k, n)
        same(F.mm(F.unsqueeze(ox, 0), F.t(ow)), tx[None] @ tw.t(), k, n)
        same(F.mv(ow, ox), torch.mv(tw, tx), n, k)
    for m in (4, 5, 6, 7, 9, 13, 17, 24, 33):  # one-column results: mv, addmv, W @ v
        a = rng.standard_normal((m, k)).astype(np.float32)
        v = rng.standard_normal(k).astype(np.float32)
        bias = rng.standard_normal(m).astype(np.float32)
        ta, tv, tb = (torch.from_numpy(u) for u in (a, v, bias))
        oa, ov, ob = (Tensor(u, dtypes.float32) for u in (a, v, bias))
        if matmul_order.mv(a, v) is None:
            assert matmul_order.THREADS > 1, (m, k)
            continue
        same(F.mv(oa, ov), torch.mv(ta, tv), m, k)
        same(F.addmv(ob, oa, ov), torch.addmv(tb, ta, tv), m, k)
        same(F.linear(oa, F.unsqueeze(ov, 0)), torch.nn.functional.linear(ta, tv[None]), m, k)
"""


@pytest.mark.skipif(AMD, reason="the sixteen-lane dot kernel is Intel's")
@pytest.mark.parametrize("threads", [1, 2])
def test_one_row_or_one_column_of_long_dots_matches_torch_on_intel(threads):
    """A single sample through F.linear (1-D or one row, bias or not) to 1..8 outputs, and mv /
    addmv / a one-output F.linear of 4..33 rows, summing 18..4097 terms: whole fours of outputs
    fuse whole sixteens of terms then the rest in fresh lanes, the other outputs alternate two
    sets of lanes and one. Run apart, with torch and gradcli on `threads` threads (two threads
    split long one-column results, which stay unclaimed)."""
    _run_apart(_ONE_ROW_OR_COLUMN, threads, timeout=300)


@pytest.mark.skipif(not matmul_order._AMD_ZEN5, reason="the aligned dot kernel is Zen 5's")
def test_linear_of_rows_padded_past_k_follows_their_stride():
    rng = np.random.default_rng(9)
    for m, k, n, lda in [(5, 10, 4, 13), (6, 9, 3, 11), (7, 20, 5, 22), (8, 16, 7, 17)]:
        padded = rng.standard_normal((m, lda)).astype(np.float32)
        w = rng.standard_normal((n, k)).astype(np.float32)
        theirs = torch.nn.functional.linear(_aligned(padded)[:, :k], _aligned(w))
        ours = matmul_order.mm(padded[:, :k], w.T)
        assert np.array_equal(ours.view(np.uint32), theirs.numpy().view(np.uint32)), (m, k, n)


def _aligned64(values: np.ndarray):
    return torch.empty(values.shape, dtype=torch.float64).copy_(torch.from_numpy(values))


@pytest.mark.skipif(not matmul_order._AMD_ZEN5, reason="dgemm's dot kernel is Zen 5's")
@pytest.mark.parametrize("k", [2, 3, 8, 9, 16, 31, 64, 100, 255, 784])
def test_float64_linear_is_claimed_and_exact(k):
    """float64 F.linear / x @ W.t() on 2..64 rows and 2..16 outputs (tiles of 4 x 12 fused up
    to 256 terms, the rest two or eight lanes after each row's 16-byte peel); bias or not."""
    rng = np.random.default_rng(k)
    for m in (2, 3, 4, 5, 7, 8, 16, 33, 64):
        for n in list(range(2, 17)) + [24, 36]:
            claim = not (m >= 4 and n >= 12 and (k > 256 or m % 4 and n % 12))
            x, w = rng.standard_normal((m, k)), rng.standard_normal((n, k))
            bias = rng.standard_normal(n) if (m + n) % 2 else None
            theirs = torch.nn.functional.linear(_aligned64(x), _aligned64(w),
                                                None if bias is None else _aligned64(bias))
            ours = matmul_order.mm(x, w.T, bias)
            assert (ours is not None) == claim, (m, k, n)
            if claim:
                assert ours.tobytes() == theirs.numpy().tobytes(), (m, k, n)


@pytest.mark.skipif(not matmul_order._AMD_ZEN5, reason="the matrix-vector rows were measured on Zen 5")
@pytest.mark.parametrize("k", [2, 5, 8, 11, 12, 13, 16, 20, 27, 33, 64, 100, 784])
def test_linear_of_one_sample_is_claimed_and_exact(k):
    """F.linear of one row (a single-sample prediction) to any number of outputs: MKL's
    matrix-vector kernel over the rows of W, whose last n % 4 rows peel four terms; bias or not,
    W's rows padded or not."""
    rng = np.random.default_rng(k)
    for n in (1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 16, 33, 100):
        for pad in (0, 0, 1, 3, 4):
            x = rng.standard_normal((1, k)).astype(np.float32)
            w = rng.standard_normal((n, k + pad)).astype(np.float32)
            bias = rng.standard_normal(n).astype(np.float32) if (n + pad) % 2 else None
            theirs = torch.nn.functional.linear(_aligned(x), _aligned(w)[:, :k],
                                                None if bias is None else _aligned(bias))
            ours = matmul_order.mm(x, w[:, :k].T, bias)
            assert ours is not None, (k, n, pad)
            assert np.array_equal(ours.view(np.uint32), theirs.numpy().view(np.uint32)), (k, n, pad)


@pytest.mark.skipif(not matmul_order._AMD_ZEN5, reason="the matrix-vector rows were measured on Zen 5")
@pytest.mark.parametrize("k", [2, 3, 7, 9, 12, 13, 17, 20, 31, 64, 100, 300])
def test_linear_to_one_output_on_any_batch_is_claimed_and_exact(k):
    """nn.Linear(k, 1) (a regression head) and mv on batches that are not whole fours: the last
    m % 4 rows take eight lanes (the second of them four) after a peel of four terms."""
    rng = np.random.default_rng(100 + k)
    for m in (1, 2, 3, 5, 6, 7, 10, 13, 30, 50, 101):
        for pad in (0, 0, 2, 4):
            x = rng.standard_normal((m, k + pad)).astype(np.float32)
            w = rng.standard_normal((1, k)).astype(np.float32)
            bias = rng.standard_normal(1).astype(np.float32) if (m + pad) % 2 else None
            theirs = torch.nn.functional.linear(_aligned(x)[:, :k], _aligned(w),
                                                None if bias is None else _aligned(bias))
            ours = matmul_order.mm(x[:, :k], w.T, bias)
            assert ours is not None, (m, k, pad)
            assert np.array_equal(ours.view(np.uint32), theirs.numpy().view(np.uint32)), (m, k, pad)
            theirs = _aligned(x)[:, :k].mv(_aligned(w[0]))
            assert np.array_equal(matmul_order.mv(x[:, :k], w[0]).view(np.uint32),
                                  theirs.numpy().view(np.uint32)), (m, k, pad)


_ZEN5_ONLY = pytest.mark.skipif(not matmul_order._AMD_ZEN5,
                                reason="measured on Zen 5; Intel's kernel for it is not reproduced")


@pytest.mark.parametrize("m,k,n", [(1, 20, 7), pytest.param(1, 64, 10, marks=_ZEN5_ONLY),
                                   (1, 13, 1), (5, 10, 1), (10, 13, 1), (30, 8, 1), (7, 33, 1),
                                   pytest.param(50, 20, 1, marks=_ZEN5_ONLY)])
def test_gradients_of_one_sample_and_one_output_linear_match_torch(m, k, n):
    """The products of nn.Linear's backward for these shapes (grad @ W, grad.t() @ x)."""
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    x, tx = _pair(rng, m, k, False)
    w, tw = _pair(rng, n, k, False)
    g, tg = _pair(rng, m, n, False)
    assert _bits_equal(F.mm(g, w), tg.mm(tw))
    assert _bits_equal(F.mm(F.t(g), x), tg.t().mm(tx))


@pytest.mark.skipif(not matmul_order._AMD_ZEN5, reason="the peeled columns were measured on Zen 5")
@pytest.mark.parametrize("k", [8, 9, 12, 16, 20, 31, 64, 100, 300])
def test_products_with_b_row_major_and_few_columns_are_claimed_and_exact(k):
    """grad @ W and grad.t() @ x of nn.Linear backward (B row-major) with 5..11 columns, or 2 or 3
    rows by any count: row i's entries before its 16-byte boundary sum their eights apart."""
    rng = np.random.default_rng(200 + k)
    for m in (2, 3, 4, 5, 7, 10, 16, 33):
        for n in (2, 5, 6, 7, 9, 10, 11, 13, 33, 45):
            if m >= 4 and n >= 12:
                continue
            for a_t in (False, True):
                a, ta = _pair(rng, m, k, a_t)
                b = rng.standard_normal((k, n)).astype(np.float32)
                bias = rng.standard_normal(n).astype(np.float32) if (m + n) % 2 else None
                theirs = (torch.mm(ta, _aligned(b)) if bias is None
                          else torch.addmm(_aligned(bias), ta, _aligned(b)))
                ours = matmul_order.mm(a.data, b, bias)
                assert ours is not None, (m, k, n, a_t)
                assert np.array_equal(ours.view(np.uint32), theirs.numpy().view(np.uint32)), (
                    m, k, n, a_t)


@pytest.mark.skipif(not matmul_order._AMD_ZEN5, reason="dgemv's rows were measured on Zen 5")
@pytest.mark.parametrize("k", [2, 3, 7, 8, 9, 10, 16, 31, 64, 100, 257, 1000])
def test_float64_matrix_vector_products_are_claimed_and_exact(k):
    """float64 F.linear of one sample and to one output, mv and x @ w (dgemv): whole fours of
    rows in two lanes after their lda peel, the last m % 4 in eight, or four and two (and eight);
    bias or not, rows padded or not; one row times a contiguous column sums from the bias."""
    rng = np.random.default_rng(300 + k)
    for m in (1, 2, 3, 4, 5, 6, 7, 9, 13, 33, 100):
        for pad in (0, 1, 3):
            w, x = rng.standard_normal((m, k + pad)), rng.standard_normal((1, k))
            bias = rng.standard_normal(m) if (m + pad) % 2 else None
            tw, tx = _aligned64(w)[:, :k], _aligned64(x)
            tb = None if bias is None else _aligned64(bias)
            for ours, theirs in (
                    (matmul_order.mm(x, w[:, :k].T, bias), torch.nn.functional.linear(tx, tw, tb)),
                    (matmul_order.mm(w[:, :k], x.T, None if bias is None else bias[:1]),
                     torch.nn.functional.linear(tw, tx, None if tb is None else tb[:1])),
                    (matmul_order.mm(w[:, :k], x.T.copy(), None if bias is None else bias[:1]),
                     torch.mm(tw, _aligned64(x.T.copy())) if tb is None
                     else torch.addmm(tb[:1], tw, _aligned64(x.T.copy()))),
                    (matmul_order.mv(w[:, :k], x[0]), tw.mv(tx[0]))):
                assert ours is not None, (m, k, pad)
                assert ours.tobytes() == theirs.numpy().tobytes(), (m, k, pad)


@_ZEN5_ONLY
def test_float64_one_sample_through_linear_layers_matches_torch():
    """gradcli's own F.linear / matmul / mv on float64 single samples and one-output heads."""
    rng = np.random.default_rng(12)
    for m, k in ((1, 5), (3, 13), (4, 64), (7, 100), (10, 20), (33, 300)):
        w, x, bias = rng.standard_normal((m, k)), rng.standard_normal(k), rng.standard_normal(m)
        ours_w, ours_x = Tensor(w, dtypes.float64), Tensor(x, dtypes.float64)
        tw, tx, tb = _aligned64(w), _aligned64(x), _aligned64(bias)
        pairs = ((F.linear(ours_x, ours_w, Tensor(bias, dtypes.float64)),
                  torch.nn.functional.linear(tx, tw, tb)),
                 (F.linear(F.unsqueeze(ours_x, 0), ours_w), torch.nn.functional.linear(tx[None], tw)),
                 (F.mv(ours_w, ours_x), tw.mv(tx)),
                 (F.matmul(ours_w, F.unsqueeze(ours_x, 1)), tw.matmul(tx[:, None])))
        for ours, theirs in pairs:
            assert ours.data.tobytes() == theirs.numpy().tobytes(), (m, k)


@pytest.mark.skipif(not AMD, reason="MKL's batched one-column kernel was measured on AMD")
def test_bmm_of_one_column_sums_sequentially():
    """torch.bmm to one column (past the naive kernel's sizes) is not the matrix-vector kernel
    torch.mm takes: every entry sums in order, float32 and float64, A either way."""
    for dtype in (np.float32, np.float64):
        for m, k in ((1, 400), (3, 200), (5, 100), (13, 257), (64, 64)):
            rng = np.random.default_rng(m * 1000 + k)
            a = rng.standard_normal((3, k, m)).astype(dtype).transpose(0, 2, 1)
            b = rng.standard_normal((3, k, 1)).astype(dtype)
            for x in (a, np.ascontiguousarray(a)):
                theirs = torch.bmm(torch.from_numpy(x), torch.from_numpy(b)).numpy()
                kind = dtypes.from_numpy(np.dtype(dtype))
                ours = F.bmm(Tensor(x, kind), Tensor(b, kind))
                assert ours.data.tobytes() == theirs.tobytes(), (dtype, m, k)


_BLOCKED_BMM = """
import numpy as np, torch
import gradcli.engine.ops
from gradcli.engine import dtypes
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
rng = np.random.default_rng(11)
for count, m, k, n in ((2, 5, 300, 13), (3, 7, 200, 40), (2, 6, 100, 20), (4, 13, 50, 17),
                       (1, 6, 100, 20), (64, 32, 16, 32), (2, 9, 700, 14)):
    a = rng.standard_normal((count, m, k)).astype(np.float32)
    b = rng.standard_normal((count, n, k)).astype(np.float32).transpose(0, 2, 1)
    for x, y in ((a, b), (a, np.ascontiguousarray(b)),
                 (np.ascontiguousarray(a.transpose(0, 2, 1)).transpose(0, 2, 1), b)):
        theirs = torch.bmm(torch.from_numpy(x), torch.from_numpy(y)).numpy()
        ours = F.bmm(Tensor(x, dtypes.float32), Tensor(y, dtypes.float32)).data
        assert ours.tobytes() == theirs.tobytes(), (count, m, k, n)
"""


def _run_apart(script: str, threads: int, timeout: int) -> None:
    """Run `script` (which asserts torch's bits itself) in a child process with torch and
    gradcli on `threads` threads; skipped where the machine has fewer cores."""
    if threads > (os.cpu_count() or 1):
        pytest.skip("needs as many cores")
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.skipif(not matmul_order.BLOCKED_KERNEL, reason="MKL's blocked chains on AMD")
@pytest.mark.parametrize("threads", [1, 2])
def test_bmm_of_blocked_shapes_sums_each_entry_whole(threads):
    """torch.bmm of two or more entries of the blocked shapes gives each entry to one thread
    (no rows split off to the small kernels, as one mm on two threads does), A and B either
    way; one entry is an mm. Run apart, with torch and gradcli on `threads` threads."""
    _run_apart(_BLOCKED_BMM, threads, timeout=300)


_ONE_ROW_LEFT = """
import numpy as np, torch
import gradcli.engine.ops
from gradcli.engine import dtypes
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
rng = np.random.default_rng(12)
for m in (1, 2, 3, 5, 6, 9, 13, 17):
    for k, n in ((5, 17), (8, 32), (17, 24), (33, 64), (100, 20)):
        x = rng.standard_normal((m, k)).astype(np.float32)
        w = rng.standard_normal((n, k)).astype(np.float32)
        bias = rng.standard_normal(n).astype(np.float32)
        tx, tw, tb = (torch.from_numpy(v) for v in (x, w, bias))
        ox, ow, ob = (Tensor(v, dtypes.float32) for v in (x, w, bias))
        assert F.mm(ox, F.t(ow)).data.tobytes() == (tx @ tw.t()).numpy().tobytes(), (m, k, n)
        theirs = torch.nn.functional.linear(tx, tw, tb).numpy()
        assert F.linear(ox, ow, ob).data.tobytes() == theirs.tobytes(), (m, k, n)
"""


@pytest.mark.skipif(not matmul_order._AMD_ZEN5, reason="the dot kernels were measured on Zen 5")
@pytest.mark.parametrize("threads", [1, 2])
def test_x_at_w_t_with_one_row_left_to_the_second_thread(threads):
    """x @ W.t() and F.linear whose rows MKL splits on two threads so that one row is left to
    the second (5 or 9 rows): that row takes the same dot kernel as two or three rows do (it
    fell back to NumPy's order). Run apart, with torch and gradcli on `threads` threads."""
    _run_apart(_ONE_ROW_LEFT, threads, timeout=300)


_LONG_SUMS = """
import numpy as np, torch
import gradcli.engine.ops
from gradcli.engine import dtypes
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
rng = np.random.default_rng(14)
for m, n in ((4, 16), (2, 3), (1, 8), (8, 1), (3, 12), (16, 10), (12, 40)):
    for k in (4097, 9216, 30001, 100003):
        if m * n * k > 1 << 25:
            continue
        x = rng.standard_normal((m, k)).astype(np.float32)
        w = rng.standard_normal((n, k)).astype(np.float32)
        bias = rng.standard_normal(n).astype(np.float32)
        tx, tw, tb = (torch.from_numpy(v) for v in (x, w, bias))
        ox, ow, ob = (Tensor(v, dtypes.float32) for v in (x, w, bias))
        assert F.mm(ox, F.t(ow)).data.tobytes() == (tx @ tw.t()).numpy().tobytes(), (m, k, n)
        wt = np.ascontiguousarray(w.T)
        assert F.mm(ox, Tensor(wt, dtypes.float32)).data.tobytes() == \
            (tx @ torch.from_numpy(wt)).numpy().tobytes(), (m, k, n)
        theirs = torch.nn.functional.linear(tx, tw, tb).numpy()
        assert F.linear(ox, ow, ob).data.tobytes() == theirs.tobytes(), (m, k, n)
"""


@pytest.mark.skipif(not matmul_order._AMD_ZEN5, reason="the kernels were measured on Zen 5")
@pytest.mark.parametrize("threads", [1, 2])
def test_sums_of_more_than_4096_terms_are_claimed_and_exact(threads):
    """Products summing thousands of terms (a flattened feature map into a linear layer: 16 x
    9216 @ 9216 x 10) follow the same kernels as short ones, x @ W.t(), x @ W and F.linear, on
    one and two threads (they were left to NumPy's order past 4,096 terms). Run apart, with
    torch and gradcli on `threads` threads."""
    _run_apart(_LONG_SUMS, threads, timeout=600)


@pytest.mark.skipif(not matmul_order._AMD_ZEN5, reason="ddot's lanes were measured on Zen 5")
def test_float64_dot_is_claimed_and_exact():
    """float64 torch.dot / vdot / 1-D @ 1-D: eight lanes over whole eights, the rest two at a
    time into lanes 0 and 1, the lanes folded even and odd apart."""
    rng = np.random.default_rng(13)
    for k in list(range(2, 40)) + [63, 64, 100, 257, 1000]:
        x, y = rng.standard_normal(k), rng.standard_normal(k)
        theirs = torch.dot(_aligned64(x), _aligned64(y)).numpy().tobytes()
        assert matmul_order.dot(x, y).tobytes() == theirs, k
        ours_x, ours_y = Tensor(x, dtypes.float64), Tensor(y, dtypes.float64)
        for ours in (F.dot(ours_x, ours_y), F.vdot(ours_x, ours_y), F.matmul(ours_x, ours_y)):
            assert ours.data.tobytes() == theirs, k
    assert matmul_order.dot(x, y, (1, 0)) is None  # an odd start moves the lanes


_INTEL_PRODUCTS = """
import numpy as np, torch
from gradcli.engine import matmul_order
rng = np.random.default_rng({seed})
claimed = 0
for m, k, n in {shapes}:
    for a_t in (False, True):
        for b_t in (False, True):
            for with_bias in (False, True):
                a = rng.standard_normal((k, m) if a_t else (m, k)).astype(np.{dtype})
                b = rng.standard_normal((n, k) if b_t else (k, n)).astype(np.{dtype})
                ta, tb = (torch.empty(v.shape, dtype=torch.{dtype}).copy_(torch.from_numpy(v))
                          for v in (a, b))
                ta, tb = (ta.t() if a_t else ta), (tb.t() if b_t else tb)
                bias = rng.standard_normal(n).astype(np.{dtype})
                theirs = (torch.addmm(torch.from_numpy(bias), ta, tb) if with_bias
                          else torch.mm(ta, tb)).numpy()
                ours = matmul_order.mm(ta.numpy(), tb.numpy(), bias if with_bias else None)
                if ours is not None:
                    claimed += 1
                    assert ours.tobytes() == theirs.tobytes(), (m, k, n, a_t, b_t, with_bias)
assert claimed >= {least}, claimed
"""
_INTEL_LONG_SUMS = _INTEL_PRODUCTS.format(seed=21, dtype="float32", least=110, shapes=(
    (2, 400, 3), (16, 784, 128), (64, 784, 128), (8, 1001, 16), (3, 1500, 100), (32, 1079, 200),
    (17, 769, 64), (16, 2000, 64), (100, 996, 64), (5, 2230, 32), (12, 1000, 16), (20, 681, 200),
    (7, 1296, 256), (40, 385, 12), (16, 1002, 12), (1, 1000, 12), (12, 300, 1), (1, 256, 5),
    (5, 255, 1), (1, 2000, 3), (8, 769, 1)))


@pytest.mark.skipif(AMD, reason="the blocks of long sums were measured on Intel")
@pytest.mark.parametrize("threads", [1, 2])
def test_sums_past_384_terms_take_intels_blocks(threads):
    """mm / addmm of more than 384 terms on Intel: chains of 384, the rest halved (a column-major
    B of 192 columns or more: chains of 384 throughout); two threads split a long sum of a large
    product in halves, each blocked that way, the first from the bias. One-row and one-column
    results: one chain from the bias, on two threads halves from 256 terms on, the bias added
    last. Four layouts, bias or not, operands in torch's own
    storage; run apart, with torch and gradcli on `threads` threads."""
    _run_apart(_INTEL_LONG_SUMS, threads, timeout=300)


_INTEL_DOUBLE = _INTEL_PRODUCTS.format(seed=22, dtype="float64", least=120, shapes=(
    (2, 16, 11), (3, 5, 24), (4, 100, 8), (8, 200, 8), (8, 300, 8), (8, 500, 8), (6, 1600, 10),
    (6, 1601, 10), (12, 1001, 9), (3, 2001, 17), (16, 767, 31), (2, 768, 5), (1, 200, 12),
    (1, 767, 48), (12, 224, 1), (9, 384, 1), (5, 17, 3), (11, 385, 12), (8, 5, 33), (4, 16, 5),
    (7, 40, 24), (48, 401, 5), (2, 64, 33), (2, 900, 50), (2, 1000, 50), (33, 200, 1),
    (6, 40, 100), (6, 150, 100)))


@pytest.mark.skipif(AMD, reason="dgemm's chains were measured on Intel")
@pytest.mark.parametrize("threads", [1, 2])
def test_float64_products_take_intels_chains(threads):
    """float64 mm / addmm on Intel: fused chains in k order, blocks of 384 with B row-major and
    of 192 with B column-major, two threads splitting long sums of large products in halves;
    two rows by a row-major B and the matrix-vector kernel's thin results one chain from the
    bias. Four layouts, bias or not, operands in torch's own storage; run apart, with torch and
    gradcli on `threads` threads."""
    _run_apart(_INTEL_DOUBLE, threads, timeout=300)


_INTEL_DOTS = """
import numpy as np, torch
from gradcli.engine import matmul_order
rng = np.random.default_rng(23)
for k in (2, 9, 17, 63, 64, 65, 100, 129, 1000, 4097, 8000):
    x, y = rng.standard_normal(k).astype(np.float32), rng.standard_normal(k).astype(np.float32)
    theirs = torch.dot(torch.empty(k).copy_(torch.from_numpy(x)), torch.empty(k).copy_(torch.from_numpy(y)))
    assert np.float32(matmul_order.dot(x, y)).tobytes() == theirs.numpy().tobytes(), k
"""


@pytest.mark.skipif(AMD, reason="MKL's AVX-512 sdot runs on Intel")
def test_dot_of_any_length_takes_sdots_lanes_on_intel():
    """torch.dot, x @ y of 1-D tensors and inner: four accumulators of sixteen fused lanes; on
    two threads too, up to 8000 terms (run apart)."""
    rng = np.random.default_rng(31)
    for k in list(range(1, 140)) + [255, 256, 257, 1000, 4096, 20000]:
        x, y = rng.standard_normal(k).astype(np.float32), rng.standard_normal(k).astype(np.float32)
        ours = F.dot(Tensor(x, dtypes.float32), Tensor(y, dtypes.float32))
        assert _bits_equal(ours, torch.dot(_aligned(x), _aligned(y))), k
    _run_apart(_INTEL_DOTS, 2, timeout=300)


_COLUMN_MAJOR_GEMV = """
import numpy as np, torch
import gradcli.engine.ops
from gradcli.engine import dtypes
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
rng = np.random.default_rng(15)
ours = lambda v: Tensor(v, dtypes.float32)
for outputs in (2, 13, 16, 17, 40, 41, 50, 69, 70, 100):
    for k in (2, 7, 8, 9, 17, 100, 255, 256, 257, 999, 1000, 2001):
        v = rng.standard_normal(k).astype(np.float32)
        w = rng.standard_normal((k, outputs)).astype(np.float32)
        bias = rng.standard_normal(outputs).astype(np.float32)
        tv, tw, tb = (torch.from_numpy(x) for x in (v, w, bias))
        pairs = ((F.matmul(ours(v), ours(w)), tv @ tw),
                 (F.mm(ours(v[None]), ours(w)), tv[None] @ tw),
                 (F.mv(F.t(ours(w)), ours(v)), torch.mv(tw.t(), tv)),
                 (F.mm(F.t(ours(w)), ours(v[:, None])), tw.t() @ tv[:, None]),
                 (F.addmm(ours(bias), ours(v[None]), ours(w)), torch.addmm(tb, tv[None], tw)),
                 (F.addmv(ours(bias), F.t(ours(w)), ours(v)), torch.addmv(tb, tw.t(), tv)))
        for form, (mine, theirs) in enumerate(pairs):
            assert mine.data.tobytes() == theirs.numpy().tobytes(), (outputs, k, form)
"""


@pytest.mark.skipif(AMD, reason="MKL's sgemv of a column-major matrix was measured on Intel")
@pytest.mark.parametrize("threads", [1, 2])
def test_one_row_of_a_row_major_b_and_one_column_of_a_column_major_a(threads):
    """x @ W of one row (W row-major), A.t() @ x, mv of a transposed matrix, addmm and addmv:
    MKL's sgemv over the columns of a column-major matrix, whole sixteens of outputs in blocks
    of eight terms, the rest in fused chains, halved on two threads (matmul_order's
    `_intel_column_gemv`). Run apart, with torch and gradcli on `threads` threads."""
    _run_apart(_COLUMN_MAJOR_GEMV, threads, timeout=600)


_INTEL_DOTS = """
import numpy as np, torch
import gradcli.engine.ops
from gradcli.engine import dtypes
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
rng = np.random.default_rng(16)
for dtype, kind in ((np.float64, dtypes.float64), (np.float32, dtypes.float32)):
    for k in (2, 3, 8, 9, 15, 16, 17, 31, 33, 64, 100, 4095, 4096, 8191, 8192, 10001, 20001):
        x, y = (rng.standard_normal(k).astype(dtype) for _ in range(2))
        assert F.dot(Tensor(x, kind), Tensor(y, kind)).data.tobytes() == \\
            torch.dot(torch.from_numpy(x), torch.from_numpy(y)).numpy().tobytes(), (dtype, k)
for rows in (1, 2, 5, 16):
    for k in (2, 7, 8, 9, 16, 17, 24, 33, 100, 9999, 10000, 20000, 30001):
        if rows == 1 and k >= 10000:  # two threads split one row otherwise: unclaimed
            continue
        a = rng.standard_normal((rows, k))
        v, bias = rng.standard_normal(k), rng.standard_normal(rows)
        ta, tv, tb = (torch.from_numpy(x) for x in (a, v, bias))
        oa, ov, ob, orow = (Tensor(x, dtypes.float64) for x in (a, v, bias, v[None]))
        pairs = ((F.mv(oa, ov), torch.mv(ta, tv)),
                 (F.linear(orow, oa, ob), torch.nn.functional.linear(tv[None], ta, tb)),
                 (F.matmul(ov, F.t(oa)), tv @ ta.t()))
        for form, (mine, theirs) in enumerate(pairs):
            assert mine.data.tobytes() == theirs.numpy().tobytes(), (rows, k, form)
for rows in (2, 3):  # F.linear of two or three samples
    for k in (2, 7, 9, 16, 33, 1000):
        x, w = rng.standard_normal((rows, k)), rng.standard_normal((5, k))
        bias = rng.standard_normal(5)
        mine = F.linear(*(Tensor(v, dtypes.float64) for v in (x, w, bias)))
        theirs = torch.nn.functional.linear(*(torch.from_numpy(v) for v in (x, w, bias)))
        assert mine.data.tobytes() == theirs.numpy().tobytes(), (rows, k)
"""


@pytest.mark.skipif(AMD, reason="MKL's sdot, ddot and dgemv were measured on Intel")
@pytest.mark.parametrize("threads", [1, 2])
def test_float_and_double_dots_and_double_row_dots_on_intel(threads):
    """torch.dot of floats and doubles (four accumulators of a register's lanes, halved on two
    threads past 8191 floats or 4095 doubles), float64 mv and one-sample F.linear (eight lanes
    a row, two sets over each sixteen terms) and F.linear of two or three samples:
    `_intel_threaded_dot`, `_eight_lane_dots`, `_eight_lanes_by_fours`. Run apart, with torch
    and gradcli on `threads` threads."""
    _run_apart(_INTEL_DOTS, threads, timeout=600)
