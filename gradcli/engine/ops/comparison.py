"""Comparisons, logical and bitwise ops and value tests: functions and rows."""

from __future__ import annotations

import operator

import numpy as np

from gradcli.engine import dtypes, errors, vmap_batched
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.layout import c_ordered
from gradcli.engine.ops.registry import OPS, apply, defop, pointwise_op
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor


def _bool_result(dtype, params):
    return dtypes.bool_


_COMPARISONS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
                "gt": np.greater, "ge": np.greater_equal}
for _name, _ufunc in _COMPARISONS.items():  # complex numbers are equal or not, never ordered
    pointwise_op(f"{_name}.Tensor", "", _ufunc, out_dtype=_bool_result, complex=_name in ("eq", "ne"),
                 refuses=() if _name in ("eq", "ne") else (f"{_name}_cpu", (dtypes.COMPLEX,)))

for _name, _ufunc in (("logical_and", np.logical_and), ("logical_or", np.logical_or),
                      ("logical_xor", np.logical_xor)):
    pointwise_op(_name, "", _ufunc, promote="none", out_dtype=_bool_result)
for _name, _ufunc in (("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
                      ("bitwise_xor", np.bitwise_xor)):
    pointwise_op(_name, "", _ufunc)
defop("bitwise_not", "", np.invert, promote="none")


def _shift_amounts(a: np.ndarray, b) -> tuple[np.ndarray, np.ndarray]:
    """The shift counts in the operands' dtype, and where each is one the kernels shift by (not
    negative when read as signed, below the width)."""
    b = np.asarray(b).astype(a.dtype)
    signed = b.view(np.dtype(f"i{a.dtype.itemsize}"))
    inside = (signed >= 0) & (b < a.dtype.itemsize * 8)
    return np.where(inside, b, 0).astype(a.dtype), inside


def _left_shift(a, b):
    """lshift_cpu: the bits of a (as unsigned) moved up, 0 past the width."""
    a = np.asarray(a)
    counts, inside = _shift_amounts(a, b)
    unsigned = np.dtype(f"u{a.dtype.itemsize}")
    moved = np.left_shift(a.view(unsigned), counts.astype(unsigned)).view(a.dtype)
    return np.where(inside, moved, np.zeros((), a.dtype))


def _right_shift(a, b):
    """rshift_cpu: an arithmetic shift for signed dtypes; past the width, the sign bits."""
    a = np.asarray(a)
    counts, inside = _shift_amounts(a, b)
    fill = (np.right_shift(a, a.dtype.itemsize * 8 - 1) if a.dtype.kind == "i"
            else np.zeros((), a.dtype))
    return np.where(inside, np.right_shift(a, counts), fill)


pointwise_op("bitwise_left_shift", "", _left_shift)
pointwise_op("bitwise_right_shift", "", _right_shift)
for _name, _ufunc in (("logical_not", np.logical_not), ("isnan", np.isnan), ("isinf", np.isinf),
                      ("isfinite", np.isfinite)):
    defop(_name, "", _ufunc, promote="none", out_dtype=_bool_result)


def _truth_dtype(dtype, params):
    """any and all keep uint8 (as 0 and 1), and give bool for every other dtype."""
    return dtype if dtype is dtypes.uint8 else dtypes.bool_


for _name, _reduce in (("any", np.any), ("all", np.all)):
    defop(_name, "", lambda a, axis, keepdim, f=_reduce: c_ordered(f(
        a, axis=axis, keepdims=keepdim).astype(np.uint8 if a.dtype == np.uint8 else bool)),
        promote="none", out_dtype=_truth_dtype)


__all__ = ["compare", "python_compare", "truth", "eq", "ne", "lt", "le", "gt", "ge", "logical_binary", "logical_and",
           "logical_or", "logical_xor", "logical_not", "bitwise_not", "bitwise_shift", "bitwise_and",
           "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "isnan", "isinf", "isfinite",
           "isposinf", "isneginf", "isreal", "isin", "any", "all", "allclose", "isclose", "equal"]

_MIRRORED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}


def compare(name: str, a, b) -> Tensor:
    """a <name> b for name in eq, ne, lt, le, gt, ge: a bool tensor, never differentiable."""
    if not isinstance(a, Tensor):
        a, b = b, a
        name = _MIRRORED.get(name, name)
    return F.binary(f"{name}.Tensor", a, b)


_SYMBOLS = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}
_PYTHON = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
           "==": operator.eq, "!=": operator.ne}


