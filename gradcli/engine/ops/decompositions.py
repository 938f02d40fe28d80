"""Linear algebra on square matrices and decompositions: det, slogdet, logdet, inv, solve,
matrix_power, matrix_exp, matrix norms, cholesky, qr, svd, eigh, pinv, diag_embed: functions, rows and
declarations. Each backward is written as torch's FunctionsManual writes it (with grad mode
on), so that its last op, and so the label of a first derivative, is torch's."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import autocast, dtypes, errors, lu_small, matrix_exp_order, vml
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops import substitution
from gradcli.engine.ops.pointwise import rounded_from_double
from gradcli.engine.ops.reductions import _prod_safe_zeros_backward
from gradcli.engine.ops.registry import LINEAR, OPS, RESULT, apply, defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.triggered import triggered


def _mT(t: Tensor) -> Tensor:
    return F.transpose(t, -2, -1)


def _mH(t: Tensor) -> Tensor:
    """The conjugate transpose (the transpose of a real tensor)."""
    return F.conj(_mT(t))


def _adjoint(x: np.ndarray) -> np.ndarray:
    return np.conj(np.swapaxes(x, -1, -2))


def _diag_embed(t: Tensor) -> Tensor:
    return diag_embed(t)


def _solve_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        try:
            return np.linalg.solve(a, b).astype(a.dtype)
        except np.linalg.LinAlgError:  # a singular matrix: linalg.inv_ex's unchecked values
            batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
            a = np.broadcast_to(a, batch + a.shape[-2:]).reshape((-1,) + a.shape[-2:])
            b = np.broadcast_to(b, batch + b.shape[-2:]).reshape((-1,) + b.shape[-2:])
            return np.stack([_substitute(m, r) for m, r in zip(a, b)]).reshape(
                batch + b.shape[-2:]).astype(a.dtype)


def _lu_solve_values(a: np.ndarray, b: np.ndarray, adjoint: bool = False) -> np.ndarray:
    """linalg.solve's values: MKL's rounding where it is known (lu_small), else LAPACK's;
    `adjoint`: `a` is the adjoint of the matrix torch factored (solved with its factors)."""
    x = _solve_values(a, b)
    if lu_small.measured(a, adjoint) and np.isfinite(x).all():
        return lu_small.lu_solve(np.swapaxes(a, -1, -2) if adjoint else a, b, transposed=adjoint)
    return x


def _substitute(matrix: np.ndarray, rhs: np.ndarray, zero_pivot=None) -> np.ndarray:
    """getrf then getrs, zero pivots and all: partial pivoting, forward substitution with the
    unit lower factor, column-wise back substitution with the upper one (infs and nans where
    a pivot is zero, as LAPACK leaves them, or `zero_pivot` put in its place)."""
    u, x, n = matrix.copy(), rhs.copy(), len(matrix)
    for k in range(n):
        p = k + int(np.argmax(np.abs(u[k:, k])))
        u[[k, p]], x[[k, p]] = u[[p, k]], x[[p, k]]
        if u[k, k] != 0:
            u[k + 1:, k] /= u[k, k]
        u[k + 1:, k + 1:] -= np.outer(u[k + 1:, k], u[k, k + 1:])
        x[k + 1:] -= np.outer(u[k + 1:, k], x[k])
    if zero_pivot is not None:
        np.fill_diagonal(u, np.where(np.diagonal(u) == 0, u.dtype.type(zero_pivot), np.diagonal(u)))
    for k in range(n - 1, -1, -1):
        x[k] /= u[k, k]
        x[:k] -= np.outer(u[:k, k], x[k])
    return x


def _det_backward(g, a, out):
    """G = det(A) A^{-H} grad, as linalg.solve(A^H, diag(grad * det)); outside grad mode torch
    solves with the forward's LU factors, a zero pivot among them replaced by the dtype's
    epsilon (a singular A's gradient is then zeros)."""
    n = a.shape[-1]
    if n == 1:  # det's gradient is 1 for every 1x1 matrix, zero among them (pytorch#80761)
        return F.expand(F.unsqueeze(F.unsqueeze(g, -1), -1), a.shape)
    d = F.mul(g, out)
    rhs = _diag_embed(F.expand(F.unsqueeze(d, -1), d.shape + (n,)))
    if not STATE.grad_enabled:
        factored = np.swapaxes(a.data, -1, -2).reshape((-1, n, n))
        if any(_zero_pivot(matrix) for matrix in factored):
            return Tensor(_perturbed_solve(factored, rhs.data.reshape((-1, n, n)))
                          .reshape(a.shape), a.dtype)
        # the factors are A^T's for a contiguous A, else A's own, solved with the adjoint
        return linalg_solve(_mT(a), rhs, adjoint=not a.data.flags.c_contiguous)
    # a graph for higher orders: the adjugate through the SVD where |det| < 100 eps
    singular = np.abs(out.data) < 100 * np.finfo(a.dtype.np).eps
    if not singular.any():
        return linalg_solve(_mT(a), rhs)
    if singular.all():
        return _det_singular_backward(g, a)
    made = F.index_put(F.zeros_like(a), (singular,), _det_singular_backward(
        F.index(g, (singular,)), F.index(a, (singular,))))
    return F.index_put(made, (~singular,), linalg_solve(
        _mT(F.index(a, (~singular,))), F.index(rhs, (~singular,))))


def _det_singular_backward(g, a):
    """The adjugate of a singular A from its SVD (nhigham.com's 'What is the adjugate of a
    matrix?'), as torch's linalg_det_backward in grad mode."""
    u, s, vh = linalg_svd(a)
    alpha = F.mul(F.conj(F.mul(det(u), det(vh))), g)
    scale = _prod_safe_zeros_backward(F.unsqueeze(alpha, -1), s, s.ndim - 1)
    return F.matmul(F.mul(u, F.unsqueeze(scale, -2)), vh)


def _perturbed_solve(matrices: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """torch's linalg_det_backward outside grad mode: lu_solve with each zero pivot of U moved
    to epsilon (a nonsingular matrix's solve is linalg.solve's)."""
    eps = np.finfo(matrices.dtype).eps
    return np.stack([_substitute(m, r, eps) if _zero_pivot(m) else _lu_solve_values(m, r)
                     for m, r in zip(matrices, rhs)])


def _slogdet_backward(grads, a, out):
    g = grads[1] if grads[1] is not None else F.zeros_of(out[1].shape, out[1].dtype)
    n = a.shape[-1]
    return linalg_solve(_mT(a), _diag_embed(F.expand(F.unsqueeze(g, -1), g.shape + (n,))))


def _inverse_backward(g, a, out):
    inverse_h = _mH(out)
    return F.neg(F.matmul(inverse_h, F.matmul(g, inverse_h)))


def _solve_with_factors(a, g, adjoint):
    """A^{-H} g as solve's backward has it: with the forward's LU factors (the adjoint solve of
    the forward's), or a new solve of A^H where grad mode records (a graph for higher orders)."""
    return linalg_solve(_mH(a), g, adjoint=not adjoint and not STATE.grad_enabled)


def _solve_backward_b(g, a, b, out, vector, adjoint=False):
    g = F.unsqueeze(g, -1) if vector else g
    grad_b = _solve_with_factors(a, g, adjoint)
    return F.squeeze(grad_b, -1) if vector else grad_b


def _solve_backward_a(g, a, b, out, vector, adjoint=False):
    grad_b = _solve_with_factors(a, F.unsqueeze(g, -1) if vector else g, adjoint)
    x = F.unsqueeze(out, -1) if vector else out
    return F.neg(F.matmul(grad_b, _mH(x)))


defop("linalg_det", "LinalgDetBackward0", lambda a: _det_values(a),
      promote="none", save=(0, RESULT), vjp=_det_backward)
defop("linalg_slogdet", "LinalgSlogdetBackward0", lambda a: _slogdet(a), promote="none", n_outputs=2,
      differentiable_outputs=None, save=(0, RESULT), vjp=_slogdet_backward)
def _column_major(x: np.ndarray) -> np.ndarray:
    """x laid out as LAPACK leaves its results: each matrix column by column."""
    return np.swapaxes(np.ascontiguousarray(np.swapaxes(x, -1, -2)), -1, -2)


defop("linalg_inv_ex", "LinalgInvExBackward0",
      lambda a: _column_major(_lu_solve_values(
          a, np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape))),
      promote="none", save=(RESULT,), vjp=lambda g, a, out: _inverse_backward(g, a, out),
      complex=True)
defop("linalg_solve_ex", "LinalgSolveExBackward0",
      lambda a, b, vector, adjoint=False: (
          _lu_solve_values(a, b[..., None], adjoint)[..., 0] if vector
          else _column_major(_lu_solve_values(a, b, adjoint))),
      save=(0, RESULT), vjp=(_solve_backward_a, _solve_backward_b), complex=True)


def _diag_embed_values(a, offset, dim1, dim2):
    n = a.shape[-1] + abs(offset)
    out = np.zeros(a.shape[:-1] + (n, n), dtype=a.dtype)
    rows = np.arange(a.shape[-1]) + max(-offset, 0)
    cols = np.arange(a.shape[-1]) + max(offset, 0)
    out[..., rows, cols] = a
    return np.moveaxis(out, (-2, -1), (dim1, dim2)) if (dim1, dim2) != (out.ndim - 2,
                                                                        out.ndim - 1) else out


defop("diag_embed.dims", "DiagEmbedBackward0", _diag_embed_values, promote="none",
      vjp=lambda g, a, offset, dim1, dim2: F.diagonal(g, offset, dim1, dim2), jvp=LINEAR,
      complex=True)


# ---- svd and eigh -----------------------------------------------------------------------------

def _gesdd(a, **options):
    """np.linalg.svd, with torch's error where it fails (a NaN in a matrix of the batch)."""
    try:
        return np.linalg.svd(a, **options)
    except np.linalg.LinAlgError:
        flat, batched = _batches(a)
        i = next((i for i, m in enumerate(flat) if np.isnan(m).any()), 0)
        where = f"(Batch element {i}): " if batched else ""
        raise errors.TorchError(
            "_LinAlgError", f"linalg.svd: {where}The algorithm failed to converge because the "
            "input matrix contained non-finite values.") from None


def _svd(a, full_matrices):
    u, s, vh = _gesdd(a, full_matrices=full_matrices)
    return u.astype(a.dtype), s.astype(s.dtype.type(0).real.dtype), vh.astype(a.dtype)


def _skew(t: Tensor) -> Tensor:
    return F.sub(t, _mH(t))


def _diagonal(t: Tensor) -> Tensor:
    return F.diagonal(t, 0, -2, -1)


def _imag_diagonal(t: Tensor | None):
    return 0.0 if t is None else np.imag(np.diagonal(t.data, 0, -2, -1))


def _check_phase(name: str, left, right) -> None:
    """A complex decomposition's loss must not depend on the phase of its vectors: the
    imaginary parts of the diagonals `left` and `right` must agree (as torch checks them,
    with rtol = atol = 1e-2)."""
    if not np.allclose(left, right, rtol=1e-2, atol=1e-2):
        raise errors.runtime(f"{name}: The {_PHASE_WORDS[name]}")


_PHASE_WORDS = {
    "svd_backward": "singular vectors in the complex case are specified up to multiplication by "
                    "e^{i phi}. The specified loss function depends on this phase term, making "
                    "it ill-defined.",
    "linalg_eig_backward": "eigenvectors in the complex case are specified up to multiplication "
                           "by e^{i phi}. The specified loss function depends on this quantity, "
                           "so it is ill-defined.",
    "linalg_eigh_backward": "eigenvectors in the complex case are specified up to multiplication "
                            "by e^{i phi}. The specified loss function depends on this quantity, "
                            "so it is ill-defined."}


def _svd_backward(grads, a, full_matrices, out):
    """torch's svd_backward (complex matrices add the diagonal term i Im(diag(U^H gU)) / S)."""
    g_u, g_s, g_vh = grads
    u, s, vh = out
    k = s.shape[-1]
    if full_matrices:
        u, vh = F.narrow(u, -1, 0, k), F.narrow(vh, -2, 0, k)
        g_u = F.narrow(g_u, -1, 0, k) if g_u is not None else None
        g_vh = F.narrow(g_vh, -2, 0, k) if g_vh is not None else None
    m, n = u.shape[-2], vh.shape[-1]
    if g_u is None and g_vh is None:
        if m >= n:
            return F.matmul(u, F.mul(F.unsqueeze(g_s, -1), vh))
        return F.matmul(F.mul(u, F.unsqueeze(g_s, -2)), vh)
    uhgu = _skew(F.matmul(_mH(u), g_u)) if g_u is not None else None
    vhgv = _skew(F.matmul(vh, _mH(g_vh))) if g_vh is not None else None
    complex_ = u.dtype.is_complex
    if complex_:
        _check_phase("svd_backward", _imag_diagonal(uhgu), -_imag_diagonal(vhgv))
    s2 = F.mul(s, s)
    e = F.add(F.sub(F.unsqueeze(s2, -2), F.unsqueeze(s2, -1)),
              F.eye(k, dtype=s.dtype))
    if uhgu is not None and vhgv is not None:
        ga = F.div(F.add(F.mul(uhgu, F.unsqueeze(s, -2)), F.mul(F.unsqueeze(s, -1), vhgv)), e)
    elif uhgu is not None:
        ga = F.mul(uhgu, F.div(F.unsqueeze(s, -2), e))
    else:
        ga = F.mul(F.unsqueeze(s, -1), F.div(vhgv, e))
    if g_s is not None:
        ga = F.add(ga, _diag_embed(g_s))
    if complex_ and g_u is not None and g_vh is not None:
        ga = F.add(ga, _diag_embed(F.div(_diagonal(uhgu), F.mul_scalar(s, 2.0))))
    if m > n and g_u is not None:
        ga = F.matmul(u, ga)
        gu_sinv = F.div(g_u, F.unsqueeze(s, -2))
        ga = F.sub(F.add(ga, gu_sinv), F.matmul(u, F.matmul(_mH(u), gu_sinv)))
        return F.matmul(ga, vh)
    if m < n and g_vh is not None:
        ga = F.matmul(ga, vh)
        sinv_gvh = F.div(g_vh, F.unsqueeze(s, -1))
        ga = F.sub(F.add(ga, sinv_gvh), F.matmul(F.matmul(sinv_gvh, _mH(vh)), vh))
        return F.matmul(u, ga)
    return F.matmul(u, F.matmul(ga, vh)) if m >= n else F.matmul(F.matmul(u, ga), vh)


def _eigh(a, uplo):
    values, vectors = np.linalg.eigh(a, UPLO=uplo)
    return values.astype(values.dtype.type(0).real.dtype), vectors.astype(a.dtype)


def _eigh_backward(grads, a, uplo, out):
    """torch's linalg_eig_backward for Hermitian matrices: the skew-Hermitian part of V^H gV
    over the eigenvalue gaps, its diagonal gL."""
    g_l, g_v = grads
    values, vectors = out
    if g_v is None:
        return F.matmul(F.mul(vectors, F.unsqueeze(g_l, -2)), _mH(vectors))
    vhgv = F.matmul(_mH(vectors), g_v)
    if vhgv.dtype.is_complex:
        _check_phase("linalg_eigh_backward", _imag_diagonal(vhgv), 0.0)
    vhgv = F.mul_scalar(F.sub(vhgv, _mH(vhgv)), 0.5)
    n = values.shape[-1]
    e = F.add(F.sub(F.unsqueeze(values, -2), F.unsqueeze(values, -1)),
              F.eye(n, dtype=values.dtype))
    ret = F.div(vhgv, e)
    if vhgv.dtype.is_complex:  # the diagonal, imaginary there, is replaced by gL
        ret = F.sub(ret, _diag_embed(_diagonal(ret)))
    if g_l is not None:
        ret = F.add(ret, _diag_embed(g_l))
    return F.matmul(vectors, F.matmul(ret, _mH(vectors)))


defop("_linalg_svd", "LinalgSvdBackward0", _svd, promote="none", n_outputs=3,
      differentiable_outputs=None, materialize=False, save=(RESULT,), vjp=_svd_backward,
      complex=True,
      out_dtype=lambda dtype, params: (dtype, dtypes.real_of(dtype), dtype))
defop("_linalg_eigh", "LinalgEighBackward0", _eigh, promote="none", n_outputs=2,
      differentiable_outputs=None, materialize=False, save=(RESULT,), vjp=_eigh_backward,
      complex=True,
      out_dtype=lambda dtype, params: (dtypes.real_of(dtype), dtype))


def _complex(dtype):
    return dtypes.complex_of(dtypes.real_of(dtype))


def _eig(a, real_input):
    """geev: eigenvalues and unit eigenvectors (largest component real), complex whatever the
    input."""
    values, vectors = np.linalg.eig(a)
    kind = np.complex64 if a.dtype in (np.float32, np.complex64) else np.complex128
    return values.astype(kind), vectors.astype(kind)


def _eig_backward(grads, a, real_input, out):
    """torch's linalg_eig_backward for a general matrix (A = V L V^-1, V's columns of norm 1),
    its real part for a real input."""
    g_l, g_v = grads
    values, vectors = out
    vh = _mH(vectors)
    if g_v is None:
        ga = linalg_solve(vh, F.mul(F.unsqueeze(g_l, -1), vh))
    else:
        vhgv = F.matmul(vh, g_v)
        _check_phase("linalg_eig_backward", _imag_diagonal(vhgv), 0.0)
        vhgv = F.sub(vhgv, F.matmul(vh, F.mul(vectors, F.unsqueeze(F.real(_diagonal(vhgv)), -2))))
        conj = F.conj(values)
        gaps = F.add(F.sub(F.unsqueeze(conj, -2), F.unsqueeze(conj, -1)),
                     F.eye(values.shape[-1], dtype=values.dtype))
        ret = F.div(vhgv, gaps)
        if g_l is not None:
            ret = F.add(F.sub(ret, _diag_embed(_diagonal(ret))), _diag_embed(g_l))
        ga = linalg_solve(vh, F.matmul(ret, vh))
    return F.real(ga) if real_input else ga


defop("linalg_eig", "LinalgEigBackward0", _eig, promote="none", n_outputs=2,
      differentiable_outputs=None, materialize=False, save=(RESULT,), vjp=_eig_backward,
      complex=True,
      out_dtype=lambda dtype, params: (_complex(dtype), _complex(dtype)))


# ---- cholesky and qr --------------------------------------------------------------------------

def _solve_triangular(a, b, upper, left):
    if not left:
        return np.swapaxes(_solve_triangular(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2),
                                             not upper, True), -1, -2)
    triangle = np.triu(a) if upper else np.tril(a)
    return substitution.triangular_solve(triangle, b, lower=not upper).astype(a.dtype)


