"""Big graphs: a million-op chain backpropagates without recursion, and backward frees what the
graph saved, so repeated forward/backward cycles do not grow memory."""

from __future__ import annotations

import gc
import math
import tracemalloc

import numpy as np
import pytest

from gradcli.engine import creation, dtypes, grad_api, ops  # noqa: F401 (loads F)
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor


@pytest.mark.slow  # minutes: tracemalloc traces each of the millions of allocations
def test_million_op_chain_backpropagates_in_under_a_kibibyte_a_node():
    """Issue 18 point 5: a chain of a million ops (forward, then backward) runs without recursion,
    and its traced memory peaks under a kibibyte per node: nodes hold edges and metadata, not
    copies of their inputs."""
    x = creation.tensor(1.0, dtype=dtypes.float64, requires_grad=True)
    steps = 500_000  # two ops (two nodes) per step
    gc.collect()
    tracemalloc.start()
    try:
        y = x
        for _ in range(steps):
            y = F.add(F.mul(y, 1.0001), 0.0001)
        grad_api.backward(y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert math.isclose(float(x.grad.data), 1.0001 ** steps, rel_tol=1e-8)
    assert peak / (2 * steps) < 1024, f"{peak / (2 * steps):.0f} bytes per node"
    del y  # releasing the chain must not recurse either


def _saving_graph(x, w):
    """A scalar whose graph saves two intermediate arrays the size of x (the exps' results, which
    the exps and the outer mul save)."""
    return F.sum(F.mul(F.exp(F.mul(x, w)), F.exp(w)))


def test_backward_frees_saved_arrays():
    x = Tensor(np.linspace(-1, 1, 250_000), requires_grad=True)
    w = Tensor(np.linspace(0, 1, 250_000), requires_grad=True)
    tracemalloc.start()
    try:
        y = _saving_graph(x, w)
        before = tracemalloc.get_traced_memory()[0]
        grad_api.backward(y)
        x.grad = w.grad = None
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    array_bytes = x.data.nbytes
    assert y.grad_fn is not None  # the graph is still there, its saved intermediates are not
    assert before - after >= 1.9 * array_bytes


def test_repeated_forward_backward_does_not_grow_memory():
    """The graphs stay alive (kept in a list), yet backward has freed what they saved, so each
    cycle only adds the graph records (under a kilobyte a node)."""
    x = Tensor(np.linspace(-1, 1, 50_000), requires_grad=True)
    w = Tensor(np.linspace(0, 1, 50_000), requires_grad=True)
    graphs = []

    def cycle():
        y = x
        for _ in range(20):
            y = F.mul(F.mul(_saving_graph(y, w), 1e-5), x)
        out = F.sum(y)
        grad_api.backward(out)
        graphs.append(out)
        x.grad = w.grad = None

    tracemalloc.start()
    try:
        cycle()
        gc.collect()
        baseline = tracemalloc.get_traced_memory()[0]
        for _ in range(5):
            cycle()
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - baseline
    finally:
        tracemalloc.stop()
    assert len(graphs) == 6
    assert grown < 2 * x.data.nbytes  # a single saved array kept per cycle would be 5 of them


def test_saved_arrays_are_freed_during_backward():
    """Issue 18 point 5: each node drops what it saved as soon as it has run, not when backward
    ends. A chain of exps each saves its result (a 4 MB array); when the gradient reaches the
    chain's first tensor, the arrays saved by all later nodes are gone already."""
    from gradcli.engine.hooks import register_hook
    n, depth = 500_000, 8
    x = Tensor(np.linspace(-1, 1, n), requires_grad=True)
    array_bytes = x.data.nbytes
    seen = {}

    def probe(grad):
        seen["during"] = tracemalloc.get_traced_memory()[0]

    gc.collect()
    tracemalloc.start()
    try:
        first = F.mul(x, 1e-3)
        y = first
        for _ in range(depth):
            y = F.exp(F.mul(y, 1e-3))  # exp saves its result; mul by a number saves no array
        out = F.sum(y)
        del y
        register_hook(first, probe, "probe")
        gc.collect()
        after_forward = tracemalloc.get_traced_memory()[0]
        grad_api.backward(out)
    finally:
        tracemalloc.stop()
    assert after_forward > depth * array_bytes  # the saved results, all alive before backward
    # at the probe only the last node's gradients are alive, not the depth saved results
    assert seen["during"] < after_forward - (depth - 3) * array_bytes
