"""Linear algebra (matmul as ATen decomposes it, mm/mv/dot/bmm, linear, diag): functions and rows."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import autocast, dtypes, errors, matmul_order, vmap_batched
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import LINEAR, OPS, apply, defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor


def _column_major(sizes: tuple, strides: tuple) -> bool:
    return strides[0] == 1 and strides[1] == sizes[0]


def _conj(t: Tensor) -> Tensor:
    """The conjugate of a complex tensor; a real one is its own."""
    return F.conj(t) if t.dtype.is_complex else t


def mm_mat1_backward(g, mat2, strides):
    """Gradient of mm's first input (torch's mm_mat1_backward, layout-aware)."""
    mat2 = _conj(mat2)
    if _column_major((g.shape[0], mat2.shape[0]), strides):
        return F.t(F.mm(mat2, F.t(g)))
    return F.mm(g, F.t(mat2))


def mm_mat2_backward(g, mat1, strides):
    mat1 = _conj(mat1)
    if _column_major((mat1.shape[1], g.shape[1]), strides):
        return F.t(F.mm(F.t(g), mat1))
    return F.mm(F.t(mat1), g)


def _diagonal(a, offset, dim1, dim2, sizes=None):
    """A view of the diagonal that can be written through, as torch's (NumPy's is read-only)."""
    view = np.diagonal(a, offset, dim1, dim2)
    view.flags.writeable = a.flags.writeable
    return view


def _diagonal_backward(g, sizes, offset, dim1, dim2):
    out = np.zeros(sizes, dtype=g.dtype)
    moved = np.moveaxis(out, (dim1, dim2), (-2, -1))
    count = g.shape[-1]
    rows = np.arange(count) + max(-offset, 0)
    cols = np.arange(count) + max(offset, 0)
    moved[..., rows, cols] = g
    return out


def _diagonal_grad(g, a, offset, dim1, dim2, sizes):
    return F.apply_op("diagonal_backward", g, sizes=sizes, offset=offset, dim1=dim1, dim2=dim2)


def _trace_backward(g, sizes):
    """zeros(n * m).index_fill_(0, arange(0, n * m, m + 1), grad).view(sizes)."""
    flat = Tensor(np.zeros(sizes[0] * sizes[1], dtype=g.dtype.np), g.dtype)
    index = Tensor(np.arange(0, flat.numel(), sizes[1] + 1), dtypes.int64)
    return F.view(F.apply_op("index_fill.int_Tensor", flat, index, g, dim=0), sizes)


def _index_fill(a, index, value, dim):
    out = a.copy()
    key = [slice(None)] * out.ndim
    key[dim] = index
    out[tuple(key)] = value
    return out


def _index_fill_value_grad(g, dim, index):
    return F.sum(F.index_select(g, dim, index))


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    exact = matmul_order.dot(a, b)
    return np.dot(a, b) if exact is None else exact


def _mv(a: np.ndarray, v: np.ndarray) -> np.ndarray:
    exact = matmul_order.mv(a, v)
    return np.matmul(a, v) if exact is None else exact


defop("dot", "DotBackward0", _dot, save=(0, 1), save_for=((1,), (0,)), complex=True,
      vjp=(lambda g, a, b: F.mul(g, _conj(b)), lambda g, a, b: F.mul(g, _conj(a))),
      jvp=(lambda t, a, b, out: F.dot(t, b), lambda t, a, b, out: F.dot(a, t)),
      rule=('grad * tensor', 'grad * self'))
defop("mv", "MvBackward0", _mv, save=(0, 1), save_for=((1,), (0,)), complex=True,
      vjp=(lambda g, a, v: F.outer(g, _conj(v)), lambda g, a, v: F.mv(F.t(_conj(a)), g)),
      jvp=(lambda t, a, v, out: F.mv(t, v), lambda t, a, v, out: F.mv(a, t)),
      rule=('outer(grad, vec)', 'self.t() @ grad'))


def _matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """np.matmul, except that a product over one term is that term itself, as torch's mm has it
    (BLAS adds it to +0, so a -0 product would print as 0.; torch's bmm does that too)."""
    if a.shape[-1] == 1:
        return a * b
    return np.matmul(np.ascontiguousarray(a), np.ascontiguousarray(b))


def _peel_offset(a: np.ndarray) -> int:
    """Where `a` starts past a 16-byte boundary, in elements: a slice of a tensor starts inside
    its storage (which NumPy, as torch, allocates aligned), and MKL's kernels peel to it."""
    return a.__array_interface__["data"][0] % 16 // a.itemsize


def _mm(a, b, self_strides, mat2_strides, bias=None, fold=None):
    """mm (addmm with a bias) in torch's summation order where it is known
    (gradcli/engine/matmul_order.py), else through np.matmul. `fold` (sample, batch size): `a`
    is one sample of a vmap, whose batch rule multiplies the rows of all samples at once."""
    if fold is not None:
        sample, size, right = fold
        if right:  # (b.mT @ a.T).mT, b's samples folded into rows
            return _mm(b.T, a.T, (b.shape[0], 1), self_strides[::-1],
                       fold=(sample, size, False)).T
        m, k = a.shape
        rows = np.zeros((size * m, k), a.dtype)
        rows[sample * m:(sample + 1) * m] = a
        return _mm(rows, b, (k, 1), mat2_strides)[sample * m:(sample + 1) * m]
    exact = matmul_order.mm(a, b, bias, self_strides, mat2_strides, offsets=(_peel_offset(a), 0))
    if exact is not None:
        return exact
    if a.dtype == np.float16:  # ATen's CPU gemm sums in float and adds the bias before rounding
        wide = _mm(a.astype(np.float32), b.astype(np.float32), self_strides, mat2_strides,
                   None if bias is None else np.asarray(bias, np.float32))
        return wide.astype(np.float16)
    return _matmul(a, b) if bias is None else _matmul(a, b) + bias


def _bmm(a: np.ndarray, b: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    """bmm (baddbmm with a bias, beta and alpha 1): torch's naive kernel for small matrices (the
    bias added to each sum), else one mm per batch entry (where their order is known, all at
    once where each takes blocked chains, which the bias starts; not for one column of several
    rows, which MKL's batched kernel does not hand to the matrix-vector kernel mm takes), else
    np.matmul."""
    full = None if bias is None else np.broadcast_to(bias, a.shape[:2] + b.shape[2:])
    exact = matmul_order.bmm(a, b, full)
    one_column = b.shape[2] == 1 < a.shape[1]
    if exact is None and a.shape[1] * a.shape[2] * b.shape[2] >= 400 and not one_column:
        exact = matmul_order.blocked_batch(a, b, full)
        if exact is None:
            entries = [matmul_order.mm(x, y, None if full is None else full[i])
                       for i, (x, y) in enumerate(zip(a, b))]
            if entries and all(e is not None for e in entries):
                exact = np.stack(entries)
    if exact is None:
        exact = np.matmul(a, b) if full is None else np.matmul(a, b) + full
    return exact


bmm_values = _bmm  # matrix_exp's products


defop("mm", "MmBackward0", _mm, save=(0, 1),
      save_for=((1,), (0,)), complex=True,
      vjp=(lambda g, a, b, self_strides, mat2_strides, **_: mm_mat1_backward(g, b, self_strides),
           lambda g, a, b, self_strides, mat2_strides, **_: mm_mat2_backward(g, a, mat2_strides)),
      jvp=(lambda t, a, b, out, **_: F.mm(t, b), lambda t, a, b, out, **_: F.mm(a, t)),
      rule=('grad @ mat2.t()', 'self.t() @ grad'))
def _addmm(bias, a, b, mat1_strides, mat2_strides, beta=1, alpha=1):
    if beta == 1 and alpha == 1:
        return _mm(a, b, mat1_strides, mat2_strides, bias)
    return F.scaled_sum(_mm(a, b, mat1_strides, mat2_strides), bias, beta, alpha)


defop("addmm", "AddmmBackward0", _addmm, save=(1, 2), save_for=((), (2,), (1,)),
      vjp=(lambda g, bias, a, b, beta=1, **_: F.maybe_multiply(g, beta),
           lambda g, bias, a, b, mat1_strides, mat2_strides, beta=1, alpha=1: F.maybe_multiply(
               mm_mat1_backward(g, b, mat1_strides), alpha),
           lambda g, bias, a, b, mat1_strides, mat2_strides, beta=1, alpha=1: F.maybe_multiply(
               mm_mat2_backward(g, a, mat2_strides), alpha)),
      jvp=(lambda t, bias, a, b, out, beta=1, **_: F.maybe_multiply(t, beta),
           lambda t, bias, a, b, out, alpha=1, **_: F.maybe_multiply(F.mm(t, b), alpha),
           lambda t, bias, a, b, out, alpha=1, **_: F.maybe_multiply(F.mm(a, t), alpha)))
defop("bmm", "BmmBackward0", _bmm, save=(0, 1), save_for=((1,), (0,)), complex=True,
      vjp=(lambda g, a, b: F.bmm(g, F.transpose(_conj(b), 1, 2)),
           lambda g, a, b: F.bmm(F.transpose(_conj(a), 1, 2), g)),
      jvp=(lambda t, a, b, out: F.bmm(t, b), lambda t, a, b, out: F.bmm(a, t)))
defop("trace", "TraceBackward0", lambda a, sizes: np.trace(a), promote="none",
      out_dtype=lambda dtype, params: dtype if dtype.is_floating_point else dtypes.int64,
      vjp=lambda g, a, sizes: _trace_backward(g, sizes),
      refuses=("trace", (dtypes.BOOL,)), jvp=LINEAR)
defop("index_fill.int_Tensor", "IndexFillBackward1", _index_fill, promote="none", save=(1,),
      vjp=(lambda g, a, index, value, dim: F.apply_op(
               "index_fill.int_Tensor", g, index, F.scalar_tensor(0, g.dtype), dim=dim),
           None, lambda g, a, index, value, dim: _index_fill_value_grad(g, dim, index)), jvp=LINEAR)
defop("diagonal", "DiagonalBackward0", _diagonal, promote="none", view=True,
      vjp=_diagonal_grad, jvp=LINEAR)
defop("diagonal_copy", "DiagonalBackward0_copy", lambda a, **k: _diagonal(a, **k).copy(),
      promote="none", vjp=_diagonal_grad, jvp=LINEAR, complex=True)
defop("diagonal_backward", "DiagonalBackwardBackward0", _diagonal_backward, promote="none",
      vjp=lambda g, a, sizes, offset, dim1, dim2: F.diagonal(g, offset, dim1, dim2), jvp=LINEAR)
defop("diag_embed", "DiagEmbedBackward0", lambda a, offset: np.diag(a, offset), promote="none",
      vjp=lambda g, a, offset: F.diagonal(g, offset, 0, 1), jvp=LINEAR, complex=True)


__all__ = ["matmul", "mm", "mv", "dot", "bmm", "outer", "addmm", "linear", "trace", "diag",
           "diagonal", "movedim"]


def element_strides(t: Tensor) -> tuple:
    return tuple(s // t.data.itemsize for s in t.data.strides)


def dot(a: Tensor, b: Tensor) -> Tensor:
    check_dot(a, b)
    return apply(OPS["dot"], a, b)


def check_dot(a: Tensor, b: Tensor) -> None:
    """dot's and vdot's checks: two 1-D tensors of one dtype and one size."""
    if a.ndim != 1 or b.ndim != 1:
        raise errors.runtime(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.dtype is not b.dtype:
        raise errors.runtime(f"dot : expected both vectors to have same dtype, but found "
                             f"{a.dtype.scalar_name} and {b.dtype.scalar_name}")
    if a.shape != b.shape:
        raise errors.runtime(
            f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] to "
            f"have the same number of elements, but got {a.shape[0]} and {b.shape[0]} elements "
            "respectively")


def mv(a: Tensor, v: Tensor) -> Tensor:
    if a.ndim == 0:  # torch reads the matrix's first size before checking ranks
        raise errors.index_error("Dimension specified as 0 but tensor has no dimensions")
    if a.ndim != 2 or v.ndim != 1:
        raise errors.runtime(
            f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}")
    if a.shape[1] != v.shape[0]:
        raise errors.runtime(f"size mismatch, got input ({a.shape[0]}), mat "
                             f"({a.shape[0]}x{a.shape[1]}), vec ({v.shape[0]})")
    if a.sparse is not None:
        return F.mv_sparse(a, v)
    if a.dtype is not v.dtype:
        raise errors.runtime(f"addmv input tensors must have the same dtype, but got "
                             f"{v.dtype.scalar_name}, {a.dtype.scalar_name}, and "
                             f"{v.dtype.scalar_name}")
    return apply(OPS["mv"], a, v)


def _check_mm(a: Tensor, b: Tensor) -> None:
    if a.ndim != 2:
        raise errors.runtime("self must be a matrix")
    if b.ndim != 2:
        raise errors.runtime("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise errors.runtime(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x"
                             f"{a.shape[1]} and {b.shape[0]}x{b.shape[1]})")
    if a.dtype is not b.dtype:
        raise errors.runtime(f"expected m1 and m2 to have the same dtype, but got: "
                             f"{a.dtype.cpp_name} != "
                             f"{b.dtype.cpp_name}")


def mm(a: Tensor, b: Tensor, out_dtype=None) -> Tensor:
    if a.sparse is not None:
        return F.mm_sparse(a, b)
    a, b = autocast.cast_lower(a, b)
    errors.check_out_dtype("mm", out_dtype)
    _check_mm(a, b)
    fold = _row_fold(a, b)
    return apply(OPS["mm"], a, b, self_strides=element_strides(a), mat2_strides=element_strides(b),
                 **({} if fold is None else {"fold": fold}))


def _row_fold(a: Tensor, b: Tensor):
    """(sample, batch size, whether `b` is the batched one) when a lone vmap batches one of the
    two: functorch's mm batch rule calls matmul, which folds the batch into the rows of one
    mm (of b.mT's rows when b is batched, which it does only when `a` requires grad)."""
    sample = STATE.vmap_sample
    if sample is None or a.dtype not in (dtypes.float32, dtypes.float64):
        return None
    left, right = vmap_batched.any_batched(a), vmap_batched.any_batched(b)
    if left and not right:
        return (*sample, False)
    if right and not left and a.requires_grad:
        return (*sample, True)
    return None


def addmm(bias: Tensor, a: Tensor, b: Tensor, *, beta=1, alpha=1) -> Tensor:
    bias, a, b = autocast.cast_lower(bias, a, b)
    for name, first in (("self", bias), ("mat1", a)):
        if first.dtype is not b.dtype:
            raise errors.runtime(f"{name} and mat2 must have the same dtype, but got "
                                 f"{first.dtype.scalar_name} and {b.dtype.scalar_name}")
    for name, matrix in (("mat1", a), ("mat2", b)):
        if matrix.ndim != 2:
            raise errors.runtime(f"{name} must be a matrix, got {matrix.ndim}-D tensor")
    _check_mm(a, b)
    check_expandable(bias, (a.shape[0], b.shape[1]))
    if vmap_batched.any_batched(bias, a, b):  # functorch's addmm_decomp: no fused kernel
        return F.add(F.mul(bias, beta), mm(a, b), alpha=alpha)
    return apply(OPS["addmm"], bias, a, b, mat1_strides=element_strides(a),
                 mat2_strides=element_strides(b), **coefficients(beta, alpha))


def coefficients(beta, alpha) -> dict:
    """The beta and alpha of addmm and its kin, as row params (left out when 1)."""
    return {k: v for k, v in (("beta", beta), ("alpha", alpha)) if v != 1}


def check_expandable(bias: Tensor, shape: tuple) -> None:
    """torch expands addmm's `self` to the product's shape first, failing with expand's
    message."""
    with F.no_grad():
        F.expand(bias, shape)


def bmm(a: Tensor, b: Tensor, out_dtype=None) -> Tensor:
    a, b = autocast.cast_lower(a, b)
    errors.check_out_dtype("bmm", out_dtype)
    check_batches(a, b)
    if a.dtype is not b.dtype:
        raise errors.scalar_type_mismatch(a.dtype, b.dtype)
    return apply(OPS["bmm"], a, b)


def check_batches(a: Tensor, b: Tensor) -> None:
    """bmm's, baddbmm's and addbmm's checks of the two batches of matrices."""
    if a.ndim != 3:
        raise errors.runtime("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise errors.runtime("batch2 must be a 3D tensor")
    if b.shape[:2] != (a.shape[0], a.shape[2]):
        raise errors.runtime(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")


def outer(a: Tensor, b: Tensor) -> Tensor:
    for name, t in (("self", a), ("vec2", b)):  # torch's own names for the two
        if t.ndim != 1:
            raise errors.runtime(f"outer: Expected 1-D argument {name}, but got {t.ndim}-D")
    return F.mul(F.reshape(a, (a.shape[0], 1)), b)


def _squeeze_(t: Tensor, dim: int) -> Tensor:
    """ATen's matmul squeezes its fresh result in place (SqueezeBackward4)."""
    return apply(OPS["squeeze_.dim"], t, dim=dim, sizes=t.shape)


def unsafe_view(t: Tensor, shape) -> Tensor:
    return F.apply_op("_unsafe_view", t, shape=tuple(shape), sizes=t.shape)


def matmul(a: Tensor, b: Tensor) -> Tensor:
    """torch.matmul, decomposed into dot, mv, mm or bmm exactly as ATen's _matmul_impl does."""
    a, b = autocast.cast_lower(a, b)
    if a.ndim == 0 or b.ndim == 0:
        raise errors.runtime(f"both arguments to matmul need to be at least 1D, but they are "
                             f"{a.ndim}D and {b.ndim}D")
    if a.ndim == 1 and b.ndim == 1:
        return dot(a, b)
    if a.ndim == 2 and b.ndim == 1:
        return mv(a, b)
    if a.ndim == 1 and b.ndim == 2:
        return _squeeze_(mm(F.unsqueeze(a, 0), b), 0)
    if a.ndim == 2 and b.ndim == 2:
        return mm(a, b)
    if _should_fold(a, b):
        return _folded_matmul(a, b)
    return _batched_matmul(a, b)


def _should_fold(a: Tensor, b: Tensor) -> bool:
    a_larger = a.ndim >= b.ndim
    t1 = a if a_larger else F.matrix_transpose(b)
    other = b if a_larger else a
    if not (t1.ndim >= 3 and other.ndim <= 2):
        return False
    if other.requires_grad:
        return True
    if a.ndim == 2:
        return False
    if t1.numel() == 0:
        return True
    shape, strides = t1.shape, element_strides(t1)
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(t1.ndim - 2))


def _folded_matmul(a: Tensor, b: Tensor) -> Tensor:
    transpose = b.ndim > a.ndim
    t1 = F.matrix_transpose(b) if transpose else a
    t2 = (F.t(a) if a.ndim == 2 else a) if transpose else b
    output_shape = t1.shape[:-1]
    folded = F.reshape(t1, (math.prod(output_shape), t1.shape[-1]))
    if t2.ndim == 2:
        output = unsafe_view(mm(folded, t2), output_shape + (t2.shape[1],))
        return F.contiguous(F.matrix_transpose(output)) if transpose else output
    return unsafe_view(mv(folded, t2), output_shape)


def _batched_matmul(a: Tensor, b: Tensor) -> Tensor:
    n = a.shape[-2] if a.ndim > 1 else 1
    m1 = a.shape[-1]
    m2 = b.shape[-2] if b.ndim > 1 else b.shape[0]
    p = b.shape[-1] if b.ndim > 1 else 1
    batch = F.broadcast_shape(a.shape[:max(a.ndim - 2, 0)], b.shape[:max(b.ndim - 2, 0)])
    count = math.prod(batch)
    left = F.reshape(F.expand(a, batch + (n, m1)), (count, n, m1))
    vector_rhs = b.ndim == 1
    right = F.expand(b, batch + ((m2,) if vector_rhs else (m2, p)))
    if vector_rhs:
        right = F.unsqueeze(F.reshape(right, (count, m2)), 2)
    else:
        right = F.reshape(right, (count, m2, p))
    output_shape = batch + ((n,) if a.ndim > 1 else ()) + ((p,) if b.ndim > 1 else ())
    product = bmm(left, right)
    if vector_rhs:
        product = F.squeeze(product, -1)
    return unsafe_view(product, output_shape)


def linear(x: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """torch.nn.functional.linear: addmm for 2-D input with a bias, flattened addmm for other
    contiguous inputs with a 1-D bias, else matmul then an in-place add of the bias."""
    x, weight, bias = autocast.cast_lower(x, weight, bias)
    if x.ndim == 0 or weight.ndim == 0:
        raise errors.runtime(f"both arguments to linear need to be at least 1D, but they are "
                             f"{x.ndim}D and {weight.ndim}D")
    if bias is not None and x.ndim == 2:
        return addmm(bias, x, F.t(weight))
    if bias is not None and F.is_contiguous(x) and bias.ndim == 1:
        rows = math.prod(x.shape[:-1])
        result = addmm(bias, F.reshape(x, (rows, x.shape[-1])), F.t(weight))
        return F.view(result, x.shape[:-1] + (result.shape[1],))
    output = matmul(x, F.t(weight))
    return output if bias is None else F.add(output, bias)


def linalg_diagonal(a: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    return diagonal(a, offset, dim1, dim2)


def trace(a: Tensor) -> Tensor:
    if a.ndim != 2:
        raise errors.runtime(f"trace: expected a matrix, but got tensor with dim {a.ndim}")
    return apply(OPS["trace"], a, sizes=a.shape)


def diagonal(a: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    d1, d2 = F.wrap_dim(dim1, a.ndim), F.wrap_dim(dim2, a.ndim)
    if d1 == d2:
        raise errors.runtime(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return apply(OPS["diagonal"], a, offset=offset, dim1=d1, dim2=d2, sizes=a.shape)


def diag(a: Tensor, diagonal: int = 0) -> Tensor:
    if a.ndim == 1:
        return apply(OPS["diag_embed"], a, offset=diagonal)
    if a.ndim == 2:
        return apply(OPS["diagonal_copy"], a, offset=diagonal, dim1=0, dim2=1, sizes=a.shape)
    raise errors.runtime(f"diag(): Supports 1D or 2D tensors. Got {a.ndim}D")


def movedim(a: Tensor, source, destination) -> Tensor:
    """ATen's movedim: source dims go to the destination places, the others keep their order."""
    source = [source] if isinstance(source, int) else list(source)
    destination = [destination] if isinstance(destination, int) else list(destination)
    if len(source) != len(destination):
        raise errors.runtime(f"movedim: Invalid source or destination dims: source "
                             f"({F.size_list(source)} dims) should contain the same number of "
                             f"dims as destination ({F.size_list(destination)} dims)")
    src = [F.wrap_dim(d, a.ndim) for d in source]
    dst = [F.wrap_dim(d, a.ndim) for d in destination]
    for given, wrapped, what in ((source, src, "source"), (destination, dst, "destination")):
        if len(set(wrapped)) != len(wrapped):
            raise errors.runtime(f"movedim: repeated dim in `{what}` ({F.size_list(given)})")
    if a.ndim == 0:
        return F.alias(a)
    rest = iter(d for d in range(a.ndim) if d not in src)
    placed = dict(zip(dst, src))
    return F.permute(a, tuple(placed[d] if d in placed else next(rest) for d in range(a.ndim)))


# ---- declarations: the public names of this area ------------------------------------------------

declare("matmul", matmul, "matmul(Tensor self, Tensor other, *, Tensor? out=None)",
        method=("matmul(Tensor self, Tensor other)",))
declare("mm", mm, "mm(Tensor self, Tensor mat2, *, Tensor? out=None)",
        "mm(Tensor self, Tensor mat2, ScalarType out_dtype, *, Tensor? out=None)",
        method=("mm(Tensor self, Tensor mat2)",))
declare("mv", mv, "mv(Tensor self, Tensor vec, *, Tensor? out=None)",
        method=("mv(Tensor self, Tensor vec)",))
declare("dot", dot, "dot(Tensor self, Tensor tensor, *, Tensor? out=None)",
        method=("dot(Tensor self, Tensor tensor)",))
declare("bmm", bmm, "bmm(Tensor self, Tensor mat2, *, Tensor? out=None)",
        "bmm(Tensor self, Tensor mat2, ScalarType out_dtype, *, Tensor? out=None)",
        method=("bmm(Tensor self, Tensor mat2)",))
declare("outer", outer, "outer(Tensor self, Tensor vec2, *, Tensor? out=None)",
        method=("outer(Tensor self, Tensor vec2)",), aliases=("ger",))
declare("trace", trace, "trace(Tensor self, *, Tensor? out=None)", method=("trace(Tensor self)",))
declare("diag", diag, "diag(Tensor self, int diagonal=0, *, Tensor? out=None)",
        method=("diag(Tensor self, int diagonal=0)",))
declare("diagonal", diagonal, "diagonal(Tensor self, int offset=0, int dim1=0, int dim2=1)",
        method=("diagonal(Tensor self, int offset=0, int dim1=0, int dim2=1)",))
declare("diagonal", linalg_diagonal,
        "diagonal(Tensor A, *, int offset=0, int dim1=-2, int dim2=-1)", variants="linalg")
declare("movedim", movedim, "movedim(Tensor self, int source, int destination)",
        "movedim(Tensor self, int[] source, int[] destination)",
        method=("movedim(Tensor self, int source, int destination)",
        "movedim(Tensor self, int[] source, int[] destination)"), aliases=("moveaxis",))


# ---- functions removed since 1.9: torch keeps them to say what replaces them ----------------------

_REMOVED = "This function was deprecated since version 1.9 and is now removed."
_REMOVED_TEXTS = {
    "matrix_rank": (
        "\nPlease use the `torch.linalg.matrix_rank` function instead. The parameter 'symmetric' "
        "was renamed in `torch.linalg.matrix_rank()` to 'hermitian'."),
    "solve": (
        " `torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` has "
        "its arguments reversed and does not return the LU factorization.\n\nTo get the LU "
        "factorization see `torch.lu`, which can be used with `torch.lu_solve` or "
        "`torch.lu_unpack`.\nX = torch.solve(B, A).solution should be replaced with:\n"
        "X = torch.linalg.solve(A, B)"),
    "lstsq": (
        " `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` has "
        "reversed arguments and does not return the QR decomposition in the returned tuple "
        "(although it returns other information about the problem).\n\nTo get the QR "
        "decomposition consider using `torch.linalg.qr`.\n\nThe returned solution in "
        "`torch.lstsq` stored the residuals of the solution in the last m - n columns of the "
        "returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the field "
        "'residuals' of the returned named tuple.\n\nThe unpacking of the solution, as in\n"
        "X, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced with:\n"
        "X = torch.linalg.lstsq(A, B).solution"),
    "symeig": (
        " The default behavior has changed from using the upper triangular portion of the matrix "
        "by default to using the lower triangular portion.\n\nL, _ = torch.symeig(A, "
        "upper=upper) should be replaced with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if upper "
        "else 'L')\n\nand\n\nL, V = torch.symeig(A, eigenvectors=True) should be replaced "
        "with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')"),
    "eig": (
        " `torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than "
        "real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be replaced "
        "with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, "
        "eigenvectors=True) should be replaced with:\nL_complex, V_complex = "
        "torch.linalg.eig(A)"),
}
# (torch's Python signature, Tensor's method signature or None, the Python function's name)
_REMOVED_SIGNATURES = {  # torch checks no argument's type: every one is `object`
    "matrix_rank": ("input: object, tol: object = None, symmetric: object = False, *, "
                    "out: object = None", None, ""),
    "solve": ("input: object, A: object, *, out: object = None", "self, other: object", ""),
    "lstsq": ("input: object, A: object, *, out: object = None", "self, other: object", ""),
    "symeig": ("input: object, eigenvectors: object = False, upper: object = True, *, "
               "out: object = None", "self, eigenvectors: object = False", "_symeig"),
    "eig": ("self: object, eigenvectors: object = False, *, e: object = None, v: object = None",
            "self, eigenvectors: object = False", ""),
}


def _removed(name: str):
    def raise_removed(*args, **kwargs):
        raise errors.runtime(_REMOVED + _REMOVED_TEXTS[name])
    raise_removed.__name__ = name
    return raise_removed


for _name, (_function, _method, _title) in _REMOVED_SIGNATURES.items():
    declare(_name, _removed(_name), python=_function, variants="torch", title=_title)
    if _method is not None:
        declare(_name, _removed(_name), python=_method, variants="method")


export(__name__, globals())
