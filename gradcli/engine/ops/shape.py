"""Shape and indexing op rows: views (expand, unsqueeze, select, slice, view) and their backwards."""

from __future__ import annotations

import numpy as np

from gradcli.engine import functional as F
from gradcli.engine.ops.registry import defop


def _select(a, dim, index, **_):
    key = [slice(None)] * a.ndim
    key[dim] = index
    return a[tuple(key)]


def _slice(a, dim, start, end, step, **_):
    key = [slice(None)] * a.ndim
    key[dim] = slice(start, end, step)
    return a[tuple(key)]


def _scatter_into_zeros(g, sizes, key_of):
    out = np.zeros(sizes, dtype=g.dtype)
    out[key_of(len(sizes))] = g
    return out


def _select_backward(g, sizes, dim, index):
    def key(ndim):
        k = [slice(None)] * ndim
        k[dim] = index
        return tuple(k)
    return _scatter_into_zeros(g, sizes, key)


def _slice_backward(g, sizes, dim, start, end, step):
    def key(ndim):
        k = [slice(None)] * ndim
        k[dim] = slice(start, end, step)
        return tuple(k)
    return _scatter_into_zeros(g, sizes, key)


def _index_backward(g, sizes, indices):
    out = np.zeros(sizes, dtype=g.dtype)
    np.add.at(out, indices, g)
    return out


defop("expand", "ExpandBackward0", lambda a, size, sizes: np.broadcast_to(a, size), promote="none",
      view=True, vjp=lambda g, a, size, sizes: F.sum_to(g, sizes))
defop("unsqueeze", "UnsqueezeBackward0", lambda a, dim: np.expand_dims(a, dim), promote="none",
      view=True, vjp=lambda g, a, dim: F.squeeze(g, dim))
defop("squeeze.dim", "SqueezeBackward1",
      lambda a, dim, sizes: np.squeeze(a, dim) if a.shape[dim] == 1 else a, promote="none",
      view=True, vjp=lambda g, a, dim, sizes: F.reshape(g, sizes))
defop("view", "ViewBackward0", lambda a, shape, sizes: a.reshape(shape), promote="none", view=True,
      vjp=lambda g, a, shape, sizes: F.reshape(g, sizes))
defop("select.int", "SelectBackward0", _select, promote="none", view=True,
      vjp=lambda g, a, dim, index, sizes: F.apply_op("select_backward", g, sizes=sizes, dim=dim,
                                                      index=index))
defop("select_backward", "SelectBackwardBackward0", _select_backward, promote="none",
      vjp=lambda g, a, sizes, dim, index: F.select(g, dim, index))
defop("slice.Tensor", "SliceBackward0", _slice, promote="none", view=True,
      vjp=lambda g, a, dim, start, end, step, sizes: F.apply_op(
          "slice_backward", g, sizes=sizes, dim=dim, start=start, end=end, step=step))
defop("slice_backward", "SliceBackwardBackward0", _slice_backward, promote="none",
      vjp=lambda g, a, sizes, dim, start, end, step: F.slice_dim(g, dim, start, end, step))
defop("index.Tensor", "IndexBackward0", lambda a, indices, sizes: a[indices], promote="none",
      vjp=lambda g, a, indices, sizes: F.apply_op("index_backward", g, sizes=sizes, indices=indices))
defop("index_backward", "IndexPutBackward0", _index_backward, promote="none",
      vjp=lambda g, a, sizes, indices: F.apply_op("index.Tensor", g, indices=indices,
                                                   sizes=sizes))
defop("_to_copy", "ToCopyBackward0", lambda a, dtype: a.astype(dtype.np), promote="none",
      out_dtype=lambda dtype, params: params["dtype"],
      vjp=lambda g, a, dtype: g)
defop("clone", "CloneBackward0", np.copy, promote="none", vjp=lambda g, a: g)
defop("alias", "AliasBackward0", lambda a: a.view(), promote="none", view=True, vjp=lambda g, a: g)
