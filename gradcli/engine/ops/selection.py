"""Selection (select, slice, advanced indexing, index_select, gather, scatter): functions and rows."""

from __future__ import annotations

import numpy as np

from gradcli.engine import autograd, dtypes, errors, layout
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import LINEAR, defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor, require_tensors


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
    into = out.reshape(1) if out.ndim == 0 else out  # a 0-dim self (and source) is one element
    source = source.reshape(1) if out.ndim == 0 else source
    np.add.at(into, _along(into.ndim, dim, index), source if alpha == 1 else source * alpha)
    return out


def _scatter_add(a, src, dim, index):
    out = a.copy()
    scatter_into(out, index, dim, src, np.add)
    return out


def scatter_into(out: np.ndarray, index: np.ndarray, dim: int, src, ufunc=None) -> None:
    """Write `src` (an array or a number) into `out` at `index` along `dim`, or combine with
    `ufunc`, as torch's scatter kernels do: only the index's extent of src is read, and a 0-dim
    `out` is one element."""
    if index.size == 0:
        return
    if index.ndim == 0:  # a 0-dim index is one position (torch's ensure_nonempty_size)
        index = index.reshape(1)
    if out.ndim == 0:
        out, index, dim = out.reshape(1), index.reshape(-1), 0
        src = np.reshape(src, -1) if np.ndim(src) else src
    if np.ndim(src):
        src = src[tuple(slice(0, n) for n in index.shape)]
    if ufunc is None:
        out[scatter_key(index, dim)] = src
    else:
        ufunc.at(out, scatter_key(index, dim), src)


def _gather(a, dim, index):
    """a's values at `index` along `dim`; a 0-dim tensor or index counts as one element."""
    if index.size == 0:
        return np.zeros(index.shape, a.dtype)
    flat = a.reshape(1) if a.ndim == 0 else a
    return flat[scatter_key(index.reshape(1) if index.ndim == 0 else index, dim)].reshape(
        index.shape)


def scatter_key(index, dim):
    """The numpy key that puts index[i][j][k] in place of dim `dim` (torch's scatter/gather)."""
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    return tuple(grid)


def _as_strided_scatter(g, src, index, torch_self_grad=False):
    out = g.copy().reshape(-1)
    out[index.reshape(-1)] = src.reshape(-1)
    return out.reshape(g.shape)


def _scatter_self_grad(g, index, torch_self_grad=False):
    """The gradient of as_strided_scatter's self: g off the scattered places (a view's base
    grad); torch.as_strided_scatter's own backward instead keeps g only on them, zeros elsewhere
    (ATen's as_strided_scatter_backward)."""
    if torch_self_grad:
        return F.apply_op("as_strided_scatter", F.zeros_of(g.shape, g.dtype),
                          F.apply_op("as_strided", g, index=index, sizes=g.shape), index=index)
    return F.apply_op("as_strided_scatter", g, F.zeros_of(index.shape, g.dtype), index=index)


def _as_strided_backward(g, index, sizes):
    """Each element's gradient added at its input place (index -1: outside the input, dropped)."""
    out = np.zeros(int(np.prod(sizes)), dtype=g.dtype)
    keep = index.reshape(-1) >= 0
    np.add.at(out, index.reshape(-1)[keep], g.reshape(-1)[keep])
    return out.reshape(sizes)


def _as_strided(a, index, sizes, geometry=None):
    """Given `geometry` (sizes, element strides, offset from a's first element), a strided view of
    the memory under `a`; else the elements at the flat `index` of `a`, 0 where it is -1 (a copy,
    for gradients and regrown nodes)."""
    if geometry is None:
        return np.where(index >= 0, a.reshape(-1)[index], 0).astype(a.dtype)
    size, stride, offset = geometry
    root = a
    while isinstance(root.base, np.ndarray):
        root = root.base
    flat = root.ravel(order="K")
    start = offset + (a.__array_interface__["data"][0]
                      - flat.__array_interface__["data"][0]) // a.itemsize
    return np.lib.stride_tricks.as_strided(flat[start:], size, tuple(n * a.itemsize for n in stride),
                                           writeable=a.flags.writeable)


defop("select.int", "SelectBackward0", lambda a, dim, index, sizes: a[_along(a.ndim, dim, index)],
      promote="none", view=True,
      vjp=lambda g, a, dim, index, sizes: F.apply_op("select_backward", g, sizes=sizes, dim=dim,
                                                      index=index), jvp=LINEAR)
