"""Tensor indexing as torch does it: basic indices become view ops in order, the rest one index op."""

from __future__ import annotations

import numpy as np

from gradcli.engine import autograd, dtypes, errors, vmap_batched
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.functions import F
from gradcli.engine.functions import export

_INVALID = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
            "valid indices (got {})")


def _as_int(item):
    """A 0-dim integer tensor indexes like the int it holds (a NumPy integer too); a range like
    the list of its ints; a NumPy array like the tensor torch makes of it."""
    if isinstance(item, range):
        return list(item)
    if isinstance(item, np.integer):
        return int(item)
    if isinstance(item, np.ndarray):
        item = _index_tensor(item)
    if type(item) is Tensor and item.ndim == 0 and item.dtype.category == 1:
        return int(item.data)
    return item


def _index_tensor(array: np.ndarray) -> Tensor:
    """torch's indexing tensor of a NumPy array: bool and uint8 ones keep their dtype (masks),
    any other becomes int64."""
    dtype = F.from_numpy(array).dtype
    if dtype.name in ("bool", "uint8"):
        return Tensor(array.copy(), dtype)
    return Tensor(array.astype(np.int64), dtypes.int64)


_SEQUENCES = (list, tuple, str, range, np.ndarray)
_NON_TUPLE = ("Using a non-tuple sequence for multidimensional indexing is deprecated and will be "
              "changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this "
              "will be interpreted as tensor index, x[torch.tensor(seq)], which will result either "
              "in an error or a different result")


def sequence_key(key):
    """torch's (NumPy's old) rule for a list index: a short one holding a tensor, a sequence, a
    slice, None or Ellipsis is read as a tuple of indices, with a warning; any other is one
    index tensor."""
    if not isinstance(key, (list, str)) or len(key) >= 32:
        return key
    for item in key:
        if isinstance(item, (Tensor, slice) + _SEQUENCES) or item is None or item is Ellipsis:
            STATE.warn("UserWarning", _NON_TUPLE)
            return tuple(key)
    return key


def _check_item(item) -> None:
    if item is None or item is Ellipsis or isinstance(item, (int, slice, Tensor, list, tuple,
                                                             str)):
        return
    name = errors.type_name(item)
    raise errors.index_error(_INVALID.format(f"numpy.{type(item).__name__}" if isinstance(
        item, np.generic) else name))


def _sequence_tensor(item) -> Tensor:
    """A list (tuple, str) index as torch's indexing makes it a tensor: bool data stays a mask,
    any other becomes int64."""
    item = F.tensor(list(item) if isinstance(item, tuple) else item)
    return item if item.dtype is dtypes.bool_ else Tensor(item.data.astype(np.int64), dtypes.int64)


def advanced_array(item) -> np.ndarray:
    """The numpy index for a bool, list or tensor index, with torch's dtype check."""
    if isinstance(item, bool):
        return np.array(item)
    if isinstance(item, (list, tuple, str)):
        item = _sequence_tensor(item)
    if item.dtype.category == 2:
        raise errors.index_error("tensors used as indices must be long, int, byte or bool tensors")
    if item.dtype.name == "uint8":
        STATE.warn("UserWarning", "indexing with dtype torch.uint8 is now deprecated, please use "
                   "a dtype torch.bool instead.")
        return item.data.astype(bool)
    return item.data


