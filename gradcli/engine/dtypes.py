"""Torch-named dtypes, the default dtype, and torch's type promotion with weak Python scalars."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine.records import record

from gradcli.engine import errors

BOOL, INTEGRAL, FLOATING, COMPLEX = 0, 1, 2, 3


@record(frozen=True, eq=False)
class DType:
    """One torch dtype: its name, numpy storage type and promotion category (each made once, so
    compared by identity)."""

    name: str
    np: np.dtype
    category: int
    legacy_name: str  # as in torch.FloatTensor, used by some torch error texts
    cpp_name: str  # the C++ type's name, as some of torch's kernels' errors name it

    @property
    def scalar_name(self) -> str:
        """c10's name of the scalar type (Float, Long, Bool), as kernels' errors name it."""
        return self.legacy_name.removesuffix("Tensor")

    @property
    def type_string(self) -> str:
        """The type as torch's Tensor::toString gives it: the legacy Python type's name where
        torch keeps one (torch.FloatTensor), else the backend's (CPUBoolType, CPUBFloat16Type)."""
        if self.category in (FLOATING, INTEGRAL) and self.name != "bfloat16":
            return f"torch.{self.legacy_name}"
        return f"CPU{self.scalar_name}Type"

    @property
    def is_floating_point(self) -> bool:
        return self.category == FLOATING

    @property
    def is_complex(self) -> bool:
        return self.category == COMPLEX

    @property
    def differentiable(self) -> bool:
        """Whether a tensor of this dtype may require grad (floating point or complex)."""
        return self.category >= FLOATING

    @property
    def itemsize(self) -> int:
        return 2 if self.name == "bfloat16" else self.np.itemsize

    def __repr__(self) -> str:
        return f"torch.{self.name}"


float16 = DType("float16", np.dtype(np.float16), FLOATING, "HalfTensor", "c10::Half")
# bfloat16 has no NumPy type: its values are stored as float32, each one a bfloat16 value
# (`round_bfloat16`, applied when a tensor is made), so kernels compute in float32 as torch's do
bfloat16 = DType("bfloat16", np.dtype(np.float32), FLOATING, "BFloat16Tensor", "c10::BFloat16")
float32 = DType("float32", np.dtype(np.float32), FLOATING, "FloatTensor", "float")
float64 = DType("float64", np.dtype(np.float64), FLOATING, "DoubleTensor", "double")
uint8 = DType("uint8", np.dtype(np.uint8), INTEGRAL, "ByteTensor", "unsigned char")
int8 = DType("int8", np.dtype(np.int8), INTEGRAL, "CharTensor", "signed char")
int16 = DType("int16", np.dtype(np.int16), INTEGRAL, "ShortTensor", "short int")
int32 = DType("int32", np.dtype(np.int32), INTEGRAL, "IntTensor", "int")
int64 = DType("int64", np.dtype(np.int64), INTEGRAL, "LongTensor", "long int")
bool_ = DType("bool", np.dtype(np.bool_), BOOL, "BoolTensor", "bool")
complex64 = DType("complex64", np.dtype(np.complex64), COMPLEX, "ComplexFloatTensor",
                  "c10::complex<float>")
complex128 = DType("complex128", np.dtype(np.complex128), COMPLEX, "ComplexDoubleTensor",
                   "c10::complex<double>")

ALL = (float16, bfloat16, float32, float64, uint8, int8, int16, int32, int64, bool_, complex64,
       complex128)

# Every name torch accepts for a dtype, as `torch.<name>`.
BY_NAME = {d.name: d for d in ALL} | {
    "half": float16,
    "float": float32,
    "double": float64,
    "short": int16,
    "int": int32,
    "long": int64,
    "cfloat": complex64,
    "cdouble": complex128,
}

# A complex dtype's real counterpart (the dtype of its parts), and back (c10's toComplexType)
_REAL_OF = {complex64: float32, complex128: float64}
_COMPLEX_OF = {float32: complex64, float64: complex128}


