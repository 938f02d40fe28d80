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
    """`vector(a)` where the vector code runs, `scalar(a)` on the tails (a flat C-order run);
    any other layout of `a` as TensorIterator walks it (`split_strided`)."""
    if not a.flags.c_contiguous:
        return split_strided((a,), vector, scalar, vector_bytes)
    flat = a.reshape(-1)
    if parallel_chunk(flat.size) == flat.size:  # one chunk: its vector part, then its tail
        vectors = flat.size - flat.size % (2 * vector_bytes // a.dtype.itemsize)
        if not vectors:
            return scalar(flat).reshape(a.shape)
        out = vector(flat[:vectors])
        if vectors < flat.size:
            out = np.concatenate((out, scalar(flat[vectors:])))
        return out.reshape(a.shape)
    inside = vector_positions(flat.size, a.dtype.itemsize, vector_bytes)
    out = vector(flat)
    if not inside.all():
        out[~inside] = scalar(flat[~inside])
    return out.reshape(a.shape)


def _should_swap(strides, shape, dim0: int, dim1: int) -> int:
    """TensorIterator's reorder_dimensions comparison: 1 when dim0, now inside dim1, should go
    outside it (a larger stride), -1 when it stays, 0 when the inputs cannot tell."""
    for st in strides:
        if st[dim0] == 0 or st[dim1] == 0:
            continue
        if st[dim0] != st[dim1]:
            return 1 if st[dim0] > st[dim1] else -1
        if shape[dim0] > shape[dim1]:
            return 1
    return 0


def _iteration_order(strides, shape) -> list:
    """The dims from outermost to innermost, as TensorIterator sorts them by the inputs' strides."""
    perm = list(range(len(shape)))[::-1]  # innermost first
    for i in range(1, len(perm)):
        dim1 = i
        for dim0 in range(i - 1, -1, -1):
            swap = _should_swap(strides, shape, perm[dim0], perm[dim1])
            if swap > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif swap < 0:
                break
    return perm[::-1]


def _inner_run(strides, shape):
    """The length of the coalesced innermost dim and each operand's stride along it."""
    size, inner = 1, [0] * len(strides)
    for d in range(len(shape) - 1, -1, -1):
        if shape[d] == 1:
            continue
        if size > 1 and any(st[d] != inner_st * size for st, inner_st in zip(strides, inner)):
            break
        if size == 1:
            inner = [st[d] for st in strides]
        size *= shape[d]
    return size, inner


def split_strided(operands, vector, scalar, vector_bytes: int = WIDE_VECTOR_BYTES) -> np.ndarray:
    """`split` of a kernel over operands with any strides, walked as torch's TensorIterator walks
    them: in the inputs' memory order, one inner loop per run of the coalesced innermost dim,
    vectorised only when every operand is contiguous along it (or one input a broadcast scalar);
    otherwise the scalar code does every element."""
    arrays = np.broadcast_arrays(*operands)
    shape, itemsize = arrays[0].shape, arrays[0].dtype.itemsize
    strides = [[st // itemsize if n > 1 else 0 for st, n in zip(a.strides, shape)] for a in arrays]
    order = _iteration_order(strides, shape)
    walked = [np.ascontiguousarray(a.transpose(order)).reshape(-1) for a in arrays]
    walked_shape = tuple(shape[d] for d in order)
    run, inner = _inner_run([[st[d] for d in order] for st in strides], walked_shape)
    n = walked[0].size
    if run > 1 and all(st in (0, 1) for st in inner) and inner.count(0) <= 1:
        block = 2 * vector_bytes // itemsize
        chunk = parallel_chunk(n)
        flat = np.arange(n)
        start = np.maximum(flat // chunk * chunk, flat // run * run)
        end = np.minimum(np.minimum(flat // chunk * chunk + chunk, flat // run * run + run), n)
        inside = (flat - start) < (end - start) // block * block
    else:
        inside = np.zeros(n, bool)
    out = vector(*walked) if inside.any() else scalar(*walked)
    if inside.any() and not inside.all():
        out[~inside] = scalar(*(w[~inside] for w in walked))
    return out.reshape(walked_shape).transpose(np.argsort(order))


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
    the operands' C-order broadcast; operands strided otherwise (views, expanded gradients) as
    TensorIterator walks them (`split_strided`)."""
    if any(isinstance(v, np.ndarray) and v.ndim and not v.flags.c_contiguous for v in (a, b)):
        return split_strided((a, b), vector, scalar)
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
