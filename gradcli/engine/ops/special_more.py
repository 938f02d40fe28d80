"""erfc, the modified Bessel functions, ndtri, entr, xlog1py, ndtr, logcumsumexp, the
regularized incomplete gamma functions, erfcx and log_ndtr (op rows, vjps, declarations), and
torch.special's names for functions declared elsewhere."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import (bessel_math, dtypes, erfcx_math, errors, igamma_math, special_math,
                            vml)
from gradcli.engine.declarations import declare, declare_alias
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import (AS_VJP, NOT_FLOATING, OPS, RESULT, apply,
                                         broadcast_shape, define, defop, no_derivative,
                                         pointwise_op)
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

erfc = define("erfc(Tensor self, *, Tensor? out=None)", "ErfcBackward0",
              vml.unary("erfc", special_math.erfc), promote="float", save=(0,), jvp=AS_VJP,
              vjp=lambda g, a: F.mul(F.mul_scalar(F.exp(F.neg(F.pow(a, 2))),
                                                  -2.0 / math.sqrt(math.pi)), g),
              rule=("-2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad",))
i0 = define("i0(Tensor self, *, Tensor? out=None)", "I0Backward0", bessel_math.i0,
            promote="float", save=(0,), jvp=AS_VJP, vjp=lambda g, a: F.mul(g, F.i1(a)),
            rule=("grad * at::special_i1(self)",))


def _tiny_safe(a: Tensor, gradient) -> Tensor:
    """i1_backward and i1e_backward: `gradient(safe_self)` where |self| > eps, 0.5 at 0."""
    eps = float(np.finfo(a.dtype.np).eps)
    not_tiny = F.gt(F.abs(a), eps)
    safe = F.where(not_tiny, a, F.scalar_tensor(eps, a.dtype))
    return F.where(not_tiny, gradient(safe), F.scalar_tensor(0.5, a.dtype))


i0e = define("i0e(Tensor self, *, Tensor? out=None)", "SpecialI0EBackward0", bessel_math.i0e,
             variants="special", promote="float", save=(0, RESULT), jvp=AS_VJP,
             vjp=lambda g, a, out: F.mul(g, F.sub(F.i1e(a), F.mul(F.sgn(a), out))))
i1 = define("i1(Tensor self, *, Tensor? out=None)", "SpecialI1Backward0", bessel_math.i1,
            variants="special", promote="float", save=(0, RESULT), jvp=AS_VJP,
            vjp=lambda g, a, out: F.mul(g, _tiny_safe(a, lambda s: F.sub(
                F.i0(s), F.mul(out, F.reciprocal(s))))))
i1e = define("i1e(Tensor self, *, Tensor? out=None)", "SpecialI1EBackward0", bessel_math.i1e,
             variants="special", promote="float", save=(0, RESULT), jvp=AS_VJP,
             vjp=lambda g, a, out: F.mul(g, _tiny_safe(a, lambda s: F.sub(
                 F.i0e(s), F.mul(out, F.add(F.sgn(s), F.reciprocal(s)))))))
ndtri = define("ndtri(Tensor self, *, Tensor? out=None)", "SpecialNdtriBackward0",
               special_math.ndtri, variants="special", promote="float", save=(RESULT,),
               jvp=AS_VJP, vjp=lambda g, a, out: F.mul(
                   F.mul_scalar(g, math.sqrt(2 * math.pi)),
                   F.exp(F.div_scalar(F.pow(out, 2), 2))))
entr = define("entr(Tensor self, *, Tensor? out=None)", "SpecialEntrBackward0",
              special_math.entr, variants="special", promote="float", save=(0,), jvp=AS_VJP,
              vjp=lambda g, a: F.mul(g, F.neg(F.add_scalar(F.log(a), 1))),
              rule=("grad * (-(1 + log(self)))",))


def _xlog1py_self(g, x, y):
    """xlog1py(grad, other), 0 where self is 0 and other <= -1."""
    if not isinstance(y, Tensor):
        value = xlog1py(g, y)
        return value if y > -1 else F.masked_fill(value, F.eq(x, 0.0), 0.0)
    return F.masked_fill(xlog1py(g, y), F.logical_and(F.eq(x, 0.0), F.le(y, -1.0)), 0.0)


def _xlog1py_other(g, x, y):
    """grad * self / (other + 1)."""
    scaled = F.mul(g, x) if isinstance(x, Tensor) else F.mul_scalar(g, x)
    return F.div(scaled, F.add_scalar(y, 1))


pointwise_op("special_xlog1py", "SpecialXlog1PyBackward0", special_math.xlog1py,
             promote="float", save=(0, 1), jvp=AS_VJP, vjp=(_xlog1py_self, _xlog1py_other))
defop("special_xlog1py.self_scalar", "SpecialXlog1PyBackward1", special_math.xlog1py,
      promote="float", save=(0, 1), jvp=AS_VJP, vjp=(None, _xlog1py_other))
defop("special_xlog1py.other_scalar", "SpecialXlog1PyBackward2", special_math.xlog1py,
      promote="float", save=(0,), jvp=AS_VJP, vjp=(_xlog1py_self,))


def xlog1py(input, other) -> Tensor:
    """self * log1p(other), 0 where self is 0."""
    if not isinstance(input, Tensor):
        return apply(OPS["special_xlog1py.self_scalar"], input, other)
    if not isinstance(other, Tensor):
        return apply(OPS["special_xlog1py.other_scalar"], input, other)
    broadcast_shape(input.shape, other.shape)
    return apply(OPS["special_xlog1py"], input, other)


def ndtr(input: Tensor) -> Tensor:
    """The standard normal CDF, as torch composes it: (1 + erf(x / sqrt(2))) * 0.5."""
    return F.mul_scalar(F.add_scalar(F.erf(F.mul_scalar(input, math.sqrt(0.5))), 1), 0.5)


def _logcumsumexp_backward(g: Tensor, a: Tensor, out: Tensor, dim: int) -> Tensor:
    """torch's logcumsumexp_backward: the positive and negative parts of grad, each through a
    reversed logcumsumexp in log space."""
    if g.ndim == 0 or g.numel() == 0:
        return g
    lowest = F.scalar_tensor(float(np.finfo(g.dtype.np).min), g.dtype)
    log_abs = F.log(F.abs(g))

    def part(mask):
        logs = F.sub(F.where(mask, log_abs, lowest), out)
        reversed_scan = F.flip(logcumsumexp(F.flip(logs, [dim]), dim), [dim])
        return F.exp(F.add(reversed_scan, a))
    return F.sub(part(F.gt(g, 0.0)), part(F.lt(g, 0.0)))


defop("logcumsumexp", "LogcumsumexpBackward0",
      lambda a, dim: special_math.logcumsumexp(a, dim) if a.ndim else a.copy(),
      promote="none", save=(0, RESULT), refuses=("logcumsumexp_out_cpu", NOT_FLOATING),
      vjp=lambda g, a, out, dim: _logcumsumexp_backward(g, a, out, dim),
      rule=("logcumsumexp_backward(grad, self, result, dim)",))


def logcumsumexp(input: Tensor, dim: int) -> Tensor:
    """log(cumsum(exp(input))) along dim, without overflow."""
    return apply(OPS["logcumsumexp"], input, dim=F.dims_of(dim, input.ndim)[0])


def _in_float(kernel):
    """A float/double kernel that float16 reaches through float (bfloat16 is float already)."""
    def forward(a: np.ndarray, x: np.ndarray) -> np.ndarray:
        if a.dtype == np.float16:
            return kernel(a.astype(np.float32), x.astype(np.float32)).astype(np.float16)
        return kernel(a, x)
    return forward


def _gamma_density(g: Tensor, a: Tensor, x: Tensor) -> Tensor:
    """grad * exp((self - 1) * log(other) - other - lgamma(self)): d igamma / d other."""
    exponent = F.sub(F.sub(F.mul(F.add_scalar(a, -1), F.log(x)), x), F.lgamma(a))
    return F.mul(g, F.exp(exponent))


igamma = define("igamma(Tensor self, Tensor other, *, Tensor? out=None)", "IgammaBackward0",
                _in_float(igamma_math.igamma), save=(0, 1),
                refuses=("igamma_cpu", NOT_FLOATING),
                vjp=(no_derivative("igamma: input"), _gamma_density),
                rule=(None, "grad * exp((self - 1) * log(other) - other - lgamma(self))"))
igammac = define("igammac(Tensor self, Tensor other, *, Tensor? out=None)", "IgammacBackward0",
                 _in_float(igamma_math.igammac), save=(0, 1),
                 refuses=("igammac_cpu", NOT_FLOATING),
                 vjp=(no_derivative("igammac: input"),
                      lambda g, a, x: _gamma_density(F.neg(g), a, x)),
                 rule=(None, "-grad * exp((self - 1) * log(other) - other - lgamma(self))"))


pointwise_op("special_erfcx", "SpecialErfcxBackward0", erfcx_math.erfcx, promote="float",
             save=(0, RESULT), jvp=AS_VJP, vjp=lambda g, a, out: F.mul(F.add_scalar(
                 F.mul(F.mul_scalar(a, 2.0), out), -2.0 / math.sqrt(math.pi)), g),
             rule=("(2.0 * self * result - 2.0 / sqrt(M_PI)) * grad",))
pointwise_op("special_log_ndtr", "SpecialLogNdtrBackward0", erfcx_math.log_ndtr,
             promote="float", save=(0, RESULT), jvp=AS_VJP, vjp=lambda g, a, out: F.mul(
                 F.div_scalar(g, math.sqrt(2 * math.pi)),
                 F.exp(F.neg(F.add(out, F.div_scalar(F.pow(a, 2), 2))))),
             rule=("grad / std::sqrt(2 * M_PI) * (result + self.pow(2) / 2).neg().exp()",))


def _float_or_double(key: str, kernel: str):
    """A unary op whose CPU kernel has code for float and double only (not Half, BFloat16)."""
    def function(input: Tensor) -> Tensor:
        if input.dtype in (dtypes.float16, dtypes.bfloat16):
            raise errors.not_implemented_for(kernel, input.dtype)
        return apply(OPS[key], input)
    return function


erfcx = _float_or_double("special_erfcx", "erfcx_cpu")
log_ndtr = _float_or_double("special_log_ndtr", "log_ndtr_cpu")


def _without_derivative(forward):
    """A torch.special function with no derivative at all: its result never has a grad_fn."""
    def function(input: Tensor) -> Tensor:
        dtype = input.dtype if input.dtype.is_floating_point else STATE.default_dtype
        return Tensor(forward(input.data.astype(dtype.np)), dtype)
    return function


def _special_round(input: Tensor, decimals: int = 0) -> Tensor:
    """torch.special.round: always the decimals overload (RoundBackward1)."""
    return apply(OPS["round.decimals"], input, decimals=decimals)


declare("xlog1py", xlog1py, "xlog1py(Tensor self, Tensor other, *, Tensor? out=None)",
        "xlog1py(Scalar self, Tensor other, *, Tensor? out=None)",
        "xlog1py(Tensor self, Scalar other, *, Tensor? out=None)", variants="special")
declare("bessel_j0", _without_derivative(bessel_math.bessel_j0),
        "bessel_j0(Tensor self, *, Tensor? out=None)", variants="special")
declare("bessel_j1", _without_derivative(bessel_math.bessel_j1),
        "bessel_j1(Tensor self, *, Tensor? out=None)", variants="special")
declare("ndtr", ndtr, "ndtr(Tensor self, *, Tensor? out=None)", variants="special")
declare("erfcx", erfcx, "erfcx(Tensor self, *, Tensor? out=None)", variants="special")
declare("log_ndtr", log_ndtr, "log_ndtr(Tensor self, *, Tensor? out=None)", variants="special")
declare("logcumsumexp", logcumsumexp, "logcumsumexp(Tensor self, int dim, *, Tensor? out=None)")
declare("round", _special_round, "round(Tensor self, *, int decimals=0, Tensor? out=None)",
        variants="special")
declare("softmax", F.softmax, "softmax(Tensor self, int dim, ScalarType? dtype=None)",
        variants="special")
declare("log_softmax", F.log_softmax,
        "log_softmax(Tensor self, int dim, ScalarType? dtype=None)", variants="special")
for _name, _source in (("expit", "sigmoid"), ("logit", "logit"), ("erf", "erf"),
                       ("erfc", "erfc"), ("erfinv", "erfinv"), ("exp2", "exp2"),
                       ("expm1", "expm1"), ("log1p", "log1p"), ("gammaln", "lgamma"),
                       ("digamma", "digamma"), ("psi", "digamma"), ("polygamma", "polygamma"),
                       ("multigammaln", "mvlgamma"), ("i0", "i0"), ("xlogy", "xlogy"),
                       ("sinc", "sinc"), ("logsumexp", "logsumexp"), ("gammainc", "igamma"),
                       ("gammaincc", "igammac")):
    declare_alias("special", _name, _source)

export(__name__, globals())
