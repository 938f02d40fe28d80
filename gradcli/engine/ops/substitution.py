"""Solves LAPACK runs without checking for singularity (getrs, trtrs): substitution with the
factors as given, so a zero on a triangle's diagonal leaves infs and nans as LAPACK does
instead of NumPy's LinAlgError."""

from __future__ import annotations

import numpy as np


def checked_or_substituted(a: np.ndarray, b: np.ndarray, substitute) -> np.ndarray:
    """a x = b by NumPy's LAPACK solve, matrix by matrix of the batch where one is singular:
    there `substitute(index)`, the unchecked solve of the batch's matrix `index`."""
    try:
        with np.errstate(all="ignore"):
            return np.linalg.solve(a, b)
    except np.linalg.LinAlgError:
        pass
    mats, rhs, shape = _batched(a, b)
    out = []
    for i, (m, r) in enumerate(zip(mats, rhs)):
        try:
            with np.errstate(all="ignore"):
                out.append(np.linalg.solve(m, r))
        except np.linalg.LinAlgError:
            out.append(substitute(i))
    return np.stack(out).reshape(shape)


def _batched(matrices: np.ndarray, rhs: np.ndarray) -> tuple:
    """(the matrices, the right-hand sides, each as a flat batch; the solution's shape)."""
    batch = np.broadcast_shapes(matrices.shape[:-2], rhs.shape[:-2])

    def flat(x):
        return np.broadcast_to(x, batch + x.shape[-2:]).reshape((-1,) + x.shape[-2:])
    return flat(matrices), flat(rhs), batch + rhs.shape[-2:]


def _one(t: np.ndarray, x: np.ndarray, lower: bool, unit: bool) -> np.ndarray:
    n = len(t)
    for k in (range(n) if lower else range(n - 1, -1, -1)):
        if not unit:
            x[k] /= t[k, k]
        rest = slice(k + 1, n) if lower else slice(0, k)
        x[rest] -= np.outer(t[rest, k], x[k])
    return x


def triangular_solve(t: np.ndarray, b: np.ndarray, lower: bool) -> np.ndarray:
    """t x = b for triangular t: NumPy's solve, substitution for a matrix with a zero on its
    diagonal."""
    mats, rhs, _ = _batched(t, b)
    return checked_or_substituted(t, b, lambda i: triangular(mats[i], rhs[i], lower))


def triangular(t: np.ndarray, b: np.ndarray, lower: bool, unit: bool = False) -> np.ndarray:
    """t x = b for triangular t (its `lower` or upper triangle read, ones on the diagonal when
    `unit`), batched, column by column as trsm substitutes."""
    ts, bs, shape = _batched(t, b)
    with np.errstate(all="ignore"):
        out = [_one(m, r.astype(np.result_type(m, r)), lower, unit) for m, r in zip(ts, bs)]
    return np.stack(out).reshape(shape) if out else np.zeros(shape, np.result_type(t, b))


def with_factors(p: np.ndarray, low: np.ndarray, up: np.ndarray, b: np.ndarray,
                 adjoint: bool) -> np.ndarray:
    """getrs: P L U x = b (or its adjoint system) with the factors as given."""
    if adjoint:
        z = triangular(np.conj(np.swapaxes(up, -1, -2)), b, lower=True)
        w = triangular(np.conj(np.swapaxes(low, -1, -2)), z, lower=False, unit=True)
        return _rows(w, p.argmax(-1))  # P w, by moving rows (no 0 * inf)
    y = triangular(low, _rows(b, p.argmax(-2)), lower=True, unit=True)  # P^T b
    return triangular(up, y, lower=False)


def _rows(x: np.ndarray, order: np.ndarray) -> np.ndarray:
    """x's rows in `order` (one index array a matrix), batched."""
    batch = np.broadcast_shapes(x.shape[:-2], order.shape[:-1])
    x = np.broadcast_to(x, batch + x.shape[-2:])
    order = np.broadcast_to(order, batch + order.shape[-1:])
    return np.take_along_axis(x, order[..., None], axis=-2)
