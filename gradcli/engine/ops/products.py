"""Products: addmm/addmv/addr/baddbmm/addbmm with beta and alpha, vdot, kron, tensordot, inner,
multi_dot, cross, dist and cdist: functions, rows and declarations."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import (autocast, dtypes, errors, grad_api, matmul_order, schemas,
                            vmap_batched)
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine import distance_kernels
from gradcli.engine.ops.registry import OPS, RESULT, apply, defop, no_derivative
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor, require_tensors
from gradcli.engine.triggered import triggered


def scaled_sum(product, bias, beta, alpha):
    """beta * bias + alpha * product, as BLAS does it (a zero beta ignores the bias, NaNs too)."""
    if alpha != 1:
        product = product * product.dtype.type(alpha)
    if beta == 0:
        return np.broadcast_to(np.zeros((), product.dtype), product.shape) + product
    if beta != 1:
        bias = bias * product.dtype.type(beta)
    return product + bias


def _times(g, s):
    return F.maybe_multiply(g, s)


def _addmv(bias, mat, vec, beta=1, alpha=1):
    """beta * bias + alpha * mat @ vec; with alpha 1 in the order of MKL's gemv where it is
    known (matmul_order), the scaled bias where its kernel puts it (beta 1, or any nonzero beta
    for two or more rows: a one-row result with another beta sums otherwise)."""
    if alpha == 1 and (beta == 1 or beta != 0 and len(mat) > 1) and (
            mat.dtype == vec.dtype == bias.dtype):
        scaled = bias if beta == 1 else bias * bias.dtype.type(beta)
        exact = matmul_order.mm(mat, vec[:, None],
                                np.broadcast_to(scaled, (mat.shape[0],))[:, None])
        if exact is not None:
            return exact[:, 0]
    return scaled_sum(np.matmul(mat, vec), bias, beta, alpha)


defop("addmv", "AddmvBackward0", _addmv,
      save=(1, 2), save_for=((), (2,), (1,)),
      vjp=(lambda g, bias, mat, vec, beta=1, alpha=1: _times(g, beta),
           lambda g, bias, mat, vec, beta=1, alpha=1: _times(F.outer(g, vec), alpha),
           lambda g, bias, mat, vec, beta=1, alpha=1: _times(F.mv(F.t(mat), g), alpha)))
defop("addr", "AddrBackward0",
      lambda bias, v1, v2, beta=1, alpha=1: scaled_sum(np.multiply.outer(v1, v2), bias, beta, alpha),
      save=(1, 2), save_for=((), (2,), (1,)),
      vjp=(lambda g, bias, v1, v2, beta=1, alpha=1: _times(g, beta),
           lambda g, bias, v1, v2, beta=1, alpha=1: _times(F.mv(g, v2), alpha),
           lambda g, bias, v1, v2, beta=1, alpha=1: _times(F.mv(F.t(g), v1), alpha)))
defop("baddbmm", "BaddbmmBackward0", lambda bias, b1, b2, beta=1, alpha=1: F.bmm_values(
          b1, b2, bias) if beta == 1 and alpha == 1 else scaled_sum(F.bmm_values(b1, b2), bias,
                                                                      beta, alpha),
      save=(1, 2), save_for=((), (2,), (1,)),
      vjp=(lambda g, bias, b1, b2, beta=1, alpha=1: _times(g, beta),
           lambda g, bias, b1, b2, beta=1, alpha=1: _times(F.bmm(g, F.transpose(b2, 1, 2)),
                                                           alpha),
           lambda g, bias, b1, b2, beta=1, alpha=1: _times(F.bmm(F.transpose(b1, 1, 2), g),
                                                           alpha)))


def _addbmm_expanded(g, b1, b2):
    return F.expand(F.unsqueeze(g, 0), (b1.shape[0], b1.shape[1], b2.shape[2]))


defop("addbmm", "AddbmmBackward0",
      lambda bias, b1, b2, beta=1, alpha=1: scaled_sum(np.matmul(b1, b2).sum(0), bias, beta, alpha),
      save=(1, 2),
      vjp=(lambda g, bias, b1, b2, beta=1, alpha=1: _times(g, beta),
           lambda g, bias, b1, b2, beta=1, alpha=1: _times(
               F.bmm(_addbmm_expanded(g, b1, b2), F.transpose(b2, 1, 2)), alpha),
           lambda g, bias, b1, b2, beta=1, alpha=1: _times(
               F.bmm(F.transpose(b1, 1, 2), _addbmm_expanded(g, b1, b2)), alpha)))
def _conj(t: Tensor) -> Tensor:
    return F.conj(t) if t.dtype.is_complex else t


def _vdot(a: np.ndarray, b: np.ndarray):
    """vdot: conjugating for complex; a real vdot is torch's dot, in its order where known."""
    if np.iscomplexobj(a):
        return np.vdot(a, b)
    exact = matmul_order.dot(a, b)
    return np.dot(a, b) if exact is None else exact


