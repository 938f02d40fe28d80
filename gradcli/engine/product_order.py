"""torch's prod of float32/float64 values on the CPU, bit for bit (binary_kernel_reduce_vec in
ATen's cpu/Reduce.h, the AVX2 build: 8 float or 4 double lanes).

Along a dimension of unit stride (and over a whole dense tensor, in memory order) torch keeps four
vectors of lanes, multiplies whole blocks of 4 x lanes elements into them, folds them as
(a0 * a1) * (a2 * a3), then the lanes left to right, then multiplies the elements that did not
fill a block one by one. Along any other dimension each output is the product in order. A whole
tensor past GRAIN elements is split into one run per thread, the runs' products multiplied in
order.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.cascade_sum import GRAIN, THREADS

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def whole_product(values: np.ndarray) -> np.ndarray | None:
    """The product of every element of a dense float array, or None for another array."""
    lanes = _LANES.get(values.dtype)
    if lanes is None or not (values.flags.c_contiguous or values.flags.f_contiguous):
        return None
    flat = np.ravel(values, order="K")
    n = flat.size
    tasks = min(THREADS, -(-n // GRAIN)) if n >= GRAIN else 1
    chunk = -(-n // tasks) if n else 1
    total = values.dtype.type(1)
    for first in range(0, n, chunk):
        total = total * _row_products(flat[None, first:first + chunk], lanes)[0]
    return np.asarray(total, dtype=values.dtype)


def dim_product(values: np.ndarray, dim: int) -> np.ndarray | None:
    """The products along `dim` (the dimension removed), or None for another dtype."""
    lanes = _LANES.get(values.dtype)
    if lanes is None:
        return None
    if values.size == values.shape[dim]:  # one output: the whole tensor's product
        whole = whole_product(values)
        if whole is not None:
            return whole.reshape(values.shape[:dim] + values.shape[dim + 1:])
    moved = np.moveaxis(values, dim, -1)
    rows = moved.reshape(-1, values.shape[dim]) if values.shape[dim] else None
    if rows is None:
        return np.ones(moved.shape[:-1], values.dtype)
    if values.strides[dim] == values.itemsize and values.shape[dim] > 1:
        products = _row_products(rows, lanes)
    else:
        products = np.multiply.accumulate(rows, axis=1)[:, -1]
    return products.reshape(moved.shape[:-1])


def _row_products(rows: np.ndarray, lanes: int) -> np.ndarray:
    """vectorized_inner_reduction for each row, into an output that starts at 1."""
    block = 4 * lanes
    count, n = rows.shape[1] // block, rows.shape[1]
    out = np.ones(rows.shape[0], rows.dtype)
    if count:
        acc = rows[:, :block].reshape(-1, 4, lanes).copy()
        for i in range(1, count):
            acc *= rows[:, i * block:(i + 1) * block].reshape(-1, 4, lanes)
        folded = (acc[:, 0] * acc[:, 1]) * (acc[:, 2] * acc[:, 3])
        first = folded[:, 0]
        for lane in range(1, lanes):
            first = first * folded[:, lane]
        out = out * first
    for k in range(count * block, n):
        out = out * rows[:, k]
    return out
