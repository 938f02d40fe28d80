"""Unary math rows (exp, log, trigonometry, rounding...), each with its vjp and torch's label."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import activation as A, pointwise as P
from gradcli.engine.ops.registry import RESULT, defop
from gradcli.engine.zero_tensors import efficient_zeros

LN2 = 0.6931471805599453
LN10 = 2.3025850929940456
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def erf(a: np.ndarray) -> np.ndarray:
    """The error function, elementwise, computed in double precision."""
    values = np.frompyfunc(math.erf, 1, 1)(a.astype(np.float64))
    return np.asarray(values, dtype=np.float64).astype(a.dtype)


def _sigmoid(a):
    one = a.dtype.type(1)
    return one / (one + np.exp(-a))


def _rsqrt(a):
    return a.dtype.type(1) / np.sqrt(a)


def _zeros(g, *_, **__):
    return P.full_like(g, 0)


def _asin_root(a):
    """(-self * self + 1).rsqrt(), shared by asin and acos."""
    return P.rsqrt(P.add_scalar(P.mul(P.neg(a), a), 1))


# key: (label, forward, saves, vjp(g, a, out)); all compute in floating point.
_FLOATING = {
    "reciprocal": ("ReciprocalBackward0", np.reciprocal, RESULT,
                   lambda g, a, out: P.mul(P.neg(g), P.mul(out, out))),
    "exp": ("ExpBackward0", np.exp, RESULT, lambda g, a, out: P.mul(g, out)),
    "exp2": ("Exp2Backward0", np.exp2, RESULT,
             lambda g, a, out: P.mul_scalar(P.mul(g, out), LN2)),
    "expm1": ("Expm1Backward0", np.expm1, RESULT,
              lambda g, a, out: P.mul(g, P.add_scalar(out, 1))),
    "log": ("LogBackward0", np.log, 0, lambda g, a, out: P.div(g, a)),
    "log2": ("Log2Backward0", np.log2, 0, lambda g, a, out: P.div(g, P.mul_scalar(a, LN2))),
    "log10": ("Log10Backward0", np.log10, 0, lambda g, a, out: P.div(g, P.mul_scalar(a, LN10))),
    "log1p": ("Log1PBackward0", np.log1p, 0, lambda g, a, out: P.div(g, P.add_scalar(a, 1))),
    "sqrt": ("SqrtBackward0", np.sqrt, RESULT, lambda g, a, out: P.div(g, P.mul_scalar(out, 2))),
    "rsqrt": ("RsqrtBackward0", _rsqrt, RESULT,
              lambda g, a, out: P.mul(P.mul_scalar(g, -0.5), P.pow(out, 3))),
    "sin": ("SinBackward0", np.sin, 0, lambda g, a, out: P.mul(g, P.cos(a))),
    "cos": ("CosBackward0", np.cos, 0, lambda g, a, out: P.mul(g, P.neg(P.sin(a)))),
    "tan": ("TanBackward0", np.tan, RESULT,
            lambda g, a, out: P.mul(g, P.add_scalar(P.pow(out, 2), 1))),
    "asin": ("AsinBackward0", np.arcsin, 0, lambda g, a, out: P.mul(g, _asin_root(a))),
    "acos": ("AcosBackward0", np.arccos, 0, lambda g, a, out: P.mul(g, P.neg(_asin_root(a)))),
    "atan": ("AtanBackward0", np.arctan, 0,
             lambda g, a, out: P.div(g, P.add_scalar(P.mul(a, a), 1))),
    "sinh": ("SinhBackward0", np.sinh, 0, lambda g, a, out: P.mul(g, P.cosh(a))),
    "cosh": ("CoshBackward0", np.cosh, 0, lambda g, a, out: P.mul(g, P.sinh(a))),
    "tanh": ("TanhBackward0", np.tanh, RESULT, lambda g, a, out: A.tanh_backward(g, out)),
    "sigmoid": ("SigmoidBackward0", _sigmoid, RESULT,
                lambda g, a, out: A.sigmoid_backward(g, out)),
    "erf": ("ErfBackward0", erf, 0,
            lambda g, a, out: P.mul(P.mul_scalar(P.exp(P.neg(P.pow(a, 2))), TWO_OVER_SQRT_PI),
                                    g)),
}

for _key, (_label, _forward, _saves, _rule) in _FLOATING.items():
    if _saves == RESULT:
        defop(_key, _label, _forward, promote="float", save=(RESULT,), vjp=_rule)
    else:
        defop(_key, _label, _forward, promote="float", save=(0,),
              vjp=lambda g, a, rule=_rule: rule(g, a, None))

defop("neg", "NegBackward0", np.negative, promote="none", vjp=lambda g, a: P.neg(g))
defop("abs", "AbsBackward0", np.abs, promote="none", save=(0,),
      vjp=lambda g, a: P.mul(g, P.sgn(a)))
defop("sign", "SignBackward0", np.sign, promote="none", vjp=_zeros)
defop("sgn", "SgnBackward0", np.sign, promote="none", save=(0, RESULT),
      vjp=lambda g, a, out: efficient_zeros(g))
defop("frac", "FracBackward0", lambda a: a - np.trunc(a), promote="none", vjp=lambda g, a: g)
for _key, _label, _forward in (("floor", "FloorBackward0", np.floor),
                               ("ceil", "CeilBackward0", np.ceil),
                               ("trunc", "TruncBackward0", np.trunc),
                               ("round", "RoundBackward0", np.rint)):
    defop(_key, _label, lambda a, f=_forward: a.copy() if a.dtype.kind != "f" else f(a),
          promote="none", vjp=_zeros)
defop("round.decimals", "RoundBackward1", lambda a, decimals: np.round(a, decimals),
      promote="none", vjp=_zeros)
defop("_to_copy", "ToCopyBackward0", lambda a, dtype: a.astype(dtype.np), promote="none",
      out_dtype=lambda dtype, params: params["dtype"], vjp=lambda g, a, dtype: g)
