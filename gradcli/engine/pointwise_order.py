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


def vector_positions(n: int, itemsize: int, vector_bytes: int = WIDE_VECTOR_BYTES) -> np.ndarray:
    """True for the flat positions of an n-element run that the vector code computes."""
    block = 2 * vector_bytes // itemsize
    chunk = parallel_chunk(n)
    flat = np.arange(n)
    start = flat // chunk * chunk
    length = np.minimum(start + chunk, n) - start
    return (flat - start) < length // block * block


def split(a: np.ndarray, vector, scalar, vector_bytes: int = WIDE_VECTOR_BYTES) -> np.ndarray:
    """`vector(a)` where the vector code runs, `scalar(a)` on the tails (a flat C-order run)."""
    flat = a.reshape(-1)
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