defop("vdot", "VdotBackward0", _vdot,
      save=(0, 1), save_for=((1,), (0,)), complex=True,
      vjp=(lambda g, a, b: F.mul(_conj(g), b), lambda g, a, b: F.mul(g, a)))
defop("linalg_cross", "LinalgCrossBackward0", lambda a, b, dim: np.cross(a, b, axis=dim),
      save=(0, 1), save_for=((1,), (0,)),
      vjp=(lambda g, a, b, dim: linalg_cross(b, g, dim=dim),
           lambda g, a, b, dim: linalg_cross(g, a, dim=dim)))


def _dist(a, b, p):
    return F.vector_norm_values(a - b, p, None, False)


def _dist_grad(g, a, b, p, out):
    return F.norm_backward(g, F.sub(a, b), p, None, False, out)


defop("dist", "DistBackward0", _dist, save=(0, 1, RESULT), complex=True,
      out_dtype=lambda dtype, params: dtypes.real_of(dtype),
      vjp=(_dist_grad, lambda g, a, b, p, out: F.neg(_dist_grad(g, a, b, p, out))))


def _euclidean_dist(x1, x2):
    """ATen's _euclidean_dist: [-2 x1, |x1|^2, 1] @ [x2, 1, |x2|^2].mT, clamped at 0, its root."""
    a, b = Tensor(x1), Tensor(x2)
    a_norm, b_norm = F.sum(F.pow(a, 2), -1, True), F.sum(F.pow(b, 2), -1, True)
    a_ = F.cat([F.mul_scalar(a, -2), a_norm, F.ones_like(a_norm)], -1)
    b_ = F.cat([b, F.ones_like(b_norm), b_norm], -1)
    return F.sqrt(F.clamp_min(F.matmul(a_, F.matrix_transpose(b_)), 0)).data


def _euclidean_ratio(g, out):
    return F.masked_fill(F.div(g, out), F.compare("eq", out, 0), 0)


defop("_euclidean_dist", "EuclideanDistBackward0", _euclidean_dist, save=(0, 1, RESULT),
      vjp=(lambda g, x1, x2, out: F.sub(F.mul(x1, F.sum(_euclidean_ratio(g, out), -1, True)),
                                        F.matmul(_euclidean_ratio(g, out), x2)),
           lambda g, x1, x2, out: F.sub(
               F.mul(x2, F.unsqueeze(F.sum(_euclidean_ratio(g, out), -2), -1)),
               F.matmul(F.matrix_transpose(_euclidean_ratio(g, out)), x1))))
defop("_cdist_backward", "CdistBackwardBackward0", distance_kernels.cdist_backward,
      vjp=(no_derivative("_cdist_backward"),) * 4)
defop("_cdist_forward", "CdistBackward0", distance_kernels.cdist, save=(0, 1, RESULT),
      vjp=(lambda g, x1, x2, p, out: F.apply_op("_cdist_backward", F.contiguous(g), x1, x2, out,
                                                p=p),
           lambda g, x1, x2, p, out: F.apply_op(
               "_cdist_backward", F.contiguous(F.matrix_transpose(g)), x2, x1,
               F.contiguous(F.matrix_transpose(out)), p=p)))


