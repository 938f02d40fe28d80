"""torch.histogram and torch.histogramdd: ATen's histogramdd kernel (bins from counts over a range,
or given edges), with weights and density; torch has no derivative for them, so from inputs that
require grad their results have a NotImplemented grad_fn."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import OPS, apply, defop, not_implemented
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

_DD = "torch.histogramdd: "


def _check_weight(a: Tensor, weight) -> None:
    if weight is None:
        return
    if weight.dtype is not a.dtype:
        raise errors.runtime(
            f"{_DD}if weight tensor is provided, input tensor and weight tensor should have the "
            f"same dtype, but got input({a.dtype.cpp_name}), and weight({weight.dtype.cpp_name})")
    if tuple(weight.shape) != tuple(a.shape[:-1]):
        raise errors.runtime(
            f"{_DD}if weight tensor is provided it should have the same shape as the input tensor "
            f"excluding its innermost dimension, but got input with shape "
            f"{F.size_list(a.shape)} and weight with shape {F.size_list(weight.shape)}")


def _check_dtype(a: Tensor) -> None:
    if not a.dtype.is_floating_point:
        raise errors.not_implemented_for("histogramdd", a.dtype)


def _edges_from_counts(a: Tensor, counts, value_range) -> list:
    """The bin edges of each dimension: linspace over the range, else over the data's extremes
    ([0, 1] for no data), a single point widened by 0.5 each way."""
    rows = a.data.reshape(-1, a.shape[-1])
    dims = rows.shape[1]
    if value_range is not None and len(value_range) != 2 * dims:
        raise errors.runtime(f"{_DD}for a {dims}-dimensional histogram range should have "
                             f"{2 * dims} elements, but got {len(value_range)}")
    edges = []
    for d, count in enumerate(counts):
        if count <= 0:
            raise errors.runtime(f"torch.histogram(): bins must be > 0, but got {count} for "
                                 f"dimension {d}")
        if value_range is not None:
            low, high = float(value_range[2 * d]), float(value_range[2 * d + 1])
        elif rows.shape[0]:
            low, high = float(rows[:, d].min()), float(rows[:, d].max())
        else:
            low, high = 0.0, 1.0
        if low > high:
            raise errors.runtime(f"{_DD}min should not exceed max, but got min {low:g} max "
                                 f"{high:g} for dimension {d}")
        if not (np.isfinite(low) and np.isfinite(high)):
            raise errors.runtime(f"{_DD}dimension {d}'s range [{low:g}, {high:g}] is not finite")
        if low == high:
            low, high = low - 0.5, high + 0.5
        edges.append(F.linspace(low, high, count + 1, dtype=a.dtype))
    return edges


def _check_edges(a: Tensor, edges) -> None:
    for d, e in enumerate(edges):
        if e.dtype is not a.dtype:
            raise errors.runtime(
                f"{_DD}input tensor and bins tensors should have the same dtype, but got input "
                f"with dtype {a.dtype.cpp_name} and bins for dimension {d} with dtype "
                f"{e.dtype.cpp_name}")
        if e.ndim != 1:
            raise errors.runtime(f"{_DD}bins tensor should have one dimension, but got {e.ndim} "
                                 f"dimensions in the bins tensor for dimension {d}")
        if e.numel() == 0:
            raise errors.runtime(f"{_DD}bins tensor should have at least 1 element, but got 0 "
                                 f"elements in the bins tensor for dimension {d}")


def _positions(values: np.ndarray, edges: np.ndarray, linear: bool) -> np.ndarray:
    """Each value's bin: by division over evenly spaced edges, checked against the neighbouring
    edges (ATen's local search), else by binary search; the last bin keeps its right edge."""
    n = len(edges)
    if linear:
        kind = values.dtype.type
        guess = ((values - edges[0]) * kind(n - 1) / (edges[-1] - edges[0])).astype(np.int64)
        low = np.maximum(guess - 1, 0)
        high = np.minimum(guess + 2, n)
        pos = low - 1
        for step in range(3):
            at = low + step
            pos = pos + ((at < high) & (edges[np.minimum(at, n - 1)] <= values))
    else:
        pos = np.searchsorted(edges, values, side="right") - 1
    return np.where(pos == n - 1, pos - 1, pos)


def _histogram(a: Tensor, edges: list, weight, density: bool, linear: bool) -> Tensor:
    rows = a.data.reshape(-1, a.shape[-1])
    arrays = [e.data for e in edges]
    kept = np.ones(len(rows), dtype=bool)
    for d, e in enumerate(arrays):
        kept &= (rows[:, d] >= e[0]) & (rows[:, d] <= e[-1])
    rows = rows[kept]
    where = tuple(_positions(rows[:, d], e, linear) for d, e in enumerate(arrays))
    hist = np.zeros(tuple(len(e) - 1 for e in arrays), dtype=a.data.dtype)
    counts = (np.ones(len(rows), a.data.dtype) if weight is None
              else weight.data.reshape(-1)[kept])
    np.add.at(hist, where, counts)
    result = Tensor(hist, a.dtype)
    if density:
        result = F.div(result, float(F.sum(result).data))
        for d, e in enumerate(edges):
            shape = [1] * len(edges)
            shape[d] = -1
            result = F.div(result, F.reshape(F.diff(e), shape))
    return result


for _row in ("histogram", "_histogramdd_from_bin_cts", "_histogramdd_from_bin_tensors",
             "_histogramdd_bin_edges"):
    defop(_row, "NotImplemented", lambda *inputs, results: results,
          name="torch::autograd::NotImplemented", promote="none", n_outputs=None,
          differentiable_outputs=None, variadic=True, vjp=not_implemented(f"aten::{_row}"))


def _tracked(row: str, results: tuple, *inputs) -> tuple:
    """`results` as the outputs of one node of `row` when an input requires grad (its edges
    are those inputs', as torch's NotImplemented node has them), else as they are."""
    sources = tuple(t for t in inputs if isinstance(t, Tensor) and t.requires_grad)
    if not sources or not STATE.grad_enabled:
        return results
    return apply(OPS[row], *sources, results=tuple(r.data for r in results))


def histogram(a: Tensor, bins=100, range=None, weight=None, density: bool = False):
    column = F.reshape(a, (-1, 1))
    _check_dtype(a)
    if isinstance(bins, Tensor):
        edges = [bins]
        _check_edges(column, edges)
    else:
        edges = _edges_from_counts(column, [bins], range)
    _check_weight(column, None if weight is None else F.reshape(weight, (-1,)))
    hist = _histogram(column, edges, weight, density, not isinstance(bins, Tensor))
    hist, edge = _tracked("histogram", (hist, edges[0]), a, bins, weight)
    return F.ReturnTypes("histogram", hist, edge, fields=("hist", "bin_edges"))


def histogramdd(a: Tensor, bins, range=None, weight=None, density: bool = False):
    if a.ndim < 2:
        raise errors.runtime(f"{_DD}input tensor should have at least 2 dimensions")
    _check_dtype(a)
    given = isinstance(bins, (list, tuple)) and bins and isinstance(bins[0], Tensor)
    if given:
        edges = list(bins)
        _check_edges(a, edges)
    else:
        counts = [bins] * a.shape[-1] if isinstance(bins, int) else list(bins)
        edges = _edges_from_counts(a, counts, range)
    _check_weight(a, weight)
    hist = _histogram(a, edges, weight, density, not given)
    if given:
        hist, = _tracked("_histogramdd_from_bin_tensors", (hist,), a, *edges, weight)
    else:
        hist, = _tracked("_histogramdd_from_bin_cts", (hist,), a, weight)
        edges = _tracked("_histogramdd_bin_edges", tuple(edges), a, weight)
    return F.ReturnTypes("histogramdd", hist, tuple(edges), fields=("hist", "bin_edges"))


__all__ = ["histogram", "histogramdd"]

declare("histogram", histogram,
        "histogram(Tensor self, Tensor bins, *, Tensor? weight=None, bool density=False, "
        "Tensor[]? out=None)",
        "histogram(Tensor self, int bins=100, *, float[]? range=None, Tensor? weight=None, "
        "bool density=False, Tensor[]? out=None)")
declare("histogramdd", histogramdd, *(
    f"histogramdd(Tensor input, {bins} bins, float[]? range=None, Tensor? weight=None, "
    "bool density=False)" for bins in ("int", "int[]", "Tensor[]")), variants="torch")

export(__name__, globals())
