"""The deprecated torch.triangular_solve(b, A): the solution of A X = b for a triangular A (or
its transpose) and a copy of A, as a return_types pair, with its backward row."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.declarations import declare
from gradcli.engine.ops import substitution
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import OPS, RESULT, apply, defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.triggered import triggered

_DEPRECATED = triggered(
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be "
    "removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments "
    "reversed and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, "
    "A).solution\nshould be replaced with\nX = torch.linalg.solve_triangular(A, B).",
    "aten/src/ATen/native/BatchLinearAlgebra.cpp", 2273)


def _solve(b, a, upper, transpose, unitriangular):
    """(X, A broadcast over the batch): only A's triangle is read, its diagonal as ones when
    unitriangular."""
    triangle = np.triu(a) if upper else np.tril(a)
    if unitriangular:
        steps = np.arange(a.shape[-1])
        triangle[..., steps, steps] = 1
    if transpose:
        triangle = np.swapaxes(triangle, -1, -2)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    x = substitution.triangular_solve(np.broadcast_to(triangle, batch + a.shape[-2:]),
                                      np.broadcast_to(b, batch + b.shape[-2:]),
                                      lower=upper == transpose)
    return x.astype(b.dtype), np.broadcast_to(a, batch + a.shape[-2:]).copy()


def _backward_b(grads, b, a, upper, transpose, unitriangular, out):
    if grads[0] is None:
        return None
    return triangular_solve(grads[0], a, upper, not transpose, unitriangular, warn=False)[0]


def _backward_a(grads, b, a, upper, transpose, unitriangular, out):
    """torch's triangular_solve_backward: each term only for the outputs given a gradient."""
    grad_x, grad_m = grads
    if grad_x is None:
        grad_a = F.expand(Tensor(np.zeros((1,), a.dtype.np), a.dtype), a.shape)
    else:
        grad_b = _backward_b(grads, b, a, upper, transpose, unitriangular, out)
        x = out[0]
        grad_a = F.neg(F.matmul(x, F.transpose(grad_b, -2, -1)) if transpose
                       else F.matmul(grad_b, F.transpose(x, -2, -1)))
        grad_a = (F.triu(grad_a, int(unitriangular)) if upper
                  else F.tril(grad_a, -int(unitriangular)))
    return grad_a if grad_m is None else F.add(grad_a, grad_m)


defop("triangular_solve", "TriangularSolveBackward0", _solve, promote="none", n_outputs=2,
      differentiable_outputs=None, save=(1, RESULT), vjp=(_backward_b, _backward_a),
      materialize=False)


def triangular_solve(b: Tensor, a: Tensor, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False, warn: bool = True) -> tuple:
    if warn:
        STATE.warn("UserWarning", _DEPRECATED, once=True)
    for name, t in (("b", b), ("A", a)):
        if t.ndim < 2:
            raise errors.runtime(f"torch.triangular_solve: Expected {name} to have at least 2 "
                                 f"dimensions, but it has {t.ndim} dimensions instead")
    if b.dtype is not a.dtype:
        raise errors.runtime(f"Expected b and A to have the same dtype, but found b of type "
                             f"{b.dtype.scalar_name} and A of type {a.dtype.scalar_name} instead.")
    if a.shape[-1] != a.shape[-2]:
        raise errors.runtime(f"A must be batches of square matrices, but they are {a.shape[-2]} "
                             f"by {a.shape[-1]} matrices")
    if a.shape[-1] != b.shape[-2]:
        raise errors.runtime(
            f"Incompatible matrix sizes for triangular_solve: each A matrix is {a.shape[-1]} by "
            f"{a.shape[-1]} but each b matrix is {b.shape[-2]} by {b.shape[-1]}")
    if not a.dtype.is_floating_point:
        raise errors.not_implemented_for("triangular_solve_cpu", a.dtype)
    x, m = apply(OPS["triangular_solve"], b, a, upper=upper, transpose=transpose,
                 unitriangular=unitriangular)
    return F.ReturnTypes("triangular_solve", x, m, fields=("solution", "cloned_coefficient"))


__all__ = ["triangular_solve"]

declare("triangular_solve", triangular_solve,
        "triangular_solve(Tensor self, Tensor A, bool upper=True, bool transpose=False, "
        "bool unitriangular=False, *, Tensor[]? out=None)")

export(__name__, globals())
