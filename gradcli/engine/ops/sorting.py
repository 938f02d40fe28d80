"""Sorting and selection by value (sort, topk, kthvalue, median, mode), unique values and
counting (unique, searchsorted, bucketize, bincount, nonzero, histc): functions and rows.

Where torch's CPU kernel uses an unstable C++ algorithm (sort, topk, kthvalue, median, mode), the
same algorithm runs here, so that ties give torch's indices.
"""

from __future__ import annotations


import numpy as np

from gradcli.engine import dtypes, errors, stl_algorithms as stl, vmap_batched
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.layout import c_ordered
from gradcli.engine.ops.registry import (OPS, RESULT, apply, defop, no_derivative, not_implemented,
                                         refusal_of_complex)
from gradcli.engine.tensor import Tensor

_INT64 = (lambda dtype, params: (dtype, dtypes.int64))


def _select_forward(a, indices, dim, keepdim=True, sizes=()):
    return F.values_at_indices(a, indices, dim, keepdim, sizes)


def _select_backward(g, a, indices, dim, keepdim=True, sizes=()):
    return F.value_selecting_backward(g, a, indices, dim, keepdim, sizes)


def _select_jvp(t, a, indices, dim, keepdim=True, sizes=(), out=None):
    return F.gather_with_keepdimed_indices(t[0], indices, dim, keepdim)


for _key, _label in (("sort", "SortBackward0"), ("sort.stable", "SortBackward1"),
                     ("topk", "TopkBackward0"), ("kthvalue", "KthvalueBackward0"),
                     ("median.dim", "MedianBackward1"), ("nanmedian.dim", "NanmedianBackward1"),
                     ("mode", "ModeBackward0")):
    defop(_key, _label, _select_forward, promote="none", n_outputs=2, out_dtype=_INT64,
          save=(1,), vjp=(_select_backward, None), jvp=_select_jvp)


