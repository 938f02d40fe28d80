"""The last bits of MKL's getrf + getrs (torch's linalg.solve and inv on CPU) for the matrix
sizes whose rounding was measured (on an AMD EPYC, Zen 5; MKL picks kernels by vendor): 2 x 2
divides by the pivot to form L and multiplies by the pivot's reciprocal in back substitution;
8 x 8 the other way round. Other sizes run MKL kernels not reproduced here (NumPy's LAPACK
result stands)."""

from __future__ import annotations

import numpy as np

from gradcli.engine.cpu_capability import VENDOR

# n -> (L by the pivot's reciprocal, back substitution by the pivot's reciprocal)
_MEASURED = {2: (False, True), 8: (True, False)}


def measured(a: np.ndarray) -> bool:
    return (VENDOR == "AuthenticAMD" and a.shape[-1] in _MEASURED
            and a.dtype in (np.float32, np.float64))


def lu_solve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """x with a @ x = b for nonsingular real `a` (..., n, n) and `b` (..., n, k), by partial
    pivoting with MKL's rounding for n (see `measured`)."""
    reciprocal_l, reciprocal_u = _MEASURED[a.shape[-1]]
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    u = np.array(np.broadcast_to(a, batch + a.shape[-2:]))
    x = np.array(np.broadcast_to(b, batch + b.shape[-2:]))
    n = u.shape[-1]
    rows = np.indices(batch) if batch else ()
    with np.errstate(all="ignore"):
        for k in range(n):
            p = k + np.argmax(np.abs(u[..., k:, k]), axis=-1)
            index = tuple(rows) + (p,)
            u[..., [k], :], u[index] = u[index][..., None, :], u[..., k, :].copy()
            x[..., [k], :], x[index] = x[index][..., None, :], x[..., k, :].copy()
            pivot = u[..., k, k, None]
            u[..., k + 1:, k] = (u[..., k + 1:, k] * (1 / pivot) if reciprocal_l
                                 else u[..., k + 1:, k] / pivot)
            u[..., k + 1:, k + 1:] -= u[..., k + 1:, k, None] * u[..., k, None, k + 1:]
            x[..., k + 1:, :] -= u[..., k + 1:, k, None] * x[..., k, None, :]
        for k in range(n - 1, -1, -1):
            pivot = u[..., k, k, None]
            x[..., k, :] = x[..., k, :] * (1 / pivot) if reciprocal_u else x[..., k, :] / pivot
            x[..., :k, :] -= u[..., :k, k, None] * x[..., k, None, :]
    return x
