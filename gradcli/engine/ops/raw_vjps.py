"""Vjps on raw arrays for the commonest ops, used by backward when no graph is being built.

Each rule computes exactly what the op's tensor vjp computes (the same NumPy calls in the same
order, the same memory layout), without making a Tensor or going through `apply` at each step.
The backward pass uses them only where the tensor vjp's own ops would take `apply`'s fast path:
gradient, inputs and output all of one floating dtype.
"""

from __future__ import annotations

import operator

import numpy as np

from gradcli.engine.layout import torch_layout
from gradcli.engine.autograd import RAW_EXPAND, RAW_VJPS
from gradcli.engine.ops.registry import OPS
from gradcli.engine.scalar_operands import unboxed


def _pointwise(forward, *operands):
    """An elementwise op's result laid out as `apply` lays it out."""
    raw = forward(*operands)
    if raw.ndim > 1:
        raw = torch_layout(raw, [x for x in operands if type(x) is np.ndarray])
    return raw


def _times(g, s):
    """maybe_multiply: `g` itself when `s` is 1, else g * s (mul.Scalar, no layout step)."""
    return g if s == 1 else unboxed(g, s) * s


def _pow_backward(g, a, e):
    if e == 0:
        return np.zeros(a.shape, dtype=a.dtype)
    exponent = float(e)
    power = OPS["pow.Tensor_Scalar"].forward  # the pointwise area's pow, which imports this module
    scaled = np.asarray(power(a, exponent - 1))
    return _pointwise(operator.mul, g, np.asarray(unboxed(scaled, exponent) * exponent))


def _sum_backward(g, a, sizes, dtype=None):
    """The gradient expanded to the input's shape (expand's forward: a broadcast view)."""
    return OPS["expand"].forward(g, tuple(sizes), g.shape)


# Each rule: (vjp on arrays, reads). `reads` says which saved inputs the tensor vjp's outermost
# op takes beside the gradient (their requires_grad and history decide the no_grad note its result
# carries); None for pow, whose vjp nests the input inside an op of its own; RAW_EXPAND for sum,
# whose vjp's result is a view of the gradient.
_G = ()
RAW_VJPS.update({
    "add.Tensor": ((lambda g, a, b, alpha=1: g, _G),
                   (lambda g, a, b, alpha=1: _times(g, alpha), _G)),
    "add.Scalar": ((lambda g, a, b, alpha=1: g, _G),),
    "sub.Tensor": ((lambda g, a, b, alpha=1: g, _G),
                   (lambda g, a, b, alpha=1: _times(np.negative(g), alpha), _G)),
    "sub.Scalar": ((lambda g, a, b, alpha=1: g, _G),),
    "mul.Tensor": ((lambda g, a, b: _pointwise(operator.mul, unboxed(g, b), b), (1,)),
                   (lambda g, a, b: _pointwise(operator.mul, unboxed(g, a), a), (0,))),
    "mul.Scalar": ((lambda g, a, s: unboxed(g, s) * s, _G),),
    "pow.Tensor_Scalar": ((_pow_backward, None),),
    "neg": ((lambda g, a: np.negative(g), _G),),
    "sum": ((_sum_backward, RAW_EXPAND),),
})
