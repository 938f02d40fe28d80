"""Householder QR: torch.geqrf (LAPACK's geqr2: the reflectors below R, their scalars tau) and
linalg.householder_product / torch.orgqr (the product of those reflectors, org2r), with
torch's householder_product_backward."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.decompositions import _mH
from gradcli.engine.ops.registry import OPS, RESULT, apply, defop, no_derivative
from gradcli.engine.tensor import Tensor


def _larfg(alpha, x: np.ndarray):
    """larfg: (beta, tau, v) with H = I - tau [1; v][1; v]^H taking [alpha; x] to [beta; 0]."""
    norm = np.sqrt(np.sum(np.abs(x) ** 2)) if x.size else x.real.dtype.type(0)
    if norm == 0 and np.imag(alpha) == 0:
        return alpha, alpha.dtype.type(0), x
    beta = -np.copysign(np.hypot(np.hypot(alpha.real, np.imag(alpha)), norm), alpha.real)
    beta = alpha.real.dtype.type(beta)
    if np.iscomplexobj(alpha):
        tau = alpha.dtype.type(complex((beta - alpha.real) / beta, -alpha.imag / beta))
    else:
        tau = (beta - alpha) / beta
    return alpha.dtype.type(beta), tau, x * (alpha.dtype.type(1) / (alpha - beta))


def _geqr2(matrix: np.ndarray) -> tuple:
    a = matrix.copy()
    m, n = a.shape
    tau = np.zeros(min(m, n), a.dtype)
    for i in range(min(m, n)):
        a[i, i], tau[i], a[i + 1:, i] = _larfg(a[i, i], a[i + 1:, i])
        if i < n - 1:
            v = np.concatenate([np.ones(1, a.dtype), a[i + 1:, i]])
            w = v.conj() @ a[i:, i + 1:]
            a[i:, i + 1:] -= np.conj(tau[i]) * np.outer(v, w)
    return a, tau


def _org2r(v: np.ndarray, tau: np.ndarray) -> np.ndarray:
    m, n = v.shape
    q = np.eye(m, n, dtype=v.dtype)
    for i in reversed(range(len(tau))):
        vec = np.concatenate([np.ones(1, v.dtype), v[i + 1:, i]])
        q[i:] -= tau[i] * np.outer(vec, vec.conj() @ q[i:])
    return q


def _batched(function, *arrays):
    batch = arrays[0].shape[:-2]
    flat = [x.reshape((-1,) + x.shape[len(batch):]) for x in arrays]
    parts = [function(*items) for items in zip(*flat)]
    if isinstance(parts[0], tuple):
        return tuple(np.stack(p).reshape(batch + p[0].shape) for p in zip(*parts))
    return np.stack(parts).reshape(batch + parts[0].shape)


def _reflect(v: Tensor, t: Tensor, k: Tensor, left: bool) -> Tensor:
    """(I - t v v^H) K, or K (I - t v v^H)."""
    scaled = F.mul(F.unsqueeze(t, -1), v)
    if left:
        return F.sub(k, F.mul(scaled, F.matmul(_mH(v), k)))
    return F.sub(k, F.mul(F.matmul(k, scaled), _mH(v)))


def _householder_backward(g, a, tau, out):
    """torch's householder_product_backward (its out-of-place path): gradients for the
    reflectors' vectors (below the diagonal) and for tau."""
    m, n, k = a.shape[-2], a.shape[-1], tau.shape[-1]
    if a.numel() == 0 or k == 0:
        return None, None
    vectors = F.add(F.tril(a, -1), F.eye(m, n, dtype=a.dtype))
    first = F.narrow(vectors, -1, 0, k)
    sigma = F.div(tau, F.sub(F.mul(tau, F.sum(F.mul(first, F.conj(first)), -2)), 1.0))
    kk = _reflect(F.narrow(vectors, -1, 0, 1), F.narrow(sigma, -1, 0, 1),
                  F.matmul(out, _mH(g)), True)
    vector_grads, tau_grad = [], F.zeros_like(tau)
    for i in range(k):
        v_full, t = F.narrow(vectors, -1, i, 1), F.narrow(tau, -1, i, 1)
        v = F.narrow(v_full, -2, i, m - i)
        vhk = F.matmul(_mH(v), F.narrow(kk, -2, i, m - i))
        kv = F.matmul(F.narrow(kk, -1, i, m - i), v)
        t_ = F.unsqueeze(t, -1)
        vector_grads.append(F.sub(F.squeeze(F.conj(F.mul(F.neg(t_), vhk)), -2),
                                  F.squeeze(F.mul(t_, kv), -1)))
        F.copy_(F.select(tau_grad, -1, i), F.squeeze(F.neg(F.conj(F.matmul(
            F.narrow(vhk, -1, i, m - i), v))), (-2, -1)))
        if i != k - 1:
            kk = _reflect(F.narrow(vectors, -1, i + 1, 1), F.narrow(sigma, -1, i + 1, 1), kk, True)
            kk = _reflect(v_full, t, kk, False)
    if k < n:
        vector_grads.append(F.zeros_of(a.shape[:-2] + (m,), a.dtype))
        vector_grads.extend([vector_grads[-1]] * (n - k - 1))
    grad_a = F.tril(F.stack(vector_grads, -1), -1)
    return grad_a, tau_grad


