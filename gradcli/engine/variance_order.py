"""torch's var and std on the CPU, bit for bit (ATen's ReduceOps.cpp and ReduceOpsKernel.cpp).

Two paths, both accumulating in double whatever the input's floating dtype:
- one output (the whole tensor): `std_var_all_cpu` takes torch's own mean as a double, then sums
  (x - mean)**2 in memory order, one run per thread past GRAIN elements, runs added in order;
- several outputs: Welford's update, one element at a time in memory order, for each output
  (each output's reduction runs on one thread: torch parallelises across outputs).
The double result is rounded to the input's dtype once, after the square root for std.

layer_norm's row moments take a third path, in the rows' own dtype (`row_moments`).
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine.cascade_sum import GRAIN, THREADS, VECTOR_BYTES
from gradcli.engine.fma import fused
from gradcli.engine.triggered import triggered

# var's, std's and their _mean's warning (their name first) when nothing is left to average over
DOF_WARNING = triggered("{}(): degrees of freedom is <= 0. Correction should be strictly less than "
                        "the reduction factor (input numel divided by output numel).",
                        "aten/src/ATen/native/ReduceOps.cpp", 1861)
# Below this many outputs, Python floats (doubles) run Welford's loop faster than NumPy rows.
_FEW_OUTPUTS = 8


def variance(values: np.ndarray, axis: tuple[int, ...] | None, correction: float,
             keepdim: bool, root: bool, whole_mean) -> np.ndarray | None:
    """var (std when `root`) of a float32/float64 array in torch's arithmetic, or None for
    another dtype. `whole_mean(values)` is torch's mean of all of them."""
    if values.dtype not in (np.float32, np.float64):
        return None
    axis = tuple(range(values.ndim)) if axis is None else axis
    kept = [d for d in range(values.ndim) if d not in axis]
    out_shape = tuple(1 if d in axis else values.shape[d] for d in range(values.ndim)) \
        if keepdim else tuple(values.shape[d] for d in kept)
    if math.prod(values.shape[d] for d in kept) == 1 and values.size:
        result = np.full(out_shape, _whole(values, float(whole_mean(values)), correction, root))
        return result.astype(values.dtype)
    rows = _rows(values, axis, kept)
    result = _welford(rows, correction, root)[0]
    return result.reshape(out_shape).astype(values.dtype)


def moments(values: np.ndarray, axis: tuple[int, ...] | None, correction: float,
            keepdim: bool, root: bool) -> tuple[np.ndarray, np.ndarray]:
    """var_mean / std_mean of a float32/float64 array: torch runs Welford's update for every
    output, the whole tensor included, and rounds both the variance and the mean."""
    axis = tuple(range(values.ndim)) if axis is None else axis
    kept = [d for d in range(values.ndim) if d not in axis]
    out_shape = tuple(1 if d in axis else values.shape[d] for d in range(values.ndim)) \
        if keepdim else tuple(values.shape[d] for d in kept)
    var, mean = _welford(_rows(values, axis, kept), correction, root)
    return (var.reshape(out_shape).astype(values.dtype),
            mean.reshape(out_shape).astype(values.dtype))


