"""Functions that draw random numbers: F.gumbel_softmax (exponential_ draws, then a softmax, with
the hard straight-through form, as torch's Python code does) and rrelu (ATen's
rrelu_with_noise: one double uniform per non-positive element in training, the mean slope in
eval; RreluWithNoiseBackward0/1)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.creation import draw_source
from gradcli.engine.declarations import call, declare
from gradcli.engine.forward_ad import AS_VJP
from gradcli.engine.functions import F
from gradcli.engine.ops.registry import OPS, RESULT, apply, defop
from gradcli.engine.random import _uniform_f64
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor


def gumbel_softmax(logits: Tensor, tau=1, hard: bool = False, eps=1e-10, dim: int = -1) -> Tensor:
    """softmax((logits - log(exponential draws)) / tau); hard: one-hot of its argmax, with the
    soft values' gradient (y_hard - y_soft.detach() + y_soft)."""
    if eps != 1e-10:
        STATE.warn("UserWarning", "`eps` parameter is deprecated and has no effect.")
    draws = call("method", "exponential_", F.zeros_like(logits))
    gumbels = call("method", "neg", call("method", "log", draws))
    gumbels = call("torch", "div", call("torch", "add", logits, gumbels), tau)
    y_soft = call("method", "softmax", gumbels, dim)
    if not hard:
        return y_soft
    index = call("method", "max", y_soft, dim, keepdim=True)[1]
    y_hard = call("method", "scatter_", F.zeros_like(logits), dim, index, 1.0)
    return call("torch", "add", call("torch", "sub", y_hard, F.detach(y_soft)),
                y_soft)


def _rrelu(x, lower, upper, training, noise):
    """x times its noise in training, else leaky_relu with the mean of the bounds."""
    if training:
        return x * noise
    return np.where(x > 0, x, x * x.dtype.type((lower + upper) / 2))


def _rrelu_backward(g, x, lower, upper, training, noise):
    """rrelu_with_noise_backward: grad * noise in training (bounds apart), else
    leaky_relu_backward with the mean slope."""
    if training and np.float32(upper) - np.float32(lower) > 1e-6:
        return g * noise
    return np.where(x > 0, g, g * g.dtype.type((lower + upper) / 2))


def _rrelu_grad(g, x, **params):
    return F.apply_op("rrelu_with_noise_backward", g, x, **params)


defop("rrelu_with_noise", "RreluWithNoiseBackward0", _rrelu, promote="none", save=(0,),
      vjp=_rrelu_grad, jvp=AS_VJP)
defop("rrelu_with_noise_", "RreluWithNoiseBackward1", _rrelu, promote="none", save=(RESULT,),
      vjp=lambda g, x, out, **params: _rrelu_grad(g, out, **params))
defop("rrelu_with_noise_backward", "RreluWithNoiseBackwardBackward0", _rrelu_backward,
      promote="none", save=(1,),
      vjp=(lambda gg, g, x, **params: _rrelu_grad(gg, x, **params),
           lambda gg, g, x, **params: F.zeros_for(x)), jvp=AS_VJP)


def _rrelu_params(x: Tensor, lower, upper, training: bool, generator) -> dict:
    """ATen's checks, then the noise: a uniform in [lower, upper) (drawn as a double, kept in
    x's dtype) for each non-positive element in memory order, 1 for the rest."""
    lower, upper = float(lower), float(upper)
    if lower > upper:
        raise errors.runtime("Lower bound should be less than or equal to the upper bound")
    if not x.dtype.is_floating_point:
        raise errors.not_implemented_for(
            "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu", x.dtype)
    noise = None
    if training:
        negative = x.data <= 0
        drawn = _uniform_f64(draw_source(generator)._words(2 * int(negative.sum())), lower,
                             upper)
        noise = np.ones(x.shape, x.dtype.np)
        noise[negative] = drawn.astype(x.dtype.np)
    return dict(lower=lower, upper=upper, training=bool(training), noise=noise)


def rrelu(x: Tensor, lower=0.125, upper=1.0 / 3, training: bool = False,
          generator=None) -> Tensor:
    return apply(OPS["rrelu_with_noise"], x, **_rrelu_params(x, lower, upper, training,
                                                              generator))


def rrelu_(x: Tensor, lower=0.125, upper=1.0 / 3, training: bool = False,
           generator=None) -> Tensor:
    params = _rrelu_params(x, lower, upper, training, generator)
    return F.apply_inplace(x, lambda t: apply(OPS["rrelu_with_noise_"], t, **params))


def functional_rrelu(x: Tensor, lower=0.125, upper=1.0 / 3, training: bool = False,
                     inplace: bool = False) -> Tensor:
    """F.rrelu: torch.rrelu_ when inplace, else torch.rrelu."""
    return call("torch", "rrelu_" if inplace else "rrelu", x, lower, upper, training)


declare("gumbel_softmax", gumbel_softmax, python="logits: Tensor@empty_like:input, tau=1, hard=False, eps=1e-10, dim=-1",
        variants="functional")
_RRELU = ("(Tensor input, Scalar lower=0.125, Scalar upper=0.3333333333333333, "
          "bool training=False, Generator? generator=None)")
declare("rrelu", rrelu, "rrelu" + _RRELU, variants="torch")
declare("rrelu_", rrelu_, "rrelu_" + _RRELU, variants="torch functional")
declare("rrelu", functional_rrelu, python="input: Tensor@inplace, lower=0.125, "
        "upper=0.3333333333333333, training=False, inplace=False", variants="functional")