def _solve_triangular_backward_b(g, a, b, upper, left, out):
    return solve_triangular(_mH(a), g, upper=not upper, left=left)


def _solve_triangular_backward_a(g, a, b, upper, left, out):
    grad_b = solve_triangular(_mH(a), g, upper=not upper, left=left)
    grad_a = F.neg(F.matmul(grad_b, _mH(out)) if left else F.matmul(_mH(out), grad_b))
    return F.triu(grad_a) if upper else F.tril(grad_a)


defop("linalg_solve_triangular", "LinalgSolveTriangularBackward0", _solve_triangular,
      save=(0, RESULT), complex=True, vjp=(_solve_triangular_backward_a, _solve_triangular_backward_b))


def _cholesky_values(a, upper):
    try:
        lower = np.linalg.cholesky(a).astype(a.dtype)
    except np.linalg.LinAlgError:  # linalg.cholesky_ex of a matrix not positive-definite
        flat, _ = _batches(a)
        lower = np.stack([_potf2(m) for m in flat]).reshape(a.shape)
    return _adjoint(lower).copy() if upper else lower


def _potf2(matrix: np.ndarray) -> np.ndarray:
    """LAPACK's unblocked potf2 (lower, left-looking) in the matrix's dtype: on a leading minor
    that is not positive-definite it stores that pivot unrooted and stops, the columns after
    it left as the input's lower triangle."""
    a = np.tril(matrix).copy()
    for j in range(a.shape[0]):
        pivot = (a[j, j] - np.dot(a[j, :j], a[j, :j].conj())).real
        if not pivot > 0:
            a[j, j] = pivot
            break
        a[j, j] = np.sqrt(pivot)
        a[j + 1:, j] = (a[j + 1:, j] - a[j + 1:, :j] @ a[j, :j].conj()) / a[j, j]
    return a


