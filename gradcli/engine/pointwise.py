"""torch-level elementwise functions: pick the op overload for tensor or scalar operands."""

from __future__ import annotations

import numpy as np

from gradcli.engine.declarations import declare
from gradcli.engine import dtypes, errors
from gradcli.engine.ops.registry import OPS, apply, broadcast_shape
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

__all__ = [
    "broadcast_shape", "scalar_tensor", "full_like", "add", "sub", "rsub", "mul", "div",
    "floor_divide", "remainder", "pow", "square", "add_scalar", "sub_scalar", "mul_scalar",
    "div_scalar", "scalar_sub", "scalar_div", "maybe_multiply", "neg", "reciprocal", "exp",
    "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "abs", "sign", "sgn",
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "erf",
    "floor", "ceil", "trunc", "frac", "round", "atan2", "maximum", "minimum", "clamp", "where",
    "lerp", "masked_fill",
]

Scalar = (bool, int, float)
_C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
            "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
            "bool": "bool"}


def check_operand(name: str, value, position: int = 2, argument: str = "other") -> None:
    """torch's TypeError for an operand that is neither a tensor nor a number."""
    if not isinstance(value, (Tensor, *Scalar)):
        raise errors.type_error(
            f"{name}(): argument '{argument}' (position {position}) must be Tensor, not "
            f"{type(value).__name__}")


def binary(key: str, a, b, **params):
    """Apply a two-operand row after torch's broadcast check."""
    if isinstance(b, Tensor) and isinstance(a, Tensor) and a.shape != b.shape:
        broadcast_shape(a.shape, b.shape)
    if type(b) is int and isinstance(a, Tensor) and a.dtype.category == dtypes.INTEGRAL:
        b = int(np.array(b).astype(a.dtype.np))  # torch wraps an int scalar into the dtype
    return apply(OPS[key], a, b, **params)


def scalar_tensor(value, dtype: dtypes.DType) -> Tensor:
    """A zero-dim tensor holding `value` (at::scalar_tensor)."""
    return Tensor(np.array(value, dtype=dtype.np), dtype)


def full_like(t: Tensor, value) -> Tensor:
    return Tensor(np.full(t.shape, value, dtype=t.dtype.np), t.dtype)


# ---- Python-level arithmetic: a scalar operand is a wrapped number (the .Tensor overloads) ------

def add(a, b, alpha=1):
    if not isinstance(a, Tensor):
        a, b = b, a
    check_operand("add", b)
    return binary("add.Tensor", a, b, **({"alpha": alpha} if alpha != 1 else {}))


