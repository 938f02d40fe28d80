"""Elementwise math: torch's functions, their op rows with vjps, and declarations."""

from __future__ import annotations

import functools
import math

import numpy as np

from gradcli.engine import dtypes, errors, float_fmod, fma, pointwise_order, vmap_batched
from gradcli.engine import memory_format as memory_formats
from gradcli.engine.lazy_modules import (complex_kernels, kernels_order, libm_float, sleef,
                                         sleef_dd, sleef_df)
from gradcli.engine.lazy_modules import at_first_call as _at_first_call
from gradcli.engine.lazy_modules import vml_unary as _vml_unary
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import (AS_VJP, LINEAR, NOT_FLOATING, OPS, RESULT, apply,
                                         broadcast_shape, define, defop, not_implemented,
                                         pointwise_op)
from gradcli.engine.scalar_operands import unboxed as _unboxed
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.zero_tensors import efficient_zeros


def _conj(t):
    """F.conj, without loading the complex area for a real operand (its own conjugate)."""
    if isinstance(t, (int, float)) or isinstance(t, Tensor) and not t.dtype.is_complex:
        return t
    return F.conj(t)


def _times(alpha, b):
    """alpha * b, an int alpha wrapped into an integer array's dtype as torch's kernels cast it
    (-1 times a uint8 tensor is 255 times it, modulo 256)."""
    if type(alpha) is int and getattr(b, "dtype", None) is not None and b.dtype.kind in "iu":
        return b * np.asarray(alpha).astype(b.dtype)
    return alpha * b


def _add(a, b, alpha=1):
    if alpha == 1:
        return _unboxed(a, b) + b
    if a.dtype.kind == "f":
        return fma.add_scaled(a, b, alpha)
    return a + _times(alpha, b)


def _sub(a, b, alpha=1):
    return _unboxed(a, b) - b if alpha == 1 else _add(a, b, -alpha)


def _rsub(a, b, alpha=1):
    if alpha == 1:
        return b - a
    if a.dtype.kind == "f":
        return fma.add_scaled(np.asarray(b, a.dtype), a, -alpha)
    return b - _times(alpha, a)


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


def _multiply(a, b):
    """a * b; complex operands (cast to one complex dtype by `apply`) in the roundings of
    torch's complex kernel."""
    if a.dtype.kind == "c":
        return complex_kernels.multiply(a, b, a.dtype)
    return _unboxed(a, b) * b  # np.multiply, without the call's argument parsing


def _divide(a, b):
    if a.dtype.kind == "c":
        return complex_kernels.divide(a, b, a.dtype)
    return _unboxed(a, b) / b  # np.true_divide, without the call's argument parsing


pointwise_op("add.Tensor", "AddBackward0", _add, jvp=AS_VJP, complex=True,
             vjp=(lambda g, a, b, alpha=1: g, lambda g, a, b, alpha=1: F.maybe_multiply(g, alpha)),
      rule=('grad', 'alpha * grad'))
defop("add.Scalar", "AddBackward1", _add, jvp=AS_VJP, complex=True, vjp=lambda g, a, b, alpha=1: g,
      rule=('grad',))
pointwise_op("sub.Tensor", "SubBackward0", _sub, jvp=AS_VJP, complex=True,
             vjp=(lambda g, a, b, alpha=1: g,
                  lambda g, a, b, alpha=1: F.maybe_multiply(F.neg(g), alpha)),
      rule=('grad', '-alpha * grad'))
defop("sub.Scalar", "SubBackward1", lambda a, b, alpha=1: _add(a, b, -alpha), jvp=AS_VJP,
      complex=True,
      vjp=lambda g, a, b, alpha=1: g,
      rule=('grad',))
pointwise_op("rsub.Tensor", "RsubBackward0", _rsub, jvp=AS_VJP, complex=True,
             vjp=(lambda g, a, b, alpha=1: F.maybe_multiply(F.neg(g), alpha),
                  lambda g, a, b, alpha=1: g),
      rule=('-alpha * grad', 'grad'))
defop("rsub.Scalar", "RsubBackward1", _rsub, jvp=AS_VJP, complex=True,
      vjp=lambda g, a, b, alpha=1: F.maybe_multiply(F.neg(g), alpha),
      rule=('-alpha * grad',))
pointwise_op("mul.Tensor", "MulBackward0", _multiply, save=(0, 1), save_for=((1,), (0,)), jvp=AS_VJP,
             complex=True,
             vjp=(lambda g, a, b: F.mul(g, _conj(b)), lambda g, a, b: F.mul(g, _conj(a))),
      rule=('grad * other.conj()', 'grad * self.conj()'))
defop("mul.Scalar", "MulBackward1", _multiply, jvp=AS_VJP, complex=True,
      vjp=lambda g, a, s: F.mul_scalar(g, s.conjugate() if type(s) is complex else s),
      rule=('grad * other',))
pointwise_op("div.Tensor", "DivBackward0", _divide, promote="float", save=(0, 1),
             save_for=((1,), (0, 1)), complex=True,
             vjp=(lambda g, a, b: F.div(g, _conj(b)),
                  lambda g, a, b: F.mul(F.neg(g), _conj(F.div(F.div(a, b), b)))),
             jvp=(lambda t, a, b, out: F.div(t, b),
                  lambda t, a, b, out: F.div(F.neg(F.mul(t, out)), b)),
      rule=('grad / other.conj()', '-grad * (self / other / other).conj()'))
defop("div.Scalar", "DivBackward1", _divide, promote="float", jvp=AS_VJP, complex=True,
      vjp=lambda g, a, s: F.div_scalar(g, s.conjugate() if type(s) is complex else s),
      rule=('grad / other',))
pointwise_op("div.Tensor_mode", "DivBackward2", _div_mode, save=(0, 1), save_for=((1,), (0, 1)),
             vjp=(lambda g, a, b, rounding_mode: _zeros_of(g, a),
                  lambda g, a, b, rounding_mode: _zeros_of(g, b)))
pointwise_op("floor_divide", "torch::autograd::NotImplemented", np.floor_divide,
             vjp=(not_implemented("aten::floor_divide"),) * 2)
def _remainder(a, b):
    """torch's float remainder: fmod, moved by `b` when the signs differ (a zero keeps fmod's sign)."""
    if a.dtype.kind != "f":
        return np.remainder(a, b)
    mod = np.asarray(float_fmod.fmod(a, b))
    b = np.asarray(b)
    if b.ndim == 0:  # a zero mod is never moved, -0.0 included
        moved = mod > 0 if b < 0 else mod < 0
    else:
        moved = (mod != 0) & ((b < 0) != (mod < 0))
    if moved.any():
        mod = np.where(moved, mod + b, mod)
    return mod


defop("remainder.Scalar", "RemainderBackward0", _remainder, vjp=lambda g, a, b: g)
pointwise_op("remainder.Tensor", "RemainderBackward1", _remainder, save=(0, 1),
             save_for=((), (0, 1)),
             vjp=(lambda g, a, b: g,
                  lambda g, a, b: F.mul(F.neg(g), F.div(a, b, rounding_mode="floor"))))


def _addcmul(a, t1, t2, value=1):
    if a.dtype.kind == "f":
        return fma.addcmul(a, t1, t2, value)
    return a + value * t1 * t2