def _cholesky_backward(g, a, upper, out):
    """torch's cholesky_backward (Iain Murray, 2016)."""
    low, g_low = (_mH(out), _mH(g)) if upper else (out, g)
    ga = F.tril(F.matmul(_mH(low), g_low))
    ga = F.mul_scalar(F.add(ga, _mH(F.tril(ga, -1))), 0.5)
    ga = solve_triangular(_mH(low), ga, upper=True, left=True)
    return solve_triangular(low, ga, upper=False, left=False)


defop("linalg_cholesky_ex", "LinalgCholeskyExBackward0", _cholesky_values, promote="none",
      save=(RESULT,), vjp=_cholesky_backward, complex=True)
defop("cholesky", "CholeskyBackward0", _cholesky_values, promote="none", save=(RESULT,),
      vjp=_cholesky_backward, complex=True)


def _qr(a, mode):
    q, r = np.linalg.qr(a, mode="complete" if mode == "complete" else "reduced")
    if mode == "r":
        q = np.zeros((0,), dtype=a.dtype)
    return q.astype(a.dtype), r.astype(a.dtype)


def _qr_backward(grads, a, mode, out):
    """The QR derivative for m >= n: gA = (gQ + Q copyltu(M)) R^{-H}, M = R gR^H - gQ^H Q."""
    g_q, g_r = grads
    q, r = out
    if mode == "r":
        raise errors.runtime(
            "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
            "Please use linalg.qr(A, mode='reduced') if you are going to differentiate through "
            "linalg.qr.")
    m, n = q.shape[-2], r.shape[-1]
    if m > n and mode == "complete":
        raise errors.runtime(
            "The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
    if g_r is not None:
        mm = F.matmul(r, _mT(g_r))
        if g_q is not None:
            mm = F.sub(mm, F.matmul(_mT(g_q), q))
    else:
        mm = F.neg(F.matmul(_mT(g_q), q))
    copied = F.add(F.tril(mm), _mT(F.tril(mm, -1)))
    b = F.matmul(q, copied)
    if g_q is not None:
        b = F.add(b, g_q)
    return solve_triangular(_mT(r), b, upper=False, left=False)


defop("linalg_qr", "LinalgQrBackward0", _qr, promote="none", n_outputs=2,
      differentiable_outputs=None, materialize=False, save=(RESULT,), vjp=_qr_backward)


# ---- matrix_exp --------------------------------------------------------------------------------

def _matrix_exp_values(a):
    n = a.shape[-1]
    if n == 0:
        return a.copy()
    if n == 1:
        return _exp(a)
    return matrix_exp_order.matrix_exp(a, F.bmm_values)


def _matrix_exp_backward(g, a):
    """torch's differential_analytic_matrix_function (adjoint): exp of [[A^T, G], [0, A^T]],
    its upper right block."""
    n = a.shape[-1]
    at = _mT(a)
    meta = F.cat([F.cat([at, g], -1), F.cat([F.zeros_for(at), at], -1)], -2)
    return F.narrow(F.narrow(matrix_exp(meta), -2, 0, n), -1, n, n)


_exp = vml.unary("exp", rounded_from_double(np.exp))  # a 1x1 matrix's: Tensor.exp
defop("linalg_matrix_exp", "LinalgMatrixExpBackward0", _matrix_exp_values, promote="none",
      save=(0,), vjp=_matrix_exp_backward)


# ---- checks -----------------------------------------------------------------------------------


def _check_square(name: str, a: Tensor, what: str = "A") -> None:
    if a.ndim < 2:
        raise errors.runtime(f"{name}: The input tensor {what} must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise errors.runtime(f"{name}: {what} must be batches of square matrices, but they are "
                             f"{a.shape[-2]} by {a.shape[-1]} matrices")


_LOW_PRECISION = "low precision"


def _check_floating(name: str, a: Tensor, half: str | None = None,
                    complex_ok: bool = False) -> None:
    """torch's refusal of a non-floating input and, given `half`, of float16: the LAPACK kernel
    it reaches (its "not implemented for" error) or _LOW_PRECISION (the function's own check).
    Complex input, which torch takes, is gradcli's gap unless `complex_ok`."""
    if a.dtype.is_complex and not complex_ok:
        raise errors.TorchError("NotImplementedError", "gradcli does not support complex "
                                f"tensors in {name} yet")
    if not (a.dtype.is_floating_point or a.dtype.is_complex):
        raise errors.runtime(f"{name}: Expected a floating point or complex tensor as input. "
                             f"Got {a.dtype.scalar_name}")
    if half is not None and a.dtype is dtypes.float16:
        if half == _LOW_PRECISION:
            raise errors.runtime(f"{name}: Low precision dtypes not supported. Got Half")
        raise errors.not_implemented_for(half, a.dtype)


def _check_kernel(kernel: str, a: Tensor, complex_ok: bool = False) -> None:
    """A LAPACK kernel reached with no check before it: float32 and float64 only (and the two
    complex dtypes where gradcli has the kernel for them)."""
    if a.dtype not in (dtypes.float32, dtypes.float64) and not (
            complex_ok and a.dtype in (dtypes.complex64, dtypes.complex128)):
        raise errors.not_implemented_for(kernel, a.dtype)


def _batches(a: np.ndarray):
    flat = a.reshape((-1,) + a.shape[-2:])
    return flat, len(flat) > 1 or a.ndim > 2


def _lu(matrix: np.ndarray, divide: bool = False) -> tuple:
    """LAPACK's getf2 in the matrix's dtype: partial pivoting, multipliers scaled by the
    pivot's reciprocal (or divided by the pivot). Returns (diagonal of U, permutation sign,
    first zero pivot (1-based) or 0)."""
    u = matrix.copy()
    n, sign, zero = u.shape[0], 1, 0
    for k in range(n):
        pivot = k + int(np.argmax(np.abs(u[k:, k])))
        if u[pivot, k] == 0:
            zero = zero or k + 1
            continue
        if pivot != k:
            u[[k, pivot]] = u[[pivot, k]]
            sign = -sign
        if divide:
            u[k + 1:, k] /= u[k, k]
        else:
            u[k + 1:, k] *= u.dtype.type(1) / u[k, k]
        u[k + 1:, k + 1:] -= np.outer(u[k + 1:, k], u[k, k + 1:])
    return np.diagonal(u).copy(), sign, zero


def _zero_pivot(matrix: np.ndarray) -> int:
    return _lu(matrix)[2]


def _det_values(a: np.ndarray) -> np.ndarray:
    """prod(diag(U)) times the permutation's sign, as torch's linalg_det: LAPACK factorises
    a row-major matrix as it lies, i.e. its transpose, and MKL's 2x2 kernel divides by the
    pivot (measured; its 3x3 and 4x4 kernels keep another order, not reproduced)."""
    flat = a.reshape((-1,) + a.shape[-2:])
    out = np.empty(len(flat), dtype=a.dtype)
    for i, matrix in enumerate(flat):
        lapack_sees = matrix.T if matrix.flags.c_contiguous else matrix
        diagonal, sign, _ = _lu(lapack_sees, divide=len(matrix) == 2)
        product = a.dtype.type(sign)
        for value in diagonal:
            product = product * value
        out[i] = product
    return out.reshape(a.shape[:-2])


def _slogdet(a):
    """(sign, sum(log|diag(U)|)) from the LU factorisation, as torch's linalg_slogdet."""
    flat = a.reshape((-1,) + a.shape[-2:])
    signs, logs = np.empty(len(flat), a.dtype), np.empty(len(flat), a.dtype)
    with np.errstate(divide="ignore"):
        for i, matrix in enumerate(flat):
            diagonal, sign, _ = _lu(matrix)
            signs[i] = sign * np.prod(np.sign(diagonal))
            logs[i] = np.sum(np.log(np.abs(diagonal)))
    return signs.reshape(a.shape[:-2]), logs.reshape(a.shape[:-2])


def _check_invertible(name: str, a: Tensor, solver: bool = False) -> None:
    flat, batched = _batches(a.data)
    for i, matrix in enumerate(flat):
        element = _zero_pivot(matrix)
        if element:
            where = f"(Batch element {i}): " if batched else ""
            if solver:
                raise errors.TorchError("_LinAlgError", f"{name}: {where}The solver failed "
                                        "because the input matrix is singular.")
            raise errors.TorchError(
                "_LinAlgError", f"{name}: {where}The diagonal element {element} is zero, the "
                "inversion could not be completed because the input matrix is singular.")


# ---- functions ----------------------------------------------------------------------------------

__all__ = ["det", "slogdet", "logdet", "inverse", "inv_ex", "solve_ex", "linalg_solve",
           "matrix_power", "linalg_norm", "matrix_norm", "cholesky", "linalg_cholesky", "qr",
           "qr_some", "svd", "linalg_svd", "svdvals", "eig", "eigvals", "eigh", "eigvalsh",
           "pinv", "diag_embed",
           "solve_triangular", "matrix_exp", "lstsq", "diagflat", "cond", "matrix_rank",
           "cholesky_inverse", "cholesky_solve", "tensorinv", "tensorsolve"]


def matrix_exp(a: Tensor) -> Tensor:
    _check_square("linalg.matrix_exp", a)
    _check_floating("linalg.matrix_exp", a)
    return apply(OPS["linalg_matrix_exp"], a)


def det(a: Tensor) -> Tensor:
    _check_square("linalg.det", a)
    _check_floating("linalg.det", a, "lu_cpu")
    return apply(OPS["linalg_det"], a)


def slogdet(a: Tensor, name: str = "slogdet") -> tuple:
    _check_square("linalg.slogdet", a)
    _check_floating("linalg.slogdet", a, _LOW_PRECISION)
    sign, logabsdet = apply(OPS["linalg_slogdet"], a)
    return F.ReturnTypes(name, sign, logabsdet, fields=("sign", "logabsdet"))


def logdet(a: Tensor) -> Tensor:
    _check_square("logdet", a)
    _check_floating("logdet", a, _LOW_PRECISION)
    sign, logabsdet = slogdet(a)
    return F.where(F.compare("eq", sign, -1.0), math.nan, logabsdet)


def inverse(a: Tensor) -> Tensor:
    a, = autocast.cast_to_float32(a)
    _check_square("linalg.inv", a)
    _check_floating("linalg.inv", a, _LOW_PRECISION, complex_ok=True)
    _check_invertible("linalg.inv", a)
    return apply(OPS["linalg_inv_ex"], a)


def _is_vector_rhs(a: Tensor, b: Tensor) -> bool:
    return b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])


