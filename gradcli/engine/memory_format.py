"""torch's memory formats (contiguous_format, channels_last, ...): the objects, the element order
each lays a tensor out in, and torch's tests of a tensor's strides against them."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors, layout


class MemoryFormat:
    """torch.memory_format: one of four named constants."""
    __slots__ = ("name", "label", "rank", "order")

    def __init__(self, name: str, label: str, rank=None, order=None):
        self.name, self.label, self.rank, self.order = name, label, rank, order

    def __repr__(self) -> str:
        return f"torch.{self.name}"


CONTIGUOUS = MemoryFormat("contiguous_format", "Contiguous")
PRESERVE = MemoryFormat("preserve_format", "Preserve")
CHANNELS_LAST = MemoryFormat("channels_last", "ChannelsLast", 4, (0, 2, 3, 1))
CHANNELS_LAST_3D = MemoryFormat("channels_last_3d", "ChannelsLast3d", 5, (0, 2, 3, 4, 1))
BY_NAME = {f.name: f for f in (CONTIGUOUS, PRESERVE, CHANNELS_LAST, CHANNELS_LAST_3D)}


def element_strides(array: np.ndarray) -> tuple:
    """torch's strides of a tensor over `array`: NumPy's in elements, except that a new size-1
    dim (stride 0 in NumPy) gets the stride torch's unsqueeze gives it."""
    out = [s // array.itemsize for s in array.strides]
    for d in range(array.ndim - 1, -1, -1):
        if array.shape[d] == 1 and out[d] == 0:
            out[d] = out[d + 1] * array.shape[d + 1] if d + 1 < array.ndim else 1
    return tuple(out)


def checked(fmt: MemoryFormat, ndim: int) -> MemoryFormat:
    """`fmt` when a tensor of `ndim` dimensions can take it, else torch's error."""
    if fmt is PRESERVE:
        raise errors.runtime("unsupported memory format Preserve")
    if fmt.rank is not None and ndim != fmt.rank:
        raise errors.runtime(f"required rank {fmt.rank} tensor to use {fmt.name} format")
    return fmt


def laid_out(array: np.ndarray, fmt: MemoryFormat) -> np.ndarray:
    """A copy of `array` whose strides are those torch gives a new tensor in `fmt`."""
    if checked(fmt, array.ndim).order is None:
        return np.array(array, copy=True, order="C")
    return _in_order(array, fmt.order)


def laid_out_like(array: np.ndarray, source: np.ndarray, strides: tuple, fmt) -> np.ndarray:
    """`array` laid out as torch's *_like functions lay out a result for `source` (element
    `strides`)."""
    order = order_like(source, strides, fmt)
    return array if order == sorted(order) else _in_order(array, order)


def order_like(source: np.ndarray, strides: tuple, fmt) -> list:
    """The dimensions, slowest in memory first, of a *_like result for `source`: preserve_format
    (None) keeps a dense layout, else takes the format its strides suggest."""
    if fmt in (None, PRESERVE):
        order = layout.dense_order(source)
        if order is not None:
            return list(range(source.ndim)) if source.flags.c_contiguous else order
        fmt = suggest(source.shape, strides)
    order = checked(fmt, source.ndim).order
    return list(range(source.ndim)) if order is None else list(order)


def copied_as(array: np.ndarray, like: np.ndarray) -> np.ndarray:
    """A copy of `array` with the layout of `like` when that is dense (AccumulateGrad's layout
    contract), else in C order."""
    order = layout.dense_order(like)
    if order is None or order == sorted(order):
        return np.array(array, copy=True, order="C")
    return _in_order(array, order)


def joined_format(inputs: list) -> MemoryFormat:
    """cat_compute_output_memory_format: the format every input suggests, else contiguous. Each
    input is a (shape, element strides) pair."""
    found = None
    for shape, strides in inputs:
        fmt = suggest(shape, strides)
        if fmt is CONTIGUOUS or (found is not None and fmt is not found):
            return CONTIGUOUS
        found = fmt
    return found or CONTIGUOUS


def in_format(array: np.ndarray, fmt: MemoryFormat) -> np.ndarray:
    """`array` laid out in `fmt` (itself when it already is)."""
    if fmt.order is None:
        return np.ascontiguousarray(array)
    strides = tuple(s // array.itemsize for s in array.strides)
    return array if is_contiguous(array.shape, strides, fmt) else _in_order(array, fmt.order)


def _in_order(array: np.ndarray, order) -> np.ndarray:
    """A copy of `array` whose dimensions lie in memory in `order`, slowest first."""
    base = np.empty([array.shape[d] for d in order], dtype=array.dtype)
    out = base.transpose(np.argsort(order))
    out[...] = array
    return out


def is_contiguous(shape: tuple, strides: tuple, fmt: MemoryFormat) -> bool:
    """Tensor.is_contiguous(memory_format=fmt) over torch's element strides."""
    if fmt.order is None:
        order = range(len(shape))
    elif len(shape) != fmt.rank:
        return False
    else:
        order = fmt.order
    if 0 in shape:
        return True
    expected = 1
    for d in reversed(order):
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def suggest(shape: tuple, strides: tuple) -> MemoryFormat:
    """suggest_memory_format: channels_last(_3d) for strides like it, else contiguous_format."""
    for fmt in (CHANNELS_LAST, CHANNELS_LAST_3D):
        if len(shape) == fmt.rank and _strides_like(shape, strides, fmt.order):
            return fmt
    return CONTIGUOUS


def _strides_like(shape: tuple, strides: tuple, order: tuple) -> bool:
    """is_channels_last_strides_2d_s4 / _3d_s5, ambiguous cases falling back to contiguous."""
    if strides[1] == 0:
        return False
    smallest = 0
    for d in reversed(order):
        if shape[d] == 0 or strides[d] < smallest:
            return False
        if d == 0 and smallest == strides[1]:
            return False
        smallest = strides[d] * (shape[d] if shape[d] > 1 else 1)
    return True


def dim_order(shape: tuple, strides: tuple, ambiguity_check) -> tuple:
    """Tensor.dim_order: the dims from outermost to innermost in memory, as torch's Python
    sorts them (compute_elementwise_output_logical_to_physical_perm), with its ambiguity
    checks."""
    if not isinstance(ambiguity_check, bool) and not (
            isinstance(ambiguity_check, list)
            and all(isinstance(f, MemoryFormat) for f in ambiguity_check)):
        raise errors.type_error("The ambiguity_check argument must be a bool or a list of "
                                "memory formats.")
    formats = ambiguity_check if isinstance(ambiguity_check, list) else []
    check = ambiguity_check if isinstance(ambiguity_check, bool) else True
    several = any(a == b for a, b in zip(strides, strides[1:])) or 1 in shape
    if check and several and sum(is_contiguous(shape, strides, f) for f in formats) != 1:
        raise errors.runtime("The tensor does not have unique dim order, or cannot map to exact "
                             "one of the given memory formats.")
    ndim = len(shape)
    if ndim <= 1:
        return tuple(range(ndim))
    contiguous = is_contiguous(shape, strides, CONTIGUOUS)
    channels_last = is_contiguous(shape, strides, CHANNELS_LAST)
    if contiguous and not channels_last:
        return tuple(range(ndim))
    if channels_last and not contiguous:
        return (0, *range(2, ndim), 1)
    perm = list(reversed(range(ndim)))
    for i in range(1, ndim):  # an insertion sort that tolerates ambiguous comparisons
        dim1 = i
        for dim0 in reversed(range(i)):
            comparison = _should_swap(shape, strides, perm[dim0], perm[dim1])
            if comparison > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif comparison < 0:
                break
    if ambiguity_check and any(_should_swap(shape, strides, perm[i], perm[i + 1]) != -1
                               for i in range(ndim - 1)):
        raise errors.runtime("The tensor does not have unique dim order.")
    return tuple(reversed(perm))


def _should_swap(shape: tuple, strides: tuple, a: int, b: int) -> int:
    def ge(x, y):
        return True if y == 0 else False if x == 0 else x >= y or x % y == 0
    if strides[a] == 0 or strides[b] == 0:
        return 0
    if strides[a] == strides[b]:
        return 0 if ge(shape[b], shape[a]) else 1
    if ge(strides[b], strides[a]):
        return -1
    return 1 if ge(strides[a], strides[b]) else 0
