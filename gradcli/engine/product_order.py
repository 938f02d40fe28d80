"""torch's prod of float32/float64 values on the CPU, bit for bit (binary_kernel_reduce_vec in
ATen's cpu/Reduce.h, the AVX2 build: 8 float or 4 double lanes; bfloat16 and float16 values, as
float32 ones, in 16 lanes, each product rounded to their dtype).

Along a dimension of unit stride (and over a whole dense tensor, in memory order) torch keeps four
vectors of lanes, multiplies whole blocks of 4 x lanes elements into them, folds them as
(a0 * a1) * (a2 * a3), then the lanes left to right, then multiplies the elements that did not
fill a block one by one. Along any other dimension each output is the product in order. A whole
tensor past GRAIN elements is split into one run per thread, the runs' products multiplied in
order.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes
from gradcli.engine.cascade_sum import GRAIN, THREADS

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
_REDUCED_LANES = 16


def whole_product(values: np.ndarray, reduced: dtypes.DType | None = None) -> np.ndarray | None:
    """The product of every element of a dense float array (float32 values of the `reduced`
    dtype, if given), or None for another array."""
    lanes, mul = _kernel(values, reduced)
    if lanes is None or not (values.flags.c_contiguous or values.flags.f_contiguous):
        return None
    flat = np.ravel(values, order="K")
    n = flat.size
    tasks = min(THREADS, -(-n // GRAIN)) if n >= GRAIN else 1
    chunk = -(-n // tasks) if n else 1
    total = np.ones((), values.dtype)
    for first in range(0, n, chunk):
        total = mul(total, _row_products(flat[None, first:first + chunk], lanes, mul)[0])
    return np.asarray(total, dtype=values.dtype)


def dim_product(values: np.ndarray, dim: int,
                reduced: dtypes.DType | None = None) -> np.ndarray | None:
    """The products along `dim` (the dimension removed), or None for another dtype."""
    lanes, mul = _kernel(values, reduced)
    if lanes is None:
        return None
    if values.size == values.shape[dim]:  # one output: the whole tensor's product
        whole = whole_product(values, reduced)
        if whole is not None:
            return whole.reshape(values.shape[:dim] + values.shape[dim + 1:])
    moved = np.moveaxis(values, dim, -1)
    rows = moved.reshape(-1, values.shape[dim]) if values.shape[dim] else None
    if rows is None:
        return np.ones(moved.shape[:-1], values.dtype)
    if values.strides[dim] == values.itemsize and values.shape[dim] > 1:
        products = _row_products(rows, lanes, mul)
    else:
        products = np.ones(rows.shape[0], values.dtype)
        for k in range(rows.shape[1]):
            products = mul(products, rows[:, k])
    return products.reshape(moved.shape[:-1])


def _kernel(values: np.ndarray, reduced: dtypes.DType | None):
    """The lanes and the multiply of the kernel for these values (None, None: no kernel)."""
    if reduced is not None:
        return _REDUCED_LANES, lambda a, b: dtypes.rounded_to(reduced, a * b)
    return _LANES.get(values.dtype), np.multiply


def _row_products(rows: np.ndarray, lanes: int, mul) -> np.ndarray:
    """vectorized_inner_reduction for each row, into an output that starts at 1."""
    block = 4 * lanes
    count, n = rows.shape[1] // block, rows.shape[1]
    out = np.ones(rows.shape[0], rows.dtype)
    if count:
        acc = rows[:, :block].reshape(-1, 4, lanes).copy()
        for i in range(1, count):
            acc = mul(acc, rows[:, i * block:(i + 1) * block].reshape(-1, 4, lanes))
        folded = mul(mul(acc[:, 0], acc[:, 1]), mul(acc[:, 2], acc[:, 3]))
        first = folded[:, 0]
        for lane in range(1, lanes):
            first = mul(first, folded[:, lane])
        out = mul(out, first)
    for k in range(count * block, n):
        out = mul(out, rows[:, k])
    return out