def _infos(a: Tensor) -> Tensor:
    """LAPACK's info of each matrix's LU: its first zero pivot (1-based), else 0."""
    flat, _ = _batches(a.data)
    return Tensor(np.array([_zero_pivot(m) for m in flat], np.int32).reshape(a.shape[:-2]),
                  dtypes.int32)


def inv_ex(a: Tensor, *, check_errors: bool = False) -> tuple:
    _check_square("linalg.inv", a)
    _check_floating("linalg.inv", a, _LOW_PRECISION, complex_ok=True)
    if check_errors:
        _check_invertible("linalg.inv_ex", a)
    return F.ReturnTypes("linalg_inv_ex", apply(OPS["linalg_inv_ex"], a), _infos(a),
                         fields=("inverse", "info"))


def solve_ex(a: Tensor, b: Tensor, *, left: bool = True, check_errors: bool = False) -> tuple:
    result = linalg_solve(a, b, left=left, checked="torch.linalg.solve_ex" if check_errors
                          else None)
    return F.ReturnTypes("linalg_solve_ex", result, _infos(a), fields=("result", "info"))


def tensorinv(a: Tensor, ind: int = 2) -> Tensor:
    """ATen's linalg_tensorinv: A reshaped to a square matrix, inverted, reshaped back."""
    if ind <= 0:
        raise errors.runtime(f"Expected a strictly positive integer for 'ind', but got {ind}")
    end, start = a.shape[ind:], a.shape[:ind]
    size = math.prod(end)
    if size != math.prod(start):
        raise errors.runtime(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                             f"prod(self.shape[:ind]), but got {size} != {math.prod(start)}")
    square = F.reshape(a, (size, size))
    inverse, _ = inv_ex(square)
    _check_invertible("inv", square)
    return F.reshape(inverse, end + start)


def tensorsolve(a: Tensor, b: Tensor, dims=None) -> Tensor:
    """ATen's linalg_tensorsolve: A's `dims` moved last, reshaped square, solved against B
    flattened."""
    if dims is not None:
        count = len(dims)
        a = F.movedim(a, list(dims), list(range(a.ndim - count, a.ndim)))
    shape = a.shape[b.ndim:]
    size = math.prod(shape)
    if size != b.numel():
        raise errors.runtime(f"Expected self to satisfy the requirement prod(self.shape[other.ndim:])"
                             f" == prod(self.shape[:other.ndim]), but got {size} != {b.numel()}")
    return F.reshape(linalg_solve(F.reshape(a, (size, size)), F.flatten(b)), shape)


def linalg_solve(a: Tensor, b: Tensor, *, left: bool = True,
                 checked: str | None = "torch.linalg.solve", adjoint: bool = False) -> Tensor:
    """linalg.solve; `checked` names the function whose error a singular A raises (solve_ex
    without check_errors raises none); `adjoint`: a backward's solve with the adjoint of the
    forward's A, which torch solves with the forward's LU factors."""
    _check_square("linalg.solve", a)
    _check_floating("linalg.solve", a, "lu_cpu", complex_ok=True)
    if a.dtype is not b.dtype:
        raise errors.runtime(f"linalg.solve: Expected A and B to have the same dtype, but found "
                             f"A of type {a.dtype.scalar_name} and B of type {b.dtype.scalar_name} "
                             "instead")
    if not left:  # torch solves A^T X^T = B^T with A's own LU factors
        return _mT(linalg_solve(_mT(a), _mT(b), checked=checked, adjoint=not adjoint))
    vector = _is_vector_rhs(a, b)
    rows = b.shape[-1] if vector else b.shape[-2]
    if rows != a.shape[-1]:
        cols = 1 if vector else b.shape[-1]
        raise errors.runtime(f"linalg.solve: Incompatible shapes of A and B for the equation "
                             f"AX = B ({a.shape[-2]}x{a.shape[-1]} and {rows}x{cols})")
    if checked:
        _check_invertible(checked, a, solver=True)
    if vector and b.ndim > 1 and b.shape[:-1] != a.shape[:-2]:
        b = F.expand(b, a.shape[:-1])
    if adjoint:
        return apply(OPS["linalg_solve_ex"], a, b, vector=vector, adjoint=True)
    return apply(OPS["linalg_solve_ex"], a, b, vector=vector)