_OPERANDS = (Tensor, bool, int, float, complex)  # what meets a tensor in a comparison


def python_compare(op: str, a, b):
    """Python's `a op b` (op as written: ">") on plain values and tensors: torch's bool tensor
    when a tensor meets a number or a tensor, else Python's result or its TypeError."""
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        a, b = dtypes.python_number(a), dtypes.python_number(b)
        if isinstance(a, _OPERANDS) and isinstance(b, _OPERANDS):
            return compare(_SYMBOLS[op], a, b)
        if op == "==" and (type(a) is np.ndarray or type(b) is np.ndarray):
            return _equal_to_array(a, b)
        if op in ("==", "!="):
            return op == "!="
    try:
        return _PYTHON[op](a, b)
    except TypeError:
        raise errors.type_error(f"'{op}' not supported between instances of "
                                f"'{errors.type_name(a)}' and '{errors.type_name(b)}'") from None


def _equal_to_array(a, b):
    """tensor == ndarray, either way round: Tensor.__eq__ (the reflected one too) reads a
    numeric array as a tensor; any other array is not equal. (Tensor.__ne__ declines an array,
    so `!=` falls back on identity.)"""
    tensor, array = (a, b) if isinstance(a, Tensor) else (b, a)
    if array.dtype.kind not in "biufc" or not isinstance(tensor, Tensor):
        return False
    return compare("eq", tensor, F.tensor(array))


def truth(value) -> bool:
    """Python's truth of a plain value or a tensor (torch's error unless it has one element)."""
    if isinstance(value, Tensor):
        vmap_batched.check_truth(value)
        count = value.numel()
        if count != 1:
            raise errors.runtime("Boolean value of Tensor with "
                                 f"{'no values' if count == 0 else 'more than one value'} "
                                 "is ambiguous")
        return bool(value.data.reshape(()).item())
    return bool(value)


def _comparison(name: str):
    def compare_as(a, b) -> Tensor:
        return compare(name, a, b)
    compare_as.__name__ = name
    return compare_as


eq, ne, lt, le, gt, ge = (_comparison(n) for n in ("eq", "ne", "lt", "le", "gt", "ge"))


def logical_binary(name: str, a, b) -> Tensor:
    """logical_and/or/xor, or bitwise_and/or/xor (the `&`, `|`, `^` operators)."""
    if not isinstance(a, Tensor):
        a, b = b, a
    if name.startswith("bitwise"):
        if isinstance(b, Tensor):  # TensorIterator: the shapes first, then the kernel's dtype
            F.broadcast_shape(a.shape, b.shape)
        dtype = dtypes.result_type([a, b], dtypes.float32)  # the kernel's, the common dtype
        if dtype.category >= dtypes.FLOATING:
            raise errors.not_implemented_for(f"{name}_cpu", dtype)
    return F.binary(name, a, b)


def bitwise_shift(name: str, a, b) -> Tensor:
    """bitwise_left_shift / bitwise_right_shift (the `<<` and `>>` operators): integer dtypes
    only, a number on the left a 0-dim tensor."""
    if not isinstance(a, Tensor):
        a = F.scalar_tensor(a, dtypes.scalar_dtype(a, dtypes.float32))
    if isinstance(b, Tensor):  # TensorIterator: the shapes first, then the kernel's dtype
        F.broadcast_shape(a.shape, b.shape)
    dtype = dtypes.result_type([a, b], dtypes.float32)
    if dtype.category != dtypes.INTEGRAL:
        raise errors.not_implemented_for(("lshift" if "left" in name else "rshift") + "_cpu", dtype)
    return F.binary(name, a, b)


def bitwise_left_shift(a, b) -> Tensor:
    return bitwise_shift("bitwise_left_shift", a, b)


def bitwise_right_shift(a, b) -> Tensor:
    return bitwise_shift("bitwise_right_shift", a, b)


def _logical(name: str):
    def combine(a, b) -> Tensor:
        return logical_binary(name, a, b)
    combine.__name__ = name
    return combine


logical_and, logical_or, logical_xor = (
    _logical(n) for n in ("logical_and", "logical_or", "logical_xor"))
bitwise_and, bitwise_or, bitwise_xor = (
    _logical(n) for n in ("bitwise_and", "bitwise_or", "bitwise_xor"))


def logical_not(a: Tensor) -> Tensor:
    return apply(OPS["logical_not"], a)