ZERO_DIM_INDEX = ("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                  "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")


def _select(result: Tensor, dim: int, index: int, position: int) -> Tensor:
    """result.select(dim, index); torch's error names the item's position in the subscript."""
    if result.ndim == 0:
        raise errors.index_error(ZERO_DIM_INDEX)
    size = result.shape[F.wrap_dim(dim, result.ndim)]
    if not -size <= index < size:
        raise errors.index_error(
            f"index {index} is out of bounds for dimension {position} with size {size}")
    return F.select(result, dim, index % size)


def _slice(result: Tensor, dim: int, item: slice, always: bool) -> Tensor:
    item = slice(_as_int(item.start), _as_int(item.stop), _as_int(item.step))
    if item.step is not None and item.step <= 0:
        raise errors.value_error("step must be greater than zero")
    size = result.shape[F.wrap_dim(dim, result.ndim)]
    if not always and item.start in (None, 0) and item.step in (None, 1) and (
            item.stop is None or item.stop >= size):  # torch compares the unclamped bounds
        return result
    start, stop, step = item.indices(size)
    return F.slice_dim(result, dim, start, max(stop, start), step)


def _count_dims(items: tuple) -> int:
    count = 0
    for item in items:
        if type(item) is Tensor and item.dtype in (dtypes.bool_, dtypes.uint8):  # masks
            count += item.ndim
        elif item is not None and item is not Ellipsis and not isinstance(item, bool):
            count += 1
    return count


def apply_basic(t: Tensor, key, *, reading: bool = True) -> tuple[Tensor, list]:
    """The views for ints, slices, None and Ellipsis, in torch's order, and the advanced indices
    as (dim, numpy index) pairs for the dims of the result. A lone full slice is a view when
    `reading` and the tensor itself when assigning, as in torch."""
    if not isinstance(key, tuple):
        key = _as_int(key)
        _check_item(key)
        if isinstance(key, int) and not isinstance(key, bool):
            return _select(t, 0, key, 0), []
        if isinstance(key, slice):
            return _slice(t, 0, key, always=reading), []
        key = (key,)
    items = tuple(_as_int(k) for k in key)
    for item in items:
        _check_item(item)
    specified = _count_dims(items)
    if specified > t.ndim:
        raise errors.index_error(f"too many indices for tensor of dimension {t.ndim}")
    result, dim, advanced = t, 0, []
    for position, item in enumerate(items):
        if item is Ellipsis:  # every Ellipsis skips the unspecified dims, as torch's does
            dim += t.ndim - specified
        elif item is None:
            result = F.unsqueeze(result, dim)
            dim += 1
        elif isinstance(item, bool) or type(item) is Tensor and item.ndim == 0:
            _check_batched_mask(item)
            result = F.unsqueeze(result, dim)
            advanced.append((dim, item, True))
            dim += 1
        elif isinstance(item, int):
            result = _select(result, dim, item, position)
        elif isinstance(item, slice):
            result = _slice(result, dim, item, always=False)
            dim += 1
        else:
            _check_batched_mask(item)
            if not isinstance(item, Tensor):  # made a tensor in turn; checked with the rest
                item = _sequence_tensor(item)
            advanced.append((dim, item, False))
            dim += item.ndim if item.dtype in (dtypes.bool_, dtypes.uint8) else 1
    return result, [(d, _one_dim_index(item) if one else advanced_array(item))
                    for d, item, one in advanced]


def _one_dim_index(item) -> np.ndarray:
    """The index for the dim a bool or a 0-dim tensor adds: a bool (a Python one, or a 0-dim
    bool or uint8 tensor) is a long index, [0] when True and empty when False, as torch's
    boolToIndexingTensor makes it."""
    if isinstance(item, Tensor) and item.dtype in (dtypes.bool_, dtypes.uint8):
        item = bool(item.data)
    if isinstance(item, bool):
        return np.zeros(int(item), dtype=np.int64)
    return advanced_array(item).reshape(1)


def _check_batched_mask(item) -> None:
    if type(item) is Tensor and item.dtype is dtypes.bool_:
        vmap_batched.refuse(item, vmap_batched.MASK_INDEX)


def numpy_key(t: Tensor, advanced: list) -> tuple:
    """The numpy key for the advanced indices, checked with torch's errors."""
    key, out_of_bounds = checked_key(t, advanced)
    if out_of_bounds is not None:
        raise errors.index_error(out_of_bounds)
    return key


def indexed_shape(shape: tuple, key: tuple) -> tuple:
    """The shape of x[key] for x of `shape` (NumPy's and torch's rule: the broadcast index shape
    in place of adjacent indexed dims, else in front), bounds aside."""
    dims = [d for d, k in enumerate(key) if isinstance(k, np.ndarray)]
    gathered = np.broadcast_shapes(*(key[d].shape for d in dims))
    rest = [shape[d] for d in range(len(shape)) if d not in dims]
    at = dims[0] if dims == list(range(dims[0], dims[0] + len(dims))) else 0
    return tuple(rest[:at]) + gathered + tuple(rest[at:])


def checked_key(t: Tensor, advanced: list) -> tuple:
    """numpy_key's key, and the out-of-bounds message torch's kernel would give (or None),
    which index_put gives only after its checks of the value."""
    last = advanced[-1][0] + (advanced[-1][1].ndim if advanced[-1][1].dtype == bool else 1)
    if last > t.ndim:  # past the dims when several Ellipsis each skipped the unspecified ones
        raise errors.index_error(f"too many indices for tensor of dimension {t.ndim} (got {last})")
    for dim, array in advanced:  # torch turns masks into positions before checking bounds
        if array.dtype == bool:
            _check_mask(t, dim, array)
    key, ordinal, out_of_bounds = [slice(None)] * t.ndim, 0, None
    for dim, array in advanced:
        if array.dtype == bool:  # a mask indexes like the positions of its True values
            key[dim:dim + array.ndim] = list(array.nonzero())
            ordinal += array.ndim
            continue
        size = t.shape[dim]
        bad = array[(array >= size) | (array < -size)]
        if bad.size and out_of_bounds is None:  # torch counts the dimension among indexed ones
            out_of_bounds = f"index {bad.flat[0]} is out of bounds for dimension {ordinal} " \
                            f"with size {size}"
        key[dim] = array
        ordinal += 1
    arrays = [k for k in key if isinstance(k, np.ndarray)]
    try:
        gathered = np.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        shapes = ", ".join(F.size_list(a.shape) for a in arrays)
        raise errors.index_error(f"shape mismatch: indexing tensors could not be broadcast "
                                 f"together with shapes {shapes}") from None
    if 0 in gathered:  # torch checks each element it reads
        out_of_bounds = None
    return tuple(key), out_of_bounds


def check_masks(t: Tensor, key: tuple) -> None:
    """index_put's check of the masks in its key of index arrays (each mask spans as many
    dims as it has), with torch's message for one that does not fit."""
    dim = 0
    for array in key:
        if isinstance(array, np.ndarray) and array.dtype == bool:
            _check_mask(t, dim, array)
            dim += array.ndim
        else:
            dim += 1


def _check_mask(t: Tensor, dim: int, mask: np.ndarray) -> None:
    for k, size in enumerate(mask.shape):
        if dim + k >= t.ndim or t.shape[dim + k] != size:
            raise errors.index_error(
                f"The shape of the mask {F.size_list(mask.shape)} at index {k} does not match the "
                f"shape of the indexed tensor {F.size_list(t.shape)} at index {dim + k}")


def get_item(t: Tensor, key) -> Tensor:
    """t[key]: ints select, slices slice, None unsqueezes; tensors and lists index."""
    result, advanced = apply_basic(t, sequence_key(key))
    if advanced:  # torch saves the index tensors with the result's node
        indices = [k for k in (key if type(key) is tuple else (key,))
                   if type(k) is Tensor and (k.ndim or k.dtype is dtypes.bool_)]
        return autograd.save_also(F.index(result, numpy_key(result, advanced)), *indices)
    return F.alias(t) if result is t else result


def unbind_rows(t: Tensor, dim: int = 0) -> tuple:
    return F.unbind(t, dim)


def check_byte_mask_fill(key, value) -> None:
    """torch fills through masked_fill_ when a lone advanced index meets a one-number value,
    which refuses a uint8 mask (before any deprecation warning)."""
    if isinstance(value, Tensor) and value.ndim:
        return
    items = [_as_int(k) for k in (key if isinstance(key, tuple) else (key,))]
    advanced = [k for k in items if isinstance(k, (Tensor, list)) and not (
        isinstance(k, Tensor) and k.ndim == 0 and k.dtype.category == dtypes.INTEGRAL)]
    if len(advanced) == 1 and isinstance(advanced[0], Tensor) and \
            advanced[0].dtype is dtypes.uint8:
        raise errors.runtime("masked_fill_ only supports boolean masks, but got mask with dtype "
                             "unsigned char")


def _assigned_value(t: Tensor, value):
    """The value of `t[key] = value` as torch reads it before the key: a tensor, or a Python
    number that t's dtype can hold (read as a double for float16 and bfloat16)."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if not -2**63 <= value < 2**63:
            raise errors.value_error("Overflow when unpacking long long")
        value = int(value)
    elif not isinstance(value, (bool, float, complex)):
        raise errors.type_error(f"can't assign a {errors.type_name(value)} to a "
                                f"torch.{t.dtype.legacy_name}")
    dtypes.check_fill(value, t.dtype, numel=1)
    return value.real if isinstance(value, complex) and not t.dtype.is_complex else value


def set_item(t: Tensor, key, value) -> None:
    """t[key] = value, in place, with torch's checks for leaves that require grad."""
    value = _assigned_value(t, value)  # before the key, as torch reads them
    F.assign_into(t, sequence_key(key), value)


export(__name__, globals())
