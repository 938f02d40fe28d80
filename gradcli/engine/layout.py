"""Memory layout of a pointwise result, chosen as torch's TensorIterator chooses it.

NumPy lays out a result over operands of different layouts in C order; torch follows the first
operand that decides each pair of dimensions. The layout is visible through `is_contiguous()`,
through which of view/_reshape_alias/_unsafe_view `reshape` picks, and through `view` errors.
"""

from __future__ import annotations

import numpy as np


def torch_layout(result: np.ndarray, operands: list) -> np.ndarray:
    """`result` itself when its layout is torch's for these operand arrays, else a copy that is."""
    if result.ndim < 2 or all(a.flags.c_contiguous for a in operands):
        return result
    order = _iteration_order(result.shape, operands)
    strides = [result.strides[d] for d in order if result.shape[d] != 1]
    if all(s < t for s, t in zip(strides, strides[1:])):
        return result
    slow_to_fast = order[::-1]
    base = np.empty([result.shape[d] for d in slow_to_fast], dtype=result.dtype)
    laid_out = base.transpose(np.argsort(slow_to_fast))
    laid_out[...] = result
    return laid_out


def c_ordered(result):
    """`result` in C order, as torch allocates a reduction's or a scan's output (NumPy keeps a
    permuted input's order there); scalars and C-ordered arrays as they are."""
    if type(result) is not np.ndarray or result.flags.c_contiguous:
        return result
    return result.copy(order="C")


def index_layout(result: np.ndarray, source: np.ndarray, key: tuple) -> np.ndarray:
    """`result` (source[key], key a slice(None) or an integer array per dimension) laid out as
    torch's index kernel lays it out: its TensorIterator reads the source restrided, the indexed
    dimensions moved to the front when they are not adjacent, with stride 0 in place of them,
    and the index arrays broadcast over the rest."""
    if result.ndim < 2 or result.size == 0:
        return result
    dims = [d for d, k in enumerate(key) if isinstance(k, np.ndarray)]
    arrays = np.broadcast_arrays(*(key[d] for d in dims))
    strides = list(source.strides) + [0] * (source.ndim - len(key))
    shape = list(source.shape)
    if dims != list(range(dims[0], dims[0] + len(dims))):  # transposeToFront
        rest = [d for d in range(source.ndim) if d not in dims]
        strides, shape, dims = ([strides[d] for d in dims + rest], [shape[d] for d in dims + rest],
                                list(range(len(dims))))
    before, after = dims[0], len(shape) - dims[-1] - 1
    src = np.lib.stride_tricks.as_strided(
        source, shape[:before] + list(result.shape[before:result.ndim - after]) + shape[
            len(shape) - after:],
        strides[:before] + [0] * arrays[0].ndim + strides[len(strides) - after:])
    indexers = [a.reshape((1,) * before + a.shape + (1,) * after) for a in arrays]
    slow_to_fast = _iteration_order(result.shape, [src, *indexers])[::-1]
    base = np.empty([result.shape[d] for d in slow_to_fast], dtype=result.dtype)
    laid_out = base.transpose(np.argsort(slow_to_fast))
    if laid_out.strides == result.strides:
        return result
    laid_out[...] = result
    return laid_out


def dense_order(array: np.ndarray) -> list | None:
    """`array`'s dimensions, slowest in memory first, when its elements fill their memory
    densely (a permuted layout, which torch's empty_like keeps), else None."""
    order = sorted(range(array.ndim), key=lambda d: array.strides[d], reverse=True)
    expected = array.itemsize
    for d in reversed(order):
        if array.shape[d] != 1:
            if array.strides[d] != expected:
                return None
            expected *= array.shape[d]
    return order


def _iteration_order(shape: tuple, operands: list) -> list:
    """The dimensions, fastest first, by TensorIterator's reorder_dimensions."""
    strides = [_broadcast_strides(a, shape) for a in operands]

    def should_swap(dim0: int, dim1: int) -> int:
        for s in strides:
            s0, s1 = s[dim0], s[dim1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return 1 if s0 > s1 else -1
            if shape[dim0] > shape[dim1]:
                return 1
        return 0

    order = list(reversed(range(len(shape))))
    for i in range(1, len(order)):
        dim1 = i
        for dim0 in range(i - 1, -1, -1):
            comparison = should_swap(order[dim0], order[dim1])
            if comparison > 0:
                order[dim0], order[dim1] = order[dim1], order[dim0]
                dim1 = dim0
            elif comparison < 0:
                break
    return order


def _broadcast_strides(array: np.ndarray, shape: tuple) -> list:
    """The operand's strides over the broadcast shape, 0 where it is broadcast."""
    offset = len(shape) - array.ndim
    strides = [0] * offset
    for i, (size, stride) in enumerate(zip(array.shape, array.strides)):
        strides.append(0 if size == 1 and shape[offset + i] != 1 else stride)
    return strides
