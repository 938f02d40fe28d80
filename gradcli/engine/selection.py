"""torch-level selection functions: select, slice, advanced indexing, index_select, gather and the
scatters that undo them (index_add, scatter_add, index_put), with torch's checks."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.tensor import Tensor


def _op(key: str, *args, **params):
    return apply(OPS[key], *args, **params)


def alias(a: Tensor) -> Tensor:
    return _op("alias", a)


def select(a: Tensor, dim: int, index: int) -> Tensor:
    return _op("select.int", a, dim=dim, index=index, sizes=a.shape)


def slice_dim(a: Tensor, dim: int, start, end, step) -> Tensor:
    return _op("slice.Tensor", a, dim=dim, start=start, end=end, step=step, sizes=a.shape)


def index(a: Tensor, key: tuple) -> Tensor:
    """a[key] for a checked numpy key holding integer or bool arrays (IndexBackward0)."""
    return _op("index.Tensor", a, indices=key, sizes=a.shape)


def index_put(a: Tensor, key: tuple, values: Tensor, accumulate: bool = False) -> Tensor:
    """a with a[key] = values (or += with `accumulate`), out of place; in-place setitem computes
    through it. `key` is a numpy key of integer or bool arrays."""
    result_shape = np.empty(a.shape, dtype=bool)[key].shape
    try:
        np.broadcast_to(np.empty(values.shape, dtype=bool), result_shape)
    except ValueError:
        raise errors.runtime(f"shape mismatch: value tensor of shape {S.size_list(values.shape)} "
                             f"cannot be broadcast to indexing result of shape "
                             f"{S.size_list(result_shape)}") from None
    return _op("index_put", a, values, indices=key, accumulate=bool(accumulate))


def index_put_key(indices) -> tuple:
    """The numpy key for Tensor.index_put's tuple of index tensors."""
    from gradcli.engine import indexing
    return tuple(indexing.advanced_array(i) for i in indices)


def index_add(a: Tensor, dim: int, index: Tensor, source: Tensor, alpha=1) -> Tensor:
    d = S.wrap_dim(dim, a.ndim)
    if index.dtype.name not in ("int64", "int32"):
        raise errors.runtime(f"index_add_(): Expected dtype int32/int64 for index but got: "
                             f"{index.dtype.legacy_name.removesuffix('Tensor')}")
    positions = index.data.reshape(-1).astype(np.int64)
    source_size = source.shape[d] if source.ndim else 1
    if positions.size != source_size:
        raise errors.runtime(f"index_add_(): Number of indices ({positions.size}) should be equal "
                             f"to source.size(dim): ({source_size}), for dim: {d}")
    _check_positions(positions, a.shape[d] if a.ndim else 1, d)
    params = {"alpha": alpha} if alpha != 1 else {}
    return _op("index_add", a, source, dim=d, index=positions, sizes=source.shape, **params)


def scatter_add(a: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    d = S.wrap_dim(dim, a.ndim)
    _check_positions(index.data, a.shape[d] if a.ndim else 1, d)
    return _op("scatter_add", a, src, dim=d, index=index.data.astype(np.int64))


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
    d = S.wrap_dim(dim, a.ndim)
    if index.ndim > 1:
        raise errors.index_error("index_select(): Index is supposed to be a vector")
    positions = _index_array(index, "index_select").reshape(-1)
    size = a.shape[d] if a.ndim else 1
    bad = positions[(positions >= size) | (positions < 0)]
    if bad.size and d == 1 and a.ndim > 1:  # torch's CPU kernel for dim 1 words it differently
        raise errors.runtime(f"INDICES element is out of DATA bounds, id={bad[0]} axis_dim={size}")
    if bad.size:
        raise errors.index_error("index out of range in self")
    return _op("index_select", a, dim=d, index=positions, sizes=a.shape)


def gather(a: Tensor, dim: int, index: Tensor) -> Tensor:
    d = S.wrap_dim(dim, a.ndim)
    positions = _index_array(index, "gather") if index.dtype.name == "int64" else None
    if positions is None:
        raise errors.runtime("gather(): Expected dtype int64 for index")
    if index.ndim != a.ndim and a.ndim:
        raise errors.runtime("Index tensor must have the same number of dimensions as input "
                             "tensor")
    for k in range(a.ndim):
        if k != d and index.shape[k] > a.shape[k]:
            raise errors.runtime(
                f"Size does not match at dimension {k} expected index {S.size_list(index.shape)} to "
                f"be no larger than self {S.size_list(a.shape)} apart from dimension {d}")
    _check_positions(positions, a.shape[d] if a.ndim else 1, d)
    return _op("gather", a, dim=d, index=positions, sizes=a.shape)


# Imported last, as in shapes.py: the op rows and shapes.py import this module while they load.
from gradcli.engine import shapes as S  # noqa: E402
from gradcli.engine.ops.registry import OPS, apply  # noqa: E402
