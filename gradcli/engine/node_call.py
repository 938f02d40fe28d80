"""Calling a grad_fn directly (`y.grad_fn(g)`): its backward run once, as torch's Node.__call__."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.autograd import AccumulateGrad
from gradcli.engine.backward import _accumulate
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor


def call_node(node, grads: tuple, keywords: dict):
    """The gradients for the node's inputs (one value for a single input, else a tuple), from one
    gradient (or None) per differentiable output; AccumulateGrad adds into `.grad` and gives ()."""
    if keywords:
        raise errors.type_error("keyword arguments are not supported")
    leaf = type(node) is AccumulateGrad
    outputs = (0,) if leaf else tuple(node._differentiable())
    if len(grads) != len(outputs):
        raise errors.type_error(f"expected {len(outputs)} arguments, got {len(grads)} instead")
    for index, grad in enumerate(grads):
        if grad is not None and not isinstance(grad, Tensor):
            raise errors.type_error(f"argument {index} is not a Variable")
    if leaf:
        if grads[0] is not None:
            _accumulate(node.variable, grads[0], False, F)
        return ()
    if all(grad is None for grad in grads):
        results = [None] * len(node.next_edges)
    else:
        given = dict(zip(outputs, grads))
        results = node.apply([given.get(nr) if given.get(nr) is not None
                              else F.zeros_of(*meta) for nr, meta in enumerate(node.output_meta)],
                             None)
    return results[0] if len(results) == 1 else tuple(results)