# ---- powers -------------------------------------------------------------------------------------

# NumPy's float sqrt is correctly rounded (the kernel's slow path); its complex one is csqrt
_SQRT = _vml_unary("sqrt", np.sqrt)


# Exponents torch's pow computes by multiplying (or by sqrt): fn(base, one). A 0-d base comes as
# its NumPy scalar to the arithmetic ones (the same bits, a tenth of the cost).
_EXACT_POWERS = {2: lambda a, one: a * a, 3: lambda a, one: a * a * a,
                 0.5: lambda a, one: _SQRT(a), -0.5: lambda a, one: one / np.sqrt(a),
                 -1: lambda a, one: one / a, -2: lambda a, one: one / (a * a)}


def _pow_tensor_scalar(a, e):
    """torch's CPU pow with a scalar exponent, including its exact fast paths."""
    if e == 0:
        return np.ones_like(a)
    if e == 1:
        return a.copy()
    if a.dtype.kind == "c":
        return complex_kernels.power(a, e)
    if a.dtype.kind != "f":
        return np.power(a, e)
    one = a.dtype.type(1)
    if STATE.reduced_kernel and e in (3, -2):  # torch multiplies these in bfloat16 or float16
        square = dtypes.rounded_to(STATE.reduced_kernel, a * a)
        return square * a if e == 3 else one / square
    fast = _EXACT_POWERS.get(e)
    if fast is not None:
        return fast(a[()] if a.ndim == 0 and e != 0.5 and e != -0.5 else a, one)
    scalar = lambda v: np.power(v.astype(np.float64), float(e)).astype(v.dtype)  # noqa: E731
    if a.dtype == np.float64:  # SLEEF's pow in the vector code, glibc's in the scalar code
        return pointwise_order.split(a, lambda v: sleef_dd.powd(v, float(e)),
                                     lambda v: libm_float.pow_double(v, float(e)))
    if a.dtype != np.float32:
        return scalar(a)
    # the vector code is SLEEF's powf with the exponent as a float, the scalar code
    # std::pow(float, double)
    return pointwise_order.split(a, lambda v: sleef_df.powf(v, np.float32(e)), scalar)


def _pow_floats(a, b):
    """pow's float and double kernel on two operands: SLEEF's pow in the vector code, glibc's
    in the scalar code."""
    if a.dtype == np.float64:
        return pointwise_order.split_binary(a, b, sleef_dd.powd, libm_float.pow_double)
    if a.dtype != np.float32:  # float16 and bfloat16 compute in float
        return libm_float.powf(a, b).astype(a.dtype)
    return pointwise_order.split_binary(a, b, sleef_df.powf, libm_float.powf)


def _pow_scalar_tensor(base, e):
    if e.dtype.kind == "c":
        return complex_kernels.cpow(np.asarray(base, e.dtype), e)
    if e.dtype.kind != "f":
        return _int_power(e.dtype.type(base), e)
    if base == 1:
        return np.ones_like(e)
    return _pow_floats(np.asarray(base, e.dtype), e)


def _int_power(a, b):
    """torch's integer pow (powi): a negative exponent gives 1 for a base of 1, +-1 for -1
    (by the exponent's parity) and 0 otherwise, where NumPy refuses."""
    a, b = np.asarray(a), np.asarray(b)
    negative = b < 0
    if not np.any(negative):
        return np.power(a, b)
    out = np.power(a, np.where(negative, 0, b))
    odd = (np.abs(b) % 2) == 1
    reciprocal = np.where(a == 1, 1, np.where(a == -1, np.where(odd, -1, 1), 0))
    return np.where(negative, reciprocal, out).astype(out.dtype)


def _pow_tensor_tensor(a, b):
    if a.dtype.kind == "c":
        return complex_kernels.cpow(a, b)
    if a.dtype.kind != "f":
        return _int_power(a, b)
    return _pow_floats(a, b)


def _pow_backward(g, a, e):
    if e == 0:
        return _zeros_of(a, a)
    exponent = complex(e) if isinstance(e, complex) else float(e)
    return F.mul(g, _conj(F.mul_scalar(F.pow(a, exponent - 1), exponent)))


def _pow_backward_self(g, a, b):
    grad = F.mul(g, _conj(F.mul(b, F.pow(a, F.sub_scalar(b, 1)))))
    return F.where(F.compare("eq", b, 0.0), F.scalar_tensor(0.0, grad.dtype), grad)


def _pow_backward_exponent(g, a, b, out):
    real_b = F.real(b) if b.dtype.is_complex else b
    cond = F.logical_and(F.compare("eq", a, 0), F.compare("ge", real_b, 0))
    base = F.to_dtype(a, dtypes.result_type([a, b], STATE.default_dtype))  # at::result_type
    grad = _conj(F.mul(out, F.log(base)))
    return F.mul(g, F.where(cond, F.scalar_tensor(0.0, grad.dtype), grad))


def _pow_backward_scalar_base(g, base, e, out):
    with np.errstate(all="ignore"):
        log_base = complex(np.log(np.complex128(base))) if isinstance(base, complex) or (
            e.dtype.is_complex) else float(np.log(np.float64(base)))
    if isinstance(log_base, complex) and log_base.imag == 0 and not isinstance(base, complex):
        log_base = log_base.real
    grad = _conj(F.mul_scalar(out, log_base))
    if base == 0:
        grad = F.where(F.compare("ge", F.real(e) if e.dtype.is_complex else e, 0),
                       F.scalar_tensor(0.0, grad.dtype), grad)
    return F.mul(g, grad)


defop("pow.Tensor_Scalar", "PowBackward0", _pow_tensor_scalar, save=(0,), jvp=AS_VJP, complex=True,
      vjp=lambda g, a, e: _pow_backward(g, a, e),
      rule=('grad * exponent * self**(exponent - 1)',))
pointwise_op("pow.Tensor_Tensor", "PowBackward1", _pow_tensor_tensor, save=(0, 1, RESULT),
             complex=True,
             save_for=((0, 1), (0, 1, RESULT)), jvp=AS_VJP,
             vjp=(lambda g, a, b, out=None: _pow_backward_self(g, a, b),
                  lambda g, a, b, out=None: _pow_backward_exponent(g, a, b, out)),
      rule=('grad * exponent * self**(exponent - 1)', 'grad * result * log(self)'))
defop("pow.Scalar", "PowBackward2", _pow_scalar_tensor, save=(1, RESULT), jvp=AS_VJP,
      complex=True,
      vjp=(None, lambda g, base, e, out: _pow_backward_scalar_base(g, base, e, out)),
      rule=(None, 'grad * result * log(self)'))


# ---- selection, clamping, interpolation ---------------------------------------------------------

def _where(c, a, b):
    return np.where(c.astype(bool), a, b)


def _clamp(a, lo, hi):
    if lo is not None:
        a = pointwise_order.at_least(a, lo)
    if hi is not None:
        a = pointwise_order.at_most(a, hi)
    return a


def _clamp_backward(g, a, lo, hi):
    if lo is not None and hi is not None:
        cond = F.logical_and(F.compare("ge", a, lo), F.compare("le", a, hi))
    elif lo is not None:
        cond = F.compare("ge", a, lo)
    else:
        cond = F.compare("le", a, hi)
    return F.where(cond, g, F.scalar_tensor(0.0, g.dtype))