__all__ = ["addmv", "addr", "baddbmm", "addbmm", "vdot", "kron", "tensordot", "inner",
           "multi_dot", "chain_matmul", "cross", "linalg_cross", "dist", "cdist"]


def addmm_scaled(bias: Tensor, a: Tensor, b: Tensor, out_dtype=None, *, beta=1,
                 alpha=1) -> Tensor:
    errors.check_out_dtype("addmm", out_dtype)
    return F.addmm(bias, a, b, beta=beta, alpha=alpha)


def addmv(bias: Tensor, mat: Tensor, vec: Tensor, *, beta=1, alpha=1) -> Tensor:
    if mat.ndim != 2 or vec.ndim != 1 or bias.ndim > 1:
        raise errors.runtime(f"vector + matrix @ vector expected, got {bias.ndim}, {mat.ndim}, "
                             f"{vec.ndim}")
    if (mat.shape[1] != vec.shape[0] or bias.ndim and bias.shape[0] not in (1, mat.shape[0])):
        raise errors.runtime(f"size mismatch, got input ({bias.shape[0] if bias.ndim else 1}), "
                             f"mat ({mat.shape[0]}x{mat.shape[1]}), vec ({vec.shape[0]})")
    if not bias.dtype is mat.dtype is vec.dtype:
        raise errors.runtime(f"addmv input tensors must have the same dtype, but got "
                             f"{bias.dtype.scalar_name}, {mat.dtype.scalar_name}, and "
                             f"{vec.dtype.scalar_name}")
    if vmap_batched.any_batched(bias, mat, vec):  # functorch's addmv_decomp
        return _decomposed(bias, F.mv(mat, vec), beta, alpha)
    return apply(OPS["addmv"], bias, mat, vec, **F.coefficients(beta, alpha))


def _decomposed(bias: Tensor, product: Tensor, beta, alpha) -> Tensor:
    """functorch's decomposition of a fused add-product under vmap: the product scaled by
    alpha, then beta * bias added (left out when beta is 0)."""
    out = product if alpha == 1 else F.mul(product, alpha)
    return out if beta == 0 else F.add(F.mul(bias, beta), out)


def addr(bias: Tensor, vec1: Tensor, vec2: Tensor, *, beta=1, alpha=1) -> Tensor:
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v.ndim != 1:
            raise errors.runtime(f"addr: Expected 1-D argument {name}, but got {v.ndim}-D")
    F.check_expandable(bias, (vec1.shape[0], vec2.shape[0]))
    return apply(OPS["addr"], bias, vec1, vec2, **F.coefficients(beta, alpha))


def baddbmm(bias: Tensor, b1: Tensor, b2: Tensor, out_dtype=None, *, beta=1, alpha=1) -> Tensor:
    bias, b1, b2 = autocast.cast_lower(bias, b1, b2)
    errors.check_out_dtype("baddbmm", out_dtype)
    # torch's meta function reads batch1.size(0), batch1.size(1), batch2.size(2) first
    F.check_expandable(bias, tuple(F.size_at(t, d) for t, d in ((b1, 0), (b1, 1), (b2, 2))))
    F.check_batches(b1, b2)
    for t in (b2, bias):  # the kernel reads every operand as batch1's scalar type
        if t.dtype is not b1.dtype:
            raise errors.scalar_type_mismatch(b1.dtype, t.dtype)
    if vmap_batched.any_batched(bias, b1, b2):  # functorch's baddbmm_decomp
        return _decomposed(bias, F.bmm(b1, b2), beta, alpha)
    return apply(OPS["baddbmm"], bias, b1, b2, **F.coefficients(beta, alpha))


