"""Elementwise arithmetic rows: add, sub, mul, div, pow, where, clamp... per overload, with vjps."""

from __future__ import annotations

import numpy as np

from gradcli.engine import comparison as C, conversions, dtypes, errors, pointwise as P
from gradcli.engine import reductions as R
from gradcli.engine.declarations import declare
from gradcli.engine.ops.registry import (OPS, RESULT, apply, broadcast_shape, define, defop,
                                         pointwise_op)
from gradcli.engine.tensor import Tensor


def _add(a, b, alpha=1):
    return a + b if alpha == 1 else a + alpha * b


def _rsub(a, b, alpha=1):
    return b - a if alpha == 1 else b - alpha * a


def _div_mode(a, b, rounding_mode):
    if rounding_mode == "floor":
        return np.floor_divide(a, b)
    if np.asarray(a).dtype.kind == "f":
        return np.trunc(a / b)
    quotient = np.floor_divide(a, b)
    return quotient + ((quotient < 0) & (quotient * b != a))


def _zeros_of(g, tensor_or_scalar):
    dtype = tensor_or_scalar.dtype if hasattr(tensor_or_scalar, "dtype") else g.dtype
    return Tensor(np.zeros(g.shape, dtype=dtype.np), dtype)


pointwise_op("add.Tensor", "AddBackward0", _add,
             vjp=(lambda g, a, b, alpha=1: g, lambda g, a, b, alpha=1: P.maybe_multiply(g, alpha)))
defop("add.Scalar", "AddBackward1", _add, vjp=lambda g, a, b, alpha=1: g)
pointwise_op("sub.Tensor", "SubBackward0", lambda a, b, alpha=1: _add(a, b, -alpha),
             vjp=(lambda g, a, b, alpha=1: g,
                  lambda g, a, b, alpha=1: P.maybe_multiply(P.neg(g), alpha)))
defop("sub.Scalar", "SubBackward1", lambda a, b, alpha=1: _add(a, b, -alpha),
      vjp=lambda g, a, b, alpha=1: g)
pointwise_op("rsub.Tensor", "RsubBackward0", _rsub,
             vjp=(lambda g, a, b, alpha=1: P.maybe_multiply(P.neg(g), alpha),
                  lambda g, a, b, alpha=1: g))
defop("rsub.Scalar", "RsubBackward1", _rsub,
      vjp=lambda g, a, b, alpha=1: P.maybe_multiply(P.neg(g), alpha))
pointwise_op("mul.Tensor", "MulBackward0", np.multiply, save=(0, 1), save_for=((1,), (0,)),
             vjp=(lambda g, a, b: P.mul(g, b), lambda g, a, b: P.mul(g, a)))
defop("mul.Scalar", "MulBackward1", np.multiply, vjp=lambda g, a, s: P.mul_scalar(g, s))
pointwise_op("div.Tensor", "DivBackward0", np.true_divide, promote="float", save=(0, 1),
             save_for=((1,), (0, 1)),
             vjp=(lambda g, a, b: P.div(g, b),
                  lambda g, a, b: P.mul(P.neg(g), P.div(P.div(a, b), b))))
defop("div.Scalar", "DivBackward1", np.true_divide, promote="float",
      vjp=lambda g, a, s: P.div_scalar(g, s))
pointwise_op("div.Tensor_mode", "DivBackward2", _div_mode, save=(0, 1), save_for=((1,), (0, 1)),
             vjp=(lambda g, a, b, rounding_mode: _zeros_of(g, a),
                  lambda g, a, b, rounding_mode: _zeros_of(g, b)))
pointwise_op("floor_divide", "torch::autograd::NotImplemented", np.floor_divide,
             vjp=(lambda g, a, b: _not_implemented("aten::floor_divide"),
                  lambda g, a, b: _not_implemented("aten::floor_divide")))
defop("remainder.Scalar", "RemainderBackward0", np.remainder, vjp=lambda g, a, b: g)
pointwise_op("remainder.Tensor", "RemainderBackward1", np.remainder, save=(0, 1),
             save_for=((), (0, 1)),
             vjp=(lambda g, a, b: g,
                  lambda g, a, b: P.mul(P.neg(g), P.div(a, b, rounding_mode="floor"))))


def _not_implemented(name: str):
    raise errors.runtime(f"derivative for {name} is not implemented")


# ---- powers -------------------------------------------------------------------------------------

def _pow_tensor_scalar(a, e):
    """torch's CPU pow with a scalar exponent, including its exact fast paths."""
    if a.dtype.kind != "f":
        return np.power(a, e)
    if e == 0:
        return np.ones_like(a)
    if e == 1:
        return a.copy()
    one = a.dtype.type(1)
    fast = {2: lambda: a * a, 3: lambda: a * a * a, 0.5: lambda: np.sqrt(a),
            -0.5: lambda: one / np.sqrt(a), -1: lambda: one / a, -2: lambda: one / (a * a)}
    if e in fast:
        return fast[e]()
    return np.power(a.astype(np.float64), float(e)).astype(a.dtype)