def _clamp_bound_backward(g, a, lo, hi, which):
    zero = F.scalar_tensor(0.0, g.dtype)
    if lo is not None and hi is not None:
        if which == "min":
            cond = F.logical_and(F.compare("lt", a, lo), F.compare("lt", lo, hi))
        else:
            cond = F.logical_or(F.compare("gt", a, hi), F.compare("lt", hi, lo))
    elif which == "min":
        cond = F.compare("lt", a, lo)
    else:
        cond = F.compare("gt", a, hi)
    return F.where(cond, g, zero)


def _select_grad(g, a, b, zero_where):
    split = F.where(F.compare("eq", a, b), F.div_scalar(g, 2), g)
    return F.masked_fill(split, F.compare(zero_where, a, b), 0)


def _clamp_jvp(a, a_t, lo, lo_t, hi, hi_t):
    """torch's clamp_jvp: the tangent of whichever of self, min, max the result is."""
    if lo is not None and hi is not None:
        inner = F.where(F.compare("gt", a, hi), hi_t, a_t)
        return F.where(F.compare("gt", lo, hi), hi_t,
                       F.where(F.compare("lt", a, lo), lo_t, inner))
    if lo is not None:
        return F.where(F.compare("gt", a, lo), a_t, lo_t)
    return F.where(F.compare("lt", a, hi), a_t, hi_t)


def _select_jvp(t, a, b, out, picks_a):
    """maximum/minimum: other_t + where(a == b, 0.5, a `picks_a` b) * (self_t - other_t)."""
    share = F.where(F.compare("eq", a, b), F.scalar_tensor(0.5, out.dtype),
                    F.cast(F.compare(picks_a, a, b), out.dtype))
    return F.add(t[1], F.mul(share, F.sub(t[0], t[1])))


def _masked_fill(a, mask, value):
    return np.where(mask, np.asarray(value).astype(a.dtype), a)


def _masked_fill_value_grad(g, mask):
    return F.sum(F.where(mask, g, 0))


pointwise_op("where.self", "WhereBackward0", _where, save=(0,), complex=True,
             vjp=(None, lambda g, c, a, b: F.where(c, g, 0), lambda g, c, a, b: F.where(c, 0, g)),
             jvp=lambda t, c, a, b, out: F.where(c, t[1], t[2]))
defop("clamp", "ClampBackward1", _clamp, save=(0,),
      vjp=(lambda g, a, lo, hi: _clamp_backward(g, a, lo, hi),), jvp=AS_VJP,
      refuses=("clamp_scalar_cpu", (dtypes.BOOL,)))
pointwise_op("clamp.Tensor", "ClampBackward0", _clamp, save=(0, 1, 2),
             vjp=(lambda g, a, lo, hi: _clamp_backward(g, a, lo, hi),
                  lambda g, a, lo, hi: _clamp_bound_backward(g, a, lo, hi, "min"),
                  lambda g, a, lo, hi: _clamp_bound_backward(g, a, lo, hi, "max")),
             jvp=lambda t, a, lo, hi, out: _clamp_jvp(a, t[0], lo, t[1], hi, t[2]))
pointwise_op("maximum", "MaximumBackward0", np.maximum, save=(0, 1),
             vjp=(lambda g, a, b: _select_grad(g, a, b, "lt"),
                  lambda g, a, b: _select_grad(g, a, b, "gt")),
             jvp=lambda t, a, b, out: _select_jvp(t, a, b, out, "gt"))
pointwise_op("minimum", "MinimumBackward0", np.minimum, save=(0, 1),
             vjp=(lambda g, a, b: _select_grad(g, a, b, "gt"),
                  lambda g, a, b: _select_grad(g, a, b, "lt")),
             jvp=lambda t, a, b, out: _select_jvp(t, a, b, out, "lt"))
pointwise_op("lerp.Scalar", "LerpBackward0", fma.lerp,
             vjp=(lambda g, a, b, w: F.mul_scalar(g, 1 - float(w)),
                  lambda g, a, b, w: F.mul_scalar(g, w)),
             jvp=lambda t, a, b, w, out: F.lerp(t[0], t[1], w))
pointwise_op("lerp.Tensor", "LerpBackward1", fma.lerp, save=(0, 1, 2), save_for=((2,), (2,), (0, 1)),
             vjp=(lambda g, a, b, w: F.mul(g, F.scalar_sub(1, w)), lambda g, a, b, w: F.mul(g, w),
                  lambda g, a, b, w: F.mul(g, F.sub(b, a))),
             jvp=lambda t, a, b, w, out: F.add(F.lerp(t[0], t[1], w), F.mul(t[2], F.sub(b, a))))
defop("masked_fill.Scalar", "MaskedFillBackward0", _masked_fill, promote="none", save=(1,),
      vjp=(lambda g, a, mask, value: F.masked_fill(g, mask, 0),), jvp=AS_VJP)
defop("masked_fill.Tensor", "MaskedFillBackward1", _masked_fill, promote="none", save=(1,),
      vjp=(lambda g, a, mask, value: F.masked_fill(g, mask, 0), None,
           lambda g, a, mask, value: _masked_fill_value_grad(g, mask)),
      jvp=(lambda t, a, mask, value, out: F.masked_fill(t, mask, 0), None,
           lambda t, a, mask, value, out: F.where(mask, t, F.zeros_like(a))))
def _atan2(a, b):
    """float32: SLEEF's atan2 in the vector code, glibc's atan2f in the scalar tails."""
    if a.dtype == np.float32 and b.dtype == np.float32:
        return pointwise_order.split_strided((a, b), sleef.atan2f, libm_float.atan2f)
    return np.arctan2(a, b)


pointwise_op("atan2", "Atan2Backward0", _atan2, promote="float", save=(0, 1),
             vjp=(lambda g, a, b: F.mul(F.mul(g, b), _atan2_recip(a, b)),
                  lambda g, a, b: F.mul(F.mul(g, F.neg(a)), _atan2_recip(a, b))),
             jvp=lambda t, a, b, out: F.div(F.add(F.mul(F.neg(a), t[1]), F.mul(b, t[0])),
                                            F.add(F.pow(a, 2), F.pow(b, 2))))


def _atan2_recip(a, b):
    """1 / (a² + b²), 0 where that is infinite (at the origin, or where the squares underflow)."""
    recip = F.reciprocal(F.add(F.mul(a, a), F.mul(b, b)))
    return F.masked_fill(recip, F.isinf(recip), 0)


# ---- functions declared whole: schema, row, vjps and public names in one place -------------------

def _logaddexp(a, b):
    with np.errstate(invalid="ignore"):
        both_infinite = np.isinf(a) & (a == b)
        mixed = np.maximum(a, b) + np.log1p(np.exp(-np.abs(a - b)))
    return np.where(both_infinite, a, mixed)


def _hypot(a, b):
    return np.hypot(a, b)


def _sinc(a):
    product = a * a.dtype.type(np.pi)
    return np.where(a == 0, a.dtype.type(1), np.sin(product) / np.where(a == 0, 1, product))