def matrix_power(a: Tensor, n: int) -> Tensor:
    """ATen's linalg_matrix_power: inverse for negative powers, then binary exponentiation."""
    _check_square("linalg.matrix_power", a)
    if n == 0:
        eye = Tensor(np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype.np), a.shape).copy(),
                     a.dtype)
        return F.copy_(F.zeros_like(a) if not a.requires_grad else F.mul_scalar(a, 0), eye)
    if n < 0:
        a = inverse(a)
        n = -n
        if n == 1:
            return a
    if n == 1:
        return F.clone(a)
    if n == 2:
        return F.matmul(a, a)
    if n == 3:
        return F.matmul(F.matmul(a, a), a)
    result = z = None
    while n > 0:
        z = a if z is None else F.matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else F.matmul(result, z)
    return result


def _matrix_dims(a: Tensor, dim) -> tuple:
    """matrix_norm's dims: two of them (checked before they are wrapped), different."""
    if len(dim) != 2:
        raise errors.runtime("linalg.matrix_norm: dim must be a 2-tuple. Got "
                             f"{' '.join(map(str, dim))}")
    dims = tuple(F.wrap_dim(d, a.ndim) for d in dim)
    if dims[0] == dims[1]:
        raise errors.runtime(f"linalg.matrix_norm: dims must be different. Got ({dims[0]}, "
                             f"{dims[1]})")
    return dims


def matrix_norm(a: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False, *,
                dtype=None) -> Tensor:
    if isinstance(ord, str) and ord not in ("fro", "nuc"):  # torch checks the order first
        raise errors.runtime(f"linalg.matrix_norm: Order {ord} not supported.")
    magnitude = None if isinstance(ord, str) else abs(ord)
    if magnitude not in (None, 1, 2, math.inf):
        raise errors.runtime(f"linalg.matrix_norm: Order {_number_text(ord)} not supported.")
    if a.ndim < 2:
        raise errors.runtime("linalg.matrix_norm: The input tensor A must have at least 2 "
                             "dimensions.")
    _check_floating("linalg.matrix_norm", a)
    dim0, dim1 = _matrix_dims(a, dim)
    if ord == "fro":
        return F.vector_norm(a, 2, (dim0, dim1), keepdim, dtype)
    if ord == "nuc":
        values = svdvals(_to_last(a, dim0, dim1, dtype))
        return _keep(F.sum(values, -1), dim0, dim1, keepdim)
    pick = F.amax if ord > 0 else F.amin
    if magnitude == 2:
        return _keep(pick(svdvals(_to_last(a, dim0, dim1, dtype)), -1), dim0, dim1, keepdim)
    if magnitude == math.inf:
        dim0, dim1 = dim1, dim0
    if not keepdim and dim0 < dim1:
        dim1 -= 1
    return pick(F.vector_norm(a, 1.0, (dim0,), keepdim, dtype), dim1, keepdim)


def _number_text(value) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _to_last(a: Tensor, dim0: int, dim1: int, dtype) -> Tensor:
    if dtype is not None:
        a = F.to_dtype(a, dtype)
    order = tuple(d for d in range(a.ndim) if d not in (dim0, dim1)) + (dim0, dim1)
    return F.permute(a, order)


def _keep(t: Tensor, dim0: int, dim1: int, keepdim: bool) -> Tensor:
    """keepdim as torch has it: two trailing unsqueezes, then the dims permuted back."""
    if not keepdim:
        return t
    t = F.unsqueeze(F.unsqueeze(t, -1), -1)
    order = [d for d in range(t.ndim) if d not in (dim0, dim1)] + [dim0, dim1]
    return F.permute(t, tuple(order.index(d) for d in range(t.ndim)))