def real_of(dtype: DType) -> DType:
    """The dtype of a complex dtype's real and imaginary parts; any other dtype unchanged."""
    return _REAL_OF.get(dtype, dtype)


def complex_of(dtype: DType) -> DType:
    """The complex dtype whose parts are `dtype` (float32 and float64 only here: torch's
    complex32 for float16 is not offered)."""
    found = _COMPLEX_OF.get(dtype)
    if found is None:
        raise errors.TorchError("NotImplementedError",
                                f"gradcli does not support complex tensors of {dtype!r} parts yet")
    return found


def default_complex(default_float: DType) -> DType:
    """torch's default complex dtype: complex128 when the default dtype is float64."""
    return complex128 if default_float is float64 else complex64

_BY_NUMPY = {d.np: d for d in ALL if d is not bfloat16}
NUMPY_TYPES = frozenset(_BY_NUMPY)  # the NumPy dtypes that have a torch dtype here

# The Python classes torch's parser takes for a dtype (torch.tensor(data, dtype=float))
_BY_PYTHON_CLASS = {float: float64, int: int64, bool: bool_, complex: complex128}
_class_host = lambda value: None  # the Python class a class value stands for (read_classes_with)


def read_classes_with(host_of) -> None:
    """Install the language's reading of a class value as the Python class it stands for."""
    global _class_host
    _class_host = host_of


def dtype_argument(value):
    """A dtype argument as torch's parser reads it: a dtype, or Python's float, int or bool as
    float64, int64 and bool; anything else unchanged, for the caller to refuse."""
    if isinstance(value, DType):
        return value
    host = _class_host(value)
    return _BY_PYTHON_CLASS.get(host, value)


def from_numpy(np_dtype: np.dtype) -> DType:
    """The torch dtype that stores values as `np_dtype`."""
    return _BY_NUMPY[np.dtype(np_dtype)]


def python_number(value):
    """A NumPy scalar as torch reads it beside tensors and for a Scalar argument: a Python int
    for an integer one, a Python float for a floating or bool one; anything else unchanged."""
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, (np.floating, np.bool_)):
        return float(value)
    return value


# The C types torch's fill kernels name in their overflow errors
_FILL_NAMES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int",
               "int64": "int64_t"}


def overflows(values, dtype: DType) -> bool:
    """Whether a number (or an array of them) cannot be stored as `dtype` (c10's overflows):
    an integral dtype takes an int within its range (an unsigned one also down to -max, which
    wraps) and a float within its range, never NaN; floating and bool dtypes take anything."""
    if dtype.category != INTEGRAL:
        return False
    values = np.asarray(values)
    if values.dtype.kind == "b":
        return False
    info = np.iinfo(dtype.np)
    if values.dtype.kind in "iu":
        low = -int(info.max) if info.min == 0 else int(info.min)
        return bool(np.any(values < low) or np.any(values > int(info.max)))
    return bool(np.any(~(values >= float(info.min))) or np.any(values > float(info.max)))


# The largest finite value of each floating type a fill checks against (float64 takes any)
_FLOAT_MAX = {"float16": 65504.0, "bfloat16": 3.3895313892515355e38,
              "float32": float(np.finfo(np.float32).max), "complex64": float(np.finfo(np.float32).max)}


def _float_overflows(value, dtype: DType) -> bool:
    """c10's check for a floating type: a finite part beyond its largest value (inf and NaN
    are taken)."""
    limit = _FLOAT_MAX.get(dtype.name)
    parts = (value.real, value.imag) if isinstance(value, complex) else (value,)
    return limit is not None and any(math.inf != abs(part) > limit for part in parts)


def check_fill(value, dtype: DType, *, numel: int | None = None) -> None:
    """torch's error for a fill value that `dtype` cannot hold. A fill of `numel` 1 (scalar_fill,
    as t[i] = x takes too) reads the value for float16 and bfloat16 as a double, so it rounds
    to inf."""
    if dtype is bool_:  # anything is True or False
        return
    if numel == 1 and dtype in (float16, bfloat16):
        dtype = float64
    lost = isinstance(value, complex) and not dtype.is_complex and value.imag != 0
    if isinstance(value, complex) and not dtype.is_complex:
        value = value.real
    if lost or overflows(value, dtype) or _float_overflows(value, dtype):
        name = _FILL_NAMES.get(dtype.name, dtype.cpp_name)
        raise errors.runtime(f"value cannot be converted to type {name} without overflow")


