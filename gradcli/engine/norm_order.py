"""torch's 2-norm (linalg.vector_norm, ord 2) of float32/float64 values on the CPU, bit for bit
(norm_kernel_tensor_iterator_impl in ATen's cpu/ReduceOpsKernel.cpp, the AVX2 build).

Along a dimension of unit stride (and over a whole dense tensor, in memory order) each output
keeps a vector of 8 float or 4 double lanes, adds whole vectors of squares into it, adds the
lanes left to right, then the squares that did not fill a vector one by one. Along any other
dimension each output is the sum of squares in order. Each square is rounded before it is
added, except at the end of the scalar tail (past its runs of four), which the compiler fuses.
The square root is taken in the input's dtype.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.fma import fma32, fma64

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def two_norm(values: np.ndarray, axis: tuple[int, ...] | None, keepdim: bool
             ) -> np.ndarray | None:
    """The 2-norm over `axis` (None: all) in torch's arithmetic, or None where torch takes a
    path not reproduced here (another dtype, several dims of a part of a tensor)."""
    lanes = _LANES.get(values.dtype)
    if lanes is None:
        return None
    whole = axis is None or len(axis) == values.ndim
    if whole:
        if not (values.flags.c_contiguous or values.flags.f_contiguous):
            return None
        rows, dim = np.ravel(values, order="K")[None, :], None
    elif len(axis) == 1:
        dim = axis[0] % values.ndim
        rows = np.moveaxis(values, dim, -1).reshape(-1, values.shape[dim])
    else:
        return None
    if whole or values.strides[dim] == values.itemsize or values.shape[dim] == 1:
        squares = _vector_rows(rows, lanes)
    else:
        squares = np.zeros(rows.shape[0], values.dtype)
        for k in range(rows.shape[1]):
            squares = squares + rows[:, k] * rows[:, k]
    result = np.sqrt(np.asarray(squares, values.dtype))
    if whole:
        return result.reshape((1,) * values.ndim if keepdim else ())
    shape = list(values.shape)
    shape[dim] = 1
    return result.reshape(shape) if keepdim else result.reshape(
        values.shape[:dim] + values.shape[dim + 1:])


def _vector_rows(rows: np.ndarray, lanes: int) -> np.ndarray:
    n = rows.shape[1]
    whole_vectors = n - n % lanes
    squares = rows * rows
    acc = np.zeros((rows.shape[0], lanes), rows.dtype)
    for first in range(0, whole_vectors, lanes):
        acc += squares[:, first:first + lanes]
    total = acc[:, 0]
    for lane in range(1, lanes):
        total = total + acc[:, lane]
    # The scalar tail: the compiler squares runs of four with SSE and adds them in order, then
    # fuses the multiply-adds of the rest.
    squared_in_fours = whole_vectors + (n - whole_vectors) // 4 * 4
    for k in range(whole_vectors, squared_in_fours):
        total = total + squares[:, k]
    fma = fma32 if rows.dtype == np.float32 else fma64
    for k in range(squared_in_fours, n):
        total = fma(rows[:, k], rows[:, k], total)
    return total