def bitwise_not(a: Tensor) -> Tensor:
    if a.dtype.is_floating_point:
        raise errors.not_implemented_for("bitwise_not_cpu", a.dtype)
    return apply(OPS["bitwise_not"], a)


def isnan(a: Tensor) -> Tensor:
    return apply(OPS["isnan"], a)


def isinf(a: Tensor) -> Tensor:
    return apply(OPS["isinf"], a)


def isfinite(a: Tensor) -> Tensor:
    return apply(OPS["isfinite"], a)


def isposinf(a: Tensor) -> Tensor:
    return F.logical_and(isinf(a), F.gt(a, 0))


def isneginf(a: Tensor) -> Tensor:
    return F.logical_and(isinf(a), F.lt(a, 0))


def isreal(a: Tensor) -> Tensor:
    """True where the imaginary part is zero (everywhere for a real tensor)."""
    values = np.imag(a.data) == 0 if a.dtype.is_complex else np.ones(a.shape, bool)
    return Tensor(np.asarray(values), dtypes.bool_)


def isin(elements, test_elements, assume_unique: bool = False, invert: bool = False) -> Tensor:
    """Whether each element is among test_elements, compared in their promoted dtype."""
    for operand in (elements, test_elements):
        if (operand.dtype is dtypes.bool_ if isinstance(operand, Tensor) else
                type(operand) is bool):  # a bool number is a Bool scalar tensor to the kernel
            raise errors.runtime("Unsupported input type encountered for isin(): Bool")
    common = dtypes.result_type([elements, test_elements], STATE.default_dtype).np
    values, tests = (np.asarray(x.data if isinstance(x, Tensor) else x).astype(common)
                     for x in (elements, test_elements))
    return Tensor(np.asarray(np.isin(values, tests, invert=invert)), dtypes.bool_)


def any(a: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    return _truth_reduction("any", a, dim, keepdim)


def all(a: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    return _truth_reduction("all", a, dim, keepdim)


def _truth_reduction(name: str, a: Tensor, dim, keepdim: bool) -> Tensor:
    axis = None if dim is None else F.reduction_dims(dim, a.ndim)
    if a.ndim == 0:
        axis = None
    return apply(OPS[name], a, axis=axis, keepdim=keepdim)


def allclose(a: Tensor, b: Tensor, rtol=1e-05, atol=1e-08, equal_nan: bool = False) -> bool:
    if a.dtype is not b.dtype:
        raise errors.runtime(f"{a.dtype.scalar_name} did not match {b.dtype.scalar_name}")
    return bool(np.all(_isclose(a, b, rtol, atol, equal_nan)))


def isclose(a: Tensor, b: Tensor, rtol=1e-05, atol=1e-08, equal_nan: bool = False) -> Tensor:
    if a.dtype is not b.dtype:
        raise errors.runtime(f"{a.dtype.scalar_name} did not match {b.dtype.scalar_name}")
    return Tensor(np.asarray(_isclose(a, b, rtol, atol, equal_nan)), dtypes.bool_)


def _isclose(a: Tensor, b: Tensor, rtol, atol, equal_nan):
    F.broadcast_shape(a.shape, b.shape)
    with np.errstate(all="ignore"):
        return np.isclose(a.data, b.data, rtol=rtol, atol=atol, equal_nan=equal_nan)


def equal(a: Tensor, b: Tensor) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a.data, b.data))


# ---- declarations: the public names of this area ------------------------------------------------

declare("eq", eq, "eq(Tensor self, Tensor other, *, Tensor? out=None)",
        "eq(Tensor self, Scalar other, *, Tensor? out=None)",
        method=("eq(Tensor self, Tensor other)", "eq(Tensor self, Scalar other)"))
declare("ne", ne, "ne(Tensor self, Tensor other, *, Tensor? out=None)",
        "ne(Tensor self, Scalar other, *, Tensor? out=None)",
        method=("ne(Tensor self, Tensor other)", "ne(Tensor self, Scalar other)"),
        aliases=("not_equal",))
declare("lt", lt, "lt(Tensor self, Tensor other, *, Tensor? out=None)",
        "lt(Tensor self, Scalar other, *, Tensor? out=None)",
        method=("lt(Tensor self, Tensor other)", "lt(Tensor self, Scalar other)"),
        aliases=("less",))
declare("le", le, "le(Tensor self, Tensor other, *, Tensor? out=None)",
        "le(Tensor self, Scalar other, *, Tensor? out=None)",
        method=("le(Tensor self, Tensor other)", "le(Tensor self, Scalar other)"),
        aliases=("less_equal",))