def promote(a: DType, b: DType) -> DType:
    """torch.promote_types: the higher category wins; within one, the wider type (bfloat16
    with float16 is float32, with a wider float that float); a complex type with a float is
    the complex type whose parts are the two parts' promotion."""
    if a.category == COMPLEX or b.category == COMPLEX:
        if a.category == b.category:
            return a if a.np.itemsize >= b.np.itemsize else b
        low, high = (a, b) if a.category < b.category else (b, a)
        if low.category != FLOATING:
            return high
        return complex_of(promote(real_of(high), low))
    if a.category != b.category:
        return a if a.category > b.category else b
    if a is bfloat16 or b is bfloat16:
        other = b if a is bfloat16 else a
        return bfloat16 if other is bfloat16 else float32 if other is float16 else other
    return from_numpy(np.promote_types(a.np, b.np))


def stored(values, dtype: DType) -> np.ndarray:
    """`values` (array-like) as `dtype` stores them: cast, and for bfloat16 rounded."""
    values = np.asarray(values).astype(dtype.np, copy=False)
    return round_bfloat16(values) if dtype is bfloat16 else values


def round_bfloat16(values: np.ndarray) -> np.ndarray:
    """float32 values rounded to bfloat16's (c10's round_to_nearest_even on the upper 16 bits,
    NaN made its quiet NaN), still as float32; `values` itself when each is one already, so
    that views keep sharing their storage."""
    bits = values.view(np.uint32)
    if not (bits & 0xFFFF).any():
        return values
    rounded = (bits + (0x7FFF + ((bits >> 16) & 1))) & np.uint32(0xFFFF0000)
    rounded = np.where(np.isnan(values), np.uint32(0x7FC00000), rounded)
    return rounded.astype(np.uint32, copy=False).view(np.float32).reshape(values.shape)


def round_float16(values) -> np.ndarray:
    """Values rounded to float16's, as float32."""
    return np.asarray(values).astype(np.float32).astype(np.float16).astype(np.float32)


def rounded_to(dtype: DType, values) -> np.ndarray:
    """Values rounded to those of `dtype`, bfloat16 or float16, as float32."""
    if dtype is bfloat16:
        return round_bfloat16(np.asarray(values).astype(np.float32))
    return round_float16(values)


def float_max(dtype: DType) -> float:
    """The largest finite value of a floating dtype."""
    return _FLOAT_MAX.get(dtype.name, float(np.finfo(dtype.np).max))


def scalar_dtype(value: object, default_float: DType) -> DType:
    """The dtype a Python scalar takes when it has to stand alone (torch.tensor(3.) etc.)."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int64
    if isinstance(value, complex):
        return default_complex(default_float)
    return default_float


def result_type(operands: list, default_float: DType) -> DType:
    """torch.result_type over tensors and Python scalars.

    Tensors with dimensions outrank zero-dim tensors, which outrank Python scalars; a lower-ranked
    operand only matters when its category is higher than everything ranked above it.
    """
    ranks: list[DType | None] = [None, None, None]  # dimensioned, zero-dim, scalar
    for op in operands:
        if hasattr(op, "dtype"):
            rank, dt = (0 if op.data.ndim else 1), op.dtype
        else:
            rank, dt = 2, scalar_dtype(op, default_float)
        ranks[rank] = dt if ranks[rank] is None else promote(ranks[rank], dt)
    result = None
    for dt in ranks:
        if dt is None:
            continue
        if result is None:
            result = dt
        elif dt.category == COMPLEX and result.category == FLOATING:
            result = complex_of(result)  # c10's combine_categories keeps the float's width
        elif dt.category > result.category:
            result = dt
    return result
