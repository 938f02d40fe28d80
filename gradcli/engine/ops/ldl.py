"""LDL factorisation of symmetric matrices: linalg.ldl_factor(_ex) (LAPACK's sytf2, Bunch-Kaufman
pivoting on the lower triangle) and linalg.ldl_solve (sytrs). torch differentiates neither."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.decompositions import _batches, _check_square
from gradcli.engine.ops.registry import OPS, apply, defop, not_implemented
from gradcli.engine.tensor import Tensor

_ALPHA = (1 + math.sqrt(17)) / 8  # Bunch-Kaufman's growth bound


def _swap(a: np.ndarray, i, j) -> None:
    a[[i, j]] = a[[j, i]]


def _interchange(a: np.ndarray, k: int, kk: int, kp: int, kstep: int) -> None:
    """sytf2's symmetric interchange of rows and columns kk and kp in the lower triangle."""
    n = len(a)
    if kp < n - 1:
        a[kp + 1:, [kk, kp]] = a[kp + 1:, [kp, kk]]
    between = np.arange(kk + 1, kp)
    a[between, kk], a[kp, between] = a[kp, between].copy(), a[between, kk].copy()
    a[kk, kk], a[kp, kp] = a[kp, kp], a[kk, kk]
    if kstep == 2:
        a[k + 1, k], a[kp, k] = a[kp, k], a[k + 1, k]


def _sytf2(matrix: np.ndarray) -> tuple:
    """LAPACK's sytf2 (uplo 'L') in the matrix's dtype: (LD with its strict upper triangle
    zeroed, 1-based pivots, negative for a 2x2 block, info)."""
    a = np.tril(matrix).copy()
    n = len(a)
    pivots, info, k = np.zeros(n, np.int32), 0, 0
    while k < n:
        kstep, absakk = 1, abs(a[k, k])
        imax = k + 1 + int(np.argmax(np.abs(a[k + 1:, k]))) if k < n - 1 else k
        colmax = abs(a[imax, k]) if k < n - 1 else 0.0
        if max(absakk, colmax) == 0:
            info, kp = info or k + 1, k
        else:
            kp = k
            if absakk < _ALPHA * colmax:
                rowmax = np.max(np.abs(a[imax, k:imax]))
                if imax < n - 1:
                    rowmax = max(rowmax, np.max(np.abs(a[imax + 1:, imax])))
                if absakk >= _ALPHA * colmax * (colmax / rowmax):
                    kp = k
                elif abs(a[imax, imax]) >= _ALPHA * rowmax:
                    kp = imax
                else:
                    kp, kstep = imax, 2
            kk = k + kstep - 1
            if kp != kk:
                _interchange(a, k, kk, kp, kstep)
            if kstep == 1:
                if k < n - 1:
                    d11 = a.dtype.type(1) / a[k, k]
                    column = a[k + 1:, k].copy()
                    a[k + 1:, k + 1:] -= np.tril(np.outer(column, d11 * column))  # syr
                    a[k + 1:, k] *= d11
            elif k < n - 2:
                d21 = a[k + 1, k]
                d11, d22 = a[k + 1, k + 1] / d21, a[k, k] / d21
                t = a.dtype.type(1) / (d11 * d22 - 1)
                d21 = t / d21
                for j in range(k + 2, n):
                    wk = d21 * (d11 * a[j, k] - a[j, k + 1])
                    wkp1 = d21 * (d22 * a[j, k + 1] - a[j, k])
                    a[j:, j] = a[j:, j] - a[j:, k] * wk - a[j:, k + 1] * wkp1
                    a[j, k], a[j, k + 1] = wk, wkp1
        if kstep == 1:
            pivots[k] = kp + 1
        else:
            pivots[k] = pivots[k + 1] = -(kp + 1)
        k += kstep
    return a, pivots, info


