"""Linear-algebra rows: dot, mv, mm, addmm, bmm, trace, diagonals, and matmul's squeeze_."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, functional as F, linalg as L, pointwise as P
from gradcli.engine import reductions as R, selection, shapes as S
from gradcli.engine.ops.registry import defop
from gradcli.engine.tensor import Tensor


def _column_major(sizes: tuple, strides: tuple) -> bool:
    return strides[0] == 1 and strides[1] == sizes[0]


def mm_mat1_backward(g, mat2, strides):
    """Gradient of mm's first input (torch's mm_mat1_backward, layout-aware)."""
    if _column_major((g.shape[0], mat2.shape[0]), strides):
        return S.t(L.mm(mat2, S.t(g)))
    return L.mm(g, S.t(mat2))


def mm_mat2_backward(g, mat1, strides):
    if _column_major((mat1.shape[1], g.shape[1]), strides):
        return S.t(L.mm(S.t(g), mat1))
    return L.mm(S.t(mat1), g)


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
    return S.view(F.apply_op("index_fill.int_Tensor", flat, index, g, dim=0), sizes)


def _index_fill(a, index, value, dim):
    out = a.copy()
    key = [slice(None)] * out.ndim
    key[dim] = index
    out[tuple(key)] = value
    return out


def _index_fill_value_grad(g, dim, index):
    return R.sum(selection.index_select(g, dim, index))


defop("dot", "DotBackward0", np.dot, save=(0, 1), save_for=((1,), (0,)),
      vjp=(lambda g, a, b: P.mul(g, b), lambda g, a, b: P.mul(g, a)))
defop("mv", "MvBackward0", np.matmul, save=(0, 1), save_for=((1,), (0,)),
      vjp=(lambda g, a, v: L.outer(g, v), lambda g, a, v: L.mv(S.t(a), g)))


def _matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """np.matmul, except that a product over one term is that term itself, as torch's mm has it
    (BLAS adds it to +0, so a -0 product would print as 0.; torch's bmm does that too)."""
    if a.shape[-1] == 1:
        return a * b
    return np.matmul(a, b)


defop("mm", "MmBackward0", lambda a, b, self_strides, mat2_strides: _matmul(a, b), save=(0, 1),
      save_for=((1,), (0,)),
      vjp=(lambda g, a, b, self_strides, mat2_strides: mm_mat1_backward(g, b, self_strides),
           lambda g, a, b, self_strides, mat2_strides: mm_mat2_backward(g, a, mat2_strides)))
defop("addmm", "AddmmBackward0",
      lambda bias, a, b, mat1_strides, mat2_strides: _matmul(a, b) + bias,
      save=(1, 2), save_for=((), (2,), (1,)),
      vjp=(lambda g, bias, a, b, **_: g,
           lambda g, bias, a, b, mat1_strides, mat2_strides: mm_mat1_backward(g, b, mat1_strides),
           lambda g, bias, a, b, mat1_strides, mat2_strides: mm_mat2_backward(g, a, mat2_strides)))
defop("bmm", "BmmBackward0", np.matmul, save=(0, 1), save_for=((1,), (0,)),
      vjp=(lambda g, a, b: L.bmm(g, S.transpose(b, 1, 2)),
           lambda g, a, b: L.bmm(S.transpose(a, 1, 2), g)))
defop("squeeze_.dim", "SqueezeBackward4",
      lambda a, dim, sizes: np.squeeze(a, dim) if a.shape[dim] == 1 else a.view(),
      promote="none", view=True,
      vjp=lambda g, a, dim, sizes: S.unsqueeze(g, dim) if sizes[dim] == 1 else g)
defop("trace", "TraceBackward0", lambda a, sizes: np.trace(a), promote="none",
      out_dtype=lambda dtype, params: dtype if dtype.is_floating_point else dtypes.int64,
      vjp=lambda g, a, sizes: _trace_backward(g, sizes))
defop("index_fill.int_Tensor", "IndexFillBackward1", _index_fill, promote="none", save=(1,),
      vjp=(lambda g, a, index, value, dim: F.apply_op(
               "index_fill.int_Tensor", g, index, P.scalar_tensor(0, g.dtype), dim=dim),
           None, lambda g, a, index, value, dim: _index_fill_value_grad(g, dim, index)))
defop("diagonal", "DiagonalBackward0", _diagonal, promote="none", view=True,
      vjp=_diagonal_grad)
defop("diagonal_copy", "DiagonalBackward0_copy", lambda a, **k: _diagonal(a, **k).copy(),
      promote="none", vjp=_diagonal_grad)
defop("diagonal_backward", "DiagonalBackwardBackward0", _diagonal_backward, promote="none",
      vjp=lambda g, a, sizes, offset, dim1, dim2: L.diagonal(g, offset, dim1, dim2))
defop("diag_embed", "DiagEmbedBackward0", lambda a, offset: np.diag(a, offset), promote="none",
      vjp=lambda g, a, offset: L.diagonal(g, offset, 0, 1))