defop("select_backward", "SelectBackwardBackward0",
      lambda g, sizes, dim, index: _into_zeros(g, sizes, _along(len(sizes), dim, index)),
      promote="none", vjp=lambda g, a, sizes, dim, index: F.select(g, dim, index), jvp=LINEAR)
defop("slice.Tensor", "SliceBackward0",
      lambda a, dim, start, end, step, sizes: a[_along(a.ndim, dim, slice(start, end, step))],
      promote="none", view=True,
      vjp=lambda g, a, dim, start, end, step, sizes: F.apply_op(
          "slice_backward", g, sizes=sizes, dim=dim, start=start, end=end, step=step), jvp=LINEAR)
defop("slice_backward", "SliceBackwardBackward0",
      lambda g, sizes, dim, start, end, step: _into_zeros(
          g, sizes, _along(len(sizes), dim, slice(start, end, step))),
      promote="none", vjp=lambda g, a, sizes, dim, start, end, step: F.slice_dim(
          g, dim, start, end, step), jvp=LINEAR)
defop("index.Tensor", "IndexBackward0",
      lambda a, indices, sizes: layout.index_layout(a[indices], a, indices), promote="none",
      saves_params=True,
      vjp=lambda g, a, indices, sizes: F.apply_op(
          "_index_put_impl_", F.zeros_of(sizes, g.dtype), g, indices=indices, accumulate=True),
      jvp=LINEAR)
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
          "index_add", F.zeros_of(sizes, g.dtype), g, dim=dim, index=index, sizes=g.shape),
      jvp=LINEAR)
defop("index_add", "IndexAddBackward0", _index_add, promote="none", saves_params=True,
      vjp=(lambda g, a, source, dim, index, sizes, alpha=1: g,
           lambda g, a, source, dim, index, sizes, alpha=1: F.maybe_multiply(
               F.expand(F.index_select(g, dim, F.tensor_from(index)), sizes) if sizes else g,
               alpha)), jvp=LINEAR)
def _index_copy(a, source, dim, index):
    out = a.copy()
    target = out.reshape(1) if out.ndim == 0 else out  # a 0-dim tensor as one element
    target[_along(target.ndim, dim, index)] = np.reshape(source, np.shape(
        target[_along(target.ndim, dim, index)]))
    return out


def _index_copy_source_grad(g, source, dim, index):
    picked = F.index_select(g, dim, F.tensor_from(index))
    return F.expand(picked, source.shape) if source.ndim else picked  # summed to () after


defop("index_copy", "IndexCopyBackward0", _index_copy, promote="none", saves_params=True,
      save=(1,),
      vjp=(lambda g, a, source, dim, index: F.index_fill(g, dim, F.tensor_from(index), 0),
           lambda g, a, source, dim, index: _index_copy_source_grad(g, source, dim, index)),
      jvp=LINEAR)
defop("gather", "GatherBackward0",
      lambda a, dim, index, sizes: _gather(a, dim, index), promote="none", saves_params=True,
      vjp=lambda g, a, dim, index, sizes: F.apply_op(
          "scatter_add", F.zeros_of(sizes, g.dtype), g, dim=dim, index=index), jvp=LINEAR)
defop("scatter_add", "ScatterAddBackward0", _scatter_add, promote="none", saves_params=True,
      vjp=(lambda g, a, src, dim, index: g,
           lambda g, a, src, dim, index: F.gather(g, dim, F.tensor_from(index))), jvp=LINEAR)
def _as_strided_vjp(g, a, index, sizes, geometry=None):
    """as_strided_backward; for torch.as_strided read back through an as_strided of its result,
    as torch's ends in one over the storage it scattered into."""
    grad = F.apply_op("as_strided_backward", g, index=index, sizes=sizes)
    if geometry is None:
        return grad
    return F.apply_op("as_strided", grad, index=np.arange(grad.data.size).reshape(sizes),
                      sizes=sizes)


defop("as_strided", "AsStridedBackward0", _as_strided, promote="none", view=True,
      vjp=_as_strided_vjp)
defop("as_strided_backward", "AsStridedBackwardBackward0", _as_strided_backward,
      promote="none", vjp=lambda g, a, index, sizes: F.apply_op(
          "as_strided", g, index=index, sizes=g.shape))
