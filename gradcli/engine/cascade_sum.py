"""torch's CPU sum of a contiguous float run, in its order of additions (SumKernel.cpp).

torch sums a contiguous row as 256-bit vectors (8 floats, 4 doubles):
four interleaved vector accumulators, each a cascade of levels that are summed 16 at a time, then
the leftover vectors, then the scalar tail, then the vector's lanes one by one. Each step is a
float add in the row's dtype, so reproducing the order reproduces torch's last bits. The
sequential folds below are NumPy's `add.accumulate` (strictly left to right), batched across
the independent accumulators.
"""

from __future__ import annotations

import os

import numpy as np

from gradcli.engine import layout

_ILP = 4  # interleaved accumulators (row_sum's ilp_factor)
_LEVELS = 4  # cascade levels (multi_row_sum's num_levels)
# torch's reduction kernels add 256-bit vectors (8 floats, 4 doubles), also on AVX512 CPUs
# (measured against torch 2.13); GRADCLI_CPU_CAPABILITY=avx512 tries 512-bit ones.
VECTOR_BYTES = 64 if os.environ.get("GRADCLI_CPU_CAPABILITY", "").lower() == "avx512" else 32


def in_order(rows: np.ndarray) -> np.ndarray:
    """rows[0] + rows[1] + ... over axis 0, added in order, each partial sum rounded (0 for no
    rows), in a new array. A few rows are added row by row: np.add.accumulate runs its inner
    loop along axis 0, once per element of a row."""
    if len(rows) == 0:
        return np.zeros(rows.shape[1:], rows.dtype)
    if len(rows) > _FEW_ROWS:
        return np.add.accumulate(rows, axis=0)[-1]
    out = rows[0].copy()
    for row in rows[1:]:
        out += row
    return out


_FEW_ROWS = 32


def _block_sums(blocks: np.ndarray) -> np.ndarray:
    """Each block's entries (axis 1) added left to right, all blocks at once."""
    total = blocks[:, 0].copy()
    for j in range(1, blocks.shape[1]):
        total += blocks[:, j]
    return total


def _cascade(rows: np.ndarray, level_power: int) -> np.ndarray:
    """multi_row_sum: rows (size, width) summed in torch's cascade, per column."""
    step, width = 1 << level_power, rows.shape[1]
    size = len(rows)
    full = size // step
    if full == 0:  # no block fills up: the levels all stay zero (adding them makes -0.0 0.0)
        return in_order(rows) + np.zeros(width, rows.dtype)
    level = _block_sums(rows[:full * step].reshape(full, step, width))
    partials = []
    for _ in range(1, _LEVELS - 1):  # levels 1 and 2 flush upward every `step` entries
        groups = len(level) // step
        partials.append(in_order(level[groups * step:]))
        level = _block_sums(level[:groups * step].reshape(groups, step, width))
    top = in_order(level)  # the last level accumulates everything that reaches it
    acc = in_order(rows[full * step:])  # rows after the last full block go to level 0
    for partial in (*partials, top):
        acc = acc + partial
    return acc