def linalg_norm(a: Tensor, ord=None, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    if dim is not None:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        if len(dims) not in (1, 2):
            raise errors.runtime("linalg.norm: If dim is specified, it must be of length 1 or 2. "
                                 f"Got {list(dims)}")
    else:
        dims = None
        if ord is not None and a.ndim not in (1, 2):
            raise errors.runtime("linalg.norm: If dim is not specified but ord is, the input must "
                                 f"be 1D or 2D. Got {a.ndim}D.")
    if isinstance(ord, str):
        if dims is None:
            return matrix_norm(a, ord, (-2, -1), keepdim, dtype=dtype)
        return matrix_norm(a, ord, dims, keepdim, dtype=dtype)
    if ord is None:
        if dims is not None and len(dims) == 2:
            return matrix_norm(a, "fro", dims, keepdim, dtype=dtype)
        return F.vector_norm(a, 2, dims, keepdim, dtype)
    if dims is None:
        dims = tuple(range(a.ndim))
    if len(dims) == 1:
        return F.vector_norm(a, ord, dims, keepdim, dtype)
    return matrix_norm(a, ord, dims, keepdim, dtype=dtype)


def linalg_cholesky(a: Tensor, *, upper: bool = False) -> Tensor:
    return _cholesky("linalg.cholesky", "linalg_cholesky_ex", a, upper)


def cholesky_ex(a: Tensor, *, upper: bool = False, check_errors: bool = False) -> tuple:
    """linalg.cholesky_ex: the factor and each matrix's LAPACK info (the order of its first
    leading minor that is not positive-definite, else 0)."""
    if check_errors:
        factor = _cholesky("linalg.cholesky_ex", "linalg_cholesky_ex", a, upper)
    else:
        _check_square("linalg.cholesky", a)
        _check_floating("linalg.cholesky", a, "cholesky_cpu", complex_ok=True)
        factor = apply(OPS["linalg_cholesky_ex"], a, upper=upper)
    flat, _ = _batches(a.data)
    infos = np.array([_not_positive_definite(m) for m in flat], np.int32).reshape(a.shape[:-2])
    return F.ReturnTypes("linalg_cholesky_ex", factor, Tensor(infos, dtypes.int32),
                         fields=("L", "info"))


def cholesky(a: Tensor, upper: bool = False) -> Tensor:
    STATE.warn("UserWarning", _CHOLESKY_DEPRECATED, once=True)
    return _cholesky("cholesky", "cholesky", a, upper)


_CHOLESKY_DEPRECATED = triggered(
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
    "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = "
    "torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be replaced "
    "with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent results for "
    "all valid (symmetric positive definite) inputs.",
    "aten/src/ATen/native/BatchLinearAlgebra.cpp", 1765)


def _cholesky(name: str, key: str, a: Tensor, upper: bool) -> Tensor:
    _check_square(name, a)
    if key == "cholesky":  # the deprecated function reaches the kernel unchecked
        _check_kernel("cholesky_cpu", a, complex_ok=True)
    _check_floating(name, a, "cholesky_cpu", complex_ok=True)
    flat, batched = _batches(a.data)
    for i, matrix in enumerate(flat):
        order = _not_positive_definite(matrix)
        if order:
            where = f"(Batch element {i}): " if batched else ""
            raise errors.TorchError(
                "_LinAlgError", f"{name}: {where}The factorization could not be "
                f"completed because the input is not positive-definite (the leading minor of "
                f"order {order} is not positive-definite).")
    return apply(OPS[key], a, upper=upper)


def _not_positive_definite(matrix: np.ndarray) -> int:
    lower = np.tril(matrix.astype(np.complex128 if np.iscomplexobj(matrix) else np.float64))
    n = matrix.shape[0]
    for k in range(1, n + 1):
        try:
            np.linalg.cholesky(lower[:k, :k] + _adjoint(np.tril(lower[:k, :k], -1)))
        except np.linalg.LinAlgError:
            return k
    return 0


def qr(a: Tensor, mode: str = "reduced") -> tuple:
    if mode not in ("reduced", "r", "complete"):
        raise errors.runtime(f"qr received unrecognized mode '{mode}' but expected one of "
                             "'reduced' (default), 'r', or 'complete'")
    if a.ndim < 2:
        raise errors.runtime("linalg.qr: The input tensor A must have at least 2 dimensions.")
    _check_floating("linalg.qr", a, "geqrf_cpu")
    q, r = apply(OPS["linalg_qr"], a, mode=mode)
    return F.ReturnTypes("linalg_qr", q, r, fields=("Q", "R"))


def qr_some(a: Tensor, some: bool = True) -> tuple:
    """The deprecated torch.qr: linalg.qr in mode 'reduced' or 'complete'."""
    from gradcli.engine.state import STATE
    STATE.warn("UserWarning", _QR_DEPRECATED, once=True)
    q, r = qr(a, "reduced" if some else "complete")
    return F.ReturnTypes("qr", q, r, fields=("Q", "R"))


_QR_DEPRECATED = triggered(
    "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
    "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
    "Q, R = torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if "
    "some else 'complete')", "aten/src/ATen/native/BatchLinearAlgebra.cpp", 2505)


def _check_svd_input(a: Tensor) -> None:
    if a.ndim < 2:
        raise errors.runtime("linalg.svd: The input tensor A must have at least 2 dimensions.")
    _check_floating("linalg.svd", a, "linalg_svd_cpu", complex_ok=True)


def linalg_svd(a: Tensor, full_matrices: bool = True, *, driver=None) -> tuple:
    _check_svd_input(a)
    u, s, vh = apply(OPS["_linalg_svd"], a, full_matrices=full_matrices)
    return F.ReturnTypes("linalg_svd", u, s, vh, fields=("U", "S", "Vh"))


def svd(a: Tensor, some: bool = True, compute_uv: bool = True) -> tuple:
    if a.ndim < 2:  # torch.svd's own wording, before linalg.svd's checks
        raise errors.runtime("linalg.svd: input should have at least 2 dimensions, but has "
                             f"{a.ndim} dimensions instead")
    _check_svd_input(a)
    u, s, vh = apply(OPS["_linalg_svd"], a, full_matrices=not some)
    return F.ReturnTypes("svd", u, s, _mT(vh), fields=("U", "S", "V"))


def svdvals(a: Tensor, *, driver=None) -> Tensor:
    _check_svd_input(a)
    return apply(OPS["_linalg_svd"], a, full_matrices=False)[1]


def eigh(a: Tensor, UPLO: str = "L") -> tuple:
    _check_square("linalg.eigh", a)
    _check_kernel("linalg_eigh_cpu", a, complex_ok=True)
    values, vectors = apply(OPS["_linalg_eigh"], a, uplo=UPLO)
    return F.ReturnTypes("linalg_eigh", values, vectors, fields=("eigenvalues", "eigenvectors"))


def eig(a: Tensor) -> tuple:
    """linalg.eig: complex eigenvalues and eigenvectors of a square matrix, real or complex."""
    _check_square("linalg.eig", a)
    if not (a.dtype.is_floating_point or a.dtype.is_complex):
        raise errors.runtime(f"Unknown Complex ScalarType for {a.dtype.scalar_name}")
    if a.dtype is dtypes.float16:
        from gradcli.engine.state import STATE
        STATE.warn("UserWarning", "ComplexHalf support is experimental and many operators don't "
                   "support it yet.")
    _check_kernel("linalg_eig_out_cpu", a, complex_ok=True)
    values, vectors = apply(OPS["linalg_eig"], a, real_input=not a.dtype.is_complex)
    return F.ReturnTypes("linalg_eig", values, vectors, fields=("eigenvalues", "eigenvectors"))


def eigvals(a: Tensor) -> Tensor:
    """linalg.eigvals: linalg.eig's eigenvalues (its grad_fn theirs)."""
    return eig(a)[0]


def eigvalsh(a: Tensor, UPLO: str = "L") -> Tensor:
    _check_square("linalg.eigh", a)
    _check_kernel("linalg_eigh_cpu", a, complex_ok=True)
    return apply(OPS["_linalg_eigh"], a, uplo=UPLO)[0]


def pinv(a: Tensor, rcond=None, hermitian: bool = False, *, atol=None, rtol=None) -> Tensor:
    """linalg.pinv: V diag(1/S) U^H through the SVD, singular values at most
    max(atol, rtol * max(S)) dropped."""
    if a.ndim < 2 or a.dtype not in (dtypes.float32, dtypes.float64, dtypes.complex64,
                                     dtypes.complex128):
        raise errors.runtime(f"linalg.pinv({a.dtype.scalar_name}{{{list(a.shape)}}}): expected a "
                             "tensor with 2 or more dimensions of float, double, cfloat or cdouble "
                             "types")
    if rcond is not None:
        rtol = rcond
    if rtol is None:
        rtol = (0.0 if atol is not None and atol > 0
                else float(np.finfo(a.dtype.np).eps) * max(a.shape[-2:]))
    return apply(OPS["linalg_pinv"], a, atol=atol or 0.0, rtol=rtol)


def _pinv(a, atol, rtol):
    u, s, vh = _gesdd(a, full_matrices=False)
    threshold = np.maximum(atol, rtol * s.max(-1, keepdims=True, initial=0))
    inverse = np.where(s > threshold, 1 / np.where(s == 0, 1, s), 0)
    return np.matmul(_adjoint(vh) * inverse[..., None, :], _adjoint(u)).astype(a.dtype)


def _pinv_backward(g, a, atol, rtol, out):
    """torch's pinv_backward, arranged to multiply the smallest matrices."""
    m, n = a.shape[-2:]
    pinv_h, grad_h = _mH(out), _mH(g)
    if m <= n:
        k = F.matmul(grad_h, out)
        k_pinv_h = F.matmul(k, pinv_h)
        return F.add(F.sub(F.add(F.neg(_mH(F.matmul(out, k))), k_pinv_h),
                           F.matmul(F.matmul(a, out), k_pinv_h)),
                     F.matmul(F.matmul(pinv_h, out), F.sub(grad_h, F.matmul(k, a))))
    k = F.matmul(out, grad_h)
    pinv_h_k = F.matmul(pinv_h, k)
    return F.sub(F.add(F.add(F.neg(_mH(F.matmul(k, out))),
                             F.matmul(F.matmul(F.sub(grad_h, F.matmul(a, k)), out), pinv_h)),
                       pinv_h_k), F.matmul(F.matmul(pinv_h_k, out), a))


defop("linalg_pinv", "LinalgPinvBackward0", _pinv, promote="none", save=(0, RESULT),
      vjp=_pinv_backward, complex=True)


# ---- cholesky_inverse ----------------------------------------------------------------------------

def _cholesky_inverse(a, upper):
    """potri: (L L^H)^-1 from the factor L (U^H U from U when `upper`), reading only that
    triangle of the input."""
    factor = np.triu(a) if upper else np.tril(a)
    inverse = np.linalg.inv(factor.astype(np.complex128 if np.iscomplexobj(a) else np.float64))
    outer = _adjoint(inverse)
    product = inverse @ outer if upper else outer @ inverse
    return product.astype(a.dtype)


def _cholesky_inverse_backward(g, a, upper, out):
    """torch's cholesky_inverse_backward."""
    common = F.matmul(out, F.matmul(F.add(g, _mH(g)), out))
    return F.neg(F.matmul(a, common) if upper else F.matmul(common, a))


defop("cholesky_inverse", "CholeskyInverseBackward0", _cholesky_inverse, promote="none",
      save=(0, RESULT), vjp=_cholesky_inverse_backward, complex=True)


def cholesky_inverse(a: Tensor, upper: bool = False) -> Tensor:
    _check_square("cholesky_inverse", a)
    _check_kernel("cholesky_inverse_out_cpu", a, complex_ok=True)
    flat, batched = _batches(a.data)
    for i, matrix in enumerate(flat):
        zero = next((k + 1 for k in range(matrix.shape[-1]) if matrix[k, k] == 0), 0)
        if zero:
            where = f"(Batch element {i}): " if batched else ""
            raise errors.TorchError("_LinAlgError", f"cholesky_inverse: {where}The diagonal "
                                    f"element {zero} is zero, the inversion could not be "
                                    "completed because the input matrix is singular.")
    return apply(OPS["cholesky_inverse"], a, upper=bool(upper))


def _cholesky_solve(b, factor, upper):
    """potrs: A X = B for A = L L^H (U^H U when `upper`), by two triangular solves, the batch
    dimensions broadcast."""
    low = _adjoint(np.triu(factor)) if upper else np.tril(factor)
    return _solve_triangular(_adjoint(low), _solve_triangular(low, b, False, True), True, True)


def _cholesky_solve_backward_b(g, b, factor, upper, out):
    """torch's cholesky_solve_backward, for B."""
    return cholesky_solve(g, factor, upper)


def _cholesky_solve_backward_factor(g, b, factor, upper, out):
    """torch's cholesky_solve_backward, for the factor."""
    common = F.matmul(cholesky_solve(g, factor, upper), _mH(out))
    common = F.add(common, _mH(common))
    return F.neg(F.matmul(factor, common) if upper else F.matmul(common, factor))


defop("cholesky_solve", "CholeskySolveBackward0", _cholesky_solve, promote="none",
      save=(0, 1, RESULT), complex=True,
      vjp=(_cholesky_solve_backward_b, _cholesky_solve_backward_factor))


def cholesky_solve(b: Tensor, factor: Tensor, upper: bool = False) -> Tensor:
    """torch.cholesky_solve with ATen's checks in their order."""
    for what, t in (("b", b), ("u", factor)):
        if t.ndim < 2:
            raise errors.runtime(f"{what} should have at least 2 dimensions, but has {t.ndim} "
                                 "dimensions instead")
    if b.dtype is not factor.dtype:
        raise errors.runtime(f"Expected b and A to have the same dtype, but found b of type "
                             f"{b.dtype.scalar_name} and A of type {factor.dtype.scalar_name} "
                             "instead.")
    if factor.shape[-1] != factor.shape[-2]:
        raise errors.runtime(f"A must be batches of square matrices, but they are "
                             f"{factor.shape[-2]} by {factor.shape[-1]} matrices")
    if factor.shape[-1] != b.shape[-2]:
        n = factor.shape[-1]
        raise errors.runtime(f"Incompatible matrix sizes for cholesky_solve: each A matrix is {n} "
                             f"by {n} but each b matrix is {b.shape[-2]} by {b.shape[-1]}")
    _check_kernel("cholesky_solve_cpu", b, complex_ok=True)
    return apply(OPS["cholesky_solve"], b, factor, upper=bool(upper))


# ---- cond and matrix_rank ---------------------------------------------------------------------

def cond(a: Tensor, p=None) -> Tensor:
    """ATen's linalg_cond: the ratio of extreme singular values for p None or +-2, the nuclear
    norm's sum(S) * sum(1/S), else norm(A) * norm(inv(A)), the inverse filled with inf in place
    where A is singular (so, as in torch, that branch cannot be differentiated)."""
    text = p if isinstance(p, str) else None
    if text is not None:
        _check_square(f"linalg.cond(ord={text})", a)
    elif a.ndim < 2:
        raise errors.runtime("linalg.cond: The input tensor must have at least 2 dimensions.")
    order = 2 if p is None else p
    if text is None and abs(order) not in (1, 2, math.inf) or text not in (None, "fro", "nuc"):
        raise errors.runtime(f"linalg.cond got an invalid norm type: "
                             f"{text if text is not None else _number_text(order)}")
    if a.numel() == 0:
        return F.zeros_of(a.shape[:-2], a.dtype)
    if text == "nuc":
        values = svdvals(a)
        return F.mul(F.sum(values, -1), F.sum(F.reciprocal(values), -1))
    if text is None and abs(order) == 2:
        values = svdvals(a)
        largest, smallest = F.narrow(values, -1, 0, 1), F.narrow(values, -1, -1, 1)
        ratio = F.div(smallest, largest) if order == -2 else F.div(largest, smallest)
        return F.squeeze(ratio, -1)
    if text is None:
        _check_square(f"linalg.cond(ord={order:f})" if isinstance(order, float)
                      else f"linalg.cond(ord={order})", a)
    singular = np.array([_zero_pivot(m) > 0 for m in a.data.reshape((-1,) + a.shape[-2:])])
    singular = Tensor(singular.reshape(a.shape[:-2] + (1, 1)), dtypes.bool_)
    identity = Tensor(np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype.np), a.shape).copy(),
                      a.dtype)
    invertible = F.where(singular, identity, a) if np.any(singular.data) else a
    inverse = F.masked_fill_(apply(OPS["linalg_inv_ex"], invertible), singular, math.inf)
    result = F.mul(matrix_norm(a, order), matrix_norm(inverse, order))
    return F.nan_to_num(result, math.inf, math.inf, -math.inf)