def _sytrs(ld: np.ndarray, pivots: np.ndarray, b: np.ndarray) -> np.ndarray:
    """LAPACK's sytrs (uplo 'L'): A X = B from sytf2's factors."""
    b, n, k = b.copy(), len(ld), 0
    while k < n:  # L D X = B
        if pivots[k] > 0:
            _swap(b, k, pivots[k] - 1)
            b[k + 1:] -= np.outer(ld[k + 1:, k], b[k])
            b[k] *= ld.dtype.type(1) / ld[k, k]
            k += 1
        else:
            _swap(b, k + 1, -pivots[k] - 1)
            if k < n - 2:
                b[k + 2:] -= np.outer(ld[k + 2:, k], b[k])
                b[k + 2:] -= np.outer(ld[k + 2:, k + 1], b[k + 1])
            akm1k = ld[k + 1, k]
            akm1, ak = ld[k, k] / akm1k, ld[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1
            bkm1, bk = b[k] / akm1k, b[k + 1] / akm1k
            b[k], b[k + 1] = (ak * bkm1 - bk) / denom, (akm1 * bk - bkm1) / denom
            k += 2
    k = n - 1
    while k >= 0:  # L^T X = B
        if pivots[k] > 0:
            b[k] -= ld[k + 1:, k] @ b[k + 1:]
            _swap(b, k, pivots[k] - 1)
            k -= 1
        else:
            b[k] -= ld[k + 1:, k] @ b[k + 1:]
            b[k - 1] -= ld[k + 1:, k - 1] @ b[k + 1:]
            _swap(b, k, -pivots[k] - 1)
            k -= 2
    return b


def _factor(a):
    flat, _ = _batches(a)
    parts = [_sytf2(m) for m in flat]
    batch = a.shape[:-2]
    return (np.stack([p[0] for p in parts]).reshape(a.shape),
            np.stack([p[1] for p in parts]).reshape(batch + a.shape[-1:]),
            np.array([p[2] for p in parts], np.int32).reshape(batch))


def _solve(ld, pivots, b):
    batch = np.broadcast_shapes(ld.shape[:-2], pivots.shape[:-1], b.shape[:-2])
    ld = np.broadcast_to(ld, batch + ld.shape[-2:]).reshape((-1,) + ld.shape[-2:])
    pivots = np.broadcast_to(pivots, batch + pivots.shape[-1:]).reshape((-1,) + pivots.shape[-1:])
    rhs = np.broadcast_to(b, batch + b.shape[-2:]).reshape((-1,) + b.shape[-2:])
    return np.stack([_sytrs(*parts) for parts in zip(ld, pivots, rhs)]).reshape(
        batch + b.shape[-2:])


defop("linalg_ldl_factor_ex", "torch::autograd::NotImplemented", lambda a: _factor(a),
      name="torch::autograd::NotImplemented", promote="none", n_outputs=3,
      out_dtype=lambda dtype, params: (dtype, dtypes.int32, dtypes.int32),
      vjp=(not_implemented("aten::linalg_ldl_factor_ex"),))
defop("linalg_ldl_solve", "torch::autograd::NotImplemented",
      lambda ld, pivots, b: _solve(ld, pivots, b), name="torch::autograd::NotImplemented",
      promote="none", vjp=(not_implemented("aten::linalg_ldl_solve"),) * 3)


__all__ = ["ldl_factor_ex", "ldl_factor", "ldl_solve"]


def ldl_factor_ex(a: Tensor, *, hermitian: bool = False, check_errors: bool = False) -> tuple:
    name = "torch.linalg.ldl_factor_ex"
    _check_square(name, a)
    if not (a.dtype.is_floating_point or a.dtype.is_complex):
        raise errors.runtime(f"{name}: Expected a floating point or complex tensor as input. Got "
                             f"{a.dtype.scalar_name}")
    if a.dtype.is_complex:
        raise errors.TorchError("NotImplementedError", "gradcli does not support complex tensors "
                                "in linalg.ldl_factor yet")
    ld, pivots, info = apply(OPS["linalg_ldl_factor_ex"], a)
    if check_errors:
        _check_info(name, info)
    return F.ReturnTypes("linalg_ldl_factor_ex", ld, pivots, info,
                         fields=("LD", "pivots", "info"))


def _check_info(name: str, info: Tensor) -> None:
    code = int(info.data.max()) if info.numel() else 0
    if code:
        raise errors.runtime(
            'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
            'BatchLinearAlgebra.cpp":1642, please report a bug to PyTorch. '
            f"{name}: Unknown error code: {code}.")


def ldl_factor(a: Tensor, *, hermitian: bool = False) -> tuple:
    ld, pivots, info = ldl_factor_ex(a, hermitian=hermitian)
    _check_info("torch.linalg.ldl_factor", info)
    return F.ReturnTypes("linalg_ldl_factor", ld, pivots, fields=("LD", "pivots"))


def ldl_solve(ld: Tensor, pivots: Tensor, b: Tensor, *, hermitian: bool = False) -> Tensor:
    name = "torch.linalg.ldl_solve"
    _check_square(name, ld, "LD")
    if b.ndim < 2:
        raise errors.runtime(f"{name}: The input tensor B must have at least 2 dimensions.")
    if ld.dtype is not b.dtype:
        raise errors.runtime(f"{name}: Expected LD and B to have the same dtype, but found LD of "
                             f"type {ld.dtype.scalar_name} and B of type {b.dtype.scalar_name} "
                             "instead")
    return apply(OPS["linalg_ldl_solve"], ld, pivots, b)


declare("ldl_factor_ex", ldl_factor_ex, "ldl_factor_ex(Tensor self, *, bool hermitian=False, "
        "bool check_errors=False, Tensor[]? out=None)", variants="linalg")
declare("ldl_factor", ldl_factor, "ldl_factor(Tensor self, *, bool hermitian=False, "
        "Tensor[]? out=None)", variants="linalg")
declare("ldl_solve", ldl_solve, "ldl_solve(Tensor LD, Tensor pivots, Tensor B, *, "
        "bool hermitian=False, Tensor? out=None)", variants="linalg")
export(__name__, globals())
