"""More elementwise math: inverse hyperbolics, erfinv, rad2deg, logaddexp2, fmax, fmin, copysign,
nextafter, heaviside, float_power, signbit, gcd, lcm, frexp, ldexp: functions, rows and declarations. float32
transcendentals are computed in double and rounded once (see pointwise.rounded_from_double)."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, errors, libm_float, pointwise_order, sleef_dd, sleef_df, vml
from gradcli.engine.declarations import declare, warn_resized
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import (AS_VJP, NOT_FLOATING, OPS, RESULT, apply, broadcast_shape,
                                         define, defop, not_implemented)
from gradcli.engine.tensor import Tensor

SQRT_PI_OVER_2 = 0.5 * math.sqrt(math.pi)


_MKL_NAN = np.uint32(0xFFC00000).view(np.float32)


def _erfinv_double(x: np.ndarray) -> np.ndarray:
    """The inverse error function in double: Giles' approximation, then Newton steps on erf."""
    x = x.astype(np.float64)
    with np.errstate(all="ignore"):
        w = -np.log((1.0 - x) * (1.0 + x))
        guess = np.where(w < 5.0, _giles_central(w - 2.5), _giles_tail(np.sqrt(w) - 3.0)) * x
        erf = np.frompyfunc(math.erf, 1, 1)
        for _ in range(3):
            error = np.asarray(erf(guess), dtype=np.float64) - x
            guess = guess - error / (2.0 / math.sqrt(math.pi) * np.exp(-guess * guess))
    guess = np.where(np.abs(x) == 1, np.copysign(np.inf, x), guess)
    return np.where(np.isnan(x), x, np.where(np.abs(x) > 1, np.nan, guess))


def _giles_central(w):
    p = 2.81022636e-08
    for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
              -0.00417768164, 0.246640727, 1.50140941):
        p = c + p * w
    return p


def _giles_tail(w):
    p = -0.000200214257
    for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
              0.00943887047, 1.00167406, 2.83297682):
        p = c + p * w
    return p


def _atanh(a):
    """float32 and float64 atanh: SLEEF's in cpu_kernel_vec's vector body, glibc's on the
    tails."""
    if a.dtype == np.float64:
        return pointwise_order.split(a, sleef_dd.atanhd, lambda v: libm_float.scalar("atanh", v))
    if a.dtype != np.float32:
        return F.rounded_from_double(np.arctanh)(a)
    return pointwise_order.split(a, sleef_df.atanhf, libm_float.atanhf)


def _glibc(name: str, ufunc):
    """An op whose kernel calls the C library's function on every element: glibc's float one for
    float32, its double one for float64 (libm_float.scalar), the value rounded from double for
    other dtypes."""
    rounded = F.rounded_from_double(ufunc)
    return lambda a: libm_float.scalar(name, a) if a.dtype in (np.float32, np.float64) \
        else rounded(a)


def _erfinv(a):
    out = _erfinv_double(a).astype(a.dtype)
    if a.dtype == np.float32:  # (MKL's: its default NaN, negative, past |x| = 1)
        out[np.abs(a) > 1] = _MKL_NAN
    return out


asinh = define("asinh(Tensor self, *, Tensor? out=None)", "AsinhBackward0",
       _glibc("asinh", np.arcsinh),
       promote="float", save=(0,),
       vjp=lambda g, a: F.mul(g, F.rsqrt(F.add_scalar(F.pow(a, 2), 1))), jvp=AS_VJP)
acosh = define("acosh(Tensor self, *, Tensor? out=None)", "AcoshBackward0",
       _glibc("acosh", np.arccosh),
       promote="float", save=(0,),
       vjp=lambda g, a: F.mul(g, F.rsqrt(F.sub_scalar(F.mul(a, a), 1))), jvp=AS_VJP)
atanh = define("atanh(Tensor self, *, Tensor? out=None)", "AtanhBackward0",
       lambda a: _atanh(a),
       promote="float", save=(0,),
       vjp=lambda g, a: F.div(g, F.scalar_sub(1, F.pow(a, 2))), jvp=AS_VJP)
erfinv = define("erfinv(Tensor self, *, Tensor? out=None)", "ErfinvBackward0", vml.unary("erfinv", _erfinv),
       promote="float", save=(0,),
       vjp=lambda g, a: F.mul(F.mul_scalar(F.exp(F.pow(F.erfinv(a), 2)), SQRT_PI_OVER_2), g),
       jvp=AS_VJP)
rad2deg = define("rad2deg(Tensor self, *, Tensor? out=None)", "Rad2DegBackward0",
       lambda a: a * a.dtype.type(180 / np.pi), promote="float",
       vjp=lambda g, a: F.mul_scalar(g, 180 / np.pi), jvp=AS_VJP)