def _median_all(a):
    flat = np.sort(a.reshape(-1))  # NaNs last: a NaN anywhere makes the median NaN
    if flat.size == 0:
        return np.array(np.nan, dtype=a.dtype)
    if flat.dtype.kind == "f" and np.isnan(flat[-1]):
        return np.array(np.nan, dtype=a.dtype)
    return flat[(flat.size - 1) // 2].copy()


defop("median", "MedianBackward0", _median_all, promote="none", save=(0, RESULT),
      vjp=lambda g, a, out: F.evenly_distribute_backward(g, a, out),
      jvp=(lambda t, a, out: F.evenly_read_jvp(t, a, out),),
      refuses=("median_cpu", (dtypes.BOOL,)))


def _nanmedian_all(a):
    """median_impl with ignore_nan: the lower median of the non-NaN values (NaN if none)."""
    flat = np.sort(a.reshape(-1))
    if flat.size == 0:
        return np.array(np.nan, dtype=a.dtype)
    counted = flat.size - (int(np.isnan(flat).sum()) if flat.dtype.kind == "f" else 0)
    return flat[max(counted - 1, 0) // 2].copy()


defop("nanmedian", "NanmedianBackward0", _nanmedian_all, promote="none", save=(0, RESULT),
      vjp=lambda g, a, out: F.evenly_distribute_backward(g, a, out),
      jvp=(lambda t, a, out: F.evenly_read_jvp(t, a, out),),
      refuses=("median_cpu", (dtypes.BOOL,)))


for _key, _label in (("_unique2", "Unique2Backward0"), ("unique_dim", "UniqueDimBackward0"),
                     ("unique_consecutive", "UniqueConsecutiveBackward0")):
    defop(_key, _label, lambda a, values: values, promote="none",
          vjp=no_derivative(_key.split(".")[0]))


# ---- rows along one dim, by the algorithms torch's kernels use ----------------------------------

def _rows(array: np.ndarray, dim: int) -> np.ndarray:
    """`array` with `dim` moved last, as a 2-D array of rows (one row for a 0-dim array)."""
    if array.ndim == 0:
        return array.reshape(1, 1)
    moved = np.moveaxis(array, dim, -1)
    return moved.reshape(-1, moved.shape[-1]) if moved.shape[-1] else moved.reshape(-1, 0)


def _unrows(rows: np.ndarray, like: np.ndarray, dim: int, width: int) -> np.ndarray:
    """Rows back into `like`'s shape with `dim` of size `width` (keepdim shape)."""
    if like.ndim == 0:
        return rows.reshape(())
    moved = np.moveaxis(like, dim, -1).shape[:-1] + (width,)
    return np.moveaxis(rows.reshape(moved), -1, dim)


def _isnan(v) -> bool:
    return v != v


def _greater(x, y) -> bool:  # NaN is the greatest, as in torch's comparators
    return (_isnan(x) and not _isnan(y)) or x > y


def _less(x, y) -> bool:
    return (not _isnan(x) and _isnan(y)) or x < y


def sort_indices(array: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    """torch's CPU sort order: stable, NaN greatest."""
    if array.ndim == 0:
        return np.zeros((), dtype=np.int64)
    moved = np.moveaxis(array, dim, -1)
    if descending:
        reverse = np.argsort(moved[..., ::-1], axis=-1, kind="stable")[..., ::-1]
        order = moved.shape[-1] - 1 - reverse
    else:
        order = np.argsort(moved, axis=-1, kind="stable")
    return np.ascontiguousarray(np.moveaxis(order, -1, dim)).astype(np.int64)


def _std_sort_row(values: list, descending: bool) -> list:
    """The positions of one row in the order libstdc++'s std::sort leaves (value, index) pairs
    under torch's comparator (KeyValueCompAsc / KeyValueCompDesc)."""
    pairs = [(v, j) for j, v in enumerate(values)]
    compare = _greater if descending else _less
    stl.sort(pairs, lambda x, y: compare(x[0], y[0]))
    return [j for _, j in pairs]


def _sort_order(a: Tensor, dim: int, descending: bool, stable: bool) -> np.ndarray:
    """torch's CPU sort kernel: its indices left as they are along a dimension of stride 0,
    a stable order when asked or for fbgemm's radix sort (a long 1-d integer tensor in
    ascending order), libstdc++'s std::sort otherwise, which differs from a stable order only
    in rows longer than its insertion-sort threshold that hold ties."""
    array = a.data
    if array.ndim == 0:
        return sort_indices(array, dim, descending)
    size = array.shape[dim]
    if F.strides(a)[dim] == 0:
        shape = [1] * array.ndim
        shape[dim] = size
        return np.broadcast_to(np.arange(size).reshape(shape), array.shape).copy()
    order = sort_indices(array, dim, descending)
    radix = array.ndim == 1 and not descending and array.dtype.kind in "iu" and \
        size >= _GRAIN_SIZE
    if stable or radix or size <= stl.THRESHOLD or _distinct(array, dim):
        return order
    rows, orders = _rows(array, dim), _rows(order, dim).copy()
    for i, row in enumerate(rows):
        if not _distinct(row, 0):
            orders[i] = _std_sort_row(row.tolist(), descending)
    return np.ascontiguousarray(_unrows(orders, order, dim, size))


_GRAIN_SIZE = 32768  # at::internal::GRAIN_SIZE, below which torch does not radix sort


def _topk_row(values: list, k: int, largest: bool, sorted_: bool) -> list:
    """topk_impl_loop: partial_sort when k is small, else nth_element and a sort of the rest."""
    queue = [(v, j) for j, v in enumerate(values)]
    compare = _greater if largest else _less

    def less(x, y):
        return compare(x[0], y[0])
    if k * 64 <= len(queue):
        stl.partial_sort(queue, k, less)
    else:
        stl.nth_element(queue, k - 1, less)
        if sorted_:
            stl.sort(queue, less, 0, k - 1)
    return [j for _, j in queue[:k]]


def _quick_select(values: list, k: int) -> int:
    """SortingUtils.h's quick_select_template: the index of the k-th smallest (0-based)."""
    arr, idx = list(values), list(range(len(values)))

    def swap(i, j):
        arr[i], arr[j] = arr[j], arr[i]
        idx[i], idx[j] = idx[j], idx[i]
    left, right = 0, len(arr) - 1
    while right > left:
        if right == left + 1:
            if _greater(arr[left], arr[right]):
                swap(left, right)
            break
        swap(left + (right - left) // 2, left + 1)
        if _greater(arr[left + 1], arr[right]):
            swap(left + 1, right)
        if _greater(arr[left], arr[right]):
            swap(left, right)
        if _greater(arr[left + 1], arr[left]):
            swap(left + 1, left)
        i, j, pivot = left + 1, right, arr[left]
        while True:
            i += 1
            while _greater(pivot, arr[i]):
                i += 1
            j -= 1
            while _greater(arr[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(left, j)
        if j <= k:
            left = i
        if j >= k:
            right = j - 1
    return idx[k]


def _median_row(values: list) -> int:
    """median_with_indices_impl: the first NaN, else nth_element by (value, index)."""
    for j, v in enumerate(values):
        if _isnan(v):
            return j
    order = list(range(len(values)))
    nth = (len(values) - 1) // 2
    stl.nth_element(order, nth, lambda i, j: values[i] < values[j] or (
        values[i] == values[j] and i < j))
    return order[nth]


def _nanmedian_row(values: list) -> int:
    """median_with_indices_impl with ignore_nan: nth_element over the non-NaN values, NaNs
    ordered last."""
    counted = sum(1 for v in values if not _isnan(v))
    order = list(range(len(values)))
    nth = max(counted - 1, 0) // 2
    stl.nth_element(order, nth, lambda i, j: values[i] < values[j] or (
        values[i] == values[j] and i < j) or (_isnan(values[j]) and not _isnan(values[i])))
    return order[nth]


def _mode_row(values: list) -> int:
    """The CPU mode kernel: std::sort of (value, index) by value, the first longest run's last."""
    pairs = [(v, j) for j, v in enumerate(values)]
    stl.sort(pairs, lambda x, y: x[0] < y[0])
    best, run, longest = 0, 0, 0
    for i, (v, j) in enumerate(pairs):
        run += 1
        if i == len(pairs) - 1 or v != pairs[i + 1][0]:
            if run > longest:
                best, longest = j, run
            run = 0
    return best


def _per_row(array: np.ndarray, dim: int, width: int, pick) -> np.ndarray:
    """Indices (keepdim-shaped, int64) from `pick(row values) -> list of indices` per row."""
    rows = _rows(array, dim)
    out = np.array([pick(row) for row in rows.tolist()], dtype=np.int64).reshape(-1, width)
    return _unrows(out, array, dim, width)


# ---- sort, argsort, msort, topk, kthvalue, median, mode ----------------------------------------

def _return(name: str, values, indices):
    return F.ReturnTypes(name, values, indices)


def sort(a: Tensor, dim: int = -1, descending: bool = False, stable=None):
    d = F.wrap_dim(dim, a.ndim)
    indices = Tensor(_sort_order(a, d, bool(descending), bool(stable)), dtypes.int64)
    key = "sort" if stable is None else "sort.stable"
    values, indices = apply(OPS[key], a, indices, dim=d, sizes=a.shape)
    return _return("sort", values, indices)


def argsort(a: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    d = F.wrap_dim(dim, a.ndim)
    if a.dtype.is_complex:  # torch's argsort is its sort
        raise refusal_of_complex(OPS["sort"], a.dtype)
    return Tensor(_sort_order(a, d, bool(descending), bool(stable)), dtypes.int64)


def msort(a: Tensor) -> Tensor:
    return sort(a, 0).values


def topk(a: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):
    d = F.wrap_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    if not 0 <= k <= size:
        raise errors.runtime("selected index k out of range")
    if k == 0:
        positions = np.zeros(a.shape[:d] + (0,) + a.shape[d + 1:], dtype=np.int64)
    elif sorted and _distinct(a.data, d):
        order = sort_indices(a.data, d, bool(largest))
        positions = np.take(order, np.arange(k), axis=d) if a.ndim else order
    else:
        positions = _per_row(a.data, d, k, lambda row: _topk_row(row, k, largest, sorted))
    values, indices = apply(OPS["topk"], a, Tensor(positions, dtypes.int64), dim=d,
                            sizes=a.shape)
    return _return("topk", values, indices)


def _distinct(array: np.ndarray, dim: int) -> bool:
    """No ties and no NaN within any row along `dim` (sorting alone then decides an order)."""
    if array.ndim == 0:
        return True
    ordered = np.sort(np.moveaxis(array, dim, -1), axis=-1)
    if ordered.dtype.kind == "f" and np.isnan(ordered).any():
        return False
    return not np.any(ordered[..., 1:] == ordered[..., :-1])


def _reduce_dim(name: str, a: Tensor, dim: int) -> int:
    d = F.wrap_dim(dim, a.ndim)
    F.check_dim_nonempty(name, a, d)
    return d


def _selected(name: str, key: str, a: Tensor, d: int, keepdim: bool, pick):
    if a.dtype.is_complex:  # (before the rows are compared)
        raise refusal_of_complex(OPS[key], a.dtype)
    positions = _per_row(a.data, d, 1, lambda row: [pick(row)])
    values, indices = apply(OPS[key], a, Tensor(positions, dtypes.int64), dim=d,
                            keepdim=bool(keepdim), sizes=a.shape)
    return _return(name, values, indices)


def kthvalue(a: Tensor, k: int, dim: int = -1, keepdim: bool = False):
    d = F.wrap_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    if not 1 <= k <= size:
        raise errors.runtime(f"kthvalue(): selected number k out of range for dimension {d}")
    return _selected("kthvalue", "kthvalue", a, d, keepdim, lambda row: _quick_select(row, k - 1))


def median(a: Tensor, dim=None, keepdim: bool = False):
    if dim is None:
        return apply(OPS["median"], a)
    d = _reduce_dim("median", a, dim)
    return _selected("median", "median.dim", a, d, keepdim, _median_row)


def nanmedian(a: Tensor, dim=None, keepdim: bool = False):
    if dim is None:
        return apply(OPS["nanmedian"], a)
    d = _reduce_dim("median", a, dim)
    return _selected("nanmedian", "nanmedian.dim", a, d, keepdim, _nanmedian_row)


def mode(a: Tensor, dim: int = -1, keepdim: bool = False):
    d = _reduce_dim("mode", a, dim)
    return _selected("mode", "mode", a, d, keepdim, _mode_row)


# ---- unique ---------------------------------------------------------------------------------------

def _unique_result(key: str, a: Tensor, values: np.ndarray, inverse, counts, return_inverse,
                   return_counts):
    out = apply(OPS[key], a, values=values)
    if not return_inverse and not return_counts:
        return out
    extra = []
    if return_inverse:
        extra.append(Tensor(np.asarray(inverse, dtype=np.int64), dtypes.int64))
    if return_counts:
        extra.append(Tensor(np.asarray(counts, dtype=np.int64), dtypes.int64))
    return (out, *extra)


def _check_types(function: str, arguments: tuple) -> None:
    """torch.unique's Python code passes its arguments on to a native function (by keyword, or
    at `position`): that function's TypeError for a wrong type."""
    for name, value, kind, position in arguments:
        if type(value) is not kind:
            where = f" (position {position})" if position else ""
            got = "Tensor" if isinstance(value, Tensor) else errors.type_name(value)
            raise errors.type_error(f"{function}(): argument '{name}'{where} must be "
                                    f"{kind.__name__}, not {got}")


def unique(a: Tensor, sorted: bool = True, return_inverse: bool = False,
           return_counts: bool = False, dim=None):
    flags = (("sorted", sorted, bool, None), ("return_inverse", return_inverse, bool, None),
             ("return_counts", return_counts, bool, None))
    if dim is not None:
        _check_types("unique_dim", (("dim", dim, int, 2),) + flags)
    else:
        _check_types("_unique2", flags)
    if dim is not None:
        return _unique_dim(a, dim, return_inverse, return_counts, consecutive=False)
    flat = a.data.reshape(-1)
    values, inverse, counts = np.unique(flat, return_inverse=True, return_counts=True,
                                        equal_nan=False)
    return _unique_result("_unique2", a, values, inverse.reshape(a.shape), counts,
                          return_inverse, return_counts)


def unique_consecutive(a: Tensor, return_inverse: bool = False, return_counts: bool = False,
                       dim=None):
    _check_types("unique_consecutive", (
        ("return_inverse", return_inverse, bool, None), ("return_counts", return_counts, bool,
                                                          None)))
    if dim is not None:
        _check_types("unique_consecutive", (("dim", dim, int, None),))
        return _unique_dim(a, dim, return_inverse, return_counts, consecutive=True)
    flat = a.data.reshape(-1)
    starts = np.ones(flat.size, dtype=bool)
    starts[1:] = flat[1:] != flat[:-1]
    values = flat[starts]
    inverse = (np.cumsum(starts) - 1).reshape(a.shape)
    counts = np.diff(np.append(np.flatnonzero(starts), flat.size))
    return _unique_result("unique_consecutive", a, values, inverse, counts, return_inverse,
                          return_counts)


def _unique_dim(a: Tensor, dim: int, return_inverse: bool, return_counts: bool,
                consecutive: bool):
    d = F.wrap_dim(dim, a.ndim)
    moved = np.moveaxis(a.data, d, 0)
    slices = moved.reshape(moved.shape[0], -1)
    keys = [tuple(row) for row in slices.tolist()]
    if consecutive:
        order = list(range(len(keys)))
    else:
        order = builtins_sorted(range(len(keys)), key=lambda i: keys[i])
    kept, inverse, counts = [], [0] * len(keys), []
    for position, i in enumerate(order):
        if not kept or keys[i] != keys[kept[-1]]:
            kept.append(i)
            counts.append(0)
        inverse[i] = len(kept) - 1
        counts[-1] += 1
    values = np.moveaxis(moved[kept], 0, d) if kept else np.moveaxis(moved[:0], 0, d)
    key = "unique_consecutive" if consecutive else "unique_dim"
    return _unique_result(key, a, np.ascontiguousarray(values), inverse, counts, return_inverse,
                          return_counts)


builtins_sorted = sorted


# ---- positions and counts -------------------------------------------------------------------------

def nonzero(a: Tensor, as_tuple: bool = False):
    vmap_batched.refuse(a, vmap_batched.dynamic_shape("nonzero"))
    return positions(a, as_tuple)


def positions(a: Tensor, as_tuple: bool = False):
    """The indices of a's nonzero elements (as nonzero)."""
    if as_tuple:
        array = a.data.reshape(1) if a.ndim == 0 else a.data
        return tuple(Tensor(p.astype(np.int64), dtypes.int64) for p in np.nonzero(array))
    return Tensor(np.argwhere(a.data).astype(np.int64), dtypes.int64)


def argwhere(a: Tensor) -> Tensor:
    return positions(a)  # vmap runs torch's argwhere sample by sample


def nonzero_static(a: Tensor, size: int, fill_value: int = -1) -> Tensor:
    """nonzero's first `size` rows, padded with rows of `fill_value`."""
    if size < 0:
        raise errors.runtime("nonzero_static: 'size' must be an non-negative integer")
    found = np.argwhere(a.data)[:size].astype(np.int64)
    padding = np.full((size - len(found), a.ndim), fill_value, dtype=np.int64)
    return Tensor(np.concatenate([found, padding]), dtypes.int64)


def count_nonzero(a: Tensor, dim=None) -> Tensor:
    dims = None if dim is None else F.reduction_dims(dim, a.ndim)
    axis = None if not dims or a.ndim == 0 else dims
    return Tensor(c_ordered(np.asarray(np.count_nonzero(a.data, axis=axis), dtype=np.int64)),
                  dtypes.int64)


def _bound(boundaries: np.ndarray, values: np.ndarray, right: bool) -> np.ndarray:
    """torch's cus_lower_bound / cus_upper_bound per value: rows of `boundaries` (last dim)
    matched to rows of `values`, or one row for all."""
    size = boundaries.shape[-1]
    if size == 0 or values.size == 0:  # every value goes before an empty row
        return np.zeros(values.shape, dtype=np.int64)
    rows = boundaries.reshape(-1, size)
    flat = values.reshape(rows.shape[0] if rows.shape[0] > 1 else 1, -1)
    start = np.zeros(flat.shape, dtype=np.int64)
    end = np.full(flat.shape, size, dtype=np.int64)
    row_of = np.arange(flat.shape[0])[:, None]
    active = start < end
    while active.any():
        mid = start + ((end - start) >> 1)
        mid_val = rows[row_of, np.minimum(mid, size - 1)]
        go_right = ~(mid_val > flat) if right else ~(mid_val >= flat)
        start = np.where(active & go_right, mid + 1, start)
        end = np.where(active & ~go_right, mid, end)
        active = start < end
    return start.reshape(values.shape)


def searchsorted(sorted_sequence: Tensor, values, out_int32: bool = False, right: bool = False,
                 side=None, sorter=None) -> Tensor:
    if side is not None:
        if side not in ("left", "right"):
            raise errors.runtime("torch.searchsorted(): side can only be 'left' or 'right' but "
                                 f"got {side}")
        if right and side == "left":
            raise errors.runtime("torch.searchsorted(): side and right can't be set to "
                                 "opposites, got side of left while right was True")
        right = side == "right"
    scalar = not isinstance(values, Tensor)
    array = np.asarray(values) if scalar else values.data
    boundaries = sorted_sequence.data
    if sorter is not None:
        boundaries = np.take_along_axis(boundaries, sorter.data.astype(np.int64), -1)
    if array.ndim == 0 and boundaries.ndim != 1:
        raise errors.runtime(
            "torch.searchsorted(): input value can be a scalar only when boundaries tensor "
            f"dimension is 1, but we got boundaries tensor dim({boundaries.ndim}) and input "
            f"value's dim(0) numel({array.size})")
    if boundaries.ndim == 0:
        raise errors.runtime("torch.searchsorted(): boundaries tensor should have positive "
                             "dimension, but got 0 dimension")
    if boundaries.ndim != 1 and boundaries.shape[:-1] != array.shape[:-1]:
        raise errors.runtime(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
            "dimensions of boundaries tensor and input value tensor must match, but we got "
            f"boundaries tensor {F.size_list(boundaries.shape)} and input value tensor "
            f"{F.size_list(array.shape)}")
    if sorted_sequence.dtype is dtypes.bool_ and array.dtype == np.bool_:  # their common type
        raise errors.not_implemented_for("searchsorted_out_cpu", dtypes.bool_)
    dtype = dtypes.int32 if out_int32 else dtypes.int64
    return Tensor(_bound(boundaries, array, bool(right)).astype(dtype.np), dtype)


def bucketize(a, boundaries: Tensor, out_int32: bool = False, right: bool = False) -> Tensor:
    if boundaries.ndim != 1:
        raise errors.runtime(f"boundaries tensor must be 1 dimension, but got dim("
                             f"{boundaries.ndim})")
    return searchsorted(boundaries, a, out_int32, right)


defop("bincount", "NotImplemented",
      lambda weights, a, minlength: np.bincount(a, weights, minlength),
      name="torch::autograd::NotImplemented", promote="none",
      vjp=not_implemented("aten::bincount"))


def bincount(a: Tensor, weights=None, minlength: int = 0) -> Tensor:
    if a.dtype.is_floating_point or a.dtype.name == "bool":
        raise errors.not_implemented_for("bincount_cpu", a.dtype)
    if a.ndim != 1 or (a.numel() and a.data.min() < 0):
        raise errors.runtime("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise errors.runtime("minlength should be >= 0")
    positions = a.data.astype(np.int64)
    if weights is None:
        return Tensor(np.bincount(positions, minlength=minlength).astype(np.int64),
                      dtypes.int64)
    if weights.ndim != 1 or weights.shape[0] != a.shape[0]:
        raise errors.runtime("weights should be 1-d and have the same length as input")
    if weights.dtype.name not in ("float32", "float16"):
        weights = F.to_dtype(weights, dtypes.float64)
    return apply(OPS["bincount"], weights, a=positions, minlength=minlength)


def histc(a: Tensor, bins: int = 100, min=0, max=0) -> Tensor:
    if not a.dtype.is_floating_point:  # a bool input fails first in the bin edges' linspace
        kernel = "linspace_cpu" if a.dtype is dtypes.bool_ else "histogram_cpu"
        raise errors.not_implemented_for(kernel, a.dtype)
    if bins <= 0:
        raise errors.runtime(f"torch.histogram(): bins must be > 0, but got {bins} for "
                             "dimension 0")
    kind = a.data.dtype.type
    low, high = kind(min), kind(max)
    if low == high and a.numel():
        low, high = a.data.min(), a.data.max()
    if low == high:
        low, high = low - kind(1), high + kind(1)
    if low > high:
        raise errors.runtime("torch.histc: max must be larger than min")
    values = a.data.reshape(-1)
    inside = values[(values >= low) & (values <= high)]
    position = ((inside - low) * kind(bins) / (high - low)).astype(np.int64)
    position[position == bins] = bins - 1
    return Tensor(np.bincount(position, minlength=bins).astype(a.data.dtype), a.dtype)


__all__ = ["sort", "argsort", "msort", "topk", "kthvalue", "median", "nanmedian", "mode", "unique",
           "unique_consecutive", "sort_indices", "nonzero", "argwhere", "nonzero_static", "count_nonzero",
           "searchsorted", "bucketize", "bincount", "histc"]


# ---- declarations: the public names of this area ------------------------------------------------

declare("sort", sort,
        "sort(Tensor self, *, bool? stable, int dim=-1, bool descending=False, Tensor[]? out=None)",
        "sort(Tensor self, int dim=-1, bool descending=False, *, Tensor[]? out=None)")
declare("argsort", argsort,
        "argsort(Tensor self, *, bool stable, int dim=-1, bool descending=False, Tensor? out=None)",
        "argsort(Tensor self, int dim=-1, bool descending=False)")
declare("msort", msort, "msort(Tensor self, *, Tensor? out=None)")
declare("topk", topk, "topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True, "
        "*, Tensor[]? out=None)")
declare("kthvalue", kthvalue,
        "kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False, *, Tensor[]? out=None)")
declare("nanmedian", nanmedian, "nanmedian(Tensor self)",
        "nanmedian(Tensor self, int dim, bool keepdim=False, *, Tensor[]? out=None)")
declare("median", median, "median(Tensor self)",
        "median(Tensor self, int dim, bool keepdim=False, *, Tensor[]? out=None)")
declare("mode", mode, "mode(Tensor self, int dim=-1, bool keepdim=False, *, Tensor[]? out=None)")
# torch's unique and unique_consecutive dispatch on the truth of their flags (positions 2, 3 and
# 2, 1) to Python functions named for the outputs, which call _unique2 / unique_consecutive
declare("unique", unique, python="input, sorted=True, return_inverse=False, return_counts=False, "
        "dim=None; return_inverse: truth, return_counts: truth, input: Tensor@_unique2",
        title="_return_output")
declare("unique_consecutive", unique_consecutive,
        python="input, return_inverse=False, return_counts=False, dim=None; return_counts: truth, "
        "return_inverse: truth, input: Tensor", title="_consecutive_return_output")
declare("nonzero_static", nonzero_static,
        "nonzero_static(Tensor self, *, int size, int fill_value=-1, Tensor? out=None)")
declare("nonzero", nonzero, "nonzero(Tensor self, *, bool as_tuple=False, Tensor? out=None)",
        method=("nonzero(Tensor self)", "nonzero(Tensor self, *, bool as_tuple)"))
declare("argwhere", argwhere, "argwhere(Tensor self)")
declare("count_nonzero", count_nonzero, "count_nonzero(Tensor self, int? dim=None)",
        "count_nonzero(Tensor self, int[] dim)")
declare("searchsorted", searchsorted,
        "searchsorted(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, "
        "bool right=False, str? side=None, Tensor? sorter=None, Tensor? out=None)",
        "searchsorted(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, "
        "bool right=False, str? side=None, Tensor? sorter=None, Tensor? out=None)",
        variants="torch")
declare("bucketize", bucketize,
        "bucketize(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False, "
        "Tensor? out=None)",
        "bucketize(Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False)",
        variants="torch")
declare("bincount", bincount, "bincount(Tensor self, Tensor? weights=None, int minlength=0)")
declare("histc", histc, "histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0, *, "
        "Tensor? out=None)")


export(__name__, globals())