declare("gt", gt, "gt(Tensor self, Tensor other, *, Tensor? out=None)",
        "gt(Tensor self, Scalar other, *, Tensor? out=None)",
        method=("gt(Tensor self, Tensor other)", "gt(Tensor self, Scalar other)"),
        aliases=("greater",))
declare("ge", ge, "ge(Tensor self, Tensor other, *, Tensor? out=None)",
        "ge(Tensor self, Scalar other, *, Tensor? out=None)",
        method=("ge(Tensor self, Tensor other)", "ge(Tensor self, Scalar other)"),
        aliases=("greater_equal",))
declare("logical_and", logical_and, "logical_and(Tensor self, Tensor other, *, Tensor? out=None)",
        method=("logical_and(Tensor self, Tensor other)",))
declare("logical_or", logical_or, "logical_or(Tensor self, Tensor other, *, Tensor? out=None)",
        method=("logical_or(Tensor self, Tensor other)",))
declare("logical_xor", logical_xor, "logical_xor(Tensor self, Tensor other, *, Tensor? out=None)",
        method=("logical_xor(Tensor self, Tensor other)",))
declare("logical_not", logical_not, "logical_not(Tensor self, *, Tensor? out=None)",
        method=("logical_not(Tensor self)",))
for _name, _function in (("bitwise_and", bitwise_and), ("bitwise_or", bitwise_or),
                         ("bitwise_xor", bitwise_xor), ("bitwise_left_shift", bitwise_left_shift),
                         ("bitwise_right_shift", bitwise_right_shift)):
    declare(_name, _function, f"{_name}(Tensor self, Tensor other, *, Tensor? out=None)",
            f"{_name}(Scalar self, Tensor other)",
            f"{_name}(Tensor self, Scalar other, *, Tensor? out=None)",
            method=(f"{_name}(Tensor self, Tensor other)", f"{_name}(Tensor self, Scalar other)"))
declare("bitwise_not", bitwise_not, "bitwise_not(Tensor self, *, Tensor? out=None)",
        method=("bitwise_not(Tensor self)",))
declare("isnan", isnan, "isnan(Tensor self, *, Tensor? out=None)", method=("isnan(Tensor self)",))
declare("isinf", isinf, "isinf(Tensor self, *, Tensor? out=None)", method=("isinf(Tensor self)",))
declare("isfinite", isfinite, "isfinite(Tensor self)", method=("isfinite(Tensor self)",))
declare("isposinf", isposinf, "isposinf(Tensor self, *, Tensor? out=None)")
declare("isneginf", isneginf, "isneginf(Tensor self, *, Tensor? out=None)")
declare("isreal", isreal, "isreal(Tensor self)")
declare("isin", isin, "isin(Tensor elements, Tensor test_elements, *, bool assume_unique=False, "
        "bool invert=False, Tensor? out=None)", "isin(Scalar element, Tensor test_elements, *, "
        "bool assume_unique=False, bool invert=False, Tensor? out=None)", "isin(Tensor elements, "
        "Scalar test_element, *, bool assume_unique=False, bool invert=False, Tensor? out=None)",
        variants="torch")
declare("is_nonzero", truth, "is_nonzero(Tensor self)")
declare("any", any, "any(Tensor self, *, Tensor? out=None)",
        "any(Tensor self, int[1]? dim=None, bool keepdim=False, *, Tensor? out=None)",
        "any(Tensor self, int dim, bool keepdim=False, *, Tensor? out=None)",
        method=("any(Tensor self)", "any(Tensor self, int[1]? dim=None, bool keepdim=False)",
        "any(Tensor self, int dim, bool keepdim=False)"))
declare("all", all, "all(Tensor self, *, Tensor? out=None)",
        "all(Tensor self, int[1]? dim=None, bool keepdim=False, *, Tensor? out=None)",
        "all(Tensor self, int dim, bool keepdim=False, *, Tensor? out=None)",
        method=("all(Tensor self)", "all(Tensor self, int[1]? dim=None, bool keepdim=False)",
        "all(Tensor self, int dim, bool keepdim=False)"))
declare("allclose", allclose, "allclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False)",
        method=("allclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False)",))
declare("isclose", isclose, "isclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False)",
        method=("isclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False)",))
declare("equal", equal, "equal(Tensor self, Tensor other)",
        method=("equal(Tensor self, Tensor other)",))


export(__name__, globals())
