"""The gamma family (lgamma, digamma, polygamma, mvlgamma, zeta): op rows with their vjps, and
declarations."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, errors, sleef_dd, sleef_df, special_math
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import (AS_VJP, OPS, apply, broadcast_shape, define, defop,
                                         no_derivative)
from gradcli.engine.tensor import Tensor


def _lgamma(a: np.ndarray) -> np.ndarray:
    """torch's lgamma kernel: SLEEF's lgamma on every element (vec::map, partial last vector),
    float16 through float."""
    if a.dtype == np.float64:
        return sleef_dd.lgammad(a)
    if a.dtype in (np.float32, np.float16):
        return sleef_df.lgammaf(a).astype(a.dtype)
    return special_math.lgamma(a)


lgamma = define("lgamma(Tensor self, *, Tensor? out=None)", "LgammaBackward0", _lgamma,
                promote="float", save=(0,), jvp=AS_VJP,
                vjp=lambda g, a: F.mul(g, F.digamma(a)), rule=("grad * digamma(self)",))
digamma = define("digamma(Tensor self, *, Tensor? out=None)", "DigammaBackward0",
                 special_math.digamma, promote="float", save=(0,), jvp=AS_VJP,
                 vjp=lambda g, a: F.mul(g, F.polygamma(1, a)),
                 rule=("grad * polygamma(1, self)",))
defop("polygamma", "PolygammaBackward0", lambda a, n: special_math.polygamma(n, a),
      promote="float", save=(0,), jvp=AS_VJP,
      vjp=lambda g, a, n: F.mul(g, F.polygamma(n + 1, a)), rule=("grad * polygamma(n + 1, self)",))


def polygamma(n: int, input: Tensor) -> Tensor:
    """The n-th derivative of digamma (n >= 0)."""
    if n < 0:
        raise errors.runtime("polygamma(n, x) does not support negative n.")
    return apply(OPS["polygamma"], input, n=n)


declare("polygamma", polygamma, "polygamma(int n, Tensor input, *, Tensor? out=None)",
        variants="torch")
declare("polygamma", lambda self, n: polygamma(n, self), "polygamma(Tensor self, int n)",
        variants="method")


def _mvlgamma_offsets(p: int, dtype) -> np.ndarray:
    """torch's arange(-p / 2 + 0.5, 0.5, 0.5): the shifts of x whose lgammas are summed."""
    return (np.arange(p) * 0.5 - (p - 1) * 0.5).astype(dtype)


def _mvlgamma(a: np.ndarray, p: int) -> np.ndarray:
    terms = _lgamma(a[..., None] + _mvlgamma_offsets(p, a.dtype))
    total = terms[..., 0].copy()
    for i in range(1, p):
        total += terms[..., i]
    return total + a.dtype.type(p * (p - 1) * math.log(math.pi) * 0.25)


def _mvlgamma_backward(g: Tensor, a: Tensor, p: int) -> Tensor:
    offsets = F.tensor_from(_mvlgamma_offsets(p, a.dtype.np), a.dtype)
    return F.mul(g, F.sum(F.digamma(F.add(F.unsqueeze(a, -1), offsets)), -1))


defop("mvlgamma", "MvlgammaBackward0", _mvlgamma, promote="float", save=(0,),
      vjp=lambda g, a, p: _mvlgamma_backward(g, a, p), rule=("mvlgamma_backward(grad, self, p)",))


def mvlgamma(input: Tensor, p: int) -> Tensor:
    """The multivariate log-gamma function of dimension p."""
    if input.dtype is dtypes.bool_:
        raise errors.runtime("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise errors.runtime("p has to be greater than or equal to 1")
    return apply(OPS["mvlgamma"], input, p=p)


declare("mvlgamma", mvlgamma, "mvlgamma(Tensor input, int p, *, Tensor? out=None)")


def _zeta(x, q):
    dtype = np.result_type(*(v for v in (x, q) if isinstance(v, np.ndarray)))
    shape = np.broadcast_shapes(np.shape(x), np.shape(q))
    return special_math.zeta(x, q).reshape(shape).astype(dtype)


def _zeta_other(g, x, q):
    """grad * -self * zeta(self + 1, other)."""
    shifted = F.add_scalar(x, 1.0) if isinstance(x, Tensor) else x + 1.0
    minus_x = F.neg(x) if isinstance(x, Tensor) else -x
    step = F.mul(g, minus_x) if isinstance(x, Tensor) else F.mul_scalar(g, minus_x)
    return F.mul(step, zeta(shifted, q))


defop("special_zeta", "SpecialZetaBackward0", _zeta, promote="float", save=(0, 1),
      vjp=(no_derivative("zeta"), _zeta_other))
defop("special_zeta.self_scalar", "SpecialZetaBackward1", _zeta, promote="float", save=(0, 1),
      vjp=(None, _zeta_other))
defop("special_zeta.other_scalar", "SpecialZetaBackward2", _zeta, promote="float", save=(0,),
      vjp=(no_derivative("zeta"),))


def zeta(input, other) -> Tensor:
    """The Hurwitz zeta function, zeta(x, q)."""
    if not isinstance(input, Tensor):
        return apply(OPS["special_zeta.self_scalar"], input, other)
    if not isinstance(other, Tensor):
        return apply(OPS["special_zeta.other_scalar"], input, other)
    broadcast_shape(input.shape, other.shape)
    return apply(OPS["special_zeta"], input, other)


declare("zeta", zeta, "zeta(Tensor self, Tensor other, *, Tensor? out=None)",
        "zeta(Scalar self, Tensor other, *, Tensor? out=None)",
        "zeta(Tensor self, Scalar other, *, Tensor? out=None)", variants="special")

__all__ = ["lgamma", "digamma", "polygamma", "mvlgamma", "zeta"]
export(__name__, globals())
