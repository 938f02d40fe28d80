"""torch's vector norms (linalg.vector_norm) of float32/float64 values on the CPU, bit for bit
(norm_kernel_tensor_iterator_impl in ATen's cpu/ReduceOpsKernel.cpp, the AVX2 build).

Any ord but 0, 2 and the infinities goes through binary_kernel_reduce: each output adds
std::pow(|x|, ord) (|x| for ord 1) in its own dtype one element after another, in the reduced
elements' memory order, then takes std::pow(sum, 1 / ord); past GRAIN elements of one output
each thread sums an equal run from zero and the runs' sums are added in order.

The 2-norm:
Along a dimension of unit stride (and over a whole dense tensor, in memory order) each output
keeps a vector of 8 float or 4 double lanes, adds whole vectors of squares into it, adds the
lanes left to right, then the squares that did not fill a vector one by one. Along any other
dimension each output is the sum of squares in order. Each square is rounded before it is
added, except at the end of the scalar tail (past its runs of four), which the compiler fuses.
The square root is taken in the input's dtype.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.lazy_modules import libm_float
from gradcli.engine.cascade_sum import GRAIN, THREADS, parallel_chunk
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


def power_norm(values: np.ndarray, order: float, axis: tuple[int, ...] | None, keepdim: bool
               ) -> np.ndarray | None:
    """The ord-norm (ord not 0, 2 or infinite) over `axis` (None: all) in torch's arithmetic,
    or None for a dtype other than float32 and float64."""
    if values.dtype not in _LANES:
        return None
    dims = range(values.ndim) if axis is None else [d % values.ndim for d in axis]
    reduced = sorted(dims, key=lambda d: -abs(values.strides[d]))  # outermost first
    kept = [d for d in range(values.ndim) if d not in reduced]
    rows = np.transpose(values, kept + reduced).reshape(
        [values.shape[d] for d in kept] + [-1])
    magnitudes = np.abs(rows)
    if order != 1:
        magnitudes = _pow(magnitudes, order)
    total = _serial_sum(magnitudes)
    if order != 1:
        total = _pow(total, 1 / values.dtype.type(order))
    if keepdim:
        total = np.expand_dims(total, tuple(sorted(reduced)))
    return total


def _pow(x: np.ndarray, exponent) -> np.ndarray:
    """std::pow in x's dtype, the exponent rounded to it first."""
    if x.dtype == np.float32:
        return libm_float.powf(x, np.float32(exponent))
    return libm_float.pow_double(x, float(exponent))


def _serial_sum(terms: np.ndarray) -> np.ndarray:
    """Sums over the last axis one term after another (threads' runs past GRAIN terms)."""
    n = terms.shape[-1]
    if n == 0:
        return np.zeros(terms.shape[:-1], terms.dtype)
    if n <= GRAIN or THREADS == 1 or terms.size != n:
        return np.cumsum(terms, axis=-1)[..., -1]
    chunk = parallel_chunk(n)
    total = np.zeros(terms.shape[:-1], terms.dtype)
    for start in range(0, n, chunk):
        total = total + np.cumsum(terms[..., start:start + chunk], axis=-1)[..., -1]
    return total