def _logaddexp2(a, b):
    with np.errstate(invalid="ignore"):
        both_infinite = np.isinf(a) & (a == b)
        mixed = np.maximum(a, b) + np.log1p(np.exp2(-np.abs(a - b))) / a.dtype.type(math.log(2))
    return np.where(both_infinite, a, mixed)


logaddexp2 = define("logaddexp2(Tensor self, Tensor other, *, Tensor? out=None)", "Logaddexp2Backward0",
       _logaddexp2, save=(0, 1), refuses=("logaddexp2_cpu", NOT_FLOATING),
       vjp=(lambda g, a, b: F.div(g, F.add_scalar(F.pow(2, F.sub(b, a)), 1)),
            lambda g, a, b: F.div(g, F.add_scalar(F.pow(2, F.sub(a, b)), 1))))


def _fmax(a, b):
    """std::fmax as torch's kernels compute it: a NaN operand gives the other, a tie gives a."""
    return np.where(np.isnan(b) | (a >= b), a, b) if a.dtype.kind == "f" else np.maximum(a, b)


def _fmin(a, b):
    return np.where(np.isnan(b) | (a <= b), a, b) if a.dtype.kind == "f" else np.minimum(a, b)


def _kept_by(a, b, which: str):
    """Where fmax (`ge`) or fmin (`le`) takes self: self wins the comparison or other is NaN."""
    return F.logical_or(F.compare(which, a, b), F.isnan(b))


fmax = define("fmax(Tensor self, Tensor other, *, Tensor? out=None)", "FmaxBackward0", _fmax,
              save=(0, 1),
              vjp=(lambda g, a, b: F.masked_fill(g, F.logical_not(_kept_by(a, b, "ge")), 0),
                   lambda g, a, b: F.masked_fill(g, _kept_by(a, b, "ge"), 0)))
fmin = define("fmin(Tensor self, Tensor other, *, Tensor? out=None)", "FminBackward0", _fmin,
              save=(0, 1),
              vjp=(lambda g, a, b: F.masked_fill(g, F.logical_not(_kept_by(a, b, "le")), 0),
                   lambda g, a, b: F.masked_fill(g, _kept_by(a, b, "le"), 0)))


def _copysign_grad(g, a, out):
    """copysign_tensor_self_backward: grad * (result / self), 0 where self is 0."""
    ratio = F.masked_fill(F.div(out, a), F.compare("eq", a, 0), 0)
    return F.mul(g, ratio)


defop("copysign.Tensor", "CopysignBackward0", np.copysign, promote="float", pointwise=True,
      save=(0, 1, RESULT), save_for=((0, RESULT), (1,)),
      vjp=(lambda g, a, b, out: _copysign_grad(g, a, out),
           lambda g, a, b, out: F.zeros_for(b)))
defop("copysign.Scalar", "CopysignBackward1", np.copysign, promote="float", save=(0, RESULT),
      vjp=(lambda g, a, b, out: _copysign_grad(g, a, out),))
defop("nextafter", "NextafterBackward0", np.nextafter, pointwise=True, save=(0, 1),
      refuses=("nextafter_cpu", NOT_FLOATING),
      save_for=((0, 1), (1,)),
      vjp=(lambda g, a, b: F.where(F.compare("ne", a, b), g, 0), lambda g, a, b: F.zeros_for(b)))
defop("heaviside", "torch::autograd::NotImplemented",
      lambda a, values: np.where(a == 0, values, a > 0).astype(np.result_type(a, values)), pointwise=True,
      name="torch::autograd::NotImplemented",
      vjp=(not_implemented("aten::heaviside"),) * 2)


