"""The gamma family (lgamma, digamma, polygamma): op rows with their vjps, and declarations."""

from __future__ import annotations

from gradcli.engine import errors, special_math
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import AS_VJP, OPS, apply, define, defop
from gradcli.engine.tensor import Tensor

lgamma = define("lgamma(Tensor self, *, Tensor? out=None)", "LgammaBackward0",
                special_math.lgamma, promote="float", save=(0,), jvp=AS_VJP,
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

export(__name__, globals())