def _sinc_grad(g, a):
    """torch's sinc_backward: the quotient rule, with 0 where self is 0."""
    self_pi = F.mul_scalar(a, np.pi)
    self_squared_pi = F.mul_scalar(F.mul(a, a), np.pi)
    out = F.div(F.mul(g, F.sub(F.mul(self_pi, F.cos(self_pi)), F.sin(self_pi))),
                self_squared_pi)
    return F.where(F.eq(self_squared_pi, 0.0), F.scalar_tensor(0, g.dtype), out)


def _logit(a, eps=None):
    """log(x / (1 - x)); for bfloat16 and float16 each step rounded to the dtype, as torch's
    kernel computes it in Vectorized<scalar_t>."""
    if eps is not None:
        a = np.clip(a, a.dtype.type(eps), a.dtype.type(1.0 - eps))
    if not STATE.reduced_kernel:
        return np.log(a / (a.dtype.type(1) - a))
    one_less = dtypes.rounded_to(STATE.reduced_kernel, a.dtype.type(1) - a)
    return np.log(dtypes.rounded_to(STATE.reduced_kernel, a / one_less))


def _logit_grad(g, a, eps=None):
    """torch's infinitely_differentiable_logit_backward: 0 (with eps) or NaN outside [lo, hi]."""
    lo = 0.0 if eps is None else eps
    inside = F.logical_and(F.ge(a, lo), F.le(a, 1.0 - lo))
    outside_value = F.scalar_tensor(float("nan") if eps is None else 0.0, a.dtype)
    return F.where(inside, F.div(g, F.mul(a, F.scalar_sub(1.0, a))), outside_value)


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


define("logaddexp(Tensor self, Tensor other, *, Tensor? out=None)", "LogaddexpBackward0", _logaddexp, save=(0, 1), jvp=AS_VJP,
       refuses=("logaddexp_cpu", NOT_FLOATING),
       vjp=(lambda g, a, b: F.div(g, F.add_scalar(F.exp(F.sub(b, a)), 1)),
            lambda g, a, b: F.div(g, F.add_scalar(F.exp(F.sub(a, b)), 1))))
define("hypot(Tensor self, Tensor other, *, Tensor? out=None)", "HypotBackward0", _hypot, save=(0, 1, RESULT), jvp=AS_VJP,
       refuses=("hypot_cpu", NOT_FLOATING),
       vjp=(lambda g, a, b, out: F.div(F.mul(g, a), out),
            lambda g, a, b, out: F.div(F.mul(g, b), out)))
define("logit(Tensor self, float? eps=None, *, Tensor? out=None)", "LogitBackward0", _logit, promote="float",
       save=(0,), vjp=_logit_grad, jvp=AS_VJP)
define("sinc(Tensor self, *, Tensor? out=None)", "SincBackward0", _sinc, promote="float", save=(0,), vjp=_sinc_grad,
       jvp=AS_VJP)
define("deg2rad(Tensor self, *, Tensor? out=None)", "Deg2RadBackward0", lambda a: a * a.dtype.type(np.pi / 180),
       promote="float", vjp=lambda g, a: F.mul_scalar(g, np.pi / 180), jvp=AS_VJP)
define("addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, "
       "Tensor? out=None)",
       "AddcmulBackward0", _addcmul, save=(1, 2),
       save_for=((), (2,), (1,)), jvp=AS_VJP,
       hidden=("addcmul(Tensor self, Scalar value, Tensor tensor1, Tensor tensor2, *, "
               "Tensor? out=None)",),
       vjp=(lambda g, a, t1, t2, value=1: g,
            lambda g, a, t1, t2, value=1: F.mul(g, F.mul_scalar(t2, value)),
            lambda g, a, t1, t2, value=1: F.mul(g, F.mul_scalar(t1, value))))
define("addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, "
       "Tensor? out=None)",
       "AddcdivBackward0", _addcdiv, save=(1, 2), save_for=((), (2,), (1, 2)), jvp=AS_VJP,
       hidden=("addcdiv(Tensor self, Scalar value, Tensor tensor1, Tensor tensor2, *, "
               "Tensor? out=None)",),
       vjp=(lambda g, a, t1, t2, value=1: g,
            lambda g, a, t1, t2, value=1: F.mul(g, F.scalar_div(value, t2)),
            lambda g, a, t1, t2, value=1: F.mul(F.neg(g), F.div(F.mul_scalar(t1, value),
                                                                F.mul(t2, t2)))))


def _xlogy(x, y):
    """torch's scalar kernel: x * std::log(y) (the C library's log), 0 where x is 0, NaN where
    y is NaN."""
    dtype = np.result_type(x, y)
    logs = libm_float.scalar("log", np.asarray(y, dtype))
    if STATE.reduced_kernel:  # c10's std::log of a bfloat16 or float16 value returns one
        logs = dtypes.rounded_to(STATE.reduced_kernel, logs)
    with np.errstate(invalid="ignore"):
        product = np.where(x == 0, 0, x * logs)
    return np.where(np.isnan(y), y, product).astype(dtype, copy=False)


def _xlogy_self(g, x, y):
    """at::xlogy(grad, other), 0 where self is 0 and other <= 0 (torch's choice there)."""
    undefined = F.eq(x, 0.0) if not isinstance(y, Tensor) else F.logical_and(F.eq(x, 0.0),
                                                                             F.le(y, 0.0))
    if not isinstance(y, Tensor) and y > 0:
        return xlogy(g, y)
    return F.masked_fill(xlogy(g, y), undefined, 0.0)


pointwise_op("xlogy.Tensor", "XlogyBackward0", _xlogy, promote="float", save=(0, 1), jvp=AS_VJP,
             vjp=(_xlogy_self, lambda g, x, y: F.div(F.mul(g, x), y)))
defop("xlogy.Scalar_Self", "XlogyBackward1", _xlogy, promote="float", save=(0, 1), jvp=AS_VJP,
      vjp=(None, lambda g, x, y: F.div(F.mul_scalar(g, x), y)))