defop("as_strided_scatter", "AsStridedScatterBackward0", _as_strided_scatter, promote="none",
      vjp=(lambda g, a, src, index, torch_self_grad=False: _scatter_self_grad(
          g, index, torch_self_grad),
           lambda g, a, src, index, torch_self_grad=False: F.apply_op(
               "as_strided", g, index=index, sizes=g.shape)))


def _op(key: str, *args, **params):
    return apply(OPS[key], *args, **params)


def alias(a: Tensor) -> Tensor:
    return _op("alias", a)


def select(a: Tensor, dim: int, index: int) -> Tensor:
    if a.sparse is not None:
        return F.sparse_select(a, dim, index)
    return _op("select.int", a, dim=dim, index=index, sizes=a.shape)


def slice_dim(a: Tensor, dim: int, start, end, step) -> Tensor:
    return _op("slice.Tensor", a, dim=dim, start=start, end=end, step=step, sizes=a.shape)


def index(a: Tensor, key: tuple) -> Tensor:
    """a[key] for a checked numpy key holding integer or bool arrays (IndexBackward0)."""
    return _op("index.Tensor", a, indices=key, sizes=a.shape)


def check_index_put_value(values: Tensor, result_shape: tuple, dtype=None) -> None:
    """index_put's checks of the value: its shape against the indexing result's, then (when
    given) the destination's dtype."""
    try:
        np.broadcast_to(np.empty(values.shape, dtype=bool), result_shape)
    except ValueError:
        raise errors.runtime(f"shape mismatch: value tensor of shape {F.size_list(values.shape)} "
                             f"cannot be broadcast to indexing result of shape "
                             f"{F.size_list(result_shape)}") from None
    if dtype is not None and values.dtype is not dtype:
        raise errors.runtime(
            "Index put requires the source and destination dtypes match, got "
            f"{dtype.scalar_name} for the destination and {values.dtype.scalar_name} for the "
            "source.")


def index_put(a: Tensor, key: tuple, values: Tensor, accumulate: bool = False) -> Tensor:
    """a with a[key] = values (or += with `accumulate`), out of place; in-place setitem computes
    through it. `key` is a numpy key of integer or bool arrays."""
    F.check_masks(a, key)
    positions = tuple(np.zeros_like(k) if _is_positions(k) else k for k in key)
    check_index_put_value(values, np.empty(a.shape, dtype=bool)[positions].shape)
    _check_bounds(a, key)
    if not key:  # torch's kernel reads the missing first index
        raise errors.runtime("sym_strides() called on an undefined Tensor")
    return _op("index_put", a, values, indices=key, accumulate=bool(accumulate))


def _is_positions(k) -> bool:
    return isinstance(k, np.ndarray) and k.dtype != bool


def _check_bounds(a: Tensor, key: tuple) -> None:
    """index_put's kernel's check of each position against its dimension's size (a mask spans
    as many dimensions as it has)."""
    dim = 0
    for k in key:
        if _is_positions(k):
            size = a.shape[dim]
            bad = k[(k >= size) | (k < -size)]
            if bad.size:
                raise errors.index_error(f"index {bad.flat[0]} is out of bounds for dimension "
                                         f"{dim} with size {size}")
        dim += k.ndim if isinstance(k, np.ndarray) and k.dtype == bool else 1


def index_put_key(indices) -> tuple:
    """The numpy key for Tensor.index_put's tuple of index tensors."""
    if not isinstance(indices, (tuple, list)):
        raise errors.type_error(f"index_put(): argument 'indices' (position 1) must be tuple of "
                                f"Tensors, not {errors.type_name(indices)}")
    require_tensors(indices, allow_none=True)
    return tuple(F.advanced_array(i) for i in indices)


def check_long_index(name: str, index: Tensor) -> None:
    """take's, put_'s and index_copy_'s check of their index's dtype."""
    if index.dtype is not dtypes.int64:
        raise errors.runtime(f"{name}(): Expected a long tensor for index, but got "
                             f"{index.dtype.scalar_name}")


def check_index_vector(name: str, index: Tensor) -> None:
    """index_add_'s and index_reduce_'s checks of their index: a vector of int32 or int64."""
    if index.ndim > 1:
        raise errors.index_error(
            f"{name}(): Index is supposed to be a vector, but got dim: {index.ndim} with type: "
            f"{index.dtype.scalar_name} and size: {list(index.shape)}")
    if index.dtype.name not in ("int64", "int32"):
        raise errors.runtime(f"{name}(): Expected dtype int32/int64 for index but got: "
                             f"{index.dtype.scalar_name}")