def _pow_scalar_tensor(base, e):
    if e.dtype.kind != "f":
        return np.power(e.dtype.type(base), e)
    return np.power(np.float64(base), e.astype(np.float64)).astype(e.dtype)


def _pow_tensor_tensor(a, b):
    if a.dtype.kind != "f":
        return np.power(a, b)
    return np.power(a.astype(np.float64), b.astype(np.float64)).astype(a.dtype)


def _pow_backward(g, a, e):
    if e == 0:
        return _zeros_of(a, a)
    exponent = float(e)
    return P.mul(g, P.mul_scalar(P.pow(a, exponent - 1), exponent))


def _pow_backward_self(g, a, b):
    grad = P.mul(g, P.mul(b, P.pow(a, P.sub_scalar(b, 1))))
    return P.where(C.compare("eq", b, 0.0), P.scalar_tensor(0.0, g.dtype), grad)


def _pow_backward_exponent(g, a, b, out):
    cond = C.logical_and(C.compare("eq", a, 0), C.compare("ge", b, 0))
    base = conversions.to_dtype(a, dtypes.promote(a.dtype, b.dtype))
    return P.mul(g, P.where(cond, P.scalar_tensor(0.0, g.dtype), P.mul(out, P.log(base))))


def _pow_backward_scalar_base(g, base, e, out):
    with np.errstate(all="ignore"):
        log_base = float(np.log(np.float64(base)))
    grad = P.mul_scalar(out, log_base)
    if base == 0:
        grad = P.where(C.compare("ge", e, 0), P.scalar_tensor(0.0, g.dtype), grad)
    return P.mul(g, grad)


defop("pow.Tensor_Scalar", "PowBackward0", _pow_tensor_scalar, save=(0,),
      vjp=lambda g, a, e: _pow_backward(g, a, e))
pointwise_op("pow.Tensor_Tensor", "PowBackward1", _pow_tensor_tensor, save=(0, 1, RESULT),
             save_for=((0, 1), (0, 1, RESULT)),
             vjp=(lambda g, a, b, out=None: _pow_backward_self(g, a, b),
                  lambda g, a, b, out=None: _pow_backward_exponent(g, a, b, out)))
defop("pow.Scalar", "PowBackward2", _pow_scalar_tensor, save=(1, RESULT),
      vjp=(None, lambda g, base, e, out: _pow_backward_scalar_base(g, base, e, out)))


# ---- selection, clamping, interpolation ---------------------------------------------------------

def _where(c, a, b):
    return np.where(c.astype(bool), a, b)


def _clamp(a, lo, hi):
    if lo is not None:
        a = np.maximum(a, lo)
    if hi is not None:
        a = np.minimum(a, hi)
    return a


def _clamp_backward(g, a, lo, hi):
    if lo is not None and hi is not None:
        cond = C.logical_and(C.compare("ge", a, lo), C.compare("le", a, hi))
    elif lo is not None:
        cond = C.compare("ge", a, lo)
    else:
        cond = C.compare("le", a, hi)
    return P.where(cond, g, P.scalar_tensor(0.0, g.dtype))


def _clamp_bound_backward(g, a, lo, hi, which):
    zero = P.scalar_tensor(0.0, g.dtype)
    if lo is not None and hi is not None:
        if which == "min":
            cond = C.logical_and(C.compare("lt", a, lo), C.compare("lt", lo, hi))
        else:
            cond = C.logical_or(C.compare("gt", a, hi), C.compare("lt", hi, lo))
    elif which == "min":
        cond = C.compare("lt", a, lo)
    else:
        cond = C.compare("gt", a, hi)
    return P.where(cond, g, zero)


def _select_grad(g, a, b, zero_where):
    split = P.where(C.compare("eq", a, b), P.div_scalar(g, 2), g)
    return P.masked_fill(split, C.compare(zero_where, a, b), 0)


def _lerp(a, b, w):
    w = np.asarray(w, dtype=a.dtype) if not isinstance(w, np.ndarray) else w
    small = np.abs(w) < 0.5
    return np.where(small, a + w * (b - a), b - (b - a) * (1 - w))


def _masked_fill(a, mask, value):
    return np.where(mask, np.asarray(value).astype(a.dtype), a)


def _masked_fill_value_grad(g, mask):
    return R.sum(P.where(mask, g, 0))


pointwise_op("where.self", "WhereBackward0", _where, save=(0,),
             vjp=(None, lambda g, c, a, b: P.where(c, g, 0), lambda g, c, a, b: P.where(c, 0, g)))
