"""LU factorisation: linalg.lu_factor(_ex), linalg.lu, lu_unpack, linalg.lu_solve and torch.lu."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.declarations import call, declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops import substitution
from gradcli.engine.ops.decompositions import _check_square
from gradcli.engine.ops.registry import RESULT, OPS, apply, broadcast_shape, defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.triggered import triggered

_INT32 = dtypes.int32


# ---- forward on arrays -------------------------------------------------------------------------

def _getrf(matrix: np.ndarray) -> tuple:
    """LAPACK's getrf as torch's CPU build (MKL) computes it, on the matrix as it stands:
    partial pivoting, multipliers scaled by the pivot's reciprocal, except that a square matrix
    of order 4 or less divides by the pivot in its last two columns (measured bit for bit).
    Returns (LU, 1-based pivots, first zero pivot or 0)."""
    a = matrix.copy()
    m, n = a.shape
    divide_from = n - 2 if m == n <= 4 else n
    pivots, info = np.arange(1, min(m, n) + 1, dtype=np.int32), 0
    for k in range(min(m, n)):
        p = k + int(np.argmax(np.abs(a[k:, k])))
        pivots[k] = p + 1
        if a[p, k] != 0:
            if p != k:
                a[[k, p]] = a[[p, k]]
            if k >= divide_from:
                a[k + 1:, k] /= a[k, k]
            else:
                a[k + 1:, k] *= a.dtype.type(1) / a[k, k]
        elif not info:
            info = k + 1
        a[k + 1:, k + 1:] -= np.outer(a[k + 1:, k], a[k, k + 1:])
    return a, pivots, info


def _lu_factor_ex(a: np.ndarray) -> tuple:
    flat = a.reshape((int(np.prod(a.shape[:-2])),) + a.shape[-2:])
    lu, pivots = np.empty_like(flat), np.empty((len(flat), min(a.shape[-2:])), np.int32)
    infos = np.empty(len(flat), np.int32)
    for i, matrix in enumerate(flat):
        lu[i], pivots[i], infos[i] = _getrf(matrix)
    batch = a.shape[:-2]
    return lu.reshape(a.shape), pivots.reshape(batch + pivots.shape[-1:]), infos.reshape(batch)


def _permutation(pivots: np.ndarray, m: int, dtype) -> np.ndarray:
    """P with A = P L U, from LAPACK's row interchanges."""
    flat = pivots.reshape((int(np.prod(pivots.shape[:-1])), pivots.shape[-1]))
    out = np.zeros((len(flat), m, m), dtype)
    for i, swaps in enumerate(flat):
        order = np.arange(m)
        for k, p in enumerate(swaps):
            order[[k, p - 1]] = order[[p - 1, k]]
        out[i, order, np.arange(m)] = 1
    return out.reshape(pivots.shape[:-1] + (m, m))


def _unpack(lu: np.ndarray, pivots: np.ndarray, unpack_data: bool, unpack_pivots: bool) -> tuple:
    m, n = lu.shape[-2:]
    k = min(m, n)
    empty = np.zeros((0,), lu.dtype)
    p = _permutation(pivots, m, lu.dtype) if unpack_pivots else empty
    if not unpack_data:
        return p, empty, empty.copy()
    low = np.tril(lu[..., :, :k], -1)
    low[..., np.arange(k), np.arange(k)] = 1
    return p, low, np.triu(lu[..., :k, :])


def _lu(a: np.ndarray, pivot: bool) -> tuple:
    lu, pivots, _ = _lu_factor_ex(a)
    return _unpack(lu, pivots, True, True)


