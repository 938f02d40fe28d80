"""Functions that draw random numbers as torch's Python code does: F.gumbel_softmax (exponential_
draws, then a softmax, with the hard straight-through form)."""

from __future__ import annotations

from gradcli.engine.declarations import call, declare
from gradcli.engine.functions import F
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


declare("gumbel_softmax", gumbel_softmax, python="logits: Tensor@empty_like:input, tau=1, hard=False, eps=1e-10, dim=-1",
        variants="functional")