def _whole(values: np.ndarray, mean: float, correction: float, root: bool) -> float:
    """std_var_all_cpu: the sum of squared deviations from torch's mean, in double."""
    flat = np.ravel(values, order="K")
    deviations = flat.astype(np.float64) - mean
    squares = deviations * deviations
    n = flat.size
    tasks = min(THREADS, -(-n // GRAIN)) if n > GRAIN else 1
    chunk = -(-n // tasks)
    total = 0.0
    for first in range(0, n, chunk):
        total = total + _sequential_sum(squares[first:first + chunk])
    divisor = max(0.0, n - correction)
    var = total / divisor if divisor else _divide_by_zero(total)
    return math.sqrt(var) if root else var


def _sequential_sum(values: np.ndarray) -> float:
    """0 + v0 + v1 + ... in double, left to right."""
    return float(np.cumsum(values)[-1]) if values.size else 0.0


def _rows(values: np.ndarray, axis: tuple[int, ...], kept: list[int]) -> np.ndarray:
    """One row per output, its reduced elements in the order torch visits them (the reduced
    dimensions by decreasing stride, so memory order for a dense tensor)."""
    reduced = sorted(axis, key=lambda d: -abs(values.strides[d]))
    moved = np.transpose(values, (*kept, *reduced))
    return moved.reshape(-1, math.prod(values.shape[d] for d in axis))


def _welford(rows: np.ndarray, correction: float, root: bool) -> tuple[np.ndarray, np.ndarray]:
    """WelfordOps<scalar_t, double>: reduce each row element by element, then project to
    (var or std, mean)."""
    count = rows.shape[1]
    if rows.shape[0] < _FEW_OUTPUTS:
        pairs = [_welford_row(row.tolist()) for row in rows.astype(np.float64)]
        mean = np.array([pair[0] for pair in pairs], np.float64)
        m2 = np.array([pair[1] for pair in pairs], np.float64)
    else:
        mean = np.zeros(rows.shape[0])
        m2 = np.zeros(rows.shape[0])
        data = rows.astype(np.float64).T
        for n in range(count):
            delta = data[n] - mean
            mean = mean + delta / float(n + 1)
            m2 = m2 + delta * (data[n] - mean)
    divisor = count - correction if count > correction else 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        var = m2 / divisor
    return (np.sqrt(var) if root else var), mean


def _welford_row(row: list[float]) -> tuple[float, float]:
    mean = m2 = 0.0
    for n, x in enumerate(row, 1):
        delta = x - mean
        mean = mean + delta / n
        m2 = m2 + delta * (x - mean)
    return mean, m2


def _divide_by_zero(total: float) -> float:
    """total / 0.0 as C++ computes it: nan for 0/0, else inf."""
    return math.nan if total == 0 or math.isnan(total) else math.inf


_CHUNK = 16  # moments_utils.h's kChunkSize


def row_moments(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mean, biased variance) of each row of a float32/float64 (rows, N) array, as torch's
    RowwiseMoments computes them for layer_norm: Welford's update over whole vectors, chunk by
    chunk, the chunks merged in a cascade, the tail one value at a time, then the lanes merged
    into it; the kernel's multiply-adds fused. Rows of one chunk (up to 16 vectors) give torch's
    bits; merging several chunks is close but not yet torch's order."""
    count, n_values = rows.shape
    kind = rows.dtype.type
    lanes = VECTOR_BYTES // rows.itemsize
    n_vectors = n_values // lanes
    chunks = -(-n_vectors // _CHUNK)
    depth = 1 if chunks <= 2 else math.ceil(math.log2(chunks))
    vectors = rows[:, :n_vectors * lanes].reshape(count, n_vectors, lanes)
    zero = np.zeros((count, lanes), rows.dtype)
    stack = [(0, zero, zero)] * depth

    def merge(added, into):
        m0_add, m1_add, m2_add = added
        m0, m1, m2 = into
        total = m0 + m0_add
        c = kind(0) if total == 0 else kind(m0_add) / kind(total)
        delta = m1_add - m1
        return total, fused(c, delta, m1), m2 + fused(delta * delta * c, kind(m0), m2_add)

    for i in range(chunks):
        size = min(_CHUNK, n_vectors - i * _CHUNK)
        m1 = m2 = zero
        for j in range(size):
            x = vectors[:, i * _CHUNK + j]
            delta = x - m1
            m1 = fused(delta, kind(1) / kind(j + 1), m1)
            m2 = fused(delta, x - m1, m2)
        stack[0] = merge((size, m1, m2), stack[0])
        mask, level = i + 1, 1
        while level < depth and mask & 1 == 0:
            stack[level] = merge(stack[level - 1], stack[level])
            stack[level - 1] = (0, zero, zero)
            mask >>= 1
            level += 1
    for level in range(1, depth):
        stack[0] = merge(stack[level], stack[0])
    m0, m1, m2 = 0, np.zeros(count, rows.dtype), np.zeros(count, rows.dtype)
    for k in range(n_vectors * lanes, n_values):
        x = rows[:, k]
        delta = x - m1
        m0 += 1
        m1 = m1 + delta / kind(m0)
        m2 = m2 + delta * (x - m1)
    for lane in range(lanes):
        m0, m1, m2 = merge((n_vectors, stack[0][1][:, lane], stack[0][2][:, lane]), (m0, m1, m2))
    return m1, m2 / kind(n_values)