def addbmm(bias: Tensor, b1: Tensor, b2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """ATen's addbmm_out: the bias expanded to (b1.size(1), b2.size(2)), then addbmm_impl_'s
    checks."""
    bias, b1, b2 = autocast.cast_lower(bias, b1, b2)
    F.check_expandable(bias, (F.size_at(b1, 1), F.size_at(b2, 2)))
    for name, batch in (("batch1", b1), ("batch2", b2)):
        if batch.ndim != 3:
            raise errors.runtime(f"{name} must be a 3D tensor")
    if b1.shape[0] != b2.shape[0]:
        raise errors.runtime(f"batch1 and batch2 must have same number of batches, got "
                             f"{b1.shape[0]} and {b2.shape[0]}")
    if b1.shape[2] != b2.shape[1]:
        raise errors.runtime(f"Incompatible matrix sizes for bmm ({b1.shape[1]}x{b1.shape[2]} "
                             f"and {b2.shape[1]}x{b2.shape[2]})")
    return apply(OPS["addbmm"], bias, b1, b2, **F.coefficients(beta, alpha))


def vdot(a: Tensor, b: Tensor) -> Tensor:
    F.check_dot(a, b)
    return apply(OPS["vdot"], a, b)


def linalg_vecdot(x: Tensor, y: Tensor, dim: int = -1) -> Tensor:
    """ATen's linalg_vecdot: vdot for two vectors (dim unread), else (x * y).sum(dim)."""
    if not x.dtype.is_floating_point:
        raise errors.runtime("linalg.vecdot: Expected a floating point or complex tensor as "
                             f"input. Got {x.dtype.scalar_name}")
    if x.dtype != y.dtype:
        raise errors.runtime("linalg.vecdot: Expected x and y to have the same dtype, but found "
                             f"x of type {x.dtype.scalar_name} and y of type "
                             f"{y.dtype.scalar_name} instead")
    if x.ndim == 1 and y.ndim == 1:
        return vdot(x, y)
    return F.sum(F.mul(x, y), dim)


def kron(a: Tensor, b: Tensor) -> Tensor:
    """ATen's KronImpl: interleaved _unsafe_views of both, a broadcast product, one more view."""
    ndim = max(a.ndim, b.ndim)
    pad_a, pad_b = ndim - a.ndim, ndim - b.ndim
    a_shape, b_shape, result = [], [], []
    for i in range(ndim):
        size_a = a.shape[i - pad_a] if i >= pad_a else 1
        size_b = b.shape[i - pad_b] if i >= pad_b else 1
        a_shape += [size_a, 1]
        b_shape += [1, size_b]
        result.append(size_a * size_b)
    product = F.mul(F.unsafe_view(a, tuple(a_shape)), F.unsafe_view(b, tuple(b_shape)))
    return F.unsafe_view(product, tuple(result))


def _ndim(value) -> int:
    """value.dim(), as torch's Python code asks it."""
    if not isinstance(value, Tensor):
        raise errors.no_attribute(value, "dim")
    return value.ndim


def _tensordot_dims(a, b, dims) -> tuple:
    """torch.tensordot's Python reading of `dims`: (dims of a, dims of b)."""
    if not isinstance(dims, (tuple, list, Tensor, int)):
        raise errors.runtime("tensordot expects dims to be int or tuple[list[int], list[int]] or "
                             f"list[list[int]] containing two lists, but got dims={dims}")
    if isinstance(dims, (tuple, list)):
        if len(dims) != 2:
            raise errors.value_error(
                f"not enough values to unpack (expected 2, got {len(dims)})" if len(dims) < 2
                else "too many values to unpack (expected 2)")
        return dims[0], dims[1]
    if isinstance(dims, Tensor):
        if dims.numel() > 1:
            if dims.shape[0] != 2:
                raise errors.TorchError("AssertionError", "dims tensor must have size 2 in first "
                                        f"dimension, got {dims.shape[0]}")
            return dims.data[0].tolist(), dims.data[1].tolist()
        count = int(grad_api.item(dims))
        if count < 0:  # the message formats the tensor: its one value
            raise errors.runtime(f"tensordot expects dims >= 0, but got dims={grad_api.item(dims)}")
        return list(range(-count, 0)), list(range(count))
    if dims < 0:
        raise errors.runtime(f"tensordot expects dims >= 0, but got dims={dims}")
    if dims > min(_ndim(a), _ndim(b)):
        raise errors.runtime(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
    return list(range(-dims, 0)), list(range(dims))


def tensordot(a, b, dims=2, out=None) -> Tensor:
    """torch.tensordot, Python in torch: `dims` read, then handed to the C++ tensordot."""
    dims_a, dims_b = _tensordot_dims(a, b, dims)
    bound = schemas.bind_cpp("tensordot(Tensor self, Tensor other, int[] dims_self, "
                             "int[] dims_other)", a, b, dims_a, dims_b)
    return contract(a, b, list(bound["dims_self"]), list(bound["dims_other"]))


def contract(a: Tensor, b: Tensor, dims_a, dims_b) -> Tensor:
    """ATen's tensordot: a contracted dim of size 1 on one side summed away on the other, the
    contracted dims permuted together, reshaped to matrices, mm (dot for one entry), reshaped."""
    if len(dims_a) != len(dims_b):
        raise errors.runtime("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise errors.runtime("both inputs should have same dtype")
    left, right, contracted = a, b, 1
    for da, db in zip(dims_a, dims_b):
        size_a, size_b = a.shape[F.wrap_dim(da, a.ndim)], b.shape[F.wrap_dim(db, b.ndim)]
        if size_b == 1:
            left = F.sum(left, da, keepdim=True)
        elif size_a == 1:
            right = F.sum(right, db, keepdim=True)
        elif size_a != size_b:
            raise errors.runtime(
                f"contracted dimensions need to match, but first has size {size_a} in dim "
                f"{da} and second has size {size_b} in dim {db}")
        else:
            contracted *= size_a
    dims_a, dims_b = _dim_set(dims_a, a.ndim), _dim_set(dims_b, b.ndim)
    keep_a = [d for d in range(a.ndim) if d not in dims_a]
    keep_b = [d for d in range(b.ndim) if d not in dims_b]
    shape = tuple(left.shape[d] for d in keep_a) + tuple(right.shape[d] for d in keep_b)
    left = F.reshape(F.permute(left, tuple(keep_a + dims_a)), (math.prod(shape[:len(keep_a)]),
                                                                contracted))
    right = F.reshape(F.permute(right, tuple(dims_b + keep_b)),
                      (contracted, math.prod(shape[len(keep_a):])))
    if left.shape[0] == right.shape[1] == 1:  # one entry: ATen takes dot (its summation order)
        return F.reshape(F.dot(F.reshape(left, (-1,)), F.reshape(right, (-1,))), shape)
    return F.reshape(F.mm(left, right), shape)


def _dim_set(dims, ndim: int) -> list:
    """ATen's dim_list_to_bitset: the dims wrapped, each at most once."""
    wrapped = []
    for d in dims:
        d = F.wrap_dim(d, ndim)
        if d in wrapped:
            raise errors.runtime(f"dim {d} appears multiple times in the list of dims")
        wrapped.append(d)
    return wrapped


def inner(a: Tensor, b: Tensor) -> Tensor:
    if a.ndim == 0 or b.ndim == 0:
        return F.mul(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise errors.runtime(
            f"inner() the last dimension must match on both input tensors but got shapes "
            f"{F.size_list(a.shape)} and {F.size_list(b.shape)}")
    return contract(a, b, [-1], [-1])


def multi_dot(tensors) -> Tensor:
    """linalg.multi_dot: vectors at the ends as matrices, the cheapest order, the result viewed
    back to its shape."""
    tensors = list(tensors)
    require_tensors(tensors)
    n = len(tensors)
    if n < 2:
        raise errors.runtime(f"multi_dot(): expected at least 2 tensors but got {n}")
    first, last = tensors[0].ndim, tensors[-1].ndim
    if first not in (1, 2):
        raise errors.runtime(f"multi_dot(): the first tensor must be 1D or 2D but got {first}D")
    if last not in (1, 2):
        raise errors.runtime(f"multi_dot(): the last tensor must be 1D or 2D but got {last}D")
    for i in range(1, n - 1):
        if tensors[i].ndim != 2:
            raise errors.runtime(f"multi_dot(): tensor {i} must be 2D but got "
                                 f"{tensors[i].ndim}D")
    if first == 1:
        tensors[0] = F.unsqueeze(tensors[0], 0)
    if last == 1:
        tensors[-1] = F.unsqueeze(tensors[-1], -1)
    dtype = tensors[0].dtype
    for i, t in enumerate(tensors[1:], 1):
        if t.dtype is not dtype:
            raise errors.runtime(
                f"multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                f"{tensors[0].dtype.scalar_name} and tensor {i} is {t.dtype.scalar_name}")
    for i in range(n - 1):
        if tensors[i].shape[1] != tensors[i + 1].shape[0]:
            raise errors.runtime(
                f"multi_dot(): tensors {i} and {i + 1} with shapes "
                f"{F.size_list(tensors[i].shape)} and {F.size_list(tensors[i + 1].shape)} "
                "cannot be multiplied")
    result = _chain(tensors)
    shape = ()
    if first == 2:
        shape += (result.shape[0],)
    if last == 2:
        shape += (result.shape[1],)
    return F.view(result, shape)


def _chain(tensors: list) -> Tensor:
    n = len(tensors)
    if n == 2:
        return F.mm(tensors[0], tensors[1])
    if n == 3:
        a, b, c = tensors
        cost_1 = a.shape[0] * c.shape[0] * (a.shape[1] + c.shape[1])
        cost_2 = a.shape[1] * c.shape[1] * (a.shape[0] + c.shape[0])
        if cost_1 > cost_2:
            return F.mm(a, F.mm(b, c))
        return F.mm(F.mm(a, b), c)
    order = _chain_order(tensors)

    def build(i, j):
        if i == j:
            return tensors[i]
        return F.mm(build(i, order[i][j]), build(order[i][j] + 1, j))
    return build(0, n - 1)


def _chain_order(tensors: list) -> list:
    """The matrix-chain order by dynamic programming (torch's multi_dot_matrix_chain_order)."""
    n = len(tensors)
    p = [t.shape[0] for t in tensors] + [tensors[-1].shape[1]]
    cost = [[0] * n for _ in range(n)]
    order = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] is None or q < cost[i][j]:
                    cost[i][j], order[i][j] = q, k
    return order


def chain_matmul(*matrices, out=None) -> Tensor:
    STATE.warn(
        "UserWarning",
        triggered("torch.chain_matmul is deprecated and will be removed in a future PyTorch "
                  "release. Use torch.linalg.multi_dot instead, which accepts a list of two or "
                  "more tensors rather than multiple parameters.",
                  "aten/src/ATen/native/LinearAlgebra.cpp", 1102), once=True)
    require_tensors(matrices)
    if not matrices:
        raise errors.runtime("chain_matmul(): Expected one or more matrices")
    for t in matrices:
        if t.ndim != 2:
            raise errors.runtime(f"Tensor dimension is {t.ndim}, expected 2 instead.")
    if len(matrices) == 1:
        return F.clone(matrices[0])
    return multi_dot(matrices)


def linalg_cross(a: Tensor, b: Tensor, *, dim: int = -1) -> Tensor:
    if a.ndim != b.ndim:
        raise errors.runtime("linalg.cross: inputs must have the same number of dimensions.")
    shape = F.broadcast_shape(a.shape, b.shape)
    d = F.wrap_dim(dim, len(shape))
    if a.shape[d] != 3 or b.shape[d] != 3:
        raise errors.runtime(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got {a.shape[d]} and "
            f"{b.shape[d]}")
    if a.dtype is dtypes.bool_:  # the kernel picks its code by self's dtype, then reads other
        raise errors.not_implemented_for("cross", a.dtype)
    if a.dtype is not b.dtype:
        raise errors.scalar_type_mismatch(a.dtype, b.dtype)
    return apply(OPS["linalg_cross"], a, b, dim=d)


def cross(a: Tensor, b: Tensor, dim=None) -> Tensor:
    if dim is None:
        STATE.warn(
            "UserWarning",
            triggered("Using torch.cross without specifying the dim arg is deprecated.\nPlease "
                      "either pass the dim explicitly or simply use torch.linalg.cross.\nThe "
                      "default value of dim will change to agree with that of linalg.cross in a "
                      "future release.", "aten/src/ATen/native/Cross.cpp", 63), once=True)
        if a.ndim == b.ndim:
            shape = F.broadcast_shape(a.shape, b.shape)
            dim = next((d for d, s in enumerate(shape) if s == 3), -1)
    return linalg_cross(a, b, dim=dim if dim is not None else -1)


def dist(a: Tensor, b: Tensor, p=2) -> Tensor:
    """torch.dist: the norm of a - b (the subtraction's checks first)."""
    F.check_bool_subtraction(a, b)
    F.broadcast_shape(a.shape, b.shape)
    if not (a.dtype.is_floating_point or a.dtype.is_complex):
        raise errors.runtime("norm(): input dtype should be either floating point or complex. "
                             f"Got {a.dtype.scalar_name} instead.")
    return apply(OPS["dist"], a, b, p=float(p))


_CDIST_MODES = {"use_mm_for_euclid_dist_if_necessary": None, "use_mm_for_euclid_dist": 1,
                "donot_use_mm_for_euclid_dist": 2}


defop("_pdist_backward", "PdistBackwardBackward0", distance_kernels.pdist_backward,
      vjp=(no_derivative("_pdist_backward"),) * 3)
defop("_pdist_forward", "PdistBackward0", distance_kernels.pdist, save=(0, RESULT),
      vjp=lambda g, a, p, out: F.apply_op("_pdist_backward", F.contiguous(g), a, out, p=p))


def pdist(a: Tensor, p: float = 2.0) -> Tensor:
    if a.ndim != 2:
        raise errors.runtime(f"pdist only supports 2D tensors, got: {a.ndim}D")
    if not a.dtype.is_floating_point:
        raise errors.runtime("pdist only supports floating-point dtypes")
    if p < 0:
        raise errors.runtime("pdist only supports non-negative p values")
    return apply(OPS["_pdist_forward"], F.contiguous(a), p=float(p))


def cdist(x1, x2, p: float = 2.0,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """torch.cdist, Python in torch: compute_mode read, then the C++ cdist's parser and checks."""
    if compute_mode not in _CDIST_MODES:
        raise errors.value_error(f"{compute_mode} is not a valid value for compute_mode")
    p = schemas.bind_cpp("cdist(Tensor x1, Tensor x2, float p=2, int? compute_mode=None)",
                         x1, x2, p, _CDIST_MODES[compute_mode])["p"]
    for name, t in (("X1", x1), ("X2", x2)):
        if t.ndim < 2:
            raise errors.runtime(f"cdist only supports at least 2D tensors, {name} got: "
                                 f"{t.ndim}D")
    for name, t in (("X1", x1), ("X2", x2)):
        if not t.dtype.is_floating_point:
            raise errors.runtime(f"cdist only supports floating-point dtypes, {name} got: "
                                 f"{t.dtype.scalar_name}")
    if x1.shape[-1] != x2.shape[-1]:
        raise errors.runtime(f"X1 and X2 must have the same number of columns. X1: "
                             f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    if p < 0:
        raise errors.runtime("cdist only supports non-negative p values")
    batch = F.broadcast_shape(x1.shape[:-2], x2.shape[:-2])
    r1, r2, mode = x1.shape[-2], x2.shape[-2], _CDIST_MODES[compute_mode] or 0
    if p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))) \
            and x1.numel() and x2.numel():
        return _euclidean_cdist(x1, x2, batch)
    x1 = F.expand(x1, batch + x1.shape[-2:]) if x1.shape[:-2] != batch else x1
    x2 = F.expand(x2, batch + x2.shape[-2:]) if x2.shape[:-2] != batch else x2
    return apply(OPS["_cdist_forward"], x1, x2, p=float(p))


def _euclidean_cdist(x1: Tensor, x2: Tensor, batch: tuple) -> Tensor:
    """cdist_impl's matrix-product path for p=2: over the inputs themselves when the batch
    holds one matrix, else over each expanded to the batch and flattened to three dims."""
    count = math.prod(batch)
    if count != 1:
        x1, x2 = (F.view(F.contiguous(F.expand(t, batch + t.shape[-2:])),
                         (count,) + t.shape[-2:]) for t in (x1, x2))
    dist = apply(OPS["_euclidean_dist"], x1, x2)
    return F.view(dist, batch + (x1.shape[-2], x2.shape[-2]))


def _scaled_product(name: str, impl, first: str, second: str, out_dtype: bool = False) -> None:
    """Declare `name`(self, first, second, *, beta=1, alpha=1): its out_dtype overload where
    torch has one, and torch's deprecated orders with beta (and alpha) in front."""
    plain = (f"{name}(Tensor self, Tensor {first}, Tensor {second}, *, Scalar beta=1, "
             "Scalar alpha=1, Tensor? out=None)")
    typed = (f"{name}(Tensor self, Tensor {first}, Tensor {second}, ScalarType out_dtype, *, "
             "Scalar beta=1, Scalar alpha=1, Tensor? out=None)")
    deprecated = (f"{name}(Scalar beta, Tensor self, Scalar alpha, Tensor {first}, "
                  f"Tensor {second}, *, Tensor? out=None)",
                  f"{name}(Scalar beta, Tensor self, Tensor {first}, Tensor {second}, *, "
                  "Tensor? out=None)")
    declare(name, impl, plain, *((typed,) if out_dtype else ()),
            method=(plain.replace(", Tensor? out=None", ""),), hidden=deprecated)


_scaled_product("addmm", addmm_scaled, "mat1", "mat2", out_dtype=True)
_scaled_product("addmv", addmv, "mat", "vec")
_scaled_product("addr", addr, "vec1", "vec2")
_scaled_product("baddbmm", baddbmm, "batch1", "batch2", out_dtype=True)
_scaled_product("addbmm", addbmm, "batch1", "batch2")
declare("vdot", vdot, "vdot(Tensor self, Tensor other, *, Tensor? out=None)")
declare("vecdot", linalg_vecdot, "vecdot(Tensor x, Tensor y, *, int dim=-1, Tensor? out=None)",
        variants="linalg")
declare("kron", kron, "kron(Tensor self, Tensor other, *, Tensor? out=None)")
declare("inner", inner, "inner(Tensor self, Tensor other, *, Tensor? out=None)")
declare("tensordot", tensordot, variants="torch", python="a: object, b: object, dims=2, out=None")
declare("multi_dot", multi_dot, "multi_dot(Tensor[] tensors, *, Tensor? out=None)",
        variants="linalg")
declare("chain_matmul", chain_matmul, variants="torch", python="*matrices, out=None")
declare("cross", cross, "cross(Tensor self, Tensor other, int? dim=None, *, Tensor? out=None)")
declare("cross", linalg_cross, "cross(Tensor self, Tensor other, *, int dim=-1, "
        "Tensor? out=None)", variants="linalg")
declare("dist", dist, "dist(Tensor self, Tensor other, Scalar p=2)")
declare("pdist", pdist, "pdist(Tensor input, float p=2)", variants="torch functional")
declare("cdist", cdist, variants="torch",
        python="x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary'")


export(__name__, globals())