def _lu_solve(lu, pivots, b, left, adjoint):
    batch = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    lu = np.broadcast_to(lu, batch + lu.shape[-2:])
    pivots = np.broadcast_to(pivots, batch + pivots.shape[-1:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    p, low, up = _unpack(lu, pivots, True, True)
    a = p @ low @ up
    a = np.swapaxes(a, -1, -2) if adjoint else a
    if left:
        return _solved(a, b, p, low, up, adjoint).astype(b.dtype)
    # x A = b is A^T x^T = b^T: the other system of the same factors
    return np.swapaxes(_solved(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2), p, low, up,
                               not adjoint), -1, -2).astype(b.dtype)


def _solved(a, b, p, low, up, adjoint: bool) -> np.ndarray:
    """a x = b, a being P L U (or its transpose when `adjoint`): LAPACK's infs and nans with
    the factors where U is singular."""
    def substitute(i: int) -> np.ndarray:  # the factors and b share the batch shape
        p_i, low_i, up_i, b_i = (x.reshape((-1,) + x.shape[-2:])[i] for x in (p, low, up, b))
        return substitution.with_factors(p_i, low_i, up_i, b_i, adjoint)
    return substitution.checked_or_substituted(a, b, substitute)


# ---- backward ----------------------------------------------------------------------------------

def _mT(t: Tensor) -> Tensor:
    return F.transpose(t, -2, -1)


def _solve_l(low: Tensor, b: Tensor, left: bool = True) -> Tensor:
    """L^{-H} b (left) or b L^{-H}, L unit lower triangular."""
    return F.solve_triangular(_mT(low), b, upper=True, left=left, unitriangular=True)


def _solve_u(up: Tensor, b: Tensor, left: bool = False) -> Tensor:
    """b U^{-H} (or U^{-H} b given left)."""
    return F.solve_triangular(_mT(up), b, upper=False, left=left)


def _plus(a: Tensor | None, b: Tensor) -> Tensor:
    return b if a is None else F.add(a, b)


def _lu_backward(g_l, g_u, p, low, up) -> Tensor:
    """torch's linalg_lu_backward: A's gradient from L's and U's (None where unused)."""
    m, n = low.shape[-2], up.shape[-1]
    k = min(m, n)
    if m == n:
        grad = None if g_l is None else F.tril(F.matmul(_mT(low), g_l), -1)
        if g_u is not None:
            grad = _plus(grad, F.triu(F.matmul(g_u, _mT(up))))
        grad = _solve_l(low, _solve_u(up, grad))
    elif m < n:
        up1 = F.narrow(up, -1, 0, k)
        grad = None if g_l is None else F.matmul(_mT(low), g_l)
        if g_u is not None:
            grad = _plus(grad, F.neg(F.matmul(F.triu(g_u), _mT(up))))
        grad = _solve_u(up1, F.tril(grad, -1))
        if g_u is not None:
            grad = F.cat([F.add(grad, F.triu(F.narrow(g_u, -1, 0, k))),
                          F.narrow(g_u, -1, k, n - k)], -1)
        grad = _solve_l(low, grad)
        if g_u is None:
            grad = F.cat([grad, F.zeros_like(F.narrow(up, -1, k, n - k))], -1)
    else:
        low1 = F.narrow(low, -2, 0, k)
        grad = None if g_u is None else F.matmul(g_u, _mT(up))
        if g_l is not None:
            grad = _plus(grad, F.neg(F.matmul(_mT(low), F.tril(g_l, -1))))
        grad = _solve_l(low1, F.triu(grad))
        if g_l is not None:
            grad = F.cat([F.add(grad, F.tril(F.narrow(g_l, -2, 0, k), -1)),
                          F.narrow(g_l, -2, k, m - k)], -2)
        grad = _solve_u(up, grad)
        if g_l is None:
            grad = F.cat([grad, F.zeros_like(F.narrow(low, -2, k, m - k))], -2)
    return F.matmul(p, grad)


def _unpacked(lu: Tensor, pivots: Tensor) -> tuple:
    """(P, L, U) through lu_unpack's row, so that higher derivatives reach LU."""
    return apply(OPS["lu_unpack"], lu, pivots, unpack_data=True, unpack_pivots=True,
                 size=tuple(lu.shape[-2:]))


def _lu_factor_ex_backward(grads, a, out):
    lu, pivots = out[0], out[1]
    p, low, up = _unpacked(lu, pivots)
    m, n = lu.shape[-2:]
    k = min(m, n)
    g = grads[0]
    g_l = F.narrow(F.tril(g, -1), -1, 0, k)
    g_u = F.narrow(F.triu(g), -2, 0, k)
    return _lu_backward(g_l, g_u, p, low, up)


def _linalg_lu_backward(grads, a, pivot, out):
    return _lu_backward(grads[1], grads[2], *out)


def _lu_unpack_backward(grads, lu, pivots, unpack_data, unpack_pivots, size):
    """L's strictly lower part plus U's upper part, in LU's shape (`size`, its last two)."""
    g_l, g_u = grads[1], grads[2]
    m, n = size
    low = None if g_l is None else F.tril(g_l, -1)
    up = None if g_u is None else F.triu(g_u)
    if m < n and low is not None:  # L is m x m: U's extra columns get nothing from it
        low = F.cat([low, F.zeros_of(low.shape[:-1] + (n - m,), low.dtype)], -1)
    if m > n and up is not None:  # U is n x n: L's extra rows get nothing from it
        up = F.cat([up, F.zeros_of(up.shape[:-2] + (m - n, n), up.dtype)], -2)
    if low is None:
        return up
    return low if up is None else F.add(low, up)


def _lu_solve_backward_lu(g, lu, pivots, b, left, adjoint, out):
    """torch's linalg_lu_solve_LU: the gradient of the packed factors."""
    p, low, up = _unpacked(lu, pivots)
    x = out
    if left != adjoint:
        g_r = _solve_u(up, F.neg(F.matmul(g if left else _mT(g), _mT(x) if left else x)),
                       left=True)
        g_l = F.tril(_solve_l(low, F.matmul(g_r, _mT(up))), -1)
        return F.add(g_l, F.triu(g_r))
    g_r = F.neg(F.matmul(F.matmul(F.matmul(_mT(p), x if left else _mT(x)),
                                  _mT(g) if left else g), p))
    g_r = _solve_l(low, g_r, left=False)
    g_u = F.triu(_solve_u(up, F.matmul(_mT(low), g_r)))
    return F.add(F.tril(g_r, -1), g_u)


def _lu_solve_backward_b(g, lu, pivots, b, left, adjoint, out):
    return apply(OPS["linalg_lu_solve"], lu, pivots, g, left=left, adjoint=not adjoint)


defop("linalg_lu_factor_ex", "LinalgLuFactorExBackward0", _lu_factor_ex, promote="none",
      n_outputs=3, differentiable_outputs=(0,), save=(RESULT,),
      out_dtype=lambda dtype, params: (dtype, _INT32, _INT32), vjp=_lu_factor_ex_backward)
defop("linalg_lu", "LinalgLuBackward0", _lu, promote="none", n_outputs=3,
      differentiable_outputs=(1, 2), save=(RESULT,), materialize=False, vjp=_linalg_lu_backward)
defop("lu_unpack", "LuUnpackBackward0",
      lambda lu, pivots, unpack_data, unpack_pivots, size: _unpack(lu, pivots, unpack_data,
                                                                    unpack_pivots),
      promote="none", n_outputs=3, differentiable_outputs=(1, 2), materialize=False,
      vjp=(_lu_unpack_backward, None))
defop("linalg_lu_solve", "LinalgLuSolveBackward0", _lu_solve, promote="none",
      save=(0, 1, 2, RESULT), vjp=(_lu_solve_backward_lu, None, _lu_solve_backward_b))


# ---- functions ---------------------------------------------------------------------------------

__all__ = ["lu_factor", "lu_factor_ex", "linalg_lu", "lu_unpack", "lu_solve", "lu",
           "deprecated_lu_solve", "lu_with_info"]


def _check_input(name: str, a: Tensor) -> None:
    if a.ndim < 2:
        raise errors.runtime(f"{name}: Expected tensor with 2 or more dimensions. Got size: "
                             f"{list(a.shape)} instead")
    if a.dtype not in (dtypes.float32, dtypes.float64):
        raise errors.not_implemented_for("lu_cpu", a.dtype)


def _check_pivot(pivot: bool) -> None:
    if not pivot:
        raise errors.runtime("linalg.lu_factor: LU without pivoting is not implemented on the CPU")


def lu_factor_ex(a: Tensor, *, pivot: bool = True, check_errors: bool = False,
                 name: str = "linalg_lu_factor_ex") -> tuple:
    _check_input("torch.lu_factor", a)
    _check_pivot(pivot)
    lu, pivots, info = apply(OPS["linalg_lu_factor_ex"], a)
    return F.ReturnTypes(name, lu, pivots, info, fields=("LU", "pivots", "info"))


def lu_factor(a: Tensor, *, pivot: bool = True) -> tuple:
    lu, pivots, info = lu_factor_ex(a, pivot=pivot)
    flat, batched = info.data.reshape(-1), a.ndim > 2
    for i, first in enumerate(flat):
        if first:
            where = f"(Batch element {i}): " if batched else ""
            raise errors.runtime(
                f"torch.linalg.lu_factor: {where}U[{first},{first}] is zero and using it on "
                "lu_solve would result in a division by zero. If you still want to perform the "
                "factorization, consider calling linalg.lu(A, pivot) or "
                "linalg.lu_factor_ex(A, pivot)")
    return F.ReturnTypes("linalg_lu_factor", lu, pivots, fields=("LU", "pivots"))


def linalg_lu(a: Tensor, *, pivot: bool = True) -> tuple:
    _check_input("linalg.lu", a)
    _check_pivot(pivot)
    p, low, up = apply(OPS["linalg_lu"], a, pivot=pivot)
    return F.ReturnTypes("linalg_lu", p, low, up, fields=("P", "L", "U"))


def lu_unpack(lu: Tensor, pivots: Tensor, unpack_data: bool = True,
              unpack_pivots: bool = True) -> tuple:
    if lu.ndim < 2:
        raise errors.runtime("torch.lu_unpack: Expected tensor with 2 or more dimensions. Got "
                             f"size: {list(lu.shape)} instead")
    if pivots.dtype is not _INT32:
        raise errors.runtime(
            "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 "
            "dtype.\nNote: this function is intended to be used with the output produced by "
            "torch.linalg.lu_factor")
    p, low, up = apply(OPS["lu_unpack"], lu, pivots, unpack_data=unpack_data,
                       unpack_pivots=unpack_pivots, size=tuple(lu.shape[-2:]))
    return F.ReturnTypes("lu_unpack", p, low, up, fields=("P", "L", "U"))


def lu_solve(lu: Tensor, pivots: Tensor, b: Tensor, *, left: bool = True,
             adjoint: bool = False) -> Tensor:
    """torch.linalg.lu_solve with ATen's checks in their order."""
    name = "linalg.lu_solve"
    if not lu.dtype.is_floating_point:
        raise errors.runtime("torch.linalg.lu_solve: Expected a floating point or complex tensor "
                             f"as input. Got {lu.dtype.scalar_name}")
    if pivots.dtype is not _INT32:
        raise errors.runtime(f"{name}: pivots should be a Tensor of scalar type torch.int32")
    _check_square("torch.linalg.lu_solve", lu)
    if lu.dtype is not b.dtype:
        raise errors.runtime(f"{name}: Expected LU and B to have the same dtype, but found LU of "
                             f"type {lu.dtype.scalar_name} and B of type {b.dtype.scalar_name} "
                             "instead")
    if b.ndim < 2:
        raise errors.runtime(f"{name}: The input tensor B must have at least 2 dimensions.")
    n = lu.shape[-1]
    if (b.shape[-2] if left else b.shape[-1]) != n:
        raise errors.runtime(f"{name}: Incompatible shapes of A and B for the equation "
                             f"{'AX = B' if left else 'XA = B'} ({n}x{n} and "
                             f"{b.shape[-2]}x{b.shape[-1]})")
    if pivots.shape != lu.shape[:-1]:
        raise errors.runtime(f"{name}: Expected LU.shape[:-1] and pivots.shape to be the same, "
                             f"but got pivots with shape {list(pivots.shape)} instead")
    broadcast_shape(b.shape[:-2], lu.shape[:-2])
    return apply(OPS["linalg_lu_solve"], lu, pivots, b, left=left, adjoint=adjoint)


def deprecated_lu_solve(b: Tensor, lu_data: Tensor, lu_pivots: Tensor) -> Tensor:
    """The deprecated torch.lu_solve(b, LU_data, LU_pivots): linalg.lu_solve, with its warning."""
    STATE.warn("UserWarning", _LU_SOLVE_DEPRECATED, once=True)
    return lu_solve(lu_data, lu_pivots, b)


_LU_SOLVE_DEPRECATED = triggered(
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
    "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
    "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = torch.linalg.lu_solve(LU, "
    "pivots, B)", "aten/src/ATen/native/BatchLinearAlgebra.cpp", 2230)


def lu_with_info(a: Tensor, pivot: bool = True, check_errors: bool = True) -> tuple:
    """torch._lu_with_info: linalg.lu_factor_ex, after torch.lu's deprecation warning."""
    STATE.warn("UserWarning", triggered(
        "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex "
        "and will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, "
        "compute_pivots)\nshould be replaced with\nLU, pivots = torch.linalg.lu_factor(A, "
        "compute_pivots)\nand\nLU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\n"
        "should be replaced with\nLU, pivots, info = torch.linalg.lu_factor_ex(A, "
        "compute_pivots)", "aten/src/ATen/native/BatchLinearAlgebra.cpp", 2073), once=True)
    return lu_factor_ex(a, pivot=pivot, name="_lu_with_info")


def lu(a: Tensor, pivot=True, get_infos=False, out=None) -> tuple:
    """The deprecated torch.lu: torch._lu_with_info, which binds pivot and warns."""
    infos = F.truth(get_infos)  # torch's `not get_infos` comes before the call's checks
    result = call("torch", "_lu_with_info", a, pivot=pivot, check_errors=not infos)
    return result if infos else (result[0], result[1])


# ---- declarations ------------------------------------------------------------------------------

declare("lu_factor", lu_factor, "lu_factor(Tensor A, *, bool pivot=True, Tensor[]? out=None)",
        variants="linalg")
declare("lu_factor_ex", lu_factor_ex, "lu_factor_ex(Tensor A, *, bool pivot=True, "
        "bool check_errors=False, Tensor[]? out=None)", variants="linalg")
declare("lu", linalg_lu, "lu(Tensor A, *, bool pivot=True, Tensor[]? out=None)",
        variants="linalg")
declare("lu_unpack", lu_unpack, "lu_unpack(Tensor LU_data, Tensor LU_pivots, "
        "bool unpack_data=True, bool unpack_pivots=True, *, Tensor[]? out=None)", variants="torch")
declare("_lu_with_info", lu_with_info, "_lu_with_info(Tensor self, bool pivot=True, "
        "bool check_errors=True)", variants="torch")
declare("lu_solve", lu_solve, "lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, "
        "bool adjoint=False, Tensor? out=None)", variants="linalg")
declare("lu", lu, python="A, pivot=True, get_infos=False, out=None", variants="torch",
        title="_lu_no_infos")
declare("lu", lambda a, pivot=True, get_infos=False: tuple(lu(a, pivot, get_infos)),
        python="self, pivot=True, get_infos=False", variants="method")
declare("lu_solve", deprecated_lu_solve, "lu_solve(Tensor self, Tensor LU_data, "
        "Tensor LU_pivots, *, Tensor? out=None)")

export(__name__, globals())
