"""torch's vectorised elementwise kernels (cpu_kernel_vec) in their split of the work.

A dense run is cut into one equal chunk per thread past GRAIN elements; each chunk is computed
two vectors at a time by the kernel's vector code, and its last (fewer than two vectors')
elements by the scalar code. Where the two codes round differently (SLEEF's exp against
glibc's), the result depends on an element's place in its chunk.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.cascade_sum import parallel_chunk
from gradcli.engine.cpu_capability import WIDE_VECTOR_BYTES


def vector_positions(n: int, itemsize: int, vector_bytes: int = WIDE_VECTOR_BYTES,
                     row: int = 0) -> np.ndarray:
    """True for the flat positions of an n-element run that the vector code computes: each
    thread's chunk is cut into rows of `row` elements (the inner loop; the whole run if 0), a
    thread starting mid-row."""
    block = 2 * vector_bytes // itemsize
    chunk = parallel_chunk(n)
    flat = np.arange(n)
    start = flat // chunk * chunk
    end = np.minimum(start + chunk, n)
    if row and row < n:
        row_start = flat // row * row
        start = np.maximum(start, row_start)
        end = np.minimum(end, row_start + row)
    return (flat - start) < (end - start) // block * block


def inner_row(shape: tuple, operand_shapes: list) -> int:
    """The inner loop TensorIterator runs a broadcast elementwise op in (dense operands, C
    order): the trailing dimensions it coalesces, or 0 where an operand is neither dense nor
    constant along them (the scalar code then takes every element)."""
    ndim = len(shape)
    strides = []
    for op_shape in operand_shapes:
        op_shape = (1,) * (ndim - len(op_shape)) + tuple(op_shape)
        own = np.cumprod((1,) + op_shape[:0:-1])[::-1]
        strides.append([int(st) if size == out else 0
                        for size, out, st in zip(op_shape, shape, own)])
    dims = [d for d in range(ndim) if shape[d] != 1]
    if not dims:
        return 1
    inner = dims[-1]
    run = shape[inner]
    for d in reversed(dims[:-1]):
        if any(st[d] != st[inner] * run for st in strides):
            break
        run *= shape[d]
    constant = [st[inner] == 0 for st in strides]
    if any(st[inner] not in (0, 1) for st in strides) or sum(constant) > 1:
        return 0
    return run


def split(a: np.ndarray, vector, scalar, vector_bytes: int = WIDE_VECTOR_BYTES) -> np.ndarray:
    """`vector(a)` where the vector code runs, `scalar(a)` on the tails (a flat C-order run)."""
    flat = a.reshape(-1)
    inside = vector_positions(flat.size, a.dtype.itemsize, vector_bytes)
    out = vector(flat)
    if not inside.all():
        out[~inside] = scalar(flat[~inside])
    return out.reshape(a.shape)


def at_least(a, low):
    """max(a, low) as torch's clamp kernels take it (low > a ? low : a): a's -0.0 stays where
    low is 0.0 (NumPy's maximum gives 0.0 there)."""
    return np.where(a == low, a, np.maximum(a, low))


def at_most(a, high):
    """min(a, high) as torch's clamp kernels take it: a where a equals high."""
    return np.where(a == high, a, np.minimum(a, high))


def split_binary(a: np.ndarray, b: np.ndarray, vector, scalar) -> np.ndarray:
    """`vector(a, b)` where a broadcast binary kernel's vector code runs, `scalar(a, b)` on the
    rest (its tails, or every element where the operands' layout defeats the vector code), on
    the operands' C-order broadcast."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    row = inner_row(shape, [np.shape(a), np.shape(b)])
    a, b = (np.broadcast_to(v, shape).reshape(-1) for v in (a, b))
    n = a.size
    inside = (vector_positions(n, a.dtype.itemsize, row=row) if row
              else np.zeros(n, bool))
    out = vector(a, b) if inside.any() else scalar(a, b)
    if inside.any() and not inside.all():
        out[~inside] = scalar(a[~inside], b[~inside])
    return out.reshape(shape)