def check_index_source(name: str, a: Tensor, d: int, index: Tensor, source: Tensor) -> None:
    """index_add_'s and index_reduce_'s meta checks (index_func_meta_impl), in their order."""
    check_index_vector(name, index)
    if a.dtype is not source.dtype:
        raise errors.runtime(f"{name}(): self ({a.dtype.scalar_name}) and source "
                             f"({source.dtype.scalar_name}) must have the same scalar type")
    if d != 0 and d >= source.ndim:
        raise errors.runtime(f"{name}(): Indexing dim {d} is out of bounds of the source tensor "
                             f"with dim {source.ndim}")
    count = source.shape[d] if source.ndim else 1
    if index.numel() != count:
        raise errors.runtime(f"{name}(): Number of indices ({index.numel()}) should be equal to "
                             f"source.size(dim): ({count}), for dim: {d}")
    kept, source_kept = list(a.shape), list(source.shape)
    if a.ndim and source.ndim:
        del kept[d], source_kept[d]
    if kept != source_kept:
        raise errors.runtime(f"source tensor shape must match self tensor shape, excluding the "
                             f"specified dimension. Got self.shape = {list(a.shape)} "
                             f"source.shape = {list(source.shape)}")


def index_add(a: Tensor, dim: int, index: Tensor, source: Tensor, alpha=1) -> Tensor:
    d = F.wrap_dim(dim, a.ndim)
    check_index_source("index_add_", a, d, index, source)
    positions = index.data.reshape(-1).astype(np.int64)
    _check_positions(positions, a.shape[d] if a.ndim else 1, d)
    params = {"alpha": alpha} if alpha != 1 else {}
    return autograd.save_also(_op("index_add", a, source, dim=d, index=positions,
                                  sizes=source.shape, **params), index)


