"""Elementwise op rows: arithmetic, powers and unary math, each with its vjps and torch's label."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, functional as F
from gradcli.engine.ops.registry import RESULT, defop


def _scaled(g, alpha):
    return g if alpha == 1 else F.mul(g, alpha)


def _pow_scalar_forward(a, e):
    return np.power(a, a.dtype.type(e)) if a.dtype.kind == "f" else np.power(a, e)


def _pow_exponent_grad(g, base, exponent, out):
    """d(base**exponent)/d exponent, zero where base == 0 and exponent >= 0 (torch's convention)."""
    log_base = F.log(base) if not isinstance(base, (int, float)) else _scalar_log(base)
    grad = F.mul(out, log_base)
    if isinstance(base, (int, float)) and base != 0:
        return F.mul(g, grad)
    base_is_zero = base.data == 0 if not isinstance(base, (int, float)) else True
    zero_grad = F.tensor_from(np.logical_and(base_is_zero, exponent.data >= 0))
    return F.mul(g, F.where(zero_grad, F.zeros_of((), g.dtype), grad))


def _scalar_log(value):
    return float(np.log(float(value))) if value != 0 else float("-inf")


def _pow_base_grad(g, base, exponent):
    if isinstance(exponent, (int, float)) and exponent == 0:
        return F.zeros_like(g)
    return F.mul(g, F.mul(exponent, F.pow(base, F.sub(exponent, 1))))


defop("add.Tensor", "AddBackward0", lambda a, b, alpha=1: a + b if alpha == 1 else a + alpha * b,
      vjp=(lambda g, a, b, alpha=1: g, lambda g, a, b, alpha=1: _scaled(g, alpha)))
defop("sub.Tensor", "SubBackward0", lambda a, b, alpha=1: a - b if alpha == 1 else a - alpha * b,
      vjp=(lambda g, a, b, alpha=1: g, lambda g, a, b, alpha=1: F.neg(_scaled(g, alpha))))
defop("rsub.Scalar", "RsubBackward1", lambda a, b, alpha=1: b - a if alpha == 1 else b - alpha * a,
      vjp=(lambda g, a, b, alpha=1: F.neg(_scaled(g, alpha)),))
defop("mul.Tensor", "MulBackward0", np.multiply, save=(0, 1),
      vjp=(lambda g, a, b: F.mul(g, b), lambda g, a, b: F.mul(g, a)))
defop("div.Tensor", "DivBackward0", np.true_divide, promote="float", save=(0, 1),
      vjp=(lambda g, a, b: F.div(g, b),
           lambda g, a, b: F.mul(F.neg(g), F.div(F.div(a, b), b))))
defop("neg", "NegBackward0", np.negative, promote="none", vjp=lambda g, a: F.neg(g))
defop("reciprocal", "ReciprocalBackward0", np.reciprocal, promote="float", save=(RESULT,),
      vjp=lambda g, a, out: F.mul(F.neg(g), F.mul(out, out)))
defop("pow.Tensor_Scalar", "PowBackward0", _pow_scalar_forward, save=(0,),
      vjp=lambda g, a, e: _pow_base_grad(g, a, e))
defop("pow.Tensor_Tensor", "PowBackward1", np.power, save=(0, 1, RESULT),
      vjp=(lambda g, a, b, out: _pow_base_grad(g, a, b),
           lambda g, a, b, out: _pow_exponent_grad(g, a, b, out)))
defop("pow.Scalar", "PowBackward2", lambda base, e: np.power(e.dtype.type(base), e), save=(0, RESULT),
      vjp=(None, lambda g, base, e, out: _pow_exponent_grad(g, base, e, out)))
defop("exp", "ExpBackward0", np.exp, promote="float", save=(RESULT,),
      vjp=lambda g, a, out: F.mul(g, out))
defop("log", "LogBackward0", np.log, promote="float", save=(0,),
      vjp=lambda g, a: F.div(g, a))
defop("sin", "SinBackward0", np.sin, promote="float", save=(0,),
      vjp=lambda g, a: F.mul(g, F.cos(a)))
defop("cos", "CosBackward0", np.cos, promote="float", save=(0,),
      vjp=lambda g, a: F.mul(g, F.neg(F.sin(a))))
defop("sqrt", "SqrtBackward0", np.sqrt, promote="float", save=(RESULT,),
      vjp=lambda g, a, out: F.div(g, F.mul(2, out)))
defop("where.self", "WhereBackward0", lambda c, a, b: np.where(c.astype(bool), a, b),
      save=(0,), vjp=(None,
                      lambda g, c, a, b: F.where(c, g, F.zeros_of((), g.dtype)),
                      lambda g, c, a, b: F.where(c, F.zeros_of((), g.dtype), g)))
_COMPARISONS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
                "gt": np.greater, "ge": np.greater_equal}
for _name, _ufunc in _COMPARISONS.items():
    defop(f"{_name}.Tensor", "", _ufunc, out_dtype=lambda dtype, params: dtypes.bool_)
defop("any", "", lambda a: np.any(a), promote="none", out_dtype=lambda dtype, params: dtypes.bool_)
defop("abs", "AbsBackward0", np.abs, promote="none", save=(0,),
      vjp=lambda g, a: F.mul(g, F.sign(a)))
defop("sign", "SignBackward0", np.sign, promote="none", vjp=lambda g, a: F.zeros_like(g))