def _interleaved(grouped: np.ndarray) -> np.ndarray:
    """row_sum over (count, lanes) items: four interleaved cascades, the leftover items into
    the first, then the four summed in order; one result per lane."""
    count, lanes = grouped.shape
    rows = count // _ILP
    level_power = max(4, _ceil_log2(rows) // _LEVELS)
    accumulators = _cascade(grouped[:rows * _ILP].reshape(rows, _ILP * lanes), level_power)
    accumulators = accumulators.reshape(_ILP, lanes)
    first = accumulators[0]
    for item in grouped[rows * _ILP:]:
        first = first + item
    for k in range(1, _ILP):
        first = first + accumulators[k]
    return first


def _ceil_log2(value: int) -> int:
    return 0 if value <= 1 else (value - 1).bit_length()


def _short_row(values: np.ndarray):
    """A row shorter than a vector: four interleaved scalar accumulators (no cascade level
    fills up), leftovers into the first, then the four in order; scalar arithmetic on the
    row's own NumPy scalars, which is quicker than array calls at this size."""
    n = len(values)
    rows = n // _ILP * _ILP
    accumulators = [_zero(values.dtype)] * _ILP
    for i in range(rows):
        accumulators[i % _ILP] += values[i]
    total = accumulators[0]
    for i in range(rows, n):
        total += values[i]
    for accumulator in accumulators[1:]:
        total += accumulator
    return total


_ZEROS: dict = {}


def _zero(dtype: np.dtype):
    """A NumPy zero scalar of `dtype` (making one costs more than the additions)."""
    zero = _ZEROS.get(dtype)
    if zero is None:
        zero = _ZEROS[dtype] = dtype.type(0)
    return zero


def row_sum(values: np.ndarray) -> np.ndarray:
    """torch's sum of a 1-D contiguous float32/float64 array, as a 0-d array of its dtype: whole
    vectors first (their lanes added one by one after the scalar tail), or, for a row shorter
    than a vector, the same interleaved cascade over single values."""
    n = len(values)
    lanes = VECTOR_BYTES // values.dtype.itemsize
    if n < lanes:
        return np.asarray(_short_row(values))
    vectors = n // lanes
    first = _interleaved(values[:vectors * lanes].reshape(vectors, lanes))
    total = in_order(values[vectors * lanes:].reshape(-1, 1)).reshape(())
    for lane in first:
        total = total + lane
    return np.asarray(total, dtype=values.dtype)


def _threads() -> int:
    """torch's intra-op threads: one per core, or OMP_NUM_THREADS when set (torch takes no more
    threads than cores)."""
    cores = max(1, os.cpu_count() or 1)
    try:
        return min(max(1, int(os.environ.get("OMP_NUM_THREADS", ""))), cores)
    except ValueError:
        return cores


THREADS = _threads()
GRAIN = 32768  # torch splits a reduction across threads past this many elements


def parallel_chunk(n: int) -> int:
    """The run of indices each thread takes in torch's parallel_for over n items (the last run
    may be shorter): one run up to GRAIN items, else up to THREADS equal runs."""
    tasks = min(THREADS, -(-n // GRAIN)) if n > GRAIN else 1
    return max(-(-n // tasks), 1)


# Complex numbers add part by part, a vector holding half as many of them: the same order
_SUMMED = (np.float32, np.float64, np.complex64, np.complex128)


def full_sum(values: np.ndarray) -> np.ndarray | None:
    """torch's sum of all of a float or complex array whose elements are dense in memory, in
    any order of dimensions (a transpose, a batch-first RNN's output), or of a 1-D run with a
    stride, or None when torch would take another path (then the caller sums as it can).

    torch's TensorIterator walks the memory, and past GRAIN elements gives each thread an equal
    run of it and adds the runs' sums in order.
    """
    if values.dtype not in _SUMMED:
        return None
    if values.ndim == 1 and len(values) <= GRAIN and values.flags.c_contiguous:
        return row_sum(values)  # one thread's run (the commonest case, kept short)
    strided = values.ndim == 1 and not values.flags.c_contiguous  # (a complex tensor's .real)
    if not (strided or values.flags.c_contiguous or values.flags.f_contiguous):
        dense = in_memory_order(values)
        if dense is None:
            return _gapped_sum(values)
        values = dense
    flat = np.ravel(values, order="K")
    n = len(flat)
    if n == 0:
        return np.zeros((), values.dtype)
    chunk = parallel_chunk(n)
    run_sum = _strided_row_sum if strided else row_sum
    total = run_sum(flat[:chunk])
    for first in range(chunk, n, chunk):
        total = total + run_sum(flat[first:first + chunk])
    return np.asarray(total, dtype=values.dtype)


def _gapped_sum(values: np.ndarray) -> np.ndarray | None:
    """torch's sum of all of an array with gaps in its memory (a slice such as x[:, 1]), or
    None past one thread's share or with a negative stride: TensorIterator puts the dimensions
    in memory order and merges neighbours that lie in one run; each row along the innermost
    run is summed (vector loads when it is contiguous) and added in turn into the output."""
    shape = [(size, stride) for size, stride in zip(values.shape, values.strides) if size != 1]
    if values.size > GRAIN or any(stride <= 0 for _, stride in shape):
        return None
    shape.sort(key=lambda pair: -pair[1])
    runs = [list(shape[0])]
    for size, stride in shape[1:]:
        if runs[-1][1] == size * stride:
            runs[-1] = [runs[-1][0] * size, stride]
        else:
            runs.append([size, stride])
    view = np.lib.stride_tricks.as_strided(
        values, [size for size, _ in runs], [stride for _, stride in runs], writeable=False)
    rows = view.reshape(-1, runs[-1][0])
    run_sum = row_sum if runs[-1][1] == values.itemsize else _strided_row_sum
    total = np.zeros((), values.dtype)
    for row in rows:
        total = total + run_sum(np.ascontiguousarray(row))
    return np.asarray(total, dtype=values.dtype)


def in_memory_order(values: np.ndarray) -> np.ndarray | None:
    """`values` with its dimensions put in memory order (the largest stride first), when that
    makes it C-contiguous (its elements dense in memory), else None."""
    order = layout.dense_order(values)
    return None if order is None else values.transpose(order)


def _strided_row_sum(values: np.ndarray) -> np.ndarray:
    """torch's sum of a run whose elements are not adjacent in memory: its scalar code, the
    same interleaved cascade over single values."""
    return _interleaved(values.reshape(-1, 1))[0]


def last_dim_sums(values: np.ndarray) -> np.ndarray | None:
    """torch's sums along the last dimension of a C-contiguous float array (one per row), or None
    for other arrays.

    Every row runs the same additions, so the rows ride side by side as extra lanes. Split
    across threads, torch gives each thread whole rows, which changes no row's additions.
    """
    if values.dtype not in _SUMMED or not values.flags.c_contiguous \
            or values.ndim < 2:
        return None
    n = values.shape[-1]
    if values.size == 0:  # (reshape(-1, 0) has no answer)
        return np.zeros(values.shape[:-1], values.dtype)
    rows = values.reshape(-1, n)
    batch = len(rows)
    lanes = VECTOR_BYTES // values.dtype.itemsize
    if n < lanes:  # scalar inner sums: the interleaved cascade over single values, per row
        totals = _interleaved(rows.T.copy())
        return totals.reshape(values.shape[:-1])
    vectors = n // lanes
    grouped = rows[:, :vectors * lanes].reshape(batch, vectors, lanes)
    first = _interleaved(grouped.transpose(1, 0, 2).reshape(vectors, batch * lanes))
    first = first.reshape(batch, lanes)
    tail = rows[:, vectors * lanes:]
    total = in_order(tail.T.copy()) if tail.shape[1] else np.zeros(batch, values.dtype)
    for lane in range(lanes):
        total = total + first[:, lane]
    return total.reshape(values.shape[:-1])


def strided_row_sums(rows: np.ndarray) -> np.ndarray:
    """torch's sums of rows (batch, n) whose elements are not adjacent in memory (its scalar
    row_sum: four interleaved cascades), one per row."""
    if rows.shape[1] == 0:
        return np.zeros(rows.shape[0], rows.dtype)
    return _interleaved(np.ascontiguousarray(rows.T))


def outer_dim_sums(values: np.ndarray, dim: int, vectorized: bool = True) -> np.ndarray | None:
    """torch's sums over one non-last dimension of a C-contiguous float array, or None for other
    arrays.

    torch runs across the inner positions (SumKernel's vectorized_outer_sum, or scalar_outer_sum
    when there are fewer than a vector's width, or when not `vectorized`: the columns were not
    contiguous in the tensor's memory): groups of four vectors of columns (four single columns)
    take multi_row_sum (one cascade per column along `dim`), the columns left over take row_sum
    (four interleaved cascades per column); every column's additions are its own, so all
    columns ride side by side. Split across threads, torch gives each thread whole outer rows,
    or runs of columns rounded to 128 bytes, which keeps every column's group.
    """
    if values.dtype not in _SUMMED or not values.flags.c_contiguous \
            or values.ndim < 2:
        return None
    size = values.shape[dim]
    outer = int(np.prod(values.shape[:dim], dtype=np.int64))
    inner = int(np.prod(values.shape[dim + 1:], dtype=np.int64))
    out_shape = values.shape[:dim] + values.shape[dim + 1:]
    if size == 0 or values.size == 0:
        return np.zeros(out_shape, values.dtype)
    columns = values.reshape(outer, size, inner).transpose(1, 0, 2)  # (size, outer, inner)
    lanes = VECTOR_BYTES // values.dtype.itemsize
    group = _ILP * lanes if inner >= lanes and vectorized else _ILP  # scalar: single columns
    split = inner // group * group
    result = np.empty((outer, inner), values.dtype)
    if split:
        level_power = max(4, _ceil_log2(size) // _LEVELS)
        block = np.ascontiguousarray(columns[:, :, :split]).reshape(size, outer * split)
        result[:, :split] = _cascade(block, level_power).reshape(outer, split)
    if split < inner:
        rest = np.ascontiguousarray(columns[:, :, split:]).reshape(size, -1)
        result[:, split:] = _interleaved(rest).reshape(outer, inner - split)
    return result.reshape(out_shape)