defop("geqrf", "GeqrfBackward0", lambda a: _batched(_geqr2, a), promote="none", n_outputs=2,
      complex=True, vjp=(no_derivative("geqrf"),))
defop("linalg_householder_product", "LinalgHouseholderProductBackward0",
      lambda a, tau: _batched(lambda v, t: _org2r(v, t[0]), a, tau[..., None, :]),
      promote="none", complex=True, save=(0, 1, RESULT),
      vjp=(lambda g, a, tau, out: _householder_backward(g, a, tau, out)[0],
           lambda g, a, tau, out: _householder_backward(g, a, tau, out)[1]))


__all__ = ["geqrf", "householder_product"]


def geqrf(a: Tensor) -> tuple:
    if a.ndim < 2:
        raise errors.runtime("torch.geqrf: input must have at least 2 dimensions.")
    if a.dtype not in (dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128):
        raise errors.not_implemented_for("geqrf_cpu", a.dtype)
    values, tau = apply(OPS["geqrf"], a)
    return F.ReturnTypes("geqrf", values, tau, fields=("a", "tau"))


def householder_product(a: Tensor, tau: Tensor) -> Tensor:
    name = "torch.linalg.householder_product"
    if a.ndim < 2:
        raise errors.runtime(f"{name}: input must have at least 2 dimensions.")
    if a.shape[-2] < a.shape[-1]:
        raise errors.runtime(f"{name}: input.shape[-2] must be greater than or equal to "
                             "input.shape[-1]")
    if a.shape[-1] < tau.shape[-1]:
        raise errors.runtime(f"{name}: input.shape[-1] must be greater than or equal to "
                             "tau.shape[-1]")
    if tau.ndim != a.ndim - 1:
        raise errors.runtime(f"{name}: Expected tau to have one dimension less than input, but "
                             f"got tau.ndim equal to {tau.ndim} and input.ndim is equal to "
                             f"{a.ndim}")
    if tau.dtype is not a.dtype:
        raise errors.runtime(f"{name}: tau dtype {tau.dtype.scalar_name} does not match input "
                             f"dtype {a.dtype.scalar_name}")
    return apply(OPS["linalg_householder_product"], a, tau)


declare("geqrf", geqrf, "geqrf(Tensor self, *, Tensor[]? out=None)")
declare("householder_product", householder_product,
        "householder_product(Tensor input, Tensor tau, *, Tensor? out=None)", variants="linalg")
declare("orgqr", householder_product, "orgqr(Tensor self, Tensor input2, *, Tensor? out=None)")
export(__name__, globals())
