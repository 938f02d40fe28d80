"""Sparse COO tensors (torch.sparse_coo): a Tensor whose `sparse` holds its indices and values.

Its `data` is a stand-in of its shape and dtype that holds no elements: a dense kernel that
reaches it refuses (gradcli's gap) instead of computing on zeros. The kernels here work on
arrays in torch's orders: coalescing sums duplicates in their order, a sparse-dense product adds
each entry's row of products to its output row in index order.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors, fma
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor


class COO:
    """A sparse tensor's indices (int64, sparse_dim x nnz), values (nnz x dense sizes) and
    whether it is known coalesced (sorted, no duplicates)."""

    __slots__ = ("indices", "values", "coalesced")

    def __init__(self, indices: np.ndarray, values: np.ndarray, coalesced: bool):
        self.indices, self.values, self.coalesced = indices, values, coalesced

    @property
    def nnz(self) -> int:
        return self.indices.shape[1]


def _refused(*_, **__):
    raise errors.TorchError("NotImplementedError",
                            "gradcli does not support this operation on sparse tensors yet")


class StandIn(np.ndarray):
    """The `data` of a sparse tensor: its shape and dtype; NumPy computing on it refuses."""

    __array_ufunc__ = _refused
    __array_function__ = _refused
    __getitem__ = __setitem__ = __array__ = __iter__ = _refused
    astype = copy = reshape = view = transpose = ravel = flatten = item = _refused

    def tolist(self):
        raise errors.runtime("Cannot access data pointer of Tensor that doesn't have storage")


def make(indices: np.ndarray, values: np.ndarray, shape: tuple, dtype: dtypes.DType,
         coalesced: bool, requires_grad: bool = False) -> Tensor:
    """A new sparse tensor of `shape` over these indices and values."""
    stand_in = np.broadcast_to(np.zeros((), dtype.np), tuple(shape)).view(StandIn)
    out = Tensor(stand_in, dtype, requires_grad=requires_grad)
    out.sparse = COO(indices, values.astype(dtype.np, copy=False), coalesced)
    out._made_at = STATE.origin
    return out


def linear_index(indices: np.ndarray, shape: tuple) -> np.ndarray:
    """Each entry's position in the sparse dimensions, row-major."""
    return np.ravel_multi_index(tuple(indices), shape[:indices.shape[0]]) if indices.shape[1] \
        else np.zeros(0, np.int64)


def coalesced(coo: COO, shape: tuple) -> COO:
    """The entries sorted by index, duplicates summed in their order (torch's coalesce)."""
    if coo.coalesced:
        return coo
    keys = linear_index(coo.indices, shape)
    unique, inverse = np.unique(keys, return_inverse=True)
    values = np.zeros((len(unique),) + coo.values.shape[1:], coo.values.dtype)
    np.add.at(values, inverse, coo.values)
    sparse_shape = shape[:coo.indices.shape[0]]
    indices = np.array(np.unravel_index(unique, sparse_shape), np.int64).reshape(
        len(sparse_shape), len(unique))
    return COO(indices, values, True)


def dense(coo: COO, shape: tuple, dtype: dtypes.DType) -> np.ndarray:
    """The dense array: zeros with each entry added in turn."""
    out = np.zeros(shape, dtype.np)
    np.add.at(out, tuple(coo.indices), coo.values)
    return out


def from_dense(array: np.ndarray) -> COO:
    """The nonzero elements of a dense array, in row-major order (coalesced)."""
    indices = np.array(np.nonzero(array), np.int64).reshape(array.ndim, -1)
    return COO(indices, array[tuple(indices)], True)


def mm(coo: COO, shape: tuple, other: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """sparse (2-D) @ dense as torch's kernel: per output row, each entry's row of the dense
    matrix added in the entries' order (uncoalesced as they are) by a fused multiply-add (BLAS
    axpy), from `start` (else zeros). Each round takes the next entry of every row at once."""
    rows, cols = coo.indices
    out = np.zeros((shape[0], other.shape[1]), np.result_type(coo.values, other))
    if start is not None:
        out[...] = start
    order = np.argsort(rows, kind="stable")
    rank = np.empty(len(rows), np.int64)  # each entry's place among its row's entries
    rank[order] = np.arange(len(rows)) - np.searchsorted(rows[order], rows[order], side="left")
    for step in range(int(rank.max()) + 1 if len(rank) else 0):
        at = rank == step
        out[rows[at]] = fma.fused(coo.values[at][:, None], other[cols[at]], out[rows[at]])
    return out


def merged(t: COO, src: COO, alpha=1) -> COO:
    """t + alpha * src as torch's add merges two sparse tensors: one walk over both entry lists,
    taking the smaller index first and summing equal ones (coalesced if both were)."""
    t_idx, s_idx = t.indices.T.tolist(), src.indices.T.tolist()
    scaled = src.values * alpha if alpha != 1 else src.values
    picks, i, j = [], 0, 0
    while i < len(t_idx) or j < len(s_idx):
        if i >= len(t_idx):
            order = -1
        elif j >= len(s_idx):
            order = 1
        else:
            a, b = t_idx[i], s_idx[j]
            order = 0 if a == b else (1 if a < b else -1)
        if order == 0:
            picks.append((t_idx[i], t.values[i] + scaled[j]))
            i, j = i + 1, j + 1
        elif order > 0:
            picks.append((t_idx[i], t.values[i]))
            i += 1
        else:
            picks.append((s_idx[j], scaled[j]))
            j += 1
    sparse_dim = t.indices.shape[0]
    indices = np.array([p[0] for p in picks], np.int64).reshape(-1, sparse_dim).T.copy()
    dtype = np.result_type(t.values, scaled)
    values = np.array([p[1] for p in picks], dtype).reshape((len(picks),) + t.values.shape[1:])
    return COO(indices, values, t.coalesced and src.coalesced)


def masked(array: np.ndarray, mask: COO, shape: tuple) -> COO:
    """A dense array's elements at the mask's indices, coalesced (torch's sparse_mask: sorted
    and unique, though marked coalesced only when the mask was)."""
    indices = coalesced(mask, shape).indices
    return COO(indices, array[tuple(indices)], mask.coalesced)