def matrix_rank(a: Tensor, tol=None, hermitian: bool = False, *, atol=None, rtol=None) -> Tensor:
    """ATen's linalg_matrix_rank: singular values (|eigenvalues| when hermitian) above
    max(atol, rtol * the largest), rtol's default eps * max(m, n) unless atol > 0."""
    if tol is not None:
        atol, rtol = tol, 0.0
    if a.ndim < 2:
        raise errors.runtime("torch.linalg.matrix_rank: The input tensor input must have at "
                             "least 2 dimensions.")
    if a.dtype not in (dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128):
        raise errors.runtime("This function doesn't handle types other than float and double")
    kind = dtypes.real_of(a.dtype).np
    absolute = np.asarray(atol.data if isinstance(atol, Tensor) else atol or 0.0, kind)
    if rtol is None:
        positive = atol is not None and np.all(absolute > 0)
        rtol = 0.0 if positive else float(np.finfo(kind).eps) * max(a.shape[-2:] or (0,))
    relative = np.asarray(rtol.data if isinstance(rtol, Tensor) else rtol, kind)
    if a.numel() == 0:
        return F.zeros_of(a.shape[:-2], dtypes.int64)
    if hermitian:
        values = np.abs(np.linalg.eigvalsh(a.data)).astype(kind)
    else:
        values = _gesdd(a.data, compute_uv=False).astype(kind)
    largest = values.max(-1, keepdims=True)
    threshold = np.maximum(absolute[..., None], relative[..., None] * largest)
    return Tensor(np.sum(values > threshold, axis=-1).astype(np.int64), dtypes.int64)


# ---- lstsq --------------------------------------------------------------------------------------

_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _lstsq(a, b, rcond, driver, vector):
    """(solution, residuals, rank, singular values) as torch returns them for `driver`; the
    solution is the SVD's minimum-norm one, singular values up to rcond * the largest dropped
    (gels refuses a matrix short of full rank). Rank and singular values keep A's own batch
    shape, unbroadcast to B's, as LAPACK's per-matrix results are gathered in ATen."""
    b = b[..., None] if vector else b
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    m, n = a.shape[-2:]
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    kept = s > rcond * s.max(-1, keepdims=True, initial=0)
    rank = kept.sum(-1)
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    if driver == "gels" and np.any(rank < min(m, n)):
        raise errors.TorchError("_LinAlgError", "torch.linalg.lstsq: The least squares solution "
                                "could not be computed because the input matrix does not have "
                                f"full rank (error code: {int(rank.min()) + 1}).")
    inverse = np.where(kept, 1 / np.where(kept, s, 1), 0)
    x = np.swapaxes(vh, -1, -2) @ (inverse[..., None] * (np.swapaxes(u, -1, -2) @ b))
    empty = np.zeros((0,), a.dtype)
    residuals = empty
    if m > n and driver != "gelsy" and np.all(rank == n):
        residuals = np.sum((a @ x - b) ** 2, axis=-2).astype(a.dtype)
    ranks = np.zeros((0,), np.int64) if driver == "gels" else rank.astype(np.int64)
    values = s.astype(a.dtype) if driver in ("gelsd", "gelss") else empty
    return (x[..., 0] if vector else x).astype(a.dtype), residuals, ranks, values


def _lstsq_backward(which: int):
    """torch's linalg_lstsq_backward for input `which` (0: A, 1: B): the solution's gradient
    through pinv(A), the residuals' as the derivative of |AX - B|^2."""
    def vjp(grads, a, b, rcond, driver, vector, out):
        g_x, g_residuals = grads[0], grads[1]
        x = F.unsqueeze(out[0], -1) if vector else out[0]
        b2 = F.unsqueeze(b, -1) if vector else b
        parts = []
        if g_x is not None:
            g_x = F.unsqueeze(g_x, -1) if vector else g_x
            pinv_a = pinv(a)
            if which == 0:
                parts.append(_pinv_backward(F.matmul(g_x, _mT(b2)), a, 0.0, 0.0, pinv_a))
            else:
                parts.append(F.matmul(_mT(pinv_a), g_x))
        if g_residuals is not None and g_residuals.numel():
            weighted = F.mul(F.sub(F.matmul(a, x), b2), F.unsqueeze(g_residuals, -2))
            parts.append(F.mul_scalar(F.matmul(weighted, _mT(x)), 2.0) if which == 0
                         else F.mul_scalar(weighted, -2.0))
        if not parts:
            return None
        total = parts[0] if len(parts) == 1 else F.add(*parts)
        return F.squeeze(total, -1) if vector and which == 1 else total
    return vjp


defop("linalg_lstsq", "LinalgLstsqBackward0", _lstsq, promote="none", n_outputs=4,
      differentiable_outputs=(0, 1), materialize=False, save=(0, 1, RESULT),
      out_dtype=lambda dtype, params: (dtype, dtype, dtypes.int64, dtype),
      vjp=(_lstsq_backward(0), _lstsq_backward(1)))