def _lcm(a, b):
    """calc_lcm: |a / gcd * b| in the integer dtype (wrapping as C++ does), 0 where gcd is 0."""
    g = np.gcd(a, b)
    safe = np.where(g == 0, 1, g).astype(g.dtype)
    return np.where(g == 0, 0, np.abs((a // safe) * b)).astype(g.dtype)


for _name, _forward in (("gcd", np.gcd), ("lcm", _lcm)):
    define(f"{_name}(Tensor self, Tensor other, *, Tensor? out=None)",  # integers only
           "torch::autograd::NotImplemented", _forward, name="torch::autograd::NotImplemented",
           refuses=(f"{_name}_cpu", (dtypes.BOOL, dtypes.FLOATING)))


def _frexp(a):
    mantissa, exponent = np.frexp(a)
    return mantissa.astype(a.dtype), exponent.astype(np.int32)


defop("frexp.Tensor", "FrexpBackward0", _frexp, promote="none", n_outputs=2,
      out_dtype=lambda dtype, params: (dtype, dtypes.int32), save=(RESULT,),
      vjp=lambda grads, *_, out: F.div(grads[0], F.exp2(F.cast(out[1], grads[0].dtype))))
def _two_to_the(b: Tensor) -> Tensor:
    """pow(2, other) as ldexp's backward takes it: in integers for integer exponents (so 0 for
    a negative one, as torch's integer pow gives)."""
    if b.dtype.is_floating_point:
        return F.exp2(b)
    powers = np.where(b.data >= 0, np.left_shift(1, np.clip(b.data, 0, 62).astype(np.int64)), 0)
    return Tensor(powers.astype(b.dtype.np), b.dtype)


defop("ldexp.Tensor", "LdexpBackward0",
      lambda a, b: (a * np.exp2(b)).astype(np.result_type(a, b)), promote="float",
      pointwise=True, save=(1, RESULT),
      vjp=(lambda g, a, b, out: F.mul(g, _two_to_the(b)),
           lambda g, a, b, out: F.mul_scalar(F.mul(g, out), math.log(2.0))))


__all__ = ["asinh", "acosh", "atanh", "erfinv", "rad2deg", "logaddexp2", "copysign", "nextafter", "heaviside", "float_power", "signbit", "fmax", "fmin",
            "frexp", "ldexp", "ldexp_"]


def copysign(a: Tensor, b) -> Tensor:
    if isinstance(b, Tensor):
        broadcast_shape(a.shape, b.shape)
        return apply(OPS["copysign.Tensor"], a, b)
    return apply(OPS["copysign.Scalar"], a, b)


def nextafter(a: Tensor, b: Tensor) -> Tensor:
    broadcast_shape(a.shape, b.shape)
    if a.dtype is not b.dtype:
        raise errors.scalar_type_mismatch(a.dtype, b.dtype)
    return apply(OPS["nextafter"], a, b)


def heaviside(a: Tensor, values: Tensor) -> Tensor:
    if a.dtype is not values.dtype:
        raise errors.runtime("heaviside is not yet implemented for tensors with different "
                             "dtypes.")
    broadcast_shape(a.shape, values.shape)
    return apply(OPS["heaviside"], a, values)


def float_power(a, exponent) -> Tensor:
    """self.to(double).pow(exponent.to(double))."""
    if isinstance(a, Tensor):
        a = F.to_dtype(a, dtypes.float64)
    else:
        a = float(a)
    if isinstance(exponent, Tensor):
        exponent = F.to_dtype(exponent, dtypes.float64)
    else:
        exponent = float(exponent)
    return F.pow(a, exponent)


def frexp(a: Tensor):
    if not a.dtype.is_floating_point:
        raise errors.runtime("torch.frexp() only supports floating-point dtypes")
    mantissa, exponent = apply(OPS["frexp.Tensor"], a)
    return F.ReturnTypes("frexp", mantissa, exponent, fields=("mantissa", "exponent"))


def _ldexp(a: Tensor, b: Tensor) -> Tensor:
    broadcast_shape(a.shape, b.shape)
    return apply(OPS["ldexp.Tensor"], a, b)


def ldexp(a: Tensor, b: Tensor) -> Tensor:
    """torch.ldexp; torch computes it into an output made like `self`, resized (with its
    warning) when the other operand broadcasts it to another shape."""
    out = _ldexp(a, b)
    if out.dtype is a.dtype:
        warn_resized(a, out.shape)
    return out


def ldexp_(t: Tensor, b: Tensor) -> Tensor:
    if not t.dtype.is_floating_point:
        raise errors.runtime(f"ldexp can't be cast to the desired output type "
                             f"{t.dtype.scalar_name}")
    return F.apply_inplace(t, lambda self: _ldexp(self, b))


def signbit(a: Tensor) -> Tensor:
    return Tensor(np.signbit(a.data) if a.dtype.is_floating_point else a.data < 0, dtypes.bool_)


declare("copysign", copysign, "copysign(Tensor self, Tensor other, *, Tensor? out=None)",
        "copysign(Tensor self, Scalar other, *, Tensor? out=None)")
declare("nextafter", nextafter, "nextafter(Tensor self, Tensor other, *, Tensor? out=None)")
declare("heaviside", heaviside, "heaviside(Tensor self, Tensor values, *, Tensor? out=None)")
declare("float_power", float_power, "float_power(Tensor self, Tensor exponent, *, "
        "Tensor? out=None)", "float_power(Scalar self, Tensor exponent, *, Tensor? out=None)",
        "float_power(Tensor self, Scalar exponent, *, Tensor? out=None)",
        method=("float_power(Tensor self, Tensor exponent)",
                "float_power(Tensor self, Scalar exponent)"))
declare("frexp", frexp, "frexp(Tensor self, *, Tensor[]? out=None)")
declare("ldexp", ldexp, "ldexp(Tensor self, Tensor other, *, Tensor? out=None)")
declare("ldexp_", ldexp_, "ldexp_(Tensor self, Tensor other)", variants="method")
declare("signbit", signbit, "signbit(Tensor self, *, Tensor? out=None)")
for _alias, _function in (("arcsinh", asinh), ("arccosh", acosh), ("arctanh", atanh)):
    declare(_alias, _function, f"{_alias}(Tensor self, *, Tensor? out=None)")


export(__name__, globals())
