"""torch._weight_norm, _weight_norm_interface and norm_except_dim: the fused CPU kernels of
ATen's cpu/WeightNormKernel.cpp in their order of float operations (over the first dimension
each row reduced with vec::map_reduce_all, over the last the rows accumulated per thread with
fused multiply-adds), and with create_graph torch's differentiable backward."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors, normalization_order as order
from gradcli.engine.declarations import declare
from gradcli.engine.fma import fused
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import OPS, RESULT, apply, defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor


def _rows(a: np.ndarray, dim: int) -> np.ndarray:
    """a as (M, N): rows of the first dimension (dim 0) or along the last."""
    return a.reshape(a.shape[0], -1) if dim == 0 else a.reshape(-1, a.shape[-1])


def _column_sums(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Each column's sum of p * q: a buffer per thread of fused multiply-adds, then the
    buffers added from zero."""
    return order._sum_from_zero(order._thread_fma_sums(p, q), p.dtype)


def _interface(v, g, dim):
    """(w, norm): the kernels read g's first entries and write as many of norm's (shaped as
    g; the rest, which torch leaves unset, are zero here)."""
    rows = _rows(v, dim)
    gains = g.reshape(-1)[:rows.shape[1 if dim else 0]]
    if dim == 0:
        norm = np.sqrt(order.map_reduce_all(rows * rows))
        w = rows * (gains / norm)[:, None]
    else:
        norm = np.sqrt(_column_sums(rows, rows))
        w = rows * (gains / norm)[None, :]
    norms = np.zeros(g.size, norm.dtype)
    norms[:norm.size] = norm
    return w.reshape(v.shape), norms.reshape(g.shape)


def _interface_backward(gw, v, g, norm, dim, index):
    """_weight_norm_interface_backward: grad_v (index 0) or grad_g (index 1)."""
    rows, grads = _rows(v, dim), _rows(gw, dim)
    count = rows.shape[1 if dim else 0]
    norms, gains = norm.reshape(-1)[:count], g.reshape(-1)[:count]
    sums = (order.map_reduce_all(grads * rows) if dim == 0 else _column_sums(grads, rows))
    grad_g = sums / norms
    if index == 1:
        grads_g = np.zeros(g.size, grad_g.dtype)
        grads_g[:count] = grad_g
        return grads_g.reshape(g.shape)
    a = gains / norms
    b = a * grad_g / norms
    a, b = (a[:, None], b[:, None]) if dim == 0 else (a[None, :], b[None, :])
    return fused(-b, rows, a * grads).reshape(v.shape)


def _differentiable_backward(gw, v, g, norm, dim, index):
    """_weight_norm_differentiable_backward: the same formula from differentiable ops."""
    shape = [1] * v.ndim
    if dim == 0:
        shape[0] = v.shape[0]
        sums = F.view(F.sum(F.view(F.mul(gw, v), (v.shape[0], -1)), 1), tuple(shape))
    else:
        shape[-1] = v.shape[-1]
        sums = F.view(F.sum(F.view(F.mul(gw, v), (-1, v.shape[-1])), 0), tuple(shape))
    if index == 1:
        return F.div(sums, norm)
    return F.mul(F.div(g, norm), F.sub(gw, F.mul(v, F.div(sums, F.mul(norm, norm)))))


def _grad(index):
    """The fused backward kernel, or with create_graph the differentiable formula (as torch's
    derivative picks by grad mode)."""
    def rule(grads, v, g, dim, out):
        gw, norm = F.contiguous(grads[0]), out[1]
        if STATE.grad_enabled:
            return _differentiable_backward(gw, v, g, norm, dim, index)
        return Tensor(_interface_backward(gw.data, v.data, g.data, norm.data, dim, index),
                      v.dtype)
    return rule


defop("_weight_norm_interface", "WeightNormInterfaceBackward0", _interface, promote="none",
      n_outputs=2, differentiable_outputs=(0,), save=(0, 1, RESULT), vjp=(_grad(0), _grad(1)))
# ATen's norm(Scalar) and norm(Scalar?, int[] dim) as C++ code calls them: linalg.vector_norm's
# values and derivative under their own labels
for _key, _label in (("norm.Scalar", "NormBackward0"), ("norm.ScalarOpt_dim", "NormBackward1")):
    defop(_key, _label, lambda a, ord, dim, keepdim: F.vector_norm_values(a, ord, dim, keepdim),
          promote="none", save=(0, RESULT),
          vjp=lambda g, a, ord, dim, keepdim, out: F.norm_backward(g, a, ord, dim, keepdim, out))


def _check_floating(v: Tensor) -> None:
    if not v.dtype.is_floating_point:
        raise errors.runtime("norm(): input dtype should be either floating point or complex. "
                             f"Got {v.dtype.scalar_name} instead.")


def _weight_norm_interface(v: Tensor, g: Tensor, dim: int = 0):
    if g.dtype is not v.dtype:
        raise errors.runtime(f"expected scalar type {v.dtype.scalar_name} but found "
                             f"{g.dtype.scalar_name}")
    if dim != 0 and dim != v.ndim - 1:
        raise errors.runtime(
            'dim == 0 || dim == v.dim() - 1 INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/'
            'src/ATen/native/cpu/WeightNormKernel.cpp":408, please report a bug to PyTorch. '
            "fused kernels can only be applied for first or last dim")
    if g.numel() < v.shape[dim]:  # where torch's kernel would read past g's end
        raise errors.runtime(f"_weight_norm_interface: g has {g.numel()} elements, but v has "
                             f"{v.shape[dim]} along dim {dim}")
    return apply(OPS["_weight_norm_interface"], F.contiguous(v), F.contiguous(g), dim=dim)


def norm_except_dim(v: Tensor, pow: int = 2, dim: int = 0) -> Tensor:
    """ATen's norm_except_dim: the norm over every dimension but `dim`, shaped to broadcast."""
    _check_floating(v)
    if dim == -1:
        return apply(OPS["norm.Scalar"], v, ord=float(pow), dim=None, keepdim=False)
    if dim == 0 or dim == v.ndim - 1:
        shape = [1] * v.ndim
        shape[dim] = F.size_at(v, dim)  # (a 0-dim v has no dimension 0: torch's error)
        rows = (v.shape[0], -1) if dim == 0 else (-1, v.shape[-1])
        norms = apply(OPS["norm.ScalarOpt_dim"], F.view(F.contiguous(v), rows), ord=float(pow),
                      dim=(1 if dim == 0 else 0,), keepdim=False)
        return F.view(norms, tuple(shape))
    return F.transpose(norm_except_dim(F.transpose(v, 0, dim), pow, 0), 0, dim)


def _weight_norm(v: Tensor, g: Tensor, dim: int = 0) -> Tensor:
    """The fused kernel over the first or last dimension, else v * (g / norm_except_dim)."""
    v, g = F.contiguous(v), F.contiguous(g)
    if dim == 0 or dim == v.ndim - 1:
        return _weight_norm_interface(v, g, dim)[0]
    return F.mul(v, F.div(g, norm_except_dim(v, 2, dim)))


declare("norm_except_dim", norm_except_dim, "norm_except_dim(Tensor v, int pow=2, int dim=0)",
        variants="torch")
declare("_weight_norm", _weight_norm, "_weight_norm(Tensor v, Tensor g, int dim=0)",
        variants="torch")
declare("_weight_norm_interface", _weight_norm_interface,
        "_weight_norm_interface(Tensor v, Tensor g, int dim=0)", variants="torch")

export(__name__, globals())
