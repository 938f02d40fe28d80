"""Tensor indexing as torch does it: basic indices become view ops in order, the rest one index op."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors, functional as F
from gradcli.engine.tensor import Tensor


def _as_int(value):
    if isinstance(value, Tensor) and value.ndim == 0 and value.dtype.category == 1:
        return int(value.data.item())
    return value


def _is_basic(item) -> bool:
    return item is None or item is Ellipsis or isinstance(item, (int, slice)) and \
        not isinstance(item, bool)


def _expand_ellipsis(key: tuple, ndim: int) -> tuple:
    consumed = sum(1 for k in key if k is not None and k is not Ellipsis)
    if consumed > ndim:
        raise errors.index_error(f"too many indices for tensor of dimension {ndim}")
    if Ellipsis not in key:
        return key
    at = key.index(Ellipsis)
    return key[:at] + (slice(None),) * (ndim - consumed) + key[at + 1:]


def get_item(t: Tensor, key) -> Tensor:
    """t[key]: ints select, slices slice, None unsqueezes; tensors and lists index."""
    items = tuple(_as_int(k) for k in (key if isinstance(key, tuple) else (key,)))
    if not all(_is_basic(k) for k in items):
        return _advanced(t, items)
    items = _expand_ellipsis(items, t.ndim)
    single_slice = not isinstance(key, tuple) and isinstance(key, slice)
    result, dim = t, 0
    for item in items:
        if item is None:
            result = F.unsqueeze(result, dim)
            dim += 1
        elif isinstance(item, slice):
            size = result.shape[dim]
            start, stop, step = item.indices(size)
            if step <= 0:
                raise errors.value_error("step must be greater than zero")
            if single_slice or (start, stop, step) != (0, size, 1):
                result = F.slice_dim(result, dim, start, max(stop, start), step)
            dim += 1
        else:
            size = result.shape[dim]
            if not -size <= item < size:
                raise errors.index_error(
                    f"index {item} is out of bounds for dimension {dim} with size {size}")
            result = F.select(result, dim, item % size)
    if result is t and not single_slice:
        result = F.alias(t)
    return result


def _advanced(t: Tensor, items: tuple) -> Tensor:
    index = []
    for item in items:
        if isinstance(item, Tensor):
            index.append(item.data if item.dtype.category else item.data.astype(bool))
        elif isinstance(item, list):
            index.append(np.asarray(item))
        else:
            index.append(item)
    index = tuple(index)
    try:
        t.data[index]
    except IndexError as error:
        raise errors.index_error(str(error)) from None
    return F.apply_op("index.Tensor", t, indices=index, sizes=t.shape)


def numpy_key(key):
    """The numpy index for a torch index (tensors become arrays)."""
    items = key if isinstance(key, tuple) else (key,)
    out = tuple(k.data if isinstance(k, Tensor) else k for k in items)
    return out if isinstance(key, tuple) else out[0]


def unbind(t: Tensor, dim: int = 0) -> list[Tensor]:
    return [F.select(t, dim, i) for i in range(t.shape[dim])]


def set_item(t: Tensor, key, value) -> None:
    """t[key] = value, in place, with torch's checks for leaves that require grad."""
    from gradcli.engine import inplace
    inplace.assign_into(t, key, value)
