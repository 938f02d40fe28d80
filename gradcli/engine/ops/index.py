"""Indexing op rows: select, slice, advanced indexing, index_select, gather and their backwards."""

from __future__ import annotations

import numpy as np

from gradcli.engine import functional as F, selection, shapes as S
from gradcli.engine.ops.registry import defop


def _along(ndim: int, dim: int, item) -> tuple:
    """The numpy key for `item` at `dim`; the trailing Ellipsis keeps even a 0-dim result a view."""
    key = [slice(None)] * ndim
    key[dim] = item
    return (*key, Ellipsis)


def _into_zeros(g, sizes, key):
    out = np.zeros(sizes, dtype=g.dtype)
    out[key] = g
    return out


def _index_put(a, values, indices, accumulate):
    out = a.copy()
    if accumulate:
        np.add.at(out, indices, values)
    else:
        out[indices] = values
    return out


def _index_add(a, source, dim, index, sizes, alpha=1):
    out = a.copy()
    np.add.at(out, _along(a.ndim, dim, index), source if alpha == 1 else source * alpha)
    return out


def _scatter_add(a, src, dim, index):
    out = a.copy()
    np.add.at(out, _scatter_key(index, dim), src[tuple(slice(0, n) for n in index.shape)])
    return out


def _scatter_key(index, dim):
    """The numpy key that puts index[i][j][k] in place of dim `dim` (torch's scatter/gather)."""
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    return tuple(grid)


def _as_strided_scatter(g, src, index):
    out = g.copy().reshape(-1)
    out[index.reshape(-1)] = src.reshape(-1)
    return out.reshape(g.shape)


def _as_strided_backward(g, index, sizes):
    out = np.zeros(int(np.prod(sizes)), dtype=g.dtype)
    np.add.at(out, index.reshape(-1), g.reshape(-1))
    return out.reshape(sizes)


defop("select.int", "SelectBackward0", lambda a, dim, index, sizes: a[_along(a.ndim, dim, index)],
      promote="none", view=True,
      vjp=lambda g, a, dim, index, sizes: F.apply_op("select_backward", g, sizes=sizes, dim=dim,
                                                      index=index))
defop("select_backward", "SelectBackwardBackward0",
      lambda g, sizes, dim, index: _into_zeros(g, sizes, _along(len(sizes), dim, index)),
      promote="none", vjp=lambda g, a, sizes, dim, index: selection.select(g, dim, index))
defop("slice.Tensor", "SliceBackward0",
      lambda a, dim, start, end, step, sizes: a[_along(a.ndim, dim, slice(start, end, step))],
      promote="none", view=True,
      vjp=lambda g, a, dim, start, end, step, sizes: F.apply_op(
          "slice_backward", g, sizes=sizes, dim=dim, start=start, end=end, step=step))
defop("slice_backward", "SliceBackwardBackward0",
      lambda g, sizes, dim, start, end, step: _into_zeros(
          g, sizes, _along(len(sizes), dim, slice(start, end, step))),
      promote="none", vjp=lambda g, a, sizes, dim, start, end, step: selection.slice_dim(
          g, dim, start, end, step))
defop("index.Tensor", "IndexBackward0", lambda a, indices, sizes: a[indices], promote="none",
      saves_params=True,
      vjp=lambda g, a, indices, sizes: F.apply_op(
          "_index_put_impl_", F.zeros_of(sizes, g.dtype), g, indices=indices, accumulate=True))
defop("_index_put_impl_", "IndexPutImplBackward0", _index_put, promote="none", saves_params=True,
      vjp=(lambda g, a, values, indices, accumulate: g if accumulate else F.apply_op(
          "_index_put_impl_", g, F.zeros_of((), g.dtype), indices=indices, accumulate=False),
           lambda g, a, values, indices, accumulate: F.apply_op(
               "index.Tensor", g, indices=indices, sizes=g.shape)))
defop("index_put", "IndexPutBackward0", _index_put, promote="none", saves_params=True,
      vjp=(lambda g, a, values, indices, accumulate: g if accumulate else F.apply_op(
          "index_put", g, F.zeros_of((), g.dtype), indices=indices, accumulate=False),
           lambda g, a, values, indices, accumulate: F.apply_op(
               "index.Tensor", g, indices=indices, sizes=g.shape)))
defop("index_select", "IndexSelectBackward0",
      lambda a, dim, index, sizes: np.take(a, index, axis=dim), promote="none", saves_params=True,
      vjp=lambda g, a, dim, index, sizes: F.apply_op(
          "index_add", F.zeros_of(sizes, g.dtype), g, dim=dim, index=index, sizes=g.shape))
defop("index_add", "IndexAddBackward0", _index_add, promote="none", saves_params=True,
      vjp=(lambda g, a, source, dim, index, sizes, alpha=1: g,
           lambda g, a, source, dim, index, sizes, alpha=1: F.maybe_multiply(
               S.expand(selection.index_select(g, dim, F.tensor_from(index)), sizes), alpha)))
defop("gather", "GatherBackward0",
      lambda a, dim, index, sizes: a[_scatter_key(index, dim)], promote="none", saves_params=True,
      vjp=lambda g, a, dim, index, sizes: F.apply_op(
          "scatter_add", F.zeros_of(sizes, g.dtype), g, dim=dim, index=index))
defop("scatter_add", "ScatterAddBackward0", _scatter_add, promote="none", saves_params=True,
      vjp=(lambda g, a, src, dim, index: g,
           lambda g, a, src, dim, index: selection.gather(g, dim, F.tensor_from(index))))
defop("as_strided", "AsStridedBackward0", lambda a, index, sizes: a.reshape(-1)[index],
      promote="none", vjp=lambda g, a, index, sizes: F.apply_op(
          "as_strided_backward", g, index=index, sizes=sizes))
defop("as_strided_backward", "AsStridedBackwardBackward0", _as_strided_backward,
      promote="none", vjp=lambda g, a, index, sizes: F.apply_op(
          "as_strided", g, index=index, sizes=g.shape))
defop("as_strided_scatter", "AsStridedScatterBackward0", _as_strided_scatter, promote="none",
      vjp=(lambda g, a, src, index: F.apply_op(
          "as_strided_scatter", g, F.zeros_of(index.shape, g.dtype), index=index),
           lambda g, a, src, index: F.apply_op("as_strided", g, index=index, sizes=g.shape)))