defop("xlogy.Scalar_Other", "XlogyBackward2", _xlogy, promote="float", save=(0,), jvp=AS_VJP,
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


LN2 = 0.6931471805599453
LN10 = 2.3025850929940456
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def erf_values(a: np.ndarray) -> np.ndarray:
    """The error function, elementwise, computed in double precision."""
    values = np.frompyfunc(math.erf, 1, 1)(a.astype(np.float64))
    return np.asarray(values, dtype=np.float64).astype(a.dtype)


def sigmoid_values(a):
    """1 / (1 + exp(-a)): SLEEF's exp in the vector code, std::exp in the scalar tails."""
    one = a.dtype.type(1)
    if a.dtype not in (np.float32, np.float64):
        return one / (one + np.exp(-a))
    return pointwise_order.split(a, lambda v: one / (one + sleef.exp(-v)),
                                 lambda v: one / (one + kernels_order.scalar_exp(-v)))


def _reciprocal(a):
    return complex_kernels.reciprocal(a) if a.dtype.kind == "c" else np.reciprocal(a)


def _rsqrt(a):
    return a.dtype.type(1) / np.sqrt(a)


def _zeros(g, *_, **__):
    return F.filled_like(g, 0)


def _asin_root(a):
    """(-self * self + 1).rsqrt(), shared by asin and acos."""
    return F.rsqrt(F.add_scalar(F.mul(F.neg(a), a), 1))


def rounded_from_double(ufunc):
    """A float32 (or float16) result computed in double and rounded once: torch's vectorised
    kernels are within an ulp of the true value, and this matches them far more often than
    NumPy's own float32 kernels do (tanh 99.9% against 68% of random inputs, exp 99% against
    61%)."""
    def forward(a):
        if a.dtype.kind == "f" and a.dtype.itemsize < 8:
            # the ufunc casts in and out through its own small buffers: no double-sized copy
            return ufunc(a, dtype=np.float64, out=np.empty_like(a), casting="same_kind")
        return ufunc(a)
    return forward


def _nan_kept(forward):
    """`forward`, float and double NaN inputs coming back as they are (as MKL's kernels give
    them; NumPy's arccos flips their sign)."""
    def kept(a):
        out = forward(a)
        if a.dtype not in (np.float32, np.float64):
            return out
        if type(out) is np.ndarray:
            np.copyto(out, a, where=np.isnan(a))
            return out
        return a if np.isnan(a) else out
    return kept


def _sleef_float(vector, rounded, scalar=None, vector64=None, scalar64=None):
    """A float32 forward whose vector code is SLEEF's `vector`: in cpu_kernel_vec's body, with
    `scalar` (glibc's float function) on the tails, or, with scalar "all", everywhere (vml's
    vec::map runs partial vectors through the vector code too). float64 likewise takes SLEEF's
    `vector64` where given, with glibc's double function `scalar64` (its name for
    libm_float.scalar) on the tails; other dtypes take `rounded`."""
    def forward(a):
        if a.dtype == np.float64 and vector64 is not None:
            if scalar == "all":
                return vector64(a)
            return pointwise_order.split(a, vector64, functools.partial(libm_float.scalar, scalar64))
        if a.dtype != np.float32:
            return rounded(a)
        if scalar == "all":
            return vector(a)
        return pointwise_order.split(a, vector, scalar)
    return forward


# key: (label, forward, saves, vjp(g, a, out)[, rule text]); all compute in floating point.
_FLOATING = {
    "reciprocal": ("ReciprocalBackward0", _reciprocal, RESULT,
                   lambda g, a, out: F.mul(F.neg(g), _conj(F.mul(out, out))),
        '-grad * (result * result).conj()'),
    "exp": ("ExpBackward0", _vml_unary("exp", rounded_from_double(np.exp)), RESULT,
            lambda g, a, out: F.mul(g, _conj(out)),
        'grad * result.conj()'),
    "exp2": ("Exp2Backward0", _at_first_call(lambda: _sleef_float(
        sleef_df.exp2f, rounded_from_double(np.exp2), kernels_order.glibc_exp2f, sleef_dd.exp2d, "exp2")),
        RESULT,
             lambda g, a, out: F.mul_scalar(F.mul(g, out), LN2)),
    "expm1": ("Expm1Backward0", _at_first_call(lambda: _sleef_float(
        sleef_df.expm1f, rounded_from_double(np.expm1), "all", sleef_dd.expm1d)), RESULT,
              lambda g, a, out: F.mul(g, F.add_scalar(out, 1)),
        'grad * (result + 1)'),
    "log": ("LogBackward0", _vml_unary("log", rounded_from_double(np.log)), 0, lambda g, a, out: F.div(g, _conj(a)),
        'grad / self.conj()'),
    "log2": ("Log2Backward0", _vml_unary("log2", rounded_from_double(np.log2)), 0, lambda g, a, out: F.div(g, F.mul_scalar(a, LN2))),
    "log10": ("Log10Backward0", _vml_unary("log10", rounded_from_double(np.log10)), 0, lambda g, a, out: F.div(g, F.mul_scalar(a, LN10))),
    "log1p": ("Log1PBackward0", _at_first_call(lambda: _sleef_float(
        sleef_df.log1pf, rounded_from_double(np.log1p), "all", sleef_dd.log1pd)), 0, lambda g, a, out: F.div(g, F.add_scalar(a, 1)),
        'grad / (self + 1)'),
    "sqrt": ("SqrtBackward0", _SQRT, RESULT,
             lambda g, a, out: F.div(g, F.mul_scalar(_conj(out), 2)),
        'grad / (2 * result.conj())'),
    "rsqrt": ("RsqrtBackward0", _rsqrt, RESULT,
              lambda g, a, out: F.mul(F.mul_scalar(g, -0.5), F.pow(out, 3))),
    "sin": ("SinBackward0", _vml_unary("sin", rounded_from_double(np.sin)), 0, lambda g, a, out: F.mul(g, F.cos(a)),
        'grad * cos(self)'),
    "cos": ("CosBackward0", _vml_unary("cos", rounded_from_double(np.cos)), 0, lambda g, a, out: F.mul(g, F.neg(F.sin(a))),
        'grad * -sin(self)'),
    "tan": ("TanBackward0", _vml_unary("tan", rounded_from_double(np.tan)), RESULT,
            lambda g, a, out: F.mul(g, F.add_scalar(F.pow(out, 2), 1)),
        'grad * (1 + result**2)'),
    "asin": ("AsinBackward0", _vml_unary("asin", rounded_from_double(np.arcsin)), 0, lambda g, a, out: F.mul(g, _asin_root(a))),
    "acos": ("AcosBackward0", _vml_unary("acos", _nan_kept(rounded_from_double(np.arccos))), 0, lambda g, a, out: F.mul(g, F.neg(_asin_root(a)))),
    "atan": ("AtanBackward0", _vml_unary("atan", rounded_from_double(np.arctan)), 0,
             lambda g, a, out: F.div(g, F.add_scalar(F.mul(a, a), 1)),
        'grad / (1 + self**2)'),
    "sinh": ("SinhBackward0", _at_first_call(lambda: _sleef_float(
        sleef_df.sinhf, rounded_from_double(np.sinh), libm_float.sinhf, sleef_dd.sinhd, "sinh")), 0, lambda g, a, out: F.mul(g, F.cosh(a)),
        'grad * cosh(self)'),
    "cosh": ("CoshBackward0", _at_first_call(lambda: _sleef_float(
        sleef_df.coshf, rounded_from_double(np.cosh), libm_float.coshf, sleef_dd.coshd, "cosh")), 0, lambda g, a, out: F.mul(g, F.sinh(a)),
        'grad * sinh(self)'),
    "tanh": ("TanhBackward0", _vml_unary("tanh", rounded_from_double(np.tanh)), RESULT, lambda g, a, out: F.tanh_backward(g, out),
        'grad * (1 - result**2)'),
    "sigmoid": ("SigmoidBackward0", sigmoid_values, RESULT,
                lambda g, a, out: F.sigmoid_backward(g, out),
        'grad * result * (1 - result)'),
    "erf": ("ErfBackward0", _vml_unary("erf", erf_values), 0,
            lambda g, a, out: F.mul(F.mul_scalar(F.exp(F.neg(F.pow(a, 2))), TWO_OVER_SQRT_PI),
                                    g)),
}

# their NumPy forwards are glibc's cexp, clog, csqrt; reciprocal's is c10's division
_TAKE_COMPLEX = ("exp", "log", "sqrt", "reciprocal")
for _key, (_label, _forward, _saves, _rule, *_text) in _FLOATING.items():
    if _saves == RESULT:
        defop(_key, _label, _forward, promote="float", save=(RESULT,), vjp=_rule, jvp=AS_VJP,
              rule=tuple(_text), complex=_key in _TAKE_COMPLEX)
    else:
        defop(_key, _label, _forward, promote="float", save=(0,), jvp=AS_VJP,
              vjp=lambda g, a, rule=_rule: rule(g, a, None), rule=tuple(_text),
              complex=_key in _TAKE_COMPLEX)

defop("neg", "NegBackward0", np.negative, promote="none", jvp=AS_VJP, complex=True, vjp=lambda g, a: F.neg(g),
      rule=('-grad',))
def _abs(a):
    return complex_kernels.absolute(a) if a.dtype.kind == "c" else np.abs(a)


defop("abs", "AbsBackward0", _abs, promote="none", save=(0,), jvp=AS_VJP, complex=True,
      out_dtype=lambda dtype, params: dtypes.real_of(dtype),
      vjp=lambda g, a: F.mul(g, F.sgn(a)),
      rule=('grad * sign(self)',),
      refuses=("abs_cpu", (dtypes.BOOL,)))
def _sign(a):
    """torch's (0 < a) - (a < 0): NaN and -0.0 give +0.0 (NumPy keeps NaN); a complex
    number's z / |z| (0 for 0)."""
    if a.dtype == np.bool_:
        return a.copy()
    if a.dtype.kind == "c":
        return pointwise_order.split(a, _complex_sign, _complex_sign_scalar)
    if a.dtype.kind != "f":
        return np.sign(a)
    return (a > 0).astype(a.dtype) - (a < 0).astype(a.dtype)


def _complex_sign(a, reciprocal: bool = False):
    """z / |z| (0 for 0) as torch's vector code computes it: each part divided by |z|; or,
    `reciprocal`, as its scalar code does, each part times 1 / |z|."""
    size = _abs(a)
    zero = size == 0
    size = np.where(zero, 1, size)
    if reciprocal:
        size = np.ones((), size.dtype) / size
    out = np.empty_like(a)
    out.real = np.where(zero, 0, a.real * size if reciprocal else a.real / size)
    out.imag = np.where(zero, 0, a.imag * size if reciprocal else a.imag / size)
    return out


def _complex_sign_scalar(a):
    return _complex_sign(a, reciprocal=True)


def _sgn_vjp(g, a, out):
    """torch's sgn_backward: for complex values (g - sgn^2 conj(g)) / (2 |a|), 0 where a is 0;
    zeros otherwise."""
    if not a.dtype.is_complex:
        return efficient_zeros(g)
    size = F.abs(a)
    grad = F.div(F.sub(g, F.mul(F.mul(out, out), _conj(g))), F.mul_scalar(size, 2.0))
    return F.masked_fill(grad, F.compare("eq", size, 0.0), 0.0)


def _cast(a: np.ndarray, dtype) -> np.ndarray:
    return F.cast_values(a, dtype.np)


defop("sign", "SignBackward0", _sign, promote="none", vjp=_zeros, jvp=AS_VJP)
defop("sgn", "SgnBackward0", _sign, promote="none", save=(0, RESULT), complex=True,
      vjp=_sgn_vjp, jvp=AS_VJP)
defop("frac", "FracBackward0", lambda a: a - np.trunc(a), promote="none", vjp=lambda g, a: g,
      refuses=("frac_cpu", NOT_FLOATING))
for _key, _label, _forward in (("floor", "FloorBackward0", np.floor),
                               ("ceil", "CeilBackward0", np.ceil),
                               ("trunc", "TruncBackward0", np.trunc),
                               ("round", "RoundBackward0", np.rint)):
    defop(_key, _label, lambda a, f=_forward: a.copy() if a.dtype.kind != "f" else f(a),
          promote="none", vjp=_zeros, jvp=AS_VJP, refuses=(f"{_key}_vml_cpu", (dtypes.BOOL,)))
defop("round.decimals", "RoundBackward1", lambda a, decimals: np.round(a, decimals),
      promote="none", vjp=_zeros, jvp=AS_VJP, refuses=("round_cpu", NOT_FLOATING))
defop("_to_copy", "ToCopyBackward0",
      lambda a, dtype, memory_format=None: _cast(a, dtype) if memory_format is None
      else memory_formats.laid_out(_cast(a, dtype), memory_format), complex=True,
      promote="none", out_dtype=lambda dtype, params: params["dtype"],
      vjp=lambda g, a, dtype, memory_format=None: g, jvp=LINEAR,
      rule=("grad (cast back to self's dtype)",))


__all__ = [
    "broadcast_shape", "scalar_tensor", "filled_like", "wrapped_int", "add", "sub", "rsub", "mul",
    "div",
    "floor_divide", "remainder", "pow", "square", "add_scalar", "sub_scalar", "mul_scalar",
    "div_scalar", "scalar_sub", "scalar_div", "maybe_multiply", "neg", "reciprocal", "exp",
    "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "abs", "sign", "sgn",
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "erf",
    "floor", "ceil", "trunc", "frac", "round", "atan2", "maximum", "minimum", "clamp", "where",
    "lerp", "masked_fill", "masked_filled", "check_bool_subtraction",
]

Scalar = (bool, int, float, complex)
_ADD, _SUB, _MUL, _DIV = (OPS[key] for key in ("add.Tensor", "sub.Tensor", "mul.Tensor",
                                               "div.Tensor"))


def check_operand(name: str, value, position: int = 2, argument: str = "other") -> None:
    """torch's TypeError for an operand that is neither a tensor nor a number."""
    if not isinstance(value, (Tensor, *Scalar)):
        raise errors.type_error(
            f"{name}(): argument '{argument}' (position {position}) must be Tensor, not "
            f"{errors.type_name(value)}")


def binary(key: str, a, b, **params):
    """Apply a two-operand row after torch's broadcast check."""
    if isinstance(b, Tensor) and isinstance(a, Tensor) and a.shape != b.shape:
        broadcast_shape(a.shape, b.shape)
    if isinstance(a, Tensor):
        b = wrapped_int(b, a.dtype)
    return apply(OPS[key], a, b, **params)


def wrapped_int(value, dtype: dtypes.DType):
    """An int scalar as an integer tensor's kernel sees it: wrapped into its dtype (-1 is 255
    for uint8); any other value as it is."""
    if type(value) is int and dtype.category == dtypes.INTEGRAL:
        return int(np.array(value).astype(dtype.np))
    return value


def scalar_tensor(value, dtype: dtypes.DType) -> Tensor:
    """A zero-dim tensor holding `value` (at::scalar_tensor)."""
    return Tensor(np.array(value, dtype=dtype.np), dtype)


def filled_like(t: Tensor, value) -> Tensor:
    return Tensor(np.full(t.shape, value, dtype=t.dtype.np), t.dtype)


# ---- Python-level arithmetic: a scalar operand is a wrapped number (the .Tensor overloads) ------

def _plain(a, b) -> bool:
    """Whether `a op b` needs none of the operators' checks: a non-bool tensor and a float (or
    an int, the tensor floating), or two tensors of one shape and one non-bool dtype."""
    if type(a) is not Tensor or a.dtype is dtypes.bool_ or a.sparse is not None:
        return False
    return type(b) is float or (type(b) is int and a.dtype.category == dtypes.FLOATING) or (
        type(b) is Tensor and b.dtype is a.dtype and b.data.shape == a.data.shape and
        b.sparse is None)


def _check_alpha(a, b, alpha) -> None:
    """torch's alpha_check against the dtype add and sub compute in."""
    if type(alpha) is int and alpha == 1:
        return
    dtype = dtypes.result_type([a, b], STATE.default_dtype)
    if isinstance(alpha, (bool, np.bool_)) and dtype is not dtypes.bool_:
        raise errors.runtime("Boolean alpha only supported for Boolean results.")
    if not dtype.is_floating_point and isinstance(alpha, (float, np.floating)):
        raise errors.runtime("For integral input tensors, argument alpha must not be a floating "
                             "point number.")


def add(a, b, alpha=1):
    if type(alpha) is int and alpha == 1 and _plain(a, b):
        return apply(_ADD, a, b)
    _check_alpha(a, b, alpha)
    if not isinstance(a, Tensor):
        a, b = b, a
    check_operand("add", b)
    if a.sparse is not None or isinstance(b, Tensor) and b.sparse is not None:
        return F.sparse_add(a, b if alpha == 1 else F.mul(b, alpha))
    return binary("add.Tensor", a, b, **({"alpha": alpha} if alpha != 1 else {}))


def check_bool_subtraction(a, b) -> None:
    """torch's sub_check: no subtraction with a bool tensor."""
    bools = [isinstance(t, bool) or isinstance(t, Tensor) and t.dtype is dtypes.bool_
             for t in (a, b)]  # a Python bool is a wrapped bool tensor there
    if all(bools):
        raise errors.runtime(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead.")
    if any(bools):
        raise errors.runtime(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def sub(a, b, alpha=1):
    if type(alpha) is int and alpha == 1 and _plain(a, b):
        return apply(_SUB, a, b)
    extra = {"alpha": alpha} if alpha != 1 else {}
    check_bool_subtraction(a, b)
    _check_alpha(a, b, alpha)
    if not isinstance(a, Tensor):
        return apply(OPS["rsub.Scalar"], b, a, **extra)
    check_operand("sub", b)
    if a.sparse is not None:
        return F.sparse_sub(a, b if alpha == 1 else F.mul(b, alpha))
    return binary("sub.Tensor", a, b, **extra)


def rsub(a, b, alpha=1):
    """torch.rsub: b - alpha * a."""
    extra = {"alpha": alpha} if alpha != 1 else {}
    check_bool_subtraction(a, b)
    _check_alpha(a, b, alpha)
    if not isinstance(b, Tensor):
        return apply(OPS["rsub.Scalar"], a, b, **extra)
    return binary("rsub.Tensor", a, b, **extra)


def mul(a, b):
    if _plain(a, b):
        return apply(_MUL, a, b)
    if not isinstance(a, Tensor):
        a, b = b, a
    check_operand("mul", b)
    if a.sparse is not None:
        return F.sparse_mul(a, b)
    return binary("mul.Tensor", a, b)


_ROUNDING_MODES = (None, "trunc", "floor")


def div(a, b, rounding_mode=None):
    if rounding_mode is None and _plain(a, b):
        return apply(_DIV, a, b)
    if rounding_mode not in _ROUNDING_MODES:
        raise errors.runtime(
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
            f"'{rounding_mode}'")
    if not isinstance(a, Tensor):
        if rounding_mode is None:
            return mul(reciprocal(b), a)
        a = scalar_tensor(a, dtypes.scalar_dtype(a, STATE.default_dtype))
    check_operand("div", b)
    if a.sparse is not None and rounding_mode is None:
        return F.sparse_div(a, b)
    if rounding_mode is None:
        return binary("div.Tensor", a, b)
    check_not_bool(f"div_{rounding_mode}_cpu", a, b)
    check_integer_division(a, b)
    return binary("div.Tensor_mode", a, b, rounding_mode=rounding_mode)


def check_not_bool(kernel: str, a, b) -> None:
    """torch's refusal of a kernel with no Bool code (pow, remainder, fmod, rounded division)
    when both operands promote to bool."""
    if dtypes.result_type([a, b], STATE.default_dtype) is dtypes.bool_:
        raise errors.not_implemented_for(kernel, dtypes.bool_)


def check_integer_division(a, b) -> None:
    integral = all(not (x.dtype.is_floating_point if isinstance(x, Tensor) else
                        isinstance(x, float)) for x in (a, b))
    if integral and np.any((b.data if isinstance(b, Tensor) else np.asarray(b)) == 0):
        raise errors.runtime("ZeroDivisionError")


def floor_divide(a, b):
    if not isinstance(a, Tensor):
        a = scalar_tensor(a, dtypes.scalar_dtype(a, STATE.default_dtype))
    check_not_bool("div_floor_cpu", a, b)
    check_integer_division(a, b)
    return binary("floor_divide", a, b)


def remainder(a, b):
    if not isinstance(a, Tensor):
        a = scalar_tensor(a, dtypes.scalar_dtype(a, STATE.default_dtype))
    check_not_bool("remainder_cpu", a, b)
    check_integer_division(a, b)
    if isinstance(b, Tensor):
        return binary("remainder.Tensor", a, b)
    return apply(OPS["remainder.Scalar"], a, b)


def pow(a, b):
    if not isinstance(a, Tensor):
        check_operand("pow", b, 2, "exponent")
        check_not_bool("pow", a, b)
        return apply(OPS["pow.Scalar"], a, b)
    check_operand("pow", b, 2, "exponent")
    if not isinstance(b, Tensor):
        if (a.dtype.category < dtypes.FLOATING and isinstance(b, int) and not isinstance(b, bool)
                and b < 0):
            raise errors.runtime("Integers to negative integer powers are not allowed.")
        return apply(OPS["pow.Tensor_Scalar"], a, b)
    check_not_bool("pow", a, b)
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
    return apply(OPS["sub.Tensor"], filled_like(t, s), t)


def scalar_div(s, t: Tensor) -> Tensor:
    """C++ `scalar / tensor`: a filled tensor divided by `t` (so DivBackward0)."""
    return apply(OPS["div.Tensor"], filled_like(t, s), t)


def maybe_multiply(t: Tensor, s) -> Tensor:
    return t if s == 1 else mul_scalar(t, s)


# ---- unary math ---------------------------------------------------------------------------------

def _unary(key: str):
    def run(a: Tensor) -> Tensor:
        return apply(OPS[key], a)
    run.__name__ = key
    return run


(negate, reciprocal, exp, exp2, expm1, log, log2, log10, log1p, sqrt, rsqrt, abs, sign, sgn, sin,
 cos, tan, asin, acos, atan, sinh, cosh, tanh, sigmoid, erf, floor, ceil, trunc, frac) = (
    _unary(k) for k in (
        "neg", "reciprocal", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
        "rsqrt", "abs", "sign", "sgn", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
        "tanh", "sigmoid", "erf", "floor", "ceil", "trunc", "frac"))


def neg(a: Tensor) -> Tensor:
    if a.sparse is not None:
        return F.sparse_neg(a)
    if a.dtype is dtypes.bool_:
        raise errors.runtime(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead.")
    return negate(a)


def positive(a: Tensor) -> Tensor:
    """torch.positive and unary +: the tensor itself, refused for bool."""
    if a.dtype is dtypes.bool_:
        raise errors.runtime("The `+` operator, on a bool tensor is not supported.")
    return a


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
    for bound in (min, max):  # the kernel reads each bound as self's C type
        if bound is not None and a.dtype.category == dtypes.INTEGRAL:
            dtypes.check_fill(bound, a.dtype)
    return apply(OPS["clamp"], a, wrapped_int(min, a.dtype), wrapped_int(max, a.dtype))


def where(condition: Tensor, a, b) -> Tensor:
    if condition.dtype is not dtypes.bool_:
        raise errors.runtime(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{condition.dtype.scalar_name}")
    shape = condition.shape  # TensorIterator broadcasts its operands in order
    for value in (a, b):
        if isinstance(value, Tensor):
            shape = broadcast_shape(shape, value.shape)
    return apply(OPS["where.self"], condition, a, b)


def lerp(start: Tensor, end: Tensor, weight) -> Tensor:
    for name, other in (("end", end), ("weight", weight)):
        if isinstance(other, Tensor) and other.dtype is not start.dtype:
            raise errors.runtime(f"expected dtype {start.dtype.cpp_name} for `{name}` but "
                                 f"got dtype {other.dtype.cpp_name}")
    broadcast_shape(start.shape, end.shape)
    if isinstance(weight, Tensor):
        return apply(OPS["lerp.Tensor"], start, end, weight)
    return apply(OPS["lerp.Scalar"], start, end, weight)


def masked_fill(t: Tensor, mask: Tensor, value) -> Tensor:
    """Tensor.masked_fill: torch expands the mask and self together first, then fills."""
    broadcast_shape(mask.shape, t.shape)
    return masked_filled(t, mask, value)


def masked_filled(t: Tensor, mask: Tensor, value) -> Tensor:
    """masked_fill_'s checks and values, out of place."""
    if isinstance(value, Tensor) and value.ndim != 0:
        raise errors.runtime(
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{value.ndim} dimension(s).")
    if mask.dtype is not dtypes.bool_:
        raise errors.runtime(
            f"masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{mask.dtype.cpp_name}")
    broadcast_shape(t.shape, mask.shape)  # in place: self and the mask, as TensorIterator does
    if isinstance(value, Tensor):
        return apply(OPS["masked_fill.Tensor"], t, mask, value)
    dtypes.check_fill(value, t.dtype)
    return apply(OPS["masked_fill.Scalar"], t, mask, value)


# ---- declarations: the public names of this area ------------------------------------------------

def _where_or_nonzero(condition: Tensor, input=None, other=None):
    """torch.where(condition, input, other), or where(condition): nonzero(as_tuple=True)."""
    if input is None:
        from gradcli.engine.ops.sorting import positions
        vmap_batched.refuse(condition, vmap_batched.dynamic_shape("where"))
        return positions(condition, as_tuple=True)
    return where(condition, input, other)


declare("where", _where_or_nonzero, "where(Tensor condition)",
        "where(Tensor condition, Tensor self, Tensor other, *, Tensor? out=None)",
        "where(Tensor condition, Scalar self, Tensor other)",
        "where(Tensor condition, Tensor self, Scalar other)",
        "where(Tensor condition, Scalar self, Scalar other)", variants="torch")
declare("where", lambda t, condition, other: where(condition, t, other),
        "where(Tensor self, Tensor condition, Tensor other)",
        "where(Tensor self, Tensor condition, Scalar other)", variants="method")
declare("add", add, "add(Tensor self, Tensor other, *, Scalar alpha=1, Tensor? out=None)",
        method=("add(Tensor self, Tensor other, *, Scalar alpha=1)",), numbers_as_tensors=True,
        hidden=("add(Tensor self, Scalar alpha, Tensor other, *, Tensor? out=None)",))
declare("sub", sub, "sub(Tensor self, Tensor other, *, Scalar alpha=1, Tensor? out=None)",
        method=("sub(Tensor self, Tensor other, *, Scalar alpha=1)",),
        numbers_as_tensors=True, hidden=("sub(Tensor self, Scalar alpha, Tensor other, *, Tensor? out=None)",))
declare("rsub", rsub, "rsub(Tensor self, Tensor other, *, Scalar alpha=1)",
        "rsub(Tensor self, Scalar other, Scalar alpha=1)", variants="torch")
declare("mul", mul, "mul(Tensor self, Tensor other, *, Tensor? out=None)",
        method=("mul(Tensor self, Tensor other)",), numbers_as_tensors=True)
declare("div", div, "div(Tensor self, Tensor other, *, Tensor? out=None)",
        "div(Tensor self, Tensor other, *, str? rounding_mode, Tensor? out=None)",
        "div(Tensor self, Scalar other, *, str? rounding_mode)",
        method=("div(Tensor self, Tensor other)",
        "div(Tensor self, Tensor other, *, str? rounding_mode)",
        "div(Tensor self, Scalar other, *, str? rounding_mode)"), numbers_as_tensors=True)
# torch's aliases of sub, mul and div list overloads of their own (a Scalar `other` among them)
declare("subtract", sub, "subtract(Tensor self, Tensor other, *, Scalar alpha=1, Tensor? out=None)",
        "subtract(Tensor self, Scalar other, Scalar alpha=1)",
        method=("subtract(Tensor self, Tensor other, *, Scalar alpha=1)",
                "subtract(Tensor self, Scalar other, Scalar alpha=1)"), numbers_as_tensors=True)
declare("divide", div, "divide(Tensor self, Tensor other, *, Tensor? out=None)",
        "divide(Tensor self, Tensor other, *, str? rounding_mode, Tensor? out=None)",
        "divide(Tensor self, Scalar other)",
        "divide(Tensor self, Scalar other, *, str? rounding_mode)",
        method=("divide(Tensor self, Tensor other)",
                "divide(Tensor self, Tensor other, *, str? rounding_mode)",
                "divide(Tensor self, Scalar other)",
                "divide(Tensor self, Scalar other, *, str? rounding_mode)"),
        numbers_as_tensors=True)
for _binary, _fn in (("multiply", mul), ("true_divide", div), ("floor_divide", floor_divide)):
    declare(_binary, _fn, f"{_binary}(Tensor self, Tensor other, *, Tensor? out=None)",
            f"{_binary}(Tensor self, Scalar other)", method=(
                f"{_binary}(Tensor self, Tensor other)", f"{_binary}(Tensor self, Scalar other)"),
            numbers_as_tensors=True)
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
declare("positive", positive, "positive(Tensor self)")
declare("round", round, "round(Tensor self, *, Tensor? out=None)",
        "round(Tensor self, *, int decimals, Tensor? out=None)", method=("round(Tensor self)",
        "round(Tensor self, *, int decimals)"))
declare("masked_fill", masked_fill, "masked_fill(Tensor self, Tensor mask, Tensor value)",
        "masked_fill(Tensor self, Tensor mask, Scalar value)")
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


export(__name__, globals())

# backward's rules on raw arrays for the rows above, registered with them however this area loads
from gradcli.engine.ops import raw_vjps  # noqa: E402, F401