def sub(a, b, alpha=1):
    extra = {"alpha": alpha} if alpha != 1 else {}
    if not isinstance(a, Tensor):
        return apply(OPS["rsub.Scalar"], b, a, **extra)
    check_operand("sub", b)
    if a.dtype is dtypes.bool_ and isinstance(b, Tensor) and b.dtype is dtypes.bool_:
        raise errors.runtime(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead.")
    return binary("sub.Tensor", a, b, **extra)


def rsub(a, b, alpha=1):
    """torch.rsub: b - alpha * a."""
    extra = {"alpha": alpha} if alpha != 1 else {}
    if not isinstance(b, Tensor):
        return apply(OPS["rsub.Scalar"], a, b, **extra)
    return binary("rsub.Tensor", a, b, **extra)


def mul(a, b):
    if not isinstance(a, Tensor):
        a, b = b, a
    check_operand("mul", b)
    return binary("mul.Tensor", a, b)


_ROUNDING_MODES = (None, "trunc", "floor")


def div(a, b, rounding_mode=None):
    if rounding_mode not in _ROUNDING_MODES:
        raise errors.runtime(
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
            f"'{rounding_mode}'")
    if not isinstance(a, Tensor):
        if rounding_mode is None:
            return mul(reciprocal(b), a)
        a = scalar_tensor(a, dtypes.scalar_dtype(a, STATE.default_dtype))
    check_operand("div", b)
    if rounding_mode is None:
        return binary("div.Tensor", a, b)
    _check_integer_division(a, b)
    return binary("div.Tensor_mode", a, b, rounding_mode=rounding_mode)


def _check_integer_division(a, b) -> None:
    integral = all(not (x.dtype.is_floating_point if isinstance(x, Tensor) else
                        isinstance(x, float)) for x in (a, b))
    if integral and np.any((b.data if isinstance(b, Tensor) else np.asarray(b)) == 0):
        raise errors.runtime("ZeroDivisionError")


def floor_divide(a, b):
    if not isinstance(a, Tensor):
        a = scalar_tensor(a, dtypes.scalar_dtype(a, STATE.default_dtype))
    _check_integer_division(a, b)
    return binary("floor_divide", a, b)


def remainder(a, b):
    if not isinstance(a, Tensor):
        a = scalar_tensor(a, dtypes.scalar_dtype(a, STATE.default_dtype))
    _check_integer_division(a, b)
    if isinstance(b, Tensor):
        return binary("remainder.Tensor", a, b)
    return apply(OPS["remainder.Scalar"], a, b)


def pow(a, b):
    if not isinstance(a, Tensor):
        check_operand("pow", b, 2, "exponent")
        return apply(OPS["pow.Scalar"], a, b)
    check_operand("pow", b, 2, "exponent")
    if not isinstance(b, Tensor):
        if (a.dtype.category != dtypes.FLOATING and isinstance(b, int) and not isinstance(b, bool)
                and b < 0):
            raise errors.runtime("Integers to negative integer powers are not allowed.")
        return apply(OPS["pow.Tensor_Scalar"], a, b)
    return binary("pow.Tensor_Tensor", a, b)


def square(a: Tensor) -> Tensor:
    return pow(a, 2)


# ---- ATen-internal arithmetic with a C++ scalar (the .Scalar overloads rules use) ---------------

def add_scalar(t: Tensor, s) -> Tensor:
    return apply(OPS["add.Scalar"], t, s)


def sub_scalar(t: Tensor, s) -> Tensor:
    return apply(OPS["sub.Scalar"], t, s)


def mul_scalar(t: Tensor, s) -> Tensor:
    return apply(OPS["mul.Scalar"], t, s)


def div_scalar(t: Tensor, s) -> Tensor:
    return apply(OPS["div.Scalar"], t, s)


def scalar_sub(s, t: Tensor) -> Tensor:
    """C++ `scalar - tensor`: a filled tensor minus `t` (so SubBackward0)."""
    return apply(OPS["sub.Tensor"], full_like(t, s), t)


def scalar_div(s, t: Tensor) -> Tensor:
    """C++ `scalar / tensor`: a filled tensor divided by `t` (so DivBackward0)."""
    return apply(OPS["div.Tensor"], full_like(t, s), t)


def maybe_multiply(t: Tensor, s) -> Tensor:
    return t if s == 1 else mul_scalar(t, s)


# ---- unary math ---------------------------------------------------------------------------------

def _unary(key: str):
    def run(a: Tensor) -> Tensor:
        return apply(OPS[key], a)
    run.__name__ = key
    return run


(neg_, reciprocal, exp, exp2, expm1, log, log2, log10, log1p, sqrt, rsqrt, abs, sign, sgn, sin,
 cos, tan, asin, acos, atan, sinh, cosh, tanh, sigmoid, erf, floor, ceil, trunc, frac) = (
    _unary(k) for k in (
        "neg", "reciprocal", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
        "rsqrt", "abs", "sign", "sgn", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
        "tanh", "sigmoid", "erf", "floor", "ceil", "trunc", "frac"))


def neg(a: Tensor) -> Tensor:
    if a.dtype is dtypes.bool_:
        raise errors.runtime(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead.")
    return neg_(a)


def round(a: Tensor, decimals: int = 0) -> Tensor:
    if decimals == 0:
        return apply(OPS["round"], a)
    return apply(OPS["round.decimals"], a, decimals=decimals)


# ---- other elementwise functions ----------------------------------------------------------------

def atan2(a: Tensor, b: Tensor) -> Tensor:
    return binary("atan2", a, b)


def maximum(a: Tensor, b: Tensor) -> Tensor:
    return binary("maximum", a, b)


def minimum(a: Tensor, b: Tensor) -> Tensor:
    return binary("minimum", a, b)


def clamp(a: Tensor, min=None, max=None) -> Tensor:
    if min is None and max is None:
        raise errors.runtime("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        for bound in (min, max):
            if isinstance(bound, Tensor):
                broadcast_shape(a.shape, bound.shape)
        lo = min if min is None or isinstance(min, Tensor) else scalar_tensor(min, a.dtype)
        hi = max if max is None or isinstance(max, Tensor) else scalar_tensor(max, a.dtype)
        return apply(OPS["clamp.Tensor"], a, lo, hi)
    return apply(OPS["clamp"], a, min, max)


def where(condition: Tensor, a, b) -> Tensor:
    if condition.dtype is not dtypes.bool_:
        raise errors.runtime(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{condition.dtype.legacy_name.removesuffix('Tensor')}")
    for value in (a, b):
        if isinstance(value, Tensor):
            broadcast_shape(condition.shape, value.shape)
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        broadcast_shape(a.shape, b.shape)
    return apply(OPS["where.self"], condition, a, b)


def lerp(start: Tensor, end: Tensor, weight) -> Tensor:
    for name, other in (("end", end), ("weight", weight)):
        if isinstance(other, Tensor) and other.dtype is not start.dtype:
            raise errors.runtime(f"expected dtype {_C_NAMES[start.dtype.name]} for `{name}` but "
                                 f"got dtype {_C_NAMES[other.dtype.name]}")
    broadcast_shape(start.shape, end.shape)
    if isinstance(weight, Tensor):
        return apply(OPS["lerp.Tensor"], start, end, weight)
    return apply(OPS["lerp.Scalar"], start, end, weight)


def masked_fill(t: Tensor, mask: Tensor, value) -> Tensor:
    if mask.dtype is not dtypes.bool_:
        raise errors.runtime(
            f"masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{mask.dtype.name}")
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise errors.runtime(
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value.ndim} dimension(s).")
        return apply(OPS["masked_fill.Tensor"], t, mask, value)
    return apply(OPS["masked_fill.Scalar"], t, mask, value)


# ---- declarations: the public names of this area ------------------------------------------------

declare("add", add, "add(Tensor self, Tensor other, *, Scalar alpha=1, Tensor? out=None)",
        method=("add(Tensor self, Tensor other, *, Scalar alpha=1)",), numbers_as_tensors=True,
        hidden=("add(Tensor self, Scalar alpha, Tensor other)",))
declare("sub", sub, "sub(Tensor self, Tensor other, *, Scalar alpha=1, Tensor? out=None)",
        method=("sub(Tensor self, Tensor other, *, Scalar alpha=1)",), aliases=("subtract",),
        numbers_as_tensors=True, hidden=("sub(Tensor self, Scalar alpha, Tensor other)",))
declare("rsub", rsub, "rsub(Tensor self, Tensor other, *, Scalar alpha=1)",
        "rsub(Tensor self, Scalar other, Scalar alpha=1)", variants="torch")
declare("mul", mul, "mul(Tensor self, Tensor other, *, Tensor? out=None)",
        method=("mul(Tensor self, Tensor other)",), aliases=("multiply",), numbers_as_tensors=True)
declare("div", div, "div(Tensor self, Tensor other, *, Tensor? out=None)",
        "div(Tensor self, Tensor other, *, str rounding_mode, Tensor? out=None)",
        "div(Tensor self, Scalar other, *, str rounding_mode)",
        method=("div(Tensor self, Tensor other)",
        "div(Tensor self, Tensor other, *, str rounding_mode)",
        "div(Tensor self, Scalar other, *, str rounding_mode)"), aliases=("divide", "true_divide"),
        numbers_as_tensors=True)
declare("floor_divide", floor_divide, "floor_divide(Tensor self, Tensor other, *, Tensor? out=None)",
        "floor_divide(Tensor self, Scalar other)",
        method=("floor_divide(Tensor self, Tensor other)",
        "floor_divide(Tensor self, Scalar other)"), numbers_as_tensors=True)
declare("remainder", remainder, "remainder(Tensor self, Tensor other, *, Tensor? out=None)",
        "remainder(Scalar self, Tensor other)",
        "remainder(Tensor self, Scalar other, *, Tensor? out=None)",
        method=("remainder(Tensor self, Tensor other)", "remainder(Tensor self, Scalar other)"))
declare("pow", pow, "pow(Tensor self, Tensor exponent, *, Tensor? out=None)",
        "pow(Scalar self, Tensor exponent, *, Tensor? out=None)",
        "pow(Tensor self, Scalar exponent, *, Tensor? out=None)",
        method=("pow(Tensor self, Tensor exponent)", "pow(Tensor self, Scalar exponent)"))
declare("square", square, "square(Tensor self, *, Tensor? out=None)",
        method=("square(Tensor self)",))
declare("atan2", atan2, "atan2(Tensor self, Tensor other, *, Tensor? out=None)",
        method=("atan2(Tensor self, Tensor other)",), aliases=("arctan2",))
declare("maximum", maximum, "maximum(Tensor self, Tensor other, *, Tensor? out=None)",
        method=("maximum(Tensor self, Tensor other)",))
declare("minimum", minimum, "minimum(Tensor self, Tensor other, *, Tensor? out=None)",
        method=("minimum(Tensor self, Tensor other)",))
declare("clamp", clamp, "clamp(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor? out=None)",
        "clamp(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor? out=None)",
        method=("clamp(Tensor self, Tensor? min=None, Tensor? max=None)",
        "clamp(Tensor self, Scalar? min=None, Scalar? max=None)"), aliases=("clip",))
declare("lerp", lerp, "lerp(Tensor self, Tensor end, Tensor weight, *, Tensor? out=None)",
        "lerp(Tensor self, Tensor end, Scalar weight, *, Tensor? out=None)",
        method=("lerp(Tensor self, Tensor end, Tensor weight)",
        "lerp(Tensor self, Tensor end, Scalar weight)"))
declare("round", round, "round(Tensor self, *, Tensor? out=None)",
        "round(Tensor self, *, int decimals, Tensor? out=None)", method=("round(Tensor self)",
        "round(Tensor self, *, int decimals)"))
declare("masked_fill", masked_fill, "masked_fill(Tensor self, Tensor mask, Tensor value)",
        "masked_fill(Tensor self, Tensor mask, Scalar value)", variants="method")
declare("neg", neg, "neg(Tensor self, *, Tensor? out=None)", method=("neg(Tensor self)",),
        aliases=("negative",))
declare("reciprocal", reciprocal, "reciprocal(Tensor self, *, Tensor? out=None)",
        method=("reciprocal(Tensor self)",))
declare("exp", exp, "exp(Tensor self, *, Tensor? out=None)", method=("exp(Tensor self)",))
declare("exp2", exp2, "exp2(Tensor self, *, Tensor? out=None)", method=("exp2(Tensor self)",))
declare("expm1", expm1, "expm1(Tensor self, *, Tensor? out=None)", method=("expm1(Tensor self)",))
declare("log", log, "log(Tensor self, *, Tensor? out=None)", method=("log(Tensor self)",))
declare("log2", log2, "log2(Tensor self, *, Tensor? out=None)", method=("log2(Tensor self)",))
declare("log10", log10, "log10(Tensor self, *, Tensor? out=None)", method=("log10(Tensor self)",))
declare("log1p", log1p, "log1p(Tensor self, *, Tensor? out=None)", method=("log1p(Tensor self)",))
declare("sqrt", sqrt, "sqrt(Tensor self, *, Tensor? out=None)", method=("sqrt(Tensor self)",))
declare("rsqrt", rsqrt, "rsqrt(Tensor self, *, Tensor? out=None)", method=("rsqrt(Tensor self)",))
declare("abs", abs, "abs(Tensor self, *, Tensor? out=None)", method=("abs(Tensor self)",),
        aliases=("absolute",))
declare("sign", sign, "sign(Tensor self, *, Tensor? out=None)", method=("sign(Tensor self)",))
declare("sgn", sgn, "sgn(Tensor self, *, Tensor? out=None)", method=("sgn(Tensor self)",))
declare("sin", sin, "sin(Tensor self, *, Tensor? out=None)", method=("sin(Tensor self)",))
declare("cos", cos, "cos(Tensor self, *, Tensor? out=None)", method=("cos(Tensor self)",))
declare("tan", tan, "tan(Tensor self, *, Tensor? out=None)", method=("tan(Tensor self)",))
declare("asin", asin, "asin(Tensor self, *, Tensor? out=None)", method=("asin(Tensor self)",),
        aliases=("arcsin",))
declare("acos", acos, "acos(Tensor self, *, Tensor? out=None)", method=("acos(Tensor self)",),
        aliases=("arccos",))
declare("atan", atan, "atan(Tensor self, *, Tensor? out=None)", method=("atan(Tensor self)",),
        aliases=("arctan",))
declare("sinh", sinh, "sinh(Tensor self, *, Tensor? out=None)", method=("sinh(Tensor self)",))
declare("cosh", cosh, "cosh(Tensor self, *, Tensor? out=None)", method=("cosh(Tensor self)",))
declare("tanh", tanh, "tanh(Tensor self, *, Tensor? out=None)", method=("tanh(Tensor self)",))
declare("sigmoid", sigmoid, "sigmoid(Tensor self, *, Tensor? out=None)",
        method=("sigmoid(Tensor self)",))
declare("erf", erf, "erf(Tensor self, *, Tensor? out=None)", method=("erf(Tensor self)",))
declare("floor", floor, "floor(Tensor self, *, Tensor? out=None)", method=("floor(Tensor self)",))
declare("ceil", ceil, "ceil(Tensor self, *, Tensor? out=None)", method=("ceil(Tensor self)",))
declare("trunc", trunc, "trunc(Tensor self, *, Tensor? out=None)", method=("trunc(Tensor self)",),
        aliases=("fix",))
declare("frac", frac, "frac(Tensor self, *, Tensor? out=None)", method=("frac(Tensor self)",))
