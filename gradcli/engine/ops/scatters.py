"""The out-of-place scatters into a view of a copy: slice_scatter, select_scatter,
diagonal_scatter and as_strided_scatter (src written where self's slice, selection, diagonal or
strided view lies)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import LINEAR, apply, defop, OPS
from gradcli.engine.tensor import Tensor


def _key(ndim: int, dim: int, item) -> tuple:
    key = [slice(None)] * ndim
    key[dim] = item
    return tuple(key)


def _written(a, src, key):
    out = a.copy()
    out[key] = src
    return out


def _diagonal_key(shape, offset: int, dim1: int, dim2: int):
    """(moved axes, rows, cols): the diagonal's places once dim1 and dim2 are moved last."""
    rows, cols = shape[dim1], shape[dim2]
    n = max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols))
    steps = np.arange(n)
    return (steps, steps + offset) if offset >= 0 else (steps - offset, steps)


def _diagonal_written(a, src, offset, dim1, dim2):
    out = a.copy()
    moved = np.moveaxis(out, (dim1, dim2), (-2, -1))
    rows, cols = _diagonal_key(a.shape, offset, dim1, dim2)
    moved[..., rows, cols] = src
    return out


def _zeros(g: Tensor, sizes) -> Tensor:
    return Tensor(np.zeros(sizes, dtype=g.dtype.np), g.dtype)


defop("slice_scatter", "SliceScatterBackward0",
      lambda a, src, dim, start, end, step, src_sizes: _written(
          a, src, _key(a.ndim, dim, slice(start, end, step))),
      promote="none", jvp=LINEAR,
      vjp=(lambda g, a, src, dim, start, end, step, src_sizes: F.slice_scatter(
          g, _zeros(g, src_sizes), dim, start, end, step),
           lambda g, a, src, dim, start, end, step, src_sizes: F.slice_dim(
               g, dim, start, end, step)))
defop("select_scatter", "SelectScatterBackward0",
      lambda a, src, dim, index, src_sizes: _written(a, src, _key(a.ndim, dim, index)),
      promote="none", jvp=LINEAR,
      vjp=(lambda g, a, src, dim, index, src_sizes: F.select_scatter(
          g, _zeros(g, src_sizes), dim, index),
           lambda g, a, src, dim, index, src_sizes: F.select(g, dim, index)))
defop("diagonal_scatter", "DiagonalScatterBackward0",
      lambda a, src, offset, dim1, dim2, src_sizes: _diagonal_written(a, src, offset, dim1, dim2),
      promote="none", jvp=LINEAR,
      vjp=(lambda g, a, src, offset, dim1, dim2, src_sizes: F.diagonal_scatter(
          g, _zeros(g, src_sizes), offset, dim1, dim2),
           lambda g, a, src, offset, dim1, dim2, src_sizes: F.diagonal(g, offset, dim1, dim2)))


def _check_src(view: Tensor, src: Tensor) -> None:
    if tuple(view.shape) != tuple(src.shape):
        raise errors.runtime("expected src to have a size equal to the slice of self. src size = "
                             f"{F.size_list(src.shape)}, slice size = {F.size_list(view.shape)}")


def _bound(value, size: int, default: int) -> int:
    value = default if value is None else value
    value = value + size if value < 0 else value
    return min(max(value, 0), size)


def slice_scatter(a: Tensor, src: Tensor, dim: int = 0, start=None, end=None,
                  step: int = 1) -> Tensor:
    d = F.wrap_dim(dim, a.ndim)
    if step <= 0:
        raise errors.runtime("slice step must be positive")
    size = a.shape[d]
    start = _bound(start, size, 0)
    end = max(_bound(end, size, size), start)
    _check_src(F.slice_dim(F.detach(a), d, start, end, step), src)
    return apply(OPS["slice_scatter"], a, src, dim=d, start=start, end=end, step=step,
                 src_sizes=tuple(src.shape))


def select_scatter(a: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    _check_src(F.select_index(F.detach(a), dim, index), src)
    d = F.wrap_dim(dim, a.ndim)
    index = index + a.shape[d] if index < 0 else index
    return apply(OPS["select_scatter"], a, src, dim=d, index=index, src_sizes=tuple(src.shape))


def diagonal_scatter(a: Tensor, src: Tensor, offset: int = 0, dim1: int = 0,
                     dim2: int = 1) -> Tensor:
    _check_src(F.diagonal(F.detach(a), offset, dim1, dim2), src)
    d1, d2 = F.wrap_dim(dim1, a.ndim), F.wrap_dim(dim2, a.ndim)
    return apply(OPS["diagonal_scatter"], a, src, offset=offset, dim1=d1, dim2=d2,
                 src_sizes=tuple(src.shape))


def as_strided_scatter(a: Tensor, src: Tensor, size, stride, storage_offset=None) -> Tensor:
    """torch.as_strided_scatter: a contiguous copy of `a` with src written over the places
    as_strided(size, stride, storage_offset) of that copy views (as_strided's checks first)."""
    a = F.contiguous(a)
    _check_src(F.as_strided(F.detach(a), size, stride, storage_offset), src)
    offset = 0 if storage_offset is None else storage_offset
    places = np.full(tuple(size), offset, dtype=np.int64)
    for axis, step in enumerate(stride):
        shape = [1] * len(size)
        shape[axis] = size[axis]
        places = places + (np.arange(size[axis]) * step).reshape(shape)
    return apply(OPS["as_strided_scatter"], a, src, index=places, torch_self_grad=True)


__all__ = ["slice_scatter", "select_scatter", "diagonal_scatter", "as_strided_scatter"]

declare("slice_scatter", slice_scatter,
        "slice_scatter(Tensor self, Tensor src, int dim=0, int? start=None, int? end=None, "
        "int step=1, *, Tensor? out=None)")
declare("select_scatter", select_scatter,
        "select_scatter(Tensor self, Tensor src, int dim, int index, *, Tensor? out=None)")
declare("diagonal_scatter", diagonal_scatter,
        "diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1, *, "
        "Tensor? out=None)")

declare("as_strided_scatter", as_strided_scatter,
        "as_strided_scatter(Tensor self, Tensor src, int[] size, int[] stride, "
        "int? storage_offset=None, *, Tensor? out=None)")

export(__name__, globals())