defop("clamp", "ClampBackward1", _clamp, save=(0,),
      vjp=(lambda g, a, lo, hi: _clamp_backward(g, a, lo, hi),))
pointwise_op("clamp.Tensor", "ClampBackward0", _clamp, save=(0, 1, 2),
             vjp=(lambda g, a, lo, hi: _clamp_backward(g, a, lo, hi),
                  lambda g, a, lo, hi: _clamp_bound_backward(g, a, lo, hi, "min"),
                  lambda g, a, lo, hi: _clamp_bound_backward(g, a, lo, hi, "max")))
pointwise_op("maximum", "MaximumBackward0", np.maximum, save=(0, 1),
             vjp=(lambda g, a, b: _select_grad(g, a, b, "lt"),
                  lambda g, a, b: _select_grad(g, a, b, "gt")))
pointwise_op("minimum", "MinimumBackward0", np.minimum, save=(0, 1),
             vjp=(lambda g, a, b: _select_grad(g, a, b, "gt"),
                  lambda g, a, b: _select_grad(g, a, b, "lt")))
pointwise_op("lerp.Scalar", "LerpBackward0", _lerp,
             vjp=(lambda g, a, b, w: P.mul_scalar(g, 1 - float(w)),
                  lambda g, a, b, w: P.mul_scalar(g, w)))
pointwise_op("lerp.Tensor", "LerpBackward1", _lerp, save=(0, 1, 2), save_for=((2,), (2,), (0, 1)),
             vjp=(lambda g, a, b, w: P.mul(g, P.scalar_sub(1, w)), lambda g, a, b, w: P.mul(g, w),
                  lambda g, a, b, w: P.mul(g, P.sub(b, a))))
defop("masked_fill.Scalar", "MaskedFillBackward0", _masked_fill, promote="none", save=(1,),
      vjp=(lambda g, a, mask, value: P.masked_fill(g, mask, 0),))
defop("masked_fill.Tensor", "MaskedFillBackward1", _masked_fill, promote="none", save=(1,),
      vjp=(lambda g, a, mask, value: P.masked_fill(g, mask, 0), None,
           lambda g, a, mask, value: _masked_fill_value_grad(g, mask)))
pointwise_op("atan2", "Atan2Backward0", np.arctan2, promote="float", save=(0, 1),
             vjp=(lambda g, a, b: P.mul(P.mul(g, b), _atan2_recip(a, b)),
                  lambda g, a, b: P.mul(P.mul(g, P.neg(a)), _atan2_recip(a, b))))


def _atan2_recip(a, b):
    return P.reciprocal(P.add(P.mul(a, a), P.mul(b, b)))



# ---- functions declared whole: schema, row, vjps and public names in one place -------------------

def _floating_kernel(name: str, array: np.ndarray) -> None:
    """torch's error for a floating-only CPU kernel reached with another dtype."""
    if array.dtype.kind != "f":
        scalar = dtypes.from_numpy(array.dtype).legacy_name.removesuffix("Tensor")
        raise errors.TorchError("NotImplementedError",
                                f'"{name}_cpu" not implemented for \'{scalar}\'')


def _logaddexp(a, b):
    _floating_kernel("logaddexp", a)
    with np.errstate(invalid="ignore"):
        both_infinite = np.isinf(a) & (a == b)
        mixed = np.maximum(a, b) + np.log1p(np.exp(-np.abs(a - b)))
    return np.where(both_infinite, a, mixed)


def _hypot(a, b):
    _floating_kernel("hypot", a)
    return np.hypot(a, b)


def _sinc(a):
    product = a * a.dtype.type(np.pi)
    return np.where(a == 0, a.dtype.type(1), np.sin(product) / np.where(a == 0, 1, product))


def _sinc_grad(g, a):
    """torch's sinc_backward: the quotient rule, with 0 where self is 0."""
    self_pi = P.mul_scalar(a, np.pi)
    self_squared_pi = P.mul_scalar(P.mul(a, a), np.pi)
    out = P.div(P.mul(g, P.sub(P.mul(self_pi, P.cos(self_pi)), P.sin(self_pi))),
                self_squared_pi)
    return P.where(C.eq(self_squared_pi, 0.0), P.scalar_tensor(0, g.dtype), out)


def _logit(a, eps=None):
    if eps is not None:
        a = np.clip(a, a.dtype.type(eps), a.dtype.type(1.0 - eps))
    return np.log(a / (a.dtype.type(1) - a))


def _logit_grad(g, a, eps=None):
    """torch's infinitely_differentiable_logit_backward: 0 (with eps) or NaN outside [lo, hi]."""
    lo = 0.0 if eps is None else eps
    inside = C.logical_and(C.ge(a, lo), C.le(a, 1.0 - lo))
    outside_value = P.scalar_tensor(float("nan") if eps is None else 0.0, a.dtype)
    return P.where(inside, P.div(g, P.mul(a, P.scalar_sub(1.0, a))), outside_value)


