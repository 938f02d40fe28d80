"""The last bits of MKL's getrf + getrs (torch's linalg.solve and inv on CPU) for the matrix
sizes whose rounding was measured (on an AMD EPYC, Zen 5; MKL picks kernels by vendor): 2 x 2
divides by the pivot to form L and multiplies by the pivot's reciprocal in the triangular solve
with U (also in the transposed solve a backward makes with the forward's factors); 8 x 8 the
other way round (not transposed). Other sizes run MKL kernels not reproduced here (NumPy's
LAPACK result stands)."""

from __future__ import annotations

import numpy as np

from gradcli.engine.cpu_capability import VENDOR

# n -> (L by the pivot's reciprocal, the solve with U by the pivot's reciprocal)
_MEASURED = {2: (False, True), 8: (True, False)}
_MEASURED_TRANSPOSED = (2,)


def measured(a: np.ndarray, transposed: bool = False) -> bool:
    n = a.shape[-1]
    return (VENDOR == "AuthenticAMD" and a.dtype in (np.float32, np.float64)
            and n in (_MEASURED_TRANSPOSED if transposed else _MEASURED))


def lu_solve(a: np.ndarray, b: np.ndarray, transposed: bool = False) -> np.ndarray:
    """x with a @ x = b (a.T @ x = b when `transposed`) for nonsingular real `a` (..., n, n)
    and `b` (..., n, k), from a's LU factors by partial pivoting, with MKL's rounding for n (see
    `measured`)."""
    reciprocal_l, reciprocal_u = _MEASURED[a.shape[-1]]
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    u = np.array(np.broadcast_to(a, batch + a.shape[-2:]))
    x = np.array(np.broadcast_to(b, batch + b.shape[-2:]))
    n = u.shape[-1]
    rows = tuple(np.indices(batch)) if batch else ()
    with np.errstate(all="ignore"):
        pivots = _factor(u, rows, reciprocal_l)
        if not transposed:
            for k, p in enumerate(pivots):
                _swap(x, k, rows + (p,))
            for k in range(n):
                x[..., k + 1:, :] -= u[..., k + 1:, k, None] * x[..., k, None, :]
            for k in range(n - 1, -1, -1):
                _scale(x, k, u[..., k, k, None], reciprocal_u)
                x[..., :k, :] -= u[..., :k, k, None] * x[..., k, None, :]
            return x
        for k in range(n):  # U.T: lower triangular
            _scale(x, k, u[..., k, k, None], reciprocal_u)
            x[..., k + 1:, :] -= u[..., k, k + 1:, None] * x[..., k, None, :]
        for k in range(n - 1, -1, -1):  # L.T: unit upper triangular
            x[..., :k, :] -= u[..., k, :k, None] * x[..., k, None, :]
        for k in range(n - 1, -1, -1):
            _swap(x, k, rows + (pivots[k],))
    return x


def _factor(u: np.ndarray, rows: tuple, reciprocal_l: bool) -> list:
    """LU-factor `u` in place (getrf's partial pivoting); the pivot row chosen at each step."""
    pivots = []
    for k in range(u.shape[-1]):
        p = k + np.argmax(np.abs(u[..., k:, k]), axis=-1)
        _swap(u, k, rows + (p,))
        pivot = u[..., k, k, None]
        u[..., k + 1:, k] = (u[..., k + 1:, k] * (1 / pivot) if reciprocal_l
                             else u[..., k + 1:, k] / pivot)
        u[..., k + 1:, k + 1:] -= u[..., k + 1:, k, None] * u[..., k, None, k + 1:]
        pivots.append(p)
    return pivots


def _swap(m: np.ndarray, k: int, index: tuple) -> None:
    """Swap row k of each matrix of `m` with its row at `index` (batch indices, then the row)."""
    m[..., [k], :], m[index] = m[index][..., None, :], m[..., k, :].copy()


def _scale(x: np.ndarray, k: int, pivot: np.ndarray, reciprocal: bool) -> None:
    x[..., k, :] = x[..., k, :] * (1 / pivot) if reciprocal else x[..., k, :] / pivot
