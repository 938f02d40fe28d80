"""Tensor factories (tensor, ones, arange, linspace, *_like, seeded random ones), default dtype."""

from __future__ import annotations

import itertools
import math
import os

import numpy as np

from gradcli.engine import memory_format as memory_formats
from gradcli.engine import blockwise, cascade_sum, devices, dtypes, errors, memory
from gradcli.engine.declarations import declare
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.triggered import triggered
from gradcli.engine.functions import F
from gradcli.engine.functions import export

FACTORY_GRAD_ERROR = "Only Tensors of floating point and complex dtype can require gradients"
COPY_WARNING = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
    "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).")


def _leaf(array: np.ndarray, dtype: dtypes.DType, requires_grad: bool) -> Tensor:
    """A new leaf over `array`, which the caller has just made (it is not copied again)."""
    if requires_grad and not dtype.differentiable:
        raise errors.runtime(FACTORY_GRAD_ERROR)
    out = Tensor(np.asarray(array, dtype=dtype.np), dtype, requires_grad=requires_grad)
    out._made_at = origin = STATE.origin
    if requires_grad:
        out._leaf_at = origin
    else:
        out._history = (("created here without requires_grad=True", origin),)
    return out


def infer_dtype(data) -> dtypes.DType:
    """The dtype torch.tensor picks for nested data (torch's infer_scalar_type): the promotion of
    every element's type, a bool as bool, an int as int64, a float (or an empty sequence) as the
    default dtype, a tensor or a NumPy scalar as its dtype."""
    found, stack = None, [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
            if item:
                continue
            dtype = STATE.default_dtype  # torch infers an empty sequence as the default dtype
        elif isinstance(item, Tensor):
            dtype = item.dtype
        elif isinstance(item, np.generic) and item.dtype in dtypes.NUMPY_TYPES:
            dtype = dtypes.from_numpy(item.dtype)
        elif isinstance(item, (bool, int, float, complex)):
            dtype = dtypes.scalar_dtype(item, STATE.default_dtype)
        elif isinstance(item, (str, bytes)):
            raise errors.type_error(f"new(): invalid data type '{type(item).__name__}'")
        else:
            raise errors.runtime(f"Could not infer dtype of {errors.type_name(item)}")
        found = dtype if found is None else dtypes.promote(found, dtype)
    return found or STATE.default_dtype


MAX_NESTING = 128  # torch's limit for a tensor made of nested sequences


def _sizes_down_first(data) -> list[int]:
    """torch's compute_sizes: the lengths down the first elements (a string is a sequence; a
    tensor is not, it stands for one number)."""
    sizes = []
    while isinstance(data, (list, tuple, str)):
        sizes.append(len(data))
        if len(sizes) > MAX_NESTING:
            raise errors.value_error(f"too many dimensions '{errors.type_name(data)}'")
        if not data:
            break
        data = data[0]
    if len(sizes) > memory.MAX_DIMS:
        raise errors.runtime(memory.too_many_dimensions(len(sizes)))
    return sizes


_NUMBER_LIKE = (bool, int, float, complex, Tensor, np.generic)


def _check_nesting(data, sizes: list[int], dtype: dtypes.DType, dim: int = 0) -> None:
    """torch's recursive_store, checking only: a sequence of the first one's length at every
    level above the numbers (a tensor iterates over its rows), one number at the bottom."""
    if dim == len(sizes):
        if isinstance(data, (list, tuple)):
            kind = type(data).__name__
            raise errors.type_error(f"must be real number, not {kind}" if dtype.is_floating_point
                                    else f"'{kind}' object cannot be interpreted as an integer")
        if isinstance(data, Tensor) and data.numel() != 1:
            raise errors.value_error("only one element tensors can be converted to Python scalars")
        if isinstance(data, complex) and dtype.category in (dtypes.INTEGRAL, dtypes.FLOATING) \
                or not isinstance(data, _NUMBER_LIKE) or isinstance(data, (np.str_, np.bytes_)):
            kind = errors.type_name(data)
            raise errors.type_error(f"must be real number, not {kind}" if dtype.category in (
                dtypes.FLOATING, dtypes.COMPLEX) else
                f"'{kind}' object cannot be interpreted as an integer")
        return
    if isinstance(data, Tensor) and data.ndim:
        data = [Tensor(row, data.dtype) for row in data.data]
    if not isinstance(data, (list, tuple)):
        raise errors.type_error("not a sequence")
    if len(data) != sizes[dim]:
        raise errors.value_error(f"expected sequence of length {sizes[dim]} at dim {dim} (got "
                                 f"{len(data)})")
    for item in data:
        _check_nesting(item, sizes, dtype, dim + 1)


TO_SCALAR_WARNING = triggered("Converting a tensor with requires_grad=True to a scalar may lead "
                              "to unexpected behavior.\nConsider using tensor.detach() first.",
                              "torch/csrc/autograd/generated/python_variable_methods.cpp", 822)


def _values(data, depth: int, integral: bool):
    """The numbers of a checked nest `depth` levels deep (a tensor there gives its rows, at the
    bottom its one number, as float(t) does); an `integral` dtype unpacks ints as long long."""
    if isinstance(data, Tensor):
        if depth:
            return data.data.tolist()
        if data.requires_grad:
            STATE.warn("UserWarning", TO_SCALAR_WARNING, once=True)
        return data.data.reshape(()).item()
    if isinstance(data, (list, tuple)):
        return [_values(x, depth - 1, integral) for x in data]
    if integral and isinstance(data, int) and not isinstance(data, bool) and \
            not -2**63 <= data < 2**63:
        raise errors.value_error("Overflow when unpacking long long")
    return data


def tensor(data, dtype: dtypes.DType | None = None, requires_grad: bool = False) -> Tensor:
    """torch.tensor: always a copy, dtype inferred from the data unless given."""
    if isinstance(data, Tensor):
        STATE.warn("UserWarning", COPY_WARNING)
        return _leaf(data.data.astype((dtype or data.dtype).np), dtype or data.dtype, requires_grad)
    if isinstance(data, (np.ndarray, np.generic)):
        _check_strides(data)
        dtype = dtype or _numpy_dtype(data)
        return _leaf(np.array(data, dtype=dtype.np), dtype, requires_grad)
    if isinstance(data, list) and data and isinstance(data[0], np.ndarray):
        STATE.warn("UserWarning", _ARRAY_LIST_WARNING, once=True)
    array = _plain_array(data)
    if array is not None:  # nested Python numbers: NumPy reads them at C speed
        dtype = dtype or (STATE.default_dtype if array.dtype.kind == "f" else
                          dtypes.from_numpy(array.dtype))
        return _leaf(_stored(array, dtype), dtype, requires_grad)
    if isinstance(data, (str, bytes)):
        raise errors.type_error(f"new(): invalid data type '{type(data).__name__}'")
    data = _array_rows(data)
    sizes = _sizes_down_first(data)
    dtype = dtype or infer_dtype(data)
    if 0 in sizes:  # torch stores nothing, so checks nothing, in an empty result
        return _leaf(np.zeros(sizes, dtype.np), dtype, requires_grad)
    _check_nesting(data, sizes, dtype)
    values = _values(data, len(sizes), dtype.category == dtypes.INTEGRAL)
    array = np.array(values, dtype=np.float64 if dtype.is_floating_point else
                     np.complex128 if dtype.is_complex else None)
    return _leaf(_stored(array, dtype), dtype, requires_grad)


def _stored(array: np.ndarray, dtype: dtypes.DType) -> np.ndarray:
    """Python numbers as `dtype` stores them, refused as torch's tensor() does when one
    overflows it."""
    if dtypes.overflows(array, dtype):
        raise errors.runtime(f"value cannot be converted to type {dtype.name} without overflow")
    return array.astype(dtype.np)


_ARRAY_LIST_WARNING = triggered(
    "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting "
    "the list to a single numpy.ndarray with numpy.array() before converting to a tensor.",
    "torch/csrc/utils/tensor_new.cpp", 252)


def _array_rows(data):
    """`data` with each NumPy array in its sequences as the list of its rows, down to NumPy
    scalars (torch reads an array there as a sequence of numbers of its dtype)."""
    if isinstance(data, np.ndarray):
        return [_array_rows(row) for row in data] if data.ndim else data[()]
    if isinstance(data, (list, tuple)) and any(isinstance(x, (list, tuple, np.ndarray))
                                               for x in data):
        return type(data)(_array_rows(x) for x in data)
    return data


_PLAIN_KINDS = (np.dtype(np.float64), np.dtype(np.int64), np.dtype(np.bool_))


def _plain_array(data) -> np.ndarray | None:
    """The array of a rectangular nest of Python floats, ints and bools, or None for anything
    else (tensors, ragged lists, strings, huge ints), which the checked path reports as torch."""
    if not isinstance(data, (list, tuple)):
        return None
    try:
        array = np.array(data)
    except (ValueError, TypeError, OverflowError):
        return None
    if array.dtype == np.float64:  # NumPy's float64 scalars read as themselves, not as floats
        flat = data
        for _ in range(array.ndim - 1):
            flat = itertools.chain.from_iterable(flat)
        kinds = set(map(type, flat))
        if not kinds <= _PYTHON_NUMBERS or float not in kinds:  # (ints past int64 as floats)
            return None
    return array if array.dtype in _PLAIN_KINDS else None


_PYTHON_NUMBERS = frozenset((float, int, bool))


def from_numpy(array) -> Tensor:
    """torch.from_numpy: a tensor sharing the array's memory."""
    if not isinstance(array, np.ndarray):
        raise errors.type_error(f"expected np.ndarray (got {errors.type_name(array)})")
    _check_strides(array)
    return Tensor(array, _numpy_dtype(array))


def _check_strides(array) -> None:
    """torch's refusal of an array with a negative stride (a reversed view)."""
    if any(stride < 0 for stride in array.strides):
        raise errors.value_error(
            "At least one stride in the given numpy array is negative, and tensors with negative "
            "strides are not currently supported. (You can probably work around this by making "
            "a copy of your array  with array.copy().) ")


def _numpy_dtype(array) -> dtypes.DType:
    try:
        return dtypes.from_numpy(array.dtype)
    except KeyError:
        raise errors.type_error(
            f"can't convert np.ndarray of type numpy.{array.dtype.type.__name__}. The only "
            "supported types "
            "are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
            "uint64, uint32, uint16, uint8, and bool.") from None


def as_tensor(data, dtype: dtypes.DType | None = None) -> Tensor:
    """torch.as_tensor: the tensor itself when it already has the dtype, else a new tensor."""
    if isinstance(data, np.ndarray):
        _check_strides(data)
        if dtype is None or dtype is _numpy_dtype(data):
            return from_numpy(data)
    if isinstance(data, Tensor):
        if dtype is None or dtype is data.dtype:
            return data
        return F.to_dtype(data, dtype)
    return tensor(data, dtype)


def asarray(obj, dtype: dtypes.DType | None = None, copy=None, requires_grad=None) -> Tensor:
    """torch.asarray: a tensor shares its memory unless copied (copy=True, or another dtype);
    requires_grad defaults to the tensor's own, and a non-leaf that gives it up is detached."""
    if not isinstance(obj, Tensor):
        return tensor(obj, dtype, bool(requires_grad))
    if requires_grad is None:
        if obj.requires_grad:
            STATE.warn("UserWarning", _ASARRAY_REQUIRES_GRAD, once=True)
        requires_grad = obj.requires_grad
    retyped = dtype is not None and dtype is not obj.dtype
    result = obj
    if copy or (copy is None and retyped):
        result = F.to_dtype(obj, dtype) if retyped else F.clone(obj)
    elif retyped:
        raise errors.value_error(f"can't alias tensor with dtype '{obj.dtype.scalar_name}' into "
                                 f"dtype '{dtype.scalar_name}'.")
    if result.grad_fn is not None and not requires_grad:
        return F.detach(result)
    result.requires_grad = bool(requires_grad)
    return result


_ASARRAY_REQUIRES_GRAD = triggered(
    "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of False. "
    "Pass requires_grad=False explicitly to get the old behavior and silence this warning.",
    "torch/csrc/utils/tensor_new.cpp", 1737)


def size_args(size: tuple, name: str = "") -> tuple[int, ...]:
    """Accept both ones(2, 3) and ones((2, 3)), as torch does; a wrong item is named as torch's
    parser names it: its type alone, the first item of a sequence, or where it failed."""
    listed = len(size) != 1
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size, listed = tuple(size[0]), True
    for position, s in enumerate(size, 1):
        if not isinstance(s, int) or isinstance(s, bool):
            kind = errors.type_name(s)
            if not listed:
                raise errors.type_error(f"{name or 'empty'}(): argument 'size' (position 1) must "
                                        f"be tuple of ints, not {kind}")
            if position == 1:
                raise errors.type_error(f"{name or 'empty'}(): argument 'size' (position 1) must "
                                        f"be tuple of ints, but found element of type {kind} at "
                                        "pos 0")
            raise errors.type_error(
                f"{name or 'empty'}(): argument 'size' failed to unpack the object at pos "
                f"{position} with error \"type must be tuple of ints,but got {kind}\"")
        if not -2**63 <= s < 2**63:
            raise errors.type_error(
                f"{name or 'empty'}(): argument 'size' failed to unpack the object at pos "
                f"{position} with error \"Overflow when unpacking long long\"")
    for s in size:
        if s < 0:
            if name == "zeros":
                raise errors.runtime("zeros: Dimension size must be non-negative.")
            sizes = ", ".join(map(str, size))
            raise errors.runtime(f"Trying to create tensor with negative dimension {s}: [{sizes}]")
    return tuple(size)


_INT64_MAX, _UINT64 = 2**63 - 1, 2**64


def storage(shape: tuple[int, ...], dtype: dtypes.DType) -> tuple[int, ...]:
    """`shape` once torch's checks before allocating a contiguous tensor of it pass: the bytes
    must fit int64 (the sizes multiplied in wrapping 64-bit arithmetic, as c10 does), so must the
    strides, and here also the machine's memory (which torch's allocator finds out by failing)
    and the run's memory limit."""
    count, overflowed = 1, False
    for size in shape:
        count *= size
        overflowed |= count >= _UINT64
        count %= _UINT64
    nbytes = count * dtype.itemsize
    if overflowed or nbytes > _INT64_MAX:
        raise errors.runtime("Storage size calculation overflowed with sizes="
                             f"[{', '.join(map(str, shape))}]")
    stride = 1
    for size in reversed(shape[1:]):
        stride *= max(size, 1)
        if stride > _INT64_MAX:
            raise errors.runtime("Stride calculation overflowed")
    memory.check_tensor_bytes(nbytes)
    return shape


def full(size, fill_value, dtype=None, requires_grad: bool = False) -> Tensor:
    if dtype is None:
        dtype = dtypes.scalar_dtype(fill_value, STATE.default_dtype)
    shape = storage(size_args((size,), "full"), dtype)
    dtypes.check_fill(fill_value, dtype, numel=math.prod(shape))
    if isinstance(fill_value, complex) and not dtype.is_complex:
        fill_value = fill_value.real
    return _leaf(np.full(shape, fill_value).astype(dtype.np), dtype, requires_grad)


def _filled(size: tuple, name: str, value: int, dtype, requires_grad: bool) -> Tensor:
    dtype = dtype or STATE.default_dtype
    shape = storage(size_args(size, name), dtype)
    return _leaf(np.full(shape, value, dtype.np), dtype, requires_grad)


def ones(*size, dtype=None, requires_grad: bool = False) -> Tensor:
    return _filled(size, "ones", 1, dtype, requires_grad)


def zeros(*size, dtype=None, requires_grad: bool = False) -> Tensor:
    return _filled(size, "zeros", 0, dtype, requires_grad)


def empty(*size, dtype=None, requires_grad: bool = False, memory_format=None) -> Tensor:
    """torch.empty: uninitialised memory in torch; zeros here, laid out in `memory_format`."""
    out = _filled(size, "empty", 0, dtype, requires_grad)
    if memory_format is not None:
        out.data = memory_formats.laid_out(out.data, memory_format)
    return out


def full_like(t: Tensor, fill_value, dtype=None, requires_grad: bool = False,
              memory_format=None) -> Tensor:
    """A tensor of `t`'s shape filled with `fill_value`, laid out as torch's *_like lay out."""
    dtype = dtype or t.dtype
    dtypes.check_fill(fill_value, dtype, numel=t.numel())
    filled = np.full(t.shape, fill_value).astype(dtype.np)
    return _leaf(memory_formats.laid_out_like(filled, t.data, F.strides(t), memory_format),
                 dtype, requires_grad)


def ones_like(t: Tensor, dtype=None, requires_grad: bool = False, memory_format=None) -> Tensor:
    return full_like(t, 1, dtype, requires_grad, memory_format)


def zeros_like(t: Tensor, dtype=None, requires_grad: bool = False, memory_format=None) -> Tensor:
    if t.sparse is not None:
        return F.sparse_zeros_like(t, dtype or t.dtype)
    return full_like(t, 0, dtype, requires_grad, memory_format)


def eye(n: int, m: int | None = None, dtype=None, requires_grad: bool = False) -> Tensor:
    for name, value in (("n", n), ("m", m)):
        if value is not None and value < 0:
            raise errors.runtime(f"{name} must be greater or equal to 0, got {value}")
    dtype, m = dtype or STATE.default_dtype, n if m is None else m
    if n * m > _INT64_MAX:
        raise errors.runtime("numel: integer multiplication overflow")
    storage((n, m), dtype)
    return _leaf(np.eye(n, m), dtype, requires_grad)


def arange(start, end=None, step=1, dtype=None, requires_grad: bool = False) -> Tensor:
    if end is None:
        start, end = 0, start
    if dtype is None:
        floating = any(isinstance(v, float) for v in (start, end, step))
        dtype = STATE.default_dtype if floating else dtypes.int64
    if dtype.category in (dtypes.BOOL, dtypes.COMPLEX):  # its kernel's dispatch, checks first
        raise errors.not_implemented_for("arange_cpu", dtype)
    if not (step > 0 or step < 0):  # NaN too
        raise errors.runtime("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise errors.runtime(f"unsupported range: {start:g} -> {end:g}")
    if dtype.category <= dtypes.INTEGRAL and any(  # the step (int64's ends too) as int64_t
            not -2.0 ** 63 <= v < 2.0 ** 63 for v in ((start, end, step) if dtype is
                                                       dtypes.int64 else (step,))):
        raise errors.runtime("value cannot be converted to type int64_t without overflow")
    if dtype is dtypes.int64 and any(isinstance(v, float) for v in (start, end, step)):
        start, end, step = int(start), int(end), int(step)  # torch counts in int64 too
        if step == 0:
            raise errors.value_error("step must be nonzero")
    if end != start and (end > start) != (step > 0):
        raise errors.runtime("upper bound and lower bound inconsistent with step sign")
    span = (end - start) / step
    if not span <= _INT64_MAX:  # an infinite one too
        raise errors.runtime("invalid size, possible overflow?")
    count = max(math.ceil(span), 0)
    storage((count,), dtype)
    if not dtype.is_floating_point:
        values = int(start) + int(step) * np.arange(count, dtype=np.int64)
        return _leaf(values.astype(dtype.np), dtype, requires_grad)
    return _leaf(_arange_values(float(start), float(step), count, dtype), dtype, requires_grad)


RANGE_WARNING = (
    "torch.range is deprecated and will be removed in a future release because its behavior is "
    "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values "
    "in [start, end).")


def range_(start, end, step=1, dtype=None, requires_grad: bool = False) -> Tensor:
    """torch.range: both ends included, start + i * step in the accumulate type (int64 for
    integers, else double: no fused multiply-add in range_out), then rounded to the dtype."""
    STATE.warn("UserWarning", RANGE_WARNING)
    dtype = dtype or STATE.default_dtype
    kind = float if dtype.is_floating_point else int
    start, end, step = kind(start), kind(end), kind(step)
    if step == 0:
        raise errors.runtime("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise errors.runtime(f"unsupported range: {start} -> {end}")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise errors.runtime("upper bound and lower bound inconsistent with step sign")
    count = (int((end - start) / step) if kind is float else abs(end - start) // abs(step)) + 1
    storage((count,), dtype)
    index = np.arange(count, dtype=np.float64 if kind is float else np.int64)
    return _leaf((start + index * step).astype(dtype.np), dtype, requires_grad)


def _arange_values(start: float, step: float, count: int, dtype: dtypes.DType) -> np.ndarray:
    """torch's CPU arange kernel: start + step * i in double (a fused multiply-add), except that
    its vectorised loop makes runs of one AVX2 register, each counting from the run's first
    value rounded to the dtype, over a multiple of two registers of each thread's chunk."""
    if not count:  # (an infinite step counts none)
        return np.zeros(0, dtype.np)
    if dtype.itemsize == 2:
        return _arange_16(start, step, count, dtype)
    exact = _exactly_representable(start, step, count, dtype.np)
    if exact is not None:
        return exact
    from gradcli.engine.fma import fma64
    muladd = _plain_muladd if _exact_products(step, count) else fma64

    def values_at(index):
        run_start, in_vector = _vector_runs(index, count, 32 // dtype.np.itemsize)
        index, run_start = index.astype(np.float64), run_start.astype(np.float64)
        base = muladd(run_start, step, start).astype(dtype.np).astype(np.float64)
        vector = muladd(index - run_start, step, base)
        return np.where(in_vector, vector, muladd(index, step, start))
    return blockwise.over_positions(count, values_at, dtype=dtype.np)


def _arange_16(start: float, step: float, count: int, dtype: dtypes.DType) -> np.ndarray:
    """arange for Half and BFloat16: each vector's first value start + step * i in float, made
    16-bit, and the others that value plus k * step in float (Vectorized<T>::arange), each made
    16-bit; the scalar tails start + step * i in float."""
    from gradcli.engine.fma import fma32
    first, stride = np.float32(start), np.float32(step)

    def values_at(index):
        run_start, in_vector = _vector_runs(index, count, 32 // dtype.itemsize)
        with np.errstate(all="ignore"):
            base = _to_16(fma32(stride, run_start.astype(np.float32), first), dtype)
            vector = fma32((index - run_start).astype(np.float32), stride, base)
            scalar = fma32(stride, index.astype(np.float32), first)
        return _to_16(np.where(in_vector, vector, scalar), dtype)
    return blockwise.over_positions(count, values_at, dtype=dtype.np)


def _vector_runs(index: np.ndarray, count: int, lanes: int) -> tuple[np.ndarray, np.ndarray]:
    """torch's vectorised arange loop at flat positions `index` of `count`: the first position
    of the register-wide run each is in (runs count from there), and whether the vector code
    computes it (a multiple of two registers of each thread's chunk) rather than the scalar
    tail."""
    chunk = cascade_sum.parallel_chunk(count)
    chunk_start = index // chunk * chunk
    run_start = chunk_start + (index - chunk_start) // lanes * lanes
    chunk_size = np.minimum(chunk_start + chunk, count) - chunk_start
    return run_start, index < chunk_start + chunk_size // (2 * lanes) * 2 * lanes


def _to_16(values, dtype: dtypes.DType) -> np.ndarray:
    """float32 values rounded to Half's or BFloat16's, as float32."""
    values = np.asarray(values, np.float32)
    if dtype.name == "bfloat16":
        return dtypes.round_bfloat16(values)
    return values.astype(np.float16).astype(np.float32)


def _exactly_representable(start: float, step: float, count: int, kind: np.dtype):
    """The values when every start + step * i is exactly representable in `kind` (integer or
    dyadic start and step, values within the mantissa): then each of torch's roundings is
    exact, whatever its order, and integer arithmetic gives them directly. None otherwise."""
    if count == 0 or not (math.isfinite(start) and math.isfinite(step)):
        return None
    info = np.finfo(kind)
    (start_top, start_bottom), (step_top, step_bottom) = (
        start.as_integer_ratio(), step.as_integer_ratio())
    scale = max(start_bottom, step_bottom)  # both are powers of two
    first, stride = start_top * (scale // start_bottom), step_top * (scale // step_bottom)
    span = abs(stride) * (count - 1)
    widest = max(abs(first), abs(first + stride * (count - 1)), span)
    finest = 2 ** min(64, 1 - math.frexp(float(info.smallest_subnormal))[1])  # exact below
    if widest > 2 ** (info.nmant + 1) or scale > finest or widest / scale > info.max:
        return None
    # whole numbers are exact in the dtype itself; others in double (all below 2 ** 53)
    values = np.arange(count, dtype=kind if scale == 1 else np.float64)
    if stride != 1:
        values *= stride
    if first:
        values += first
    if scale != 1:
        values /= scale
    return values.astype(kind, copy=False)


def _exact_products(step: float, count: int) -> bool:
    """Whether i * step is exact in double for every index i below count: then a plain
    multiply-add rounds once, as the fused one does."""
    numerator = abs(step.as_integer_ratio()[0])
    return numerator.bit_length() + max(count, 1).bit_length() <= 53


def _plain_muladd(a, b, c):
    return a * b + c


def linspace(start, end, steps: int, dtype=None, requires_grad: bool = False) -> Tensor:
    if steps < 0:
        raise errors.runtime("number of steps must be non-negative")
    dtype = dtype or STATE.default_dtype
    storage((steps,), dtype)
    return _leaf(_linspace_values(start, end, steps, dtype), dtype, requires_grad)


def _linspace_values(start, end, steps: int, dtype: dtypes.DType) -> np.ndarray:
    """torch's CPU linspace kernel: the first half counts up from start, the second down from
    end, each value start + step * i (end - step * j) in the dtype's own arithmetic (a fused
    multiply-add; double for integer dtypes), computed block by block."""
    from gradcli.engine.fma import fma32, fma64
    if steps <= 1:
        return np.full(steps, start).astype(dtype.np)
    if dtype.is_floating_point and dtype.itemsize == 2:
        return _linspace_16(start, end, steps, dtype)
    if dtype.is_floating_point:
        kind, fma = dtype.np.type, fma32 if dtype.np.itemsize == 4 else fma64
        first, last = kind(start), kind(end)
        step = (last - first) / kind(steps - 1)
    else:
        kind, fma = np.float64, fma64
        for value in (start, end):  # Scalar.to<T>(): checked, then wrapped into the type
            dtypes.check_fill(value, dtype)
        first, last = (float(np.array(int(value)).astype(dtype.np)) for value in (start, end))
        step = (last - first) / (steps - 1)

    def values_at(index):
        up, counts = _linspace_counts(index, steps)
        counts = counts.astype(kind)
        if up.all() or not up.any():  # every block but the one at the middle: scalar operands
            return fma(step, counts, first) if up[0] else fma(-step, counts, last)
        return np.where(up, fma(step, counts, first), fma(-step, counts, last))
    return blockwise.over_positions(steps, values_at, dtype=dtype.np)


def _linspace_counts(index: np.ndarray, steps: int) -> tuple[np.ndarray, np.ndarray]:
    """Whether each position is in linspace's first half, and its count: from the start there,
    from the end in the second half."""
    up = index < steps // 2
    return up, np.where(up, index, steps - 1 - index)


def _linspace_16(start, end, steps: int, dtype: dtypes.DType) -> np.ndarray:
    """linspace in c10's Half or BFloat16 arithmetic: every operation computed in float and
    rounded back to the 16-bit type, the counts and steps - 1 made 16-bit first."""
    def rounded(values):
        return _to_16(values, dtype)

    with np.errstate(all="ignore"):
        first, last = rounded(np.float32(start)), rounded(np.float32(end))
        step = rounded(rounded(last - first) / rounded(np.float32(steps - 1)))

    def values_at(index):
        up, counts = _linspace_counts(index, steps)
        with np.errstate(all="ignore"):
            moved = rounded(step * rounded(counts.astype(np.float32)))
            return rounded(np.where(up, first + moved, last - moved))
    return blockwise.over_positions(steps, values_at, dtype=dtype.np)


def logspace(start, end, steps: int, base: float = 10.0, dtype=None,
             requires_grad: bool = False) -> Tensor:
    if steps < 0:
        raise errors.runtime("number of steps must be non-negative")
    dtype = dtype or STATE.default_dtype
    storage((steps,), dtype)
    return _leaf(_logspace_values(start, end, steps, float(base), dtype), dtype, requires_grad)


def _logspace_values(start, end, steps: int, base: float, dtype: dtypes.DType) -> np.ndarray:
    """torch's CPU logspace kernel: start and end cast to the dtype and subtracted in it, the
    exponents counted in double up from start for the first half and down from end for the
    second, then C's pow."""
    if steps == 1:
        return np.array([_c_pow(base, float(start))]).astype(dtype.np)
    first, last = (np.array(v).astype(dtype.np) for v in (start, end))
    step = float(last - first) / (steps - 1) if steps else 0.0
    first, last = float(first), float(last)
    index = np.arange(steps, dtype=np.float64)
    exponent = np.where(index < steps // 2, first + step * index,
                        last - step * (steps - 1 - index))
    return np.array([_c_pow(base, e) for e in exponent.tolist()]).astype(dtype.np)


def _c_pow(base: float, exponent: float) -> float:
    """C's pow: infinity where the result overflows, NaN off its domain (math.pow raises)."""
    try:
        return math.pow(base, exponent)
    except OverflowError:
        return -math.inf if base < 0 and exponent % 2 == 1 else math.inf
    except ValueError:
        return math.nan


def set_default_dtype(dtype: dtypes.DType) -> None:
    if not isinstance(dtype, dtypes.DType):
        raise errors.type_error("invalid dtype object: only floating-point types are supported "
                                "as the default type")
    if not dtype.is_floating_point:
        raise errors.type_error("only floating-point types are supported as the default type")
    STATE.default_dtype = dtype


def get_default_dtype() -> dtypes.DType:
    return STATE.default_dtype


# ---- random factories ---------------------------------------------------------------------------

class RandomSource:
    """The default generator, created on first use so start-up stays light. Like torch's, it
    starts from a seed drawn afresh in each process; `kind` is the class it is made of."""

    def __init__(self) -> None:
        self._generator = None
        self._start_seed = None
        self.kind = None

    @property
    def start_seed(self) -> int:
        if self._start_seed is None:
            self._start_seed = int.from_bytes(os.urandom(8), "little")
        return self._start_seed

    @property
    def generator(self):
        if self._generator is None:
            from gradcli.engine.random import Generator
            self._generator = (self.kind or Generator)(self.start_seed)
        return self._generator

    def use(self, kind) -> None:
        """Make the default generator of `kind` (the language's torch.Generator)."""
        self.kind = kind
        if not isinstance(self._generator, kind):
            self._generator = None

    def reset(self, seed: int | None = None) -> None:
        """Back to the process's start seed (each session), or to `seed` from now on."""
        if seed is not None:
            self._start_seed = seed
        if self._generator is not None:
            self._generator.manual_seed(self.start_seed)


DEFAULT_GENERATOR = RandomSource()


def draw_source(generator=None):
    """The engine generator a `generator=` argument names, or the default one."""
    return DEFAULT_GENERATOR.generator if generator is None else generator


def _check_floating(kernel: str, dtype: dtypes.DType) -> None:
    if not dtype.is_floating_point:
        raise errors.not_implemented_for(kernel, dtype)


def randn(*size, dtype=None, requires_grad: bool = False, generator=None) -> Tensor:
    dtype = dtype or STATE.default_dtype
    shape = storage(size_args(size, "randn"), dtype)
    if dtype.is_complex:  # torch draws both parts as normal_(0, 1/sqrt(2)) of view_as_real
        return _leaf(_complex_draw(draw_source(generator).normal, shape, dtype, 0.0,
                                   1 / math.sqrt(2)), dtype, requires_grad)
    _check_floating("normal_kernel_cpu", dtype)
    values = draw_source(generator).normal(shape, dtype.np)
    return _leaf(values, dtype, requires_grad)


def rand(*size, dtype=None, requires_grad: bool = False, generator=None) -> Tensor:
    dtype = dtype or STATE.default_dtype
    shape = storage(size_args(size, "rand"), dtype)
    if dtype.is_complex:  # torch draws uniform_ over view_as_real: both parts in [0, 1)
        return _leaf(_complex_draw(draw_source(generator).uniform, shape, dtype, 0.0, 1.0),
                     dtype, requires_grad)
    _check_floating("check_uniform_bounds", dtype)
    values = draw_source(generator).uniform(shape, dtype.np)
    return _leaf(values, dtype, requires_grad)


def _complex_draw(draw, shape, dtype, low: float, high: float):
    """A complex array drawn as torch draws into view_as_real: real and imaginary parts side by
    side, each part drawn by `draw` with (low, high) as (from, to) or (mean, std)."""
    return draw(tuple(shape) + (2,), dtypes.real_of(dtype).np, low, high).view(dtype.np)[..., 0]


def _check_std(std) -> None:
    if isinstance(std, Tensor):
        if std.numel() and bool((std.data < 0).any()):
            raise errors.runtime("normal expects all elements of std >= 0.0")
    elif std < 0:
        raise errors.runtime(f"normal expects std >= 0.0, but found std {std:g}")


def normal(mean, std, size=None, dtype=None, requires_grad: bool = False,
           generator=None) -> Tensor:
    """torch.normal: numbers and a size draw like normal_(mean, std); tensor means or stds
    draw standard normals of their broadcast shape, then scale by std and shift by mean."""
    _check_std(std)
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if size is None:
            raise errors.type_error("normal() missing 1 required positional arguments: \"size\"")
        dtype = dtype or STATE.default_dtype
        _check_floating("normal_kernel_cpu", dtype)
        values = draw_source(generator).normal(storage(size_args((size,), "normal"), dtype),
                                                    dtype.np, float(mean), float(std))
        return _leaf(values, dtype, requires_grad)
    tensors = [v for v in (mean, std) if isinstance(v, Tensor)]
    dtype = tensors[0].dtype
    _check_floating("normal_kernel_cpu", dtype)
    shape = tensors[0].shape if len(tensors) == 1 else F.broadcast_shape(mean.shape, std.shape)
    values = draw_source(generator).normal(shape, dtype.np, 0.0, 1.0)
    scale = std.data if isinstance(std, Tensor) else dtype.np.type(std)
    shift = mean.data if isinstance(mean, Tensor) else dtype.np.type(mean)
    return _leaf((values * scale + shift).astype(dtype.np), dtype, requires_grad)


def fill_random(t: Tensor, kind: str, low: float, high: float, generator=None) -> Tensor:
    """Tensor.normal_(mean, std) / uniform_(from, to): the tensor's values redrawn in place."""
    if STATE.grad_enabled and t.requires_grad and t.is_leaf:
        raise errors.runtime("a leaf Variable that requires grad is being used in an in-place "
                             "operation.").noted(F.leaf_note(t))
    if kind == "normal":
        _check_std(high)
        if t.dtype.is_complex:  # each part normal_(mean, std / sqrt(2)) over view_as_real
            drawn = _complex_draw(draw_source(generator).normal, t.shape, t.dtype, float(low),
                                  float(high) / math.sqrt(2))
        else:
            _check_floating("normal_kernel_cpu", t.dtype)
            drawn = draw_source(generator).normal(t.shape, t.dtype.np, float(low), float(high))
    else:
        if not t.dtype.is_complex:  # a complex tensor draws both parts over view_as_real
            _check_floating("check_uniform_bounds", t.dtype)
        if low > high:
            raise errors.runtime(f"uniform_ expects to return a [from, to) range, but found "
                                 f"from={low:g} > to={high:g}")
        if high - low > np.finfo(t.dtype.np).max:
            raise errors.runtime(f"uniform_ expects to-from <= std::numeric_limits<"
                                 f"{t.dtype.scalar_name}>::max(), but found to={high:g} and "
                                 f"from={low:g} which result in to-from to exceed the limit")
        drawn = (_complex_draw(draw_source(generator).uniform, t.shape, t.dtype, low, high)
                 if t.dtype.is_complex else
                 draw_source(generator).uniform(t.shape, t.dtype.np, low, high))
    t.data[...] = dtypes.stored(drawn, t.dtype)
    t.bump_version()
    return t


def _drawn_like(t: Tensor, memory_format, draw) -> Tensor:
    """`draw(shape, in_order)` over `t`'s shape, in memory order of the layout torch's *_like
    gives (a layout other than C order draws as torch's strided kernels do)."""
    order = memory_formats.order_like(t.data, F.strides(t), memory_format)
    if order == sorted(order):
        return draw(t.shape, True)
    out = draw([t.shape[d] for d in order], False)
    out.data = out.data.transpose(np.argsort(order))
    return out


def randn_like(t: Tensor, dtype=None, requires_grad: bool = False, generator=None,
               memory_format=None) -> Tensor:
    dtype = dtype or t.dtype
    if dtype.is_complex:
        return _drawn_like(t, memory_format, lambda shape, _: randn(
            shape, dtype=dtype, requires_grad=requires_grad, generator=generator))
    _check_floating("normal_kernel_cpu", dtype)
    return _drawn_like(t, memory_format, lambda shape, contiguous: _leaf(
        draw_source(generator).normal(shape, dtype.np, contiguous=contiguous), dtype,
        requires_grad))


def rand_like(t: Tensor, dtype=None, requires_grad: bool = False, generator=None,
              memory_format=None) -> Tensor:
    return _drawn_like(t, memory_format, lambda shape, _: rand(
        shape, dtype=dtype or t.dtype, requires_grad=requires_grad, generator=generator))


_FLOAT_DIGITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}
_FLOAT_RANGE = {"float16": 65504.0, "bfloat16": 3.3895313892515355e38,
                "float32": float(np.finfo(np.float32).max),
                "float64": float(np.finfo(np.float64).max)}
_BEYOND_DIGITS = ("{} is out of bounds [-(2^{}), 2^{}]. Due to precision limitations {} can "
                  "support discrete uniform distribution only within this range. This warning "
                  "will become an error in version 1.7 release, please fix the code in advance")


def check_random_range(low: int, high: int, dtype) -> None:
    """random_(from, to)'s checks (torch's randint draws through it): from < to, then
    check_from_to_in_range: from and to - 1 within the dtype, and for a floating dtype a warning
    for either past the integers it holds exactly."""
    if low >= high:
        raise errors.runtime(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    bounds = ((-_FLOAT_RANGE[dtype.name], _FLOAT_RANGE[dtype.name]) if dtype.is_floating_point
              else (0, 1) if dtype is dtypes.bool_
              else (int(np.iinfo(dtype.np).min), int(np.iinfo(dtype.np).max))
              if dtype.category == dtypes.INTEGRAL else None)
    if bounds is None:
        return
    ends = (("from", low, 110), ("to - 1", high - 1, 111))
    for name, value, _ in ends:
        if not bounds[0] <= value <= bounds[1]:
            raise errors.runtime(f"{name} is out of bounds for {dtype.cpp_name}")
    digits = _FLOAT_DIGITS.get(dtype.name)
    for name, value, line in ends if digits else ():
        if not -(1 << digits) <= value <= 1 << digits:
            STATE.warn("UserWarning", triggered(
                _BEYOND_DIGITS.format(name, digits, digits, dtype.cpp_name),
                "aten/src/ATen/native/DistributionTemplates.h", line))


def randint(*args, dtype=None, requires_grad: bool = False, generator=None) -> Tensor:
    """torch.randint(high, size) or torch.randint(low, high, size), as declared below."""
    low, high, size = (0, *args) if len(args) == 2 else args
    dtype = dtype or dtypes.int64
    check_random_range(low, high, dtype)
    shape = storage(size_args((size,), "randint"), dtype)
    values = draw_source(generator).randint(int(low), int(high), shape, dtype.np)
    return _leaf(values, dtype, requires_grad)


def randperm(n: int, dtype=None, requires_grad: bool = False, generator=None) -> Tensor:
    if n < 0:
        raise errors.runtime(f"Trying to create tensor with negative dimension {n}: [{n}]")
    dtype = dtype or dtypes.int64
    storage((n,), dtype)
    values = draw_source(generator).randperm(int(n))
    return _leaf(np.asarray(values).astype(dtype.np), dtype, requires_grad)


def _sized_factory(fn):
    """torch.ones(2, 3) / ones((2, 3)) / ones(size=(2, 3)) with torch's factory keywords."""
    def make(size, *, dtype=None, layout=None, device=None, pin_memory=False,
             requires_grad=False, generator=None, out=None, memory_format=None):
        devices.place_new(device)
        drawn = {} if generator is None else {"generator": generator}
        if memory_format is not None:
            drawn["memory_format"] = memory_format
        return fn(*size, dtype=dtype, requires_grad=requires_grad, **drawn)
    return make


_FACTORY_KEYWORDS = ("ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
                     "bool? pin_memory=False, bool requires_grad=False")
for _name in ("ones", "zeros"):
    declare(_name, _sized_factory(globals()[_name]),
            f"{_name}(int[] size, *, Tensor? out=None, {_FACTORY_KEYWORDS})", variants="torch")
declare("empty", _sized_factory(empty), f"empty(int[] size, *, Tensor? out=None, "
        f"{_FACTORY_KEYWORDS}, MemoryFormat? memory_format=None)", variants="torch")
for _name in ("rand", "randn"):
    declare(_name, _sized_factory(globals()[_name]),
            f"{_name}(int[] size, *, Generator? generator, Tensor? out=None, {_FACTORY_KEYWORDS})",
            f"{_name}(int[] size, *, Tensor? out=None, {_FACTORY_KEYWORDS})", variants="torch")


def _placed(fn):
    """`fn(*arguments, dtype=, requires_grad=, ...)` under torch's factory keywords: the device
    checked, layout and pin_memory accepted, a generator passed on when one is given."""
    def factory(*arguments, dtype=None, layout=None, device=None, pin_memory=False,
                requires_grad=False, generator=None, memory_format=None):
        devices.place_new(device)
        drawn = {} if generator is None else {"generator": generator}
        if memory_format is not None:
            drawn["memory_format"] = memory_format
        return fn(*arguments, dtype=dtype, requires_grad=requires_grad, **drawn)
    return factory


def _zero_dim_bounds(function: str, start, end) -> tuple:
    """linspace's / logspace's start and end, a 0-dim tensor given for a number taken as its
    Python number; torch names every tensor bound when one has dimensions."""
    given = [(name, v) for name, v in (("start", start), ("end", end)) if isinstance(v, Tensor)]
    if any(v.ndim for _, v in given):
        named = " and ".join(f"{name} with {v.ndim} dimension(s)" for name, v in given)
        raise errors.runtime(f"{function} only supports 0-dimensional start and end tensors, but "
                             f"got {named}.")
    return tuple(v.data.item() if isinstance(v, Tensor) else v for v in (start, end))


def _linspace(start, end, steps, **options):
    return linspace(*_zero_dim_bounds("linspace", start, end), steps, **options)


def _logspace(start, end, steps, base=10.0, **options):
    return logspace(*_zero_dim_bounds("logspace", start, end), steps, base, **options)


def _randint_like(t: Tensor, *bounds, dtype=None, requires_grad=False, generator=None):
    """randint_like(input, high) or (input, low, high): randint over input's shape."""
    if len(bounds) == 1 and isinstance(bounds[0], Tensor) and bounds[0].ndim != 0:
        raise errors.runtime("high must be a scalar tensor and on CPU")
    bounds = tuple(int(b.data.item()) if isinstance(b, Tensor) else b for b in bounds)
    low, high = (0, *bounds) if len(bounds) == 1 else bounds
    return randint(low, high, t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad,
                   generator=generator)


_DRAWN = "Generator? generator, "
_LIKE_KEYWORDS = "MemoryFormat? memory_format=None, " + _FACTORY_KEYWORDS
declare("arange", _placed(arange), f"arange(Scalar end, *, Tensor? out=None, {_FACTORY_KEYWORDS})",
        f"arange(Scalar start, Scalar end, *, {_FACTORY_KEYWORDS})",
        f"arange(Scalar start, Scalar end, Scalar step=1, *, Tensor? out=None, "
        f"{_FACTORY_KEYWORDS})", variants="torch")
declare("range", _placed(range_), f"range(Scalar start, Scalar end, Scalar step=1, *, "
        f"Tensor? out=None, {_FACTORY_KEYWORDS})", variants="torch")
declare("linspace", _placed(_linspace), *(
    f"linspace({start} start, {end} end, int steps, *, Tensor? out=None, {_FACTORY_KEYWORDS})"
    for start, end in (("Tensor", "Tensor"), ("Scalar", "Tensor"), ("Tensor", "Scalar"),
                       ("Scalar", "Scalar"))), variants="torch")
declare("logspace", _placed(_logspace), *(
    f"logspace({start} start, {end} end, int steps, float base=10.0, *, Tensor? out=None, "
    f"{_FACTORY_KEYWORDS})"
    for start, end in (("Tensor", "Tensor"), ("Scalar", "Tensor"), ("Tensor", "Scalar"),
                       ("Scalar", "Scalar"))), variants="torch")
declare("full", _placed(full),
        f"full(int[] size, Scalar fill_value, *, Tensor? out=None, {_FACTORY_KEYWORDS})",
        variants="torch")
declare("eye", _placed(eye), f"eye(int n, *, Tensor? out=None, {_FACTORY_KEYWORDS})",
        f"eye(int n, int m, *, Tensor? out=None, {_FACTORY_KEYWORDS})", variants="torch")
declare("randperm", _placed(randperm),
        f"randperm(int n, *, {_DRAWN}Tensor? out=None, {_FACTORY_KEYWORDS})",
        f"randperm(int n, *, Tensor? out=None, {_FACTORY_KEYWORDS})", variants="torch")
declare("randint", _placed(randint), *(
    f"randint({bounds}, int[] size, *, {drawn}Tensor? out=None, {_FACTORY_KEYWORDS})"
    for bounds in ("int high", "int low, int high") for drawn in (_DRAWN, "")),
    variants="torch")
for _name in ("rand_like", "randn_like"):
    declare(_name, _placed(globals()[_name]),
            f"{_name}(Tensor input, *, {_DRAWN}{_LIKE_KEYWORDS})",
            f"{_name}(Tensor input, *, {_LIKE_KEYWORDS})", variants="torch")
declare("randint_like", _placed(_randint_like), *(
    f"randint_like(Tensor input, {bounds}, *, {drawn}{_LIKE_KEYWORDS})"
    for bounds in ("int low, int high", "Tensor high", "int high") for drawn in (_DRAWN, "")),
    variants="torch")
declare("normal", _placed(lambda mean, std=1.0, size=None, **options: normal(
    mean, std, size, **options)),
    "normal(Tensor mean, Tensor std, *, Generator? generator=None, Tensor? out=None)",
    "normal(Tensor mean, float std=1, *, Generator? generator=None, Tensor? out=None)",
    "normal(float mean, Tensor std, *, Generator? generator=None, Tensor? out=None)",
    f"normal(float mean, float std, int[] size, *, Generator? generator=None, Tensor? out=None, "
    f"{_FACTORY_KEYWORDS})", variants="torch")


export(__name__, globals())