def _addcdiv(a, t1, t2, value=1):
    if t1.dtype.kind in "iub" and t2.dtype.kind in "iub":
        raise errors.runtime(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))"
            ".to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
            "float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes.")
    return a + value * t1 / t2


define("logaddexp(Tensor self, Tensor other, *, Tensor? out=None)", "LogaddexpBackward0", _logaddexp, save=(0, 1),
       vjp=(lambda g, a, b: P.div(g, P.add_scalar(P.exp(P.sub(b, a)), 1)),
            lambda g, a, b: P.div(g, P.add_scalar(P.exp(P.sub(a, b)), 1))))
define("hypot(Tensor self, Tensor other, *, Tensor? out=None)", "HypotBackward0", _hypot, save=(0, 1, RESULT),
       vjp=(lambda g, a, b, out: P.div(P.mul(g, a), out),
            lambda g, a, b, out: P.div(P.mul(g, b), out)))
define("logit(Tensor self, float? eps=None, *, Tensor? out=None)", "LogitBackward0", _logit, promote="float",
       save=(0,), vjp=_logit_grad)
define("sinc(Tensor self, *, Tensor? out=None)", "SincBackward0", _sinc, promote="float", save=(0,), vjp=_sinc_grad)
define("deg2rad(Tensor self, *, Tensor? out=None)", "Deg2RadBackward0", lambda a: a * a.dtype.type(np.pi / 180),
       promote="float", vjp=lambda g, a: P.mul_scalar(g, np.pi / 180))
define("addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, "
       "Tensor? out=None)",
       "AddcmulBackward0", lambda a, t1, t2, value=1: a + value * t1 * t2, save=(1, 2),
       save_for=((), (2,), (1,)),
       hidden=("addcmul(Tensor self, Scalar value, Tensor tensor1, Tensor tensor2)",),
       vjp=(lambda g, a, t1, t2, value=1: g,
            lambda g, a, t1, t2, value=1: P.mul(g, P.mul_scalar(t2, value)),
            lambda g, a, t1, t2, value=1: P.mul(g, P.mul_scalar(t1, value))))
define("addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, "
       "Tensor? out=None)",
       "AddcdivBackward0", _addcdiv, save=(1, 2), save_for=((), (2,), (1, 2)),
       hidden=("addcdiv(Tensor self, Scalar value, Tensor tensor1, Tensor tensor2)",),
       vjp=(lambda g, a, t1, t2, value=1: g,
            lambda g, a, t1, t2, value=1: P.mul(g, P.scalar_div(value, t2)),
            lambda g, a, t1, t2, value=1: P.mul(P.neg(g), P.div(P.mul_scalar(t1, value),
                                                                P.mul(t2, t2)))))


def _xlogy(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        product = np.where(x == 0, 0, x * np.log(y))
    return np.where(np.isnan(y), y, product).astype(np.result_type(x, y), copy=False)


def _xlogy_self(g, x, y):
    """at::xlogy(grad, other), 0 where self is 0 and other <= 0 (torch's choice there)."""
    undefined = C.eq(x, 0.0) if not isinstance(y, Tensor) else C.logical_and(C.eq(x, 0.0),
                                                                             C.le(y, 0.0))
    if not isinstance(y, Tensor) and y > 0:
        return xlogy(g, y)
    return P.masked_fill(xlogy(g, y), undefined, 0.0)


pointwise_op("xlogy.Tensor", "XlogyBackward0", _xlogy, promote="float", save=(0, 1),
             vjp=(_xlogy_self, lambda g, x, y: P.div(P.mul(g, x), y)))
defop("xlogy.Scalar_Self", "XlogyBackward1", _xlogy, promote="float", save=(0, 1),
      vjp=(None, lambda g, x, y: P.div(P.mul_scalar(g, x), y)))
defop("xlogy.Scalar_Other", "XlogyBackward2", _xlogy, promote="float", save=(0,),
      vjp=(_xlogy_self,))


def xlogy(self, other):
    """self * log(other), 0 where self is 0, as torch.xlogy picks its overload."""
    if not isinstance(self, Tensor):
        return apply(OPS["xlogy.Scalar_Self"], self, other)
    if not isinstance(other, Tensor):
        return apply(OPS["xlogy.Scalar_Other"], self, other)
    broadcast_shape(self.shape, other.shape)
    return apply(OPS["xlogy.Tensor"], self, other)


declare("xlogy", xlogy, "xlogy(Tensor self, Tensor other, *, Tensor? out=None)",
        "xlogy(Scalar self, Tensor other, *, Tensor? out=None)",
        "xlogy(Tensor self, Scalar other, *, Tensor? out=None)",
        method=("xlogy(Tensor self, Tensor other)", "xlogy(Tensor self, Scalar other)"))