def lstsq(a: Tensor, b: Tensor, rcond=None, *, driver=None):
    """torch.linalg.lstsq with ATen's checks in their order."""
    name = "torch.linalg.lstsq"
    if a.ndim < 2:
        raise errors.runtime(f"{name}: input must have at least 2 dimensions.")
    if b.ndim < 1:
        raise errors.runtime(f"{name}: other must have at least 1 dimension.")
    if a.dtype is not b.dtype:
        raise errors.runtime(f"{name}: Expected input and other to have the same dtype, but got "
                             f"input's dtype {a.dtype.scalar_name} and other's dtype "
                             f"{b.dtype.scalar_name}")
    if not 0 <= a.ndim - b.ndim <= 1:
        raise errors.runtime(f"{name}: input.dim() must be greater or equal to other.dim() and "
                             "(input.dim() - other.dim()) <= 1")
    vector = a.ndim - b.ndim == 1
    if a.shape[-2] != (b.shape[-1] if vector else b.shape[-2]):
        raise errors.runtime(f"{name}: input.size(-2) should match other.size("
                             f"{-1 if vector else -2})")
    if driver is not None and driver not in _LSTSQ_DRIVERS:
        raise errors.runtime(f"{name}: parameter `driver` should be one of (gels, gelsy, "
                             "gelsd, gelss)")
    if a.dtype not in (dtypes.float32, dtypes.float64):
        raise errors.runtime("This function doesn't handle types other than float and double")
    if rcond is None:
        rcond = float(np.finfo(a.dtype.np).eps) * max(a.shape[-2:])
    solution, residuals, rank, values = apply(OPS["linalg_lstsq"], a, b, rcond=rcond,
                                              driver=driver or "gelsy", vector=vector)
    return F.ReturnTypes("linalg_lstsq", solution, residuals, rank, values,
                         fields=("solution", "residuals", "rank", "singular_values"))


def diag_embed(a: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    d1, d2 = F.wrap_dim(dim1, a.ndim + 1), F.wrap_dim(dim2, a.ndim + 1)
    if d1 == d2:
        raise errors.runtime(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return apply(OPS["diag_embed.dims"], a, offset=offset, dim1=d1, dim2=d2)


def diagflat(a: Tensor, offset: int = 0) -> Tensor:
    """ATen's diagflat: the flattened input on a diagonal (a view, then diag_embed)."""
    return diag_embed(F.view(a, (-1,)), offset)


def solve_triangular(a: Tensor, b: Tensor, *, upper: bool, left: bool = True,
                     unitriangular: bool = False) -> Tensor:
    _check_kernel("triangular_solve_cpu", a, complex_ok=True)
    return apply(OPS["linalg_solve_triangular"], a, b, upper=upper, left=left)


# ---- declarations -------------------------------------------------------------------------------

declare("det", det, "det(Tensor self)", method=("det(Tensor self)",))
declare("det", det, "det(Tensor A, *, Tensor? out=None)", variants="linalg")
declare("matrix_exp", matrix_exp, "matrix_exp(Tensor self)")
declare("matrix_exp", matrix_exp, "matrix_exp(Tensor self, *, Tensor? out=None)", variants="linalg")
declare("lstsq", lstsq, "lstsq(Tensor self, Tensor b, float? rcond=None, *, str? driver=None, "
        "Tensor[]? out=None)", variants="linalg")
declare("diagflat", diagflat, "diagflat(Tensor self, int offset=0)")
declare("cond", cond, "cond(Tensor self, Scalar? p=None, *, Tensor? out=None)",
        "cond(Tensor self, str p, *, Tensor? out=None)", variants="linalg")
declare("matrix_rank", matrix_rank,
        "matrix_rank(Tensor input, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False, "
        "Tensor? out=None)",
        "matrix_rank(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False, "
        "Tensor? out=None)",
        "matrix_rank(Tensor input, Tensor tol, bool hermitian=False, *, Tensor? out=None)",
        "matrix_rank(Tensor self, float tol, bool hermitian=False, *, Tensor? out=None)",
        variants="linalg")
declare("cholesky_inverse", cholesky_inverse, "cholesky_inverse(Tensor self, bool upper=False, *, "
        "Tensor? out=None)")
declare("cholesky_solve", cholesky_solve, "cholesky_solve(Tensor self, Tensor input2, "
        "bool upper=False, *, Tensor? out=None)")
declare("logdet", logdet, "logdet(Tensor self)")
declare("slogdet", slogdet, "slogdet(Tensor self)")
declare("slogdet", lambda a: slogdet(a, "linalg_slogdet"),
        "slogdet(Tensor A, *, Tensor? out=None)", variants="linalg")
declare("inverse", inverse, "inverse(Tensor self, *, Tensor? out=None)")
declare("inv", inverse, "inv(Tensor A, *, Tensor? out=None)", variants="linalg")
declare("solve", linalg_solve, "solve(Tensor A, Tensor B, *, bool left=True, Tensor? out=None)",
        variants="linalg")
declare("inv_ex", inv_ex, "inv_ex(Tensor A, *, bool check_errors=False, Tensor[]? out=None)",
        variants="linalg")
declare("solve_ex", solve_ex, "solve_ex(Tensor A, Tensor B, *, bool left=True, "
        "bool check_errors=False, Tensor[]? out=None)", variants="linalg")
declare("tensorinv", tensorinv, "tensorinv(Tensor A, int ind=2, *, Tensor? out=None)",
        variants="linalg")
declare("tensorsolve", tensorsolve, "tensorsolve(Tensor A, Tensor B, int[]? dims=None, *, "
        "Tensor? out=None)", variants="linalg")
declare("solve_triangular", solve_triangular,
        "solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True, "
        "bool unitriangular=False, Tensor? out=None)", variants="linalg")
declare("matrix_power", matrix_power, "matrix_power(Tensor self, int n, *, Tensor? out=None)")
declare("matrix_power", matrix_power, "matrix_power(Tensor self, int n, *, Tensor? out=None)",
        variants="linalg")
declare("norm", linalg_norm,
        "norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, "
        "ScalarType? dtype=None, Tensor? out=None)",
        "norm(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, "
        "ScalarType? dtype=None, Tensor? out=None)", variants="linalg")
declare("matrix_norm", matrix_norm,
        "matrix_norm(Tensor self, Scalar ord, int[] dim=[-2,-1], bool keepdim=False, *, "
        "ScalarType? dtype=None, Tensor? out=None)",
        "matrix_norm(Tensor self, str ord=\"fro\", int[] dim=[-2,-1], bool keepdim=False, *, "
        "ScalarType? dtype=None, Tensor? out=None)", variants="linalg")
declare("cholesky", linalg_cholesky, "cholesky(Tensor self, *, bool upper=False, "
        "Tensor? out=None)", variants="linalg")
declare("cholesky", cholesky, "cholesky(Tensor self, bool upper=False, *, Tensor? out=None)")
declare("cholesky_ex", cholesky_ex, "cholesky_ex(Tensor self, *, bool upper=False, "
        "bool check_errors=False, Tensor[]? out=None)", variants="linalg")
declare("qr", qr, "qr(Tensor A, str mode=\"reduced\", *, Tensor[]? out=None)", variants="linalg")
declare("qr", qr_some, "qr(Tensor self, bool some=True, *, Tensor[]? out=None)")
declare("svd", linalg_svd, "svd(Tensor A, bool full_matrices=True, *, str? driver=None, "
        "Tensor[]? out=None)", variants="linalg")
declare("svdvals", svdvals, "svdvals(Tensor A, *, str? driver=None, Tensor? out=None)",
        variants="linalg")
declare("svd", svd, "svd(Tensor self, bool some=True, bool compute_uv=True, *, "
        "Tensor[]? out=None)")
declare("eigh", eigh, "eigh(Tensor self, str UPLO=\"L\", *, Tensor[]? out=None)",
        variants="linalg")
declare("eig", eig, "eig(Tensor self, *, Tensor[]? out=None)", variants="linalg")
declare("eigvals", eigvals, "eigvals(Tensor self, *, Tensor? out=None)", variants="linalg")
declare("eigvalsh", eigvalsh, "eigvalsh(Tensor self, str UPLO=\"L\", *, Tensor? out=None)",
        variants="linalg")
declare("pinv", pinv, "pinv(Tensor self, float? rcond=None, bool hermitian=False, *, "
        "float? atol=None, float? rtol=None, Tensor? out=None)", variants="linalg")
declare("pinverse", lambda a, rcond=1e-15: pinv(a, rcond), "pinverse(Tensor self, "
        "float rcond=1e-15)")
declare("diag_embed", diag_embed, "diag_embed(Tensor self, int offset=0, int dim1=-2, "
        "int dim2=-1)")


export(__name__, globals())