def scatter_add(a: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    d = F.wrap_dim(dim, a.ndim)
    scatter_checks(a, d, index, src)
    result = _op("scatter_add", a, src, dim=d, index=scatter_positions(a, d, index))
    return autograd.save_also(result, index)


def index_copy(a: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """index_copy's meta checks in ATen's order, then the copy (the last of repeated indices
    wins)."""
    d = F.wrap_dim(dim, a.ndim)
    if index.ndim >= 2:
        raise errors.index_error(f"index_copy_(): Index should have dimension 1 or 0 (got "
                                 f"{index.ndim})")
    count = index.numel()
    if source.ndim == 0 and count != 1:
        raise errors.index_error(f"index_copy_(): When source is scalar, index should have one "
                                 f"element (got {count})")
    if source.ndim != a.ndim and source.ndim and a.ndim:
        raise errors.index_error(
            f"index_copy_(): When source and destination are not scalars, their dimensionality "
            f"must match. Source dimensionality ({source.ndim}), destination dimensionality "
            f"({a.ndim})")
    check_long_index("index_copy_", index)
    if a.dtype is not source.dtype:
        raise errors.runtime(f"index_copy_(): self and source expected to have the same dtype, "
                             f"but got (self) {a.dtype.scalar_name} and (source) "
                             f"{source.dtype.scalar_name}")
    kept = [n for k, n in enumerate(a.shape) if k != d]
    source_kept = [n for k, n in enumerate(source.shape) if k != d]
    if kept != source_kept:
        raise errors.runtime(
            f"index_copy_(): Source/destination tensor must have same slice shapes. Destination "
            f"slice shape: {' '.join(map(str, kept))} at dimension {d} and source slice shape: "
            f"{' '.join(map(str, source_kept))} at dimension 0.")
    if source.ndim and count != source.shape[d]:
        raise errors.index_error(f"index_copy_(): Number of indices ({count}) should be equal "
                                 f"to source.size(dim) ({source.shape[d]})")
    positions = index.data.reshape(-1).astype(np.int64)
    size = _nonempty(a.shape, d)
    bad = positions[(positions >= size) | (positions < 0)]
    if bad.size:
        raise errors.index_error(f"index_copy_(): index {bad[0]} is out of bounds for dimension "
                                 f"{d} with size {size}")
    return autograd.save_also(_op("index_copy", a, source, dim=d, index=positions), index)


def _nonempty(shape: tuple, d: int) -> int:
    return shape[d] if shape else 1


def scatter_checks(a: Tensor, d: int, index: Tensor, src: Tensor | None) -> None:
    """ATen's scatter_gather_dtype_check and scatter_shape_check, in their order: the sizes
    against self, then against src (reading a size src may lack), then src's rank, and only
    then the size error."""
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise errors.runtime("scatter(): Expected dtype int32/int64 for index")
    if src is not None and src.dtype is not a.dtype:
        raise errors.runtime("scatter(): Expected self.dtype to be equal to src.dtype")
    if index.data.size == 0:
        return
    if max(a.ndim, 1) != max(index.ndim, 1):
        raise errors.runtime("Index tensor must have the same number of dimensions as self tensor")
    wrong = any(k != d and _nonempty(index.shape, k) > _nonempty(a.shape, k)
                for k in range(max(a.ndim, 1)))
    if src is None:
        if wrong:
            raise errors.runtime(f"Expected index {F.size_list(index.shape)} to be no larger than "
                                 f"self {F.size_list(a.shape)} apart from dimension {d}")
        return
    if not wrong:
        for k in range(max(a.ndim, 1)):
            if src.ndim and k >= src.ndim:
                raise errors.index_error(f"Dimension out of range (expected to be in range of "
                                         f"[{-src.ndim}, {src.ndim - 1}], but got {k})")
            wrong = wrong or _nonempty(index.shape, k) > _nonempty(src.shape, k)
    if max(src.ndim, 1) != max(index.ndim, 1):
        raise errors.runtime("Index tensor must have the same number of dimensions as src tensor")
    if wrong:
        raise errors.runtime(f"Expected index {F.size_list(index.shape)} to be no larger than self "
                             f"{F.size_list(a.shape)} apart from dimension {d} and to be no larger "
                             f"size than src {F.size_list(src.shape)}")


def scatter_positions(a: Tensor, d: int, index: Tensor) -> np.ndarray:
    """The checked int64 positions of a scatter (the kernel's bounds check)."""
    positions = index.data.astype(np.int64)
    _check_positions(positions, _nonempty(a.shape, d), d)
    return positions


def _check_positions(positions: np.ndarray, size: int, dim: int) -> None:
    bad = positions[(positions >= size) | (positions < 0)]
    if bad.size:
        raise errors.runtime(f"index {bad.flat[0]} is out of bounds for dimension {dim} with size "
                             f"{size}")


def _index_array(index: Tensor, what: str) -> np.ndarray:
    if index.dtype.name not in ("int64", "int32"):
        raise errors.runtime(f"{what}(): Expected dtype int32 or int64 for index")
    return index.data.astype(np.int64)


def index_select(a: Tensor, dim: int, index: Tensor) -> Tensor:
    d = F.wrap_dim(dim, a.ndim)
    if index.ndim > 1:
        raise errors.index_error("index_select(): Index is supposed to be a vector")
    positions = _index_array(index, "index_select").reshape(-1)
    size = a.shape[d] if a.ndim else 1
    bad = positions[(positions >= size) | (positions < 0)]
    if bad.size and d == 1 and a.ndim > 1:  # torch's CPU kernel for dim 1 words it differently
        raise errors.runtime(f"INDICES element is out of DATA bounds, id={bad[0]} axis_dim={size}")
    if bad.size:
        raise errors.index_error("index out of range in self")
    result = _op("index_select", a, dim=d, index=positions, sizes=a.shape)
    return autograd.save_also(result, index)


def gather(a: Tensor, dim: int, index: Tensor, sparse_grad: bool = False) -> Tensor:
    d = F.wrap_dim(dim, a.ndim)
    if index.dtype.name not in ("int64", "int32"):
        raise errors.runtime("gather(): Expected dtype int32/int64 for index")
    positions = index.data.astype(np.int64)
    if index.data.size == 0:  # torch checks the shapes only of a non-empty index
        result = _op("gather", a, dim=d, index=positions, sizes=a.shape)
        return autograd.save_also(result, index)
    if max(index.ndim, 1) != max(a.ndim, 1):
        raise errors.runtime("Index tensor must have the same number of dimensions as input "
                             "tensor")
    for k in range(a.ndim):
        if k != d and _nonempty(index.shape, k) > a.shape[k]:
            raise errors.runtime(
                f"Size does not match at dimension {k} expected index {F.size_list(index.shape)} to "
                f"be no larger than self {F.size_list(a.shape)} apart from dimension {d}")
    _check_positions(positions, a.shape[d] if a.ndim else 1, d)
    result = _op("gather", a, dim=d, index=positions, sizes=a.shape)
    return autograd.save_also(result, index)


def as_strided(a: Tensor, size, stride, storage_offset=None) -> Tensor:
    """torch.as_strided: a view of `a`'s storage with the given sizes, strides and offset."""
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise errors.runtime("mismatch in length of strides and shape")
    if any(n < 0 for n in stride):
        raise errors.runtime("as_strided: Negative strides are not supported at the moment, got "
                             f"strides: {list(stride)}")
    own_offset = F.storage_offset(a)
    offset = own_offset if storage_offset is None else storage_offset
    if offset < 0:
        raise errors.runtime(f"Tensor: invalid storage offset {offset}")
    if any(n < 0 for n in size):
        raise errors.runtime(f"Storage size calculation overflowed with sizes={list(size)} and "
                             f"strides={list(stride)}")
    owner = a if a._base is None else a._base
    needed = 0 if 0 in size else offset + 1 + sum((n - 1) * st for n, st in zip(size, stride))
    if needed > owner.data.size:
        item = a.data.itemsize
        raise errors.runtime(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, "
            f"and itemsize {item} requiring a storage size of {needed * item} are out of bounds "
            f"for storage of size {owner.data.size * item}")
    geometry = (size, stride, offset - own_offset)
    if 0 in size:
        return _op("as_strided", a, index=np.zeros(size, np.int64), sizes=a.shape)
    if not (STATE.grad_enabled and a.requires_grad):  # the index serves the backward only
        return _op("as_strided", a, index=None, sizes=a.shape, geometry=geometry)
    places = np.empty_like(owner.data, dtype=np.int64)
    places[...] = -1
    mine = places if a._base is None else a._view_fn(places)
    mine[...] = np.arange(a.data.size).reshape(a.shape)
    index = np.array(_as_strided(mine, None, None, geometry))
    return _op("as_strided", a, index=index, sizes=a.shape, geometry=geometry)


def take_along_dim(a: Tensor, indices: Tensor, dim=None) -> Tensor:
    """ATen's take_along_dim: both broadcast to each other but along `dim`, then a gather (or
    a gather from the flattened input without a dim)."""
    if dim is None:
        return gather(F.view(a, (-1,)), 0, F.view(indices, (-1,)))
    if a.ndim != indices.ndim:
        raise errors.runtime(
            f"torch.take_along_dim(): input and indices should have the same number of "
            f"dimensions, but got {a.ndim} dimensions for input, and {indices.ndim} dimensions "
            f"for indices")
    if indices.dtype is not dtypes.int64:
        raise errors.runtime(f"torch.take_along_dim(): dtype of indices should be Long but got "
                             f"{indices.dtype.scalar_name}")
    d = F.wrap_dim(dim, a.ndim)
    index_shape = indices.shape
    indices = F.broadcast_to(indices, F.broadcast_shape(
        a.shape[:d] + index_shape[d:d + 1] + a.shape[d + 1:], index_shape))
    a = F.broadcast_to(a, F.broadcast_shape(
        index_shape[:d] + a.shape[d:d + 1] + index_shape[d + 1:], a.shape))
    return gather(a, d, indices)


declare("as_strided", as_strided, "as_strided(Tensor self, int[] size, int[] stride, "
        "int? storage_offset=None)")
declare("take_along_dim", take_along_dim,
        "take_along_dim(Tensor self, Tensor indices, int? dim=None, *, Tensor? out=None)")
declare("index_select", index_select,
        "index_select(Tensor self, int dim, Tensor index, *, Tensor? out=None)")
declare("gather", gather,
        "gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor? out=None)")
declare("index_add", index_add, "index_add(Tensor self, int dim, Tensor index, Tensor source, *, "
        "Scalar alpha=1, Tensor? out=None)")
declare("index_copy", index_copy,
        "index_copy(Tensor self, int dim, Tensor index, Tensor source, *, Tensor? out=None)")
declare("scatter_add", scatter_add,
        "scatter_add(Tensor self, int dim, Tensor index, Tensor src, *, Tensor? out=None)")


# Imported last, as in shapes.py: the op rows and shapes.py import this module while they load.
from gradcli.engine.ops.registry import OPS, apply  # noqa: E402


export(__name__, globals())
