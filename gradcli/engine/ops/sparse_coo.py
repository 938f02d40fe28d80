"""Sparse COO tensors' ops: construction, conversion to and from dense, coalescing, the
sparse-dense product, sums, addition, scaling and transposition, with torch's grad_fns.

A row's forward takes the tensors themselves (their entries are in `Tensor.sparse`), so these
rows run through `sparse_apply`, which records the node as `registry.apply` does.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import creation, dtypes, errors, kernels_order, libm_float, schemas, sparse
from gradcli.engine.autograd import Node
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import apply as registry_apply
from gradcli.engine.ops.registry import OpDef
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

INVARIANTS_WARNING = (
    "Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) will occur "
    "when operating on a sparse tensor which violates the invariants, but checks incur "
    "performance overhead. To silence this warning, explicitly opt in or out. See "
    "`torch.sparse.check_sparse_tensor_invariants.__doc__` for guidance.  (Triggered internally "
    "at /__w/pytorch/pytorch/aten/src/ATen/Context.cpp:816.)")


# This area's op rows, by key: kept apart from OPS, whose tests draw dense sample programs; the
# sparse_tensors case group checks these rows' forwards, grad_fns and gradients against torch.
SPARSE_ROWS: dict[str, OpDef] = {}


def _row(key: str, label: str, forward, **fields) -> OpDef:
    """Declare one sparse op row: its forward on tensors, its vjps and torch's grad_fn label."""
    SPARSE_ROWS[key] = row = OpDef(key, label, forward, **fields)
    return row


def sparse_apply(op, *args, **params) -> Tensor:
    """Run a sparse row's forward on the tensors, recording its node when grad mode asks."""
    out = op.forward(*args, **params)
    if STATE.grad_enabled and any(type(args[i]) is Tensor and args[i]._requires_grad
                                  for i in op.edge_slots):
        out._grad_fn = Node(op, args, (out,), params, op.edge_slots)
        out._requires_grad = True
    return out


def _entries(t: Tensor) -> sparse.COO:
    """The entries of a tensor an op needs sparse."""
    if t.sparse is None:
        raise errors.TorchError("NotImplementedError",
                                "gradcli does not support this operation on dense tensors yet")
    return t.sparse


# ---- construction ------------------------------------------------------------------------------

def _construct(values: Tensor, indices: np.ndarray, shape: tuple, coalesced: bool) -> Tensor:
    return sparse.make(indices, values.data, shape, values.dtype, coalesced)


def _constructor_values_grad(g: Tensor, values: Tensor, indices, shape, coalesced) -> Tensor:
    """sparse_constructor_values_backward: the gradient's value at each entry's index."""
    whole = sparse.dense(_entries(g), g.shape, g.dtype)
    return Tensor(whole[tuple(indices)], g.dtype)


_CONSTRUCT = _row("_sparse_coo_tensor_with_dims_and_tensors",
                   "SparseCooTensorWithDimsAndTensorsBackward0", _construct,
                   vjp=(_constructor_values_grad,), promote="none")


def _empty_of_size(size, dtype, requires_grad: bool) -> Tensor:
    """sparse_coo_tensor(size): no entries, every dimension sparse."""
    if not isinstance(size, (tuple, list)) or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in size):
        raise errors.type_error("sparse_coo_tensor(): argument 'size' (position 1) must be tuple "
                                f"of ints, not {errors.type_name(size)}")
    indices = creation.as_tensor(np.zeros((len(size), 0), np.int64))
    values = creation.as_tensor(np.zeros((0,), (dtype or STATE.default_dtype).np))
    return sparse_coo_tensor(indices, values, tuple(size), None, requires_grad)


_KEYWORDS = ("*, torch.dtype dtype = None, torch.device device = None, bool pin_memory = False, "
             "bool requires_grad = False, bool check_invariants = None, bool is_coalesced = None")
_OVERLOADS = [f"(object indices, object values, {_KEYWORDS})",
              f"(object indices, object values, tuple of ints size, {_KEYWORDS})",
              "(tuple of ints size, *, torch.dtype dtype = None, torch.device device = None, "
              "bool requires_grad = False, bool check_invariants = None)"]  # torch's, for errors


def sparse_coo_tensor(indices, values=None, size=None, dtype=None, requires_grad: bool = False,
                      check_invariants=None, is_coalesced=None) -> Tensor:
    """torch.sparse_coo_tensor: entries at `indices` (sparse_dim x nnz) with `values`; given
    only a size (its one-argument overload), an empty tensor of that size."""
    if indices is None:
        raise errors.type_error(schemas.invalid_combination(_OVERLOADS, (), {},
                                                            "sparse_coo_tensor"))
    if values is None and size is None:
        return _empty_of_size(indices, dtype, requires_grad)
    if size is not None and not isinstance(size, (tuple, list)):  # no overload takes it
        given = (indices, values, size)
        raise errors.type_error(schemas.invalid_combination(_OVERLOADS, given, {},
                                                            "sparse_coo_tensor"))
    indices = creation.as_tensor(indices) if not isinstance(indices, Tensor) else indices
    values = creation.as_tensor(values, dtype) if not isinstance(values, Tensor) else (
        values if dtype is None or dtype is values.dtype else F.to_dtype(values, dtype))
    if check_invariants is None:
        STATE.warn("UserWarning", INVARIANTS_WARNING, once=True)
    if requires_grad and not values.dtype.differentiable:
        raise errors.runtime(
            "Only Tensors of floating point and complex dtype can require gradients")
    if indices.ndim == 0 and size is not None:  # (torch reads indices.size(0) against the size)
        raise errors.index_error("Dimension specified as 0 but tensor has no dimensions")
    index = indices.data.astype(np.int64)
    if size is not None and len(size) != index.shape[0] + values.ndim - 1:
        raise errors.runtime(
            f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = {len(size)}, "
            f"sparse_dim = {index.shape[0]}, dense_dim = {values.ndim - 1}")
    if indices.ndim != 2:
        raise errors.runtime("indices must be sparse_dim x nnz, but got: "
                             f"[{', '.join(str(n) for n in indices.shape)}]")
    if index.shape[1] != values.shape[0]:
        raise errors.runtime(f"indices and values must have same nnz, but got nnz from "
                             f"indices: {index.shape[1]}, nnz from values: {values.shape[0]}")
    if size is None:
        size = tuple(int(m) + 1 if index.shape[1] else 0 for m in (
            index.max(axis=1) if index.shape[1] else [0] * index.shape[0]))
        size = size + tuple(values.shape[1:])
    shape = tuple(int(s) for s in size)
    out = sparse_apply(_CONSTRUCT, values, indices=index, shape=shape,
                       coalesced=bool(is_coalesced) or index.shape[1] < 2)
    if requires_grad:
        out.requires_grad = True
    return out


_LEGACY = ("torch.sparse.SparseTensor({}*, device=) is deprecated.  Please use "
           "torch.sparse_coo_tensor({}dtype=, device=). (Triggered internally at "
           "/__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:{}.)")


def legacy_sparse(dtype: dtypes.DType, *args) -> Tensor:
    """torch.sparse.FloatTensor(indices, values[, size]) and kin, deprecated: the values keep
    their own dtype, and only the empty form (sizes alone) takes the class's."""
    if args and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        STATE.warn("UserWarning", _LEGACY.format("shape, ", "shape, ", 684), once=True)
        empty = Tensor(np.zeros((0,), dtype.np), dtype)
        return sparse.make(np.zeros((len(args), 0), np.int64), empty.data, tuple(args), dtype,
                           True)
    if len(args) not in (2, 3) or not all(isinstance(a, Tensor) for a in args[:2]):
        raise errors.TorchError("NotImplementedError", "gradcli does not support this form of "
                                "the legacy sparse constructor yet")
    text = ("indices, values, shape, ", "indices, values, shape, ", 653) if len(args) == 3 else (
        "indices, values, ", "indices, values, ", 641)
    STATE.warn("UserWarning", _LEGACY.format(*text), once=True)
    return sparse_coo_tensor(*args, check_invariants=False)


def embedding_sparse_grad(g: Tensor, indices: Tensor, num_weights: int,
                          padding_idx: int) -> Tensor:
    """An embedding's sparse weight gradient (sparse=True): one entry per looked-up index (the
    padding index's left out), its row of the output's gradient as values, uncoalesced."""
    index = indices.data.reshape(-1).astype(np.int64)
    values = g.data.reshape(-1, g.shape[-1])
    if padding_idx != -1:
        kept = index != padding_idx
        index, values = index[kept], values[kept]
    return sparse.make(index.reshape(1, -1), values, (num_weights, g.shape[-1]), g.dtype,
                       len(index) < 2)


def add_into_dense(dense: np.ndarray, grad: Tensor, alpha) -> None:
    """dense.add_(sparse, alpha=alpha), as torch's kernel: the values times alpha, then added
    at their indices one entry after another."""
    values = grad.sparse.values
    if alpha != 1:
        values = values * values.dtype.type(alpha)
    np.add.at(dense, tuple(grad.sparse.indices), values)


# Elementwise ops that keep zeros zero, which torch runs on a sparse tensor's coalesced values
_ZERO_PRESERVING = frozenset((
    "abs", "sqrt", "sin", "sinh", "tan", "tanh", "asin", "asinh", "atan", "atanh", "ceil",
    "floor", "round", "trunc", "sign", "sgn", "expm1", "log1p", "relu", "deg2rad", "rad2deg",
    "erf", "erfinv", "frac", "signbit", "isnan", "isinf", "nan_to_num"))


def sparse_valuewise(op, args: tuple, params: dict) -> Tensor:
    """A dense row reaching a sparse tensor: a zero-preserving elementwise op runs on the
    coalesced values (without autograd: its gradient is gradcli's gap); any other refuses."""
    t = args[0]
    name = op.key.split(".")[0]
    if name not in _ZERO_PRESERVING or len(args) != 1 or t.sparse is None:
        raise errors.TorchError("NotImplementedError", f"gradcli does not support {name} on "
                                "sparse tensors yet")
    if t._requires_grad and STATE.grad_enabled:
        raise errors.TorchError("NotImplementedError", f"gradcli does not support the gradient "
                                f"of {name} on sparse tensors yet")
    coo = sparse.coalesced(t.sparse, t.shape)
    out = registry_apply(op, Tensor(coo.values, t.dtype), **params)
    return sparse.make(coo.indices, out.data, t.shape, out.dtype, True)


# ---- to and from dense --------------------------------------------------------------------------

def _to_dense(t: Tensor) -> Tensor:
    return Tensor(sparse.dense(_entries(t), t.shape, t.dtype), t.dtype)


def _mask_grad(g: Tensor, t: Tensor) -> Tensor:
    """grad.sparse_mask(self): the dense gradient at the sparse input's entries."""
    return sparse.make(*_masked_fields(g.data, t), t.shape, g.dtype, t.sparse.coalesced)


def _masked_fields(array: np.ndarray, t: Tensor) -> tuple:
    picked = sparse.masked(array, t.sparse, t.shape)
    return picked.indices, picked.values


_TO_DENSE = _row("to_dense", "ToDenseBackward0", _to_dense, save=(0,), vjp=(_mask_grad,),
                  promote="none")


def to_dense(t: Tensor, dtype=None, masked_grad=None) -> Tensor:
    """Tensor.to_dense: a sparse tensor's dense values (a dense tensor itself)."""
    if t.sparse is None:
        return t
    out = sparse_apply(_TO_DENSE, t)
    return out if dtype is None else F.to_dtype(out, dtype)


def _to_sparse(t: Tensor) -> Tensor:
    coo = sparse.from_dense(t.data)
    return sparse.make(coo.indices, coo.values, t.shape, t.dtype, True)


_TO_SPARSE = _row("to_sparse", "ToSparseBackward1", _to_sparse, vjp=(
    lambda g, t: to_dense(g),), promote="none")


def to_sparse(t: Tensor, sparse_dim=None, layout=None, blocksize=None, dense_dim=None) -> Tensor:
    """Tensor.to_sparse: a dense tensor's nonzero elements as a coalesced sparse tensor."""
    if t.sparse is not None:
        return t
    if sparse_dim is not None or dense_dim is not None or blocksize is not None or (
            layout is not None and layout.name != "sparse_coo"):
        raise errors.TorchError("NotImplementedError", "gradcli does not support to_sparse "
                                "with sparse_dim, dense_dim or another layout yet")
    return sparse_apply(_TO_SPARSE, t)


def _masked(t: Tensor, mask: Tensor) -> Tensor:
    """The elements at each of the mask's entries, as they stand (duplicates too)."""
    indices = mask.sparse.indices
    return sparse.make(indices, t.data[tuple(indices)], t.shape, t.dtype, mask.sparse.coalesced)


def _mask_backward(g: Tensor, t: Tensor, mask: Tensor) -> Tensor:
    """grad.sparse_mask(mask), dense: the gradient at each of the mask's entries, added up
    where the mask repeats an index."""
    return to_dense(_masked(to_dense(g), mask))


_SPARSE_MASK = _row("sparse_mask", "SparseMaskBackward0", _masked, promote="none",
                     save=(1,), vjp=(_mask_backward,))


def sparse_mask(t: Tensor, mask: Tensor) -> Tensor:
    """Tensor.sparse_mask: a dense tensor's elements at a sparse mask's indices."""
    _entries(mask)
    if t.sparse is not None:
        raise errors.TorchError("NotImplementedError", "gradcli does not support sparse_mask of "
                                "a sparse tensor yet")
    if t.shape != mask.shape:
        raise errors.runtime(f"sparse_mask(): operands have incompatible sizes; self has size "
                             f"{list(t.shape)} but mask has size {list(mask.shape)}")
    return sparse_apply(_SPARSE_MASK, t, mask)


# ---- reading a sparse tensor ---------------------------------------------------------------------

def _coalesce(t: Tensor) -> Tensor:
    coo = sparse.coalesced(t.sparse, t.shape)
    return sparse.make(coo.indices, coo.values, t.shape, t.dtype, True)


_COALESCE = _row("coalesce", "CoalesceBackward0", _coalesce, vjp=(lambda g, t: g,),
                  promote="none")


def coalesce(t: Tensor) -> Tensor:
    """Tensor.coalesce: the entries sorted by index, duplicates summed (itself if coalesced)."""
    if t.sparse is None:
        raise errors.runtime("coalesce expected sparse coordinate tensor layout but got Strided")
    return t if t.sparse.coalesced else sparse_apply(_COALESCE, t)


def is_coalesced(t: Tensor) -> bool:
    if t.sparse is None:
        raise errors.runtime("is_coalesced expected sparse coordinate tensor layout but got "
                             "Strided")
    return t.sparse.coalesced


def _uncoalesced_check(t: Tensor, what: str) -> None:
    """torch's refusals of indices() and values() of a dense or an uncoalesced tensor."""
    if t.sparse is None:
        layout = "sparse coordinate tensor" if what == "indices" else "sparse tensor"
        raise errors.runtime(f"{what} expected {layout} layout but got Strided")
    if not t.sparse.coalesced:
        raise errors.runtime(f"Cannot get {what} on an uncoalesced tensor, please call "
                             ".coalesce() first")


def _raw_indices(t: Tensor) -> Tensor:
    return Tensor(_entries(t).indices, dtypes.int64)


def _raw_values(t: Tensor) -> Tensor:
    return Tensor(t.sparse.values, t.dtype)


_VALUES = _row("values", "ValuesBackward0", _raw_values, promote="none", vjp=(
    lambda g, t: sparse.make(t.sparse.indices, g.data, t.shape, g.dtype, t.sparse.coalesced),),
    save=(0,))


def indices(t: Tensor) -> Tensor:
    _uncoalesced_check(t, "indices")
    return _raw_indices(t)


def values(t: Tensor) -> Tensor:
    _uncoalesced_check(t, "values")
    return sparse_apply(_VALUES, t)


def _values(t: Tensor) -> Tensor:
    _entries(t)
    return sparse_apply(_VALUES, t)


def _nnz(t: Tensor) -> int:
    return _entries(t).nnz


def sparse_dim(t: Tensor) -> int:
    return t.sparse.indices.shape[0] if t.sparse is not None else 0


def dense_dim(t: Tensor) -> int:
    return t.ndim - t.sparse.indices.shape[0] if t.sparse is not None else t.ndim


# ---- arithmetic ---------------------------------------------------------------------------------

def _mm(s: Tensor, d: Tensor) -> Tensor:
    return Tensor(sparse.mm(s.sparse, s.shape, d.data), d.dtype)


def _transposed_mm(s: Tensor, g: np.ndarray) -> np.ndarray:
    """mat1.t() @ grad, the transposed sparse matrix's entries in their own order."""
    coo = s.sparse
    transposed = sparse.COO(coo.indices[::-1].copy(), coo.values, False)
    return sparse.mm(transposed, s.shape[::-1], g)


def _masked_product(g: Tensor, s: Tensor, d: Tensor, alpha=1) -> Tensor:
    """grad @ mat2.t() at the sparse matrix's entries (times alpha)."""
    with F.no_grad():
        full = F.mm(g, F.t(d))
        if alpha != 1:
            full = F.mul(full, alpha)
    return sparse.make(*_masked_fields(full.data, s), s.shape, g.dtype, s.sparse.coalesced)


def _addmm(bias, s: Tensor, d: Tensor, beta=1, alpha=1) -> Tensor:
    """beta * bias + alpha * (s @ d): the bias scaled first, then each entry's fused
    multiply-adds of alpha * value (torch's _sparse_addmm; no bias when beta is 0)."""
    start = None
    if bias is not None and beta != 0:
        with F.no_grad():
            scaled = F.expand(bias, (s.shape[0], d.shape[1]))
            start = (scaled if beta == 1 else F.mul(scaled, beta)).data
    values = s.sparse.values if alpha == 1 else F.mul(Tensor(s.sparse.values, s.dtype),
                                                      alpha).data
    entries = sparse.COO(s.sparse.indices, values, s.sparse.coalesced)
    return Tensor(sparse.mm(entries, s.shape, d.data, start), d.dtype)


_SPARSE_ADDMM = _row(
    "_sparse_addmm", "SparseAddmmBackward0", _addmm, save=(1, 2), promote="none", vjp=(
        lambda g, bias, s, d, beta=1, alpha=1: g if beta == 1 else F.mul(g, beta),
        lambda g, bias, s, d, beta=1, alpha=1: _masked_product(g, s, d, alpha),
        lambda g, bias, s, d, beta=1, alpha=1: _scaled_dense(_transposed_mm(s, g.data), g,
                                                             alpha)))


def _scaled_dense(array: np.ndarray, g: Tensor, alpha) -> Tensor:
    out = Tensor(array, g.dtype)
    return out if alpha == 1 else F.mul(out, alpha)


_MM = _row("mm.sparse", "MmBackward0", _mm, save=(0, 1), promote="none", vjp=(
    lambda g, s, d: F.mm(g, F.t(d)),  # dense, for a sparse self
    lambda g, s, d: Tensor(_transposed_mm(s, g.data), g.dtype)))
_MV = _row("mv.sparse", "MvBackward0", lambda s, v: Tensor(
    sparse.mm(s.sparse, s.shape, v.data[:, None])[:, 0], v.dtype), save=(0, 1),
    promote="none", vjp=(lambda g, s, v: F.outer(g, v),
                         lambda g, s, v: Tensor(_transposed_mm(s, g.data[:, None])[:, 0],
                                                g.dtype)))


def _check_product(s: Tensor, d: Tensor) -> None:
    """torch's checks of a sparse matrix times a dense one."""
    if s.sparse.indices.shape[0] != 2:
        raise errors.runtime(f"addmm: matrices expected, got {s.sparse.indices.shape[0]}D tensor")
    if s.ndim != 2 or d.ndim != 2:
        raise errors.runtime(f"mm: expected 2D tensors, but got {s.ndim}D and {d.ndim}D")
    if d.sparse is not None:
        if s.shape[1] != d.shape[0]:
            raise errors.runtime(f"mat1 and mat2 shapes cannot be multiplied ({s.shape[0]}x"
                                 f"{s.shape[1]} and {d.shape[0]}x{d.shape[1]})")
        raise errors.TorchError("NotImplementedError", "gradcli does not support products of "
                                "two sparse tensors yet")
    if s.shape[1] != d.shape[0]:
        raise errors.runtime(f"addmm: Argument #3 (dense): Expected dim 0 size {s.shape[1]}, "
                             f"got {d.shape[0]}")
    if s.dtype is not d.dtype:
        raise errors.runtime(f"expected scalar type {s.dtype.cpp_name} but found "
                             f"{d.dtype.cpp_name}")


def sparse_mm(s: Tensor, d: Tensor) -> Tensor:
    """torch.sparse.mm: a sparse matrix times a dense one (SparseAddmmBackward0); torch.mm of
    a dense first operand."""
    if s.sparse is None:
        return F.mm(s, d)
    _check_product(s, d)
    return sparse_apply(_SPARSE_ADDMM, None, s, d, beta=0)


def sparse_addmm(bias: Tensor, s: Tensor, d: Tensor, beta=1, alpha=1) -> Tensor:
    """torch.sparse.addmm: beta * bias + alpha * (sparse @ dense); torch.addmm of a dense
    first operand."""
    if s.sparse is None:
        return F.addmm(bias, s, d, beta=beta, alpha=alpha)
    _check_product(s, d)
    return sparse_apply(_SPARSE_ADDMM, bias, s, d, beta=beta, alpha=alpha)


def mm_sparse(s: Tensor, d: Tensor) -> Tensor:
    """torch.mm / @ with a sparse first operand (torch's MmBackward0)."""
    _check_product(s, d)
    return sparse_apply(_MM, s, d)


def spmm(s: Tensor, d: Tensor, out_dtype=None) -> Tensor:
    """torch.spmm: torch.mm under its old name (a sparse first operand or a dense one), its
    arguments parsed as mm's."""
    return F.mm(s, d, out_dtype)


def mv_sparse(s: Tensor, v: Tensor) -> Tensor:
    """torch.mv / @ of a sparse matrix and a dense vector (MvBackward0)."""
    _check_product(s, F.unsqueeze(v, 1))
    return sparse_apply(_MV, s, v)


def _sum(t: Tensor) -> Tensor:
    values = sparse.coalesced(t.sparse, t.shape).values
    return Tensor(np.asarray(np.add.reduce(values.reshape(-1)), t.dtype.np), t.dtype)


_SUM = _row("sum.sparse", "SumBackward0", _sum, save=(0,), promote="none", vjp=(
    lambda g, t: sparse.make(*_masked_fields(np.broadcast_to(g.data, t.shape), t), t.shape,
                             g.dtype, t.sparse.coalesced),))


def _sum_dims(t: Tensor, dims: tuple) -> Tensor:
    """The sum over `dims`: the coalesced values summed over the dense ones, then the entries
    that share their kept sparse indices summed (a dense result when no sparse one is kept)."""
    coo = sparse.coalesced(t.sparse, t.shape)
    sparse_dims = coo.indices.shape[0]
    values = coo.values
    dense_axes = tuple(d - sparse_dims + 1 for d in dims if d >= sparse_dims)
    if dense_axes:
        values = np.add.reduce(values, axis=dense_axes)
    kept = [d for d in range(sparse_dims) if d not in dims]
    shape = tuple(t.shape[d] for d in range(t.ndim) if d not in dims)
    if not kept:
        return Tensor(np.asarray(np.add.reduce(values, axis=0), t.dtype.np), t.dtype)
    partial = sparse.COO(coo.indices[kept], values, False)
    return _built(sparse.coalesced(partial, shape), shape, t.dtype)


_SUM_DIMS = _row("_sparse_sum.dim", "SparseSumBackward0", _sum_dims, save=(0,),
                  promote="none", vjp=(lambda g, t, dims: _sum_dims_grad(g, t, dims),))


def _sum_dims_grad(g: Tensor, t: Tensor, dims: tuple) -> Tensor:
    """Each input entry takes the summed gradient at its kept index."""
    if g.sparse is None or any(d >= t.sparse.indices.shape[0] for d in dims):
        raise errors.TorchError("NotImplementedError", "gradcli does not support the backward "
                                "of sums over dense dimensions of sparse tensors yet")
    whole = sparse.dense(sparse.coalesced(g.sparse, g.shape), g.shape, g.dtype)
    kept = [d for d in range(t.sparse.indices.shape[0]) if d not in dims]
    picked = whole[tuple(t.sparse.indices[kept])]
    return sparse.make(t.sparse.indices, picked, t.shape, g.dtype, t.sparse.coalesced)


def _expand_refused(*_, **__):
    raise errors.runtime("expand is unsupported for Sparse tensors")


_SUM_DIM_METHOD = _row("sum.dim_IntList.sparse", "SumBackward1", _sum_dims, promote="none",
                        vjp=(_expand_refused,))
_SUM_ALL_DIMS = _row("sum.dim_IntList.sparse_all", "SumBackward1", _sum, save=(0,),
                      promote="none", vjp=(lambda g, t: Tensor(
                          np.broadcast_to(g.data, t.shape).copy(), g.dtype),))


def sum_dims(t: Tensor, dim, keepdim: bool = False) -> Tensor:
    """Tensor.sum(dim) of a sparse tensor: sparse over the dimensions kept (SumBackward1, whose
    backward torch cannot run)."""
    if keepdim:
        raise errors.TorchError("NotImplementedError", "gradcli does not support keepdim sums "
                                "of sparse tensors yet")
    dims = tuple(sorted(d % t.ndim for d in ((dim,) if isinstance(dim, int) else dim)))
    if len(dims) == t.ndim or not dims:
        return sparse_apply(_SUM_ALL_DIMS, t)
    return sparse_apply(_SUM_DIM_METHOD, t, dims=dims)


def _selected(t: Tensor, dim: int, index: int) -> Tensor:
    coo = t.sparse
    keep = coo.indices[dim] == index
    indices = np.delete(coo.indices[:, keep], dim, axis=0)
    nnz = indices.shape[1]
    return sparse.make(indices, coo.values[keep], t.shape[:dim] + t.shape[dim + 1:], t.dtype,
                       coo.coalesced or nnz < 2)


def _select_backward_refused(*_, **__):
    raise errors.TorchError("NotImplementedError", "gradcli does not support the backward of "
                            "select on sparse tensors (torch's SparseCPU backend has no kernel "
                            "for it)")


_SELECT = _row("select.int.sparse", "SelectBackward0", _selected, promote="none",
                vjp=(_select_backward_refused,))


def sparse_select(t: Tensor, dim: int, index: int) -> Tensor:
    """t.select(dim, index) (t[index] for dim 0) over a sparse dimension: the entries there."""
    dim = dim % t.ndim
    if dim >= t.sparse.indices.shape[0]:
        raise errors.TorchError("NotImplementedError", "gradcli does not support selecting "
                                "along a dense dimension of a sparse tensor yet")
    return sparse_apply(_SELECT, t, dim=dim, index=index)


def _built(coo: sparse.COO, shape: tuple, dtype: dtypes.DType) -> Tensor:
    return sparse.make(coo.indices, coo.values, shape, dtype, coo.coalesced)


def sparse_sum(t: Tensor, dim=None, dtype=None) -> Tensor:
    """torch.sparse.sum: all entries (a dense 0-dim tensor), or over `dim` (sparse)."""
    if t.sparse is None:
        raise errors.runtime("coalesce expected sparse coordinate tensor layout but got Strided")
    if dim is None:
        return sparse_apply(_SUM, t)
    dims = tuple(sorted(d % t.ndim for d in ((dim,) if isinstance(dim, int) else dim)))
    if len(dims) == t.ndim:
        return sparse_apply(_SUM, t)
    return sparse_apply(_SUM_DIMS, t, dims=dims)


def _pools(t: Tensor, dim: int) -> tuple:
    """The coalesced entries and, for each, its pool: the entries that share every index but
    the one along `dim` (torch's softmax groups)."""
    coo = sparse.coalesced(t.sparse, t.shape)
    others = np.delete(coo.indices, dim, axis=0)
    pools = np.unique(sparse.linear_index(others, np.delete(np.array(t.shape), dim)),
                      return_inverse=True)[1].reshape(-1) if coo.nnz else np.zeros(0, np.int64)
    return coo, pools


def _softmax(t: Tensor, dim: int, log: bool) -> Tensor:
    """Per pool as torch's kernel: the maximum, std::exp(v - max) summed in entry order, then
    exp * (1 / sum), or v - (max + std::log(sum))."""
    coo, pools = _pools(t, dim)
    count = int(pools.max()) + 1 if len(pools) else 0
    top = np.full(count, -np.inf, coo.values.dtype)
    np.maximum.at(top, pools, coo.values)
    exps = kernels_order.scalar_exp(coo.values - top[pools])
    sums = np.zeros(count, coo.values.dtype)
    np.add.at(sums, pools, exps)
    if log:
        out = coo.values - top[pools] - libm_float.scalar("log", sums)[pools]
    else:
        out = exps * (np.ones((), sums.dtype) / sums)[pools]
    return sparse.make(coo.indices, out, t.shape, t.dtype, True)


def _softmax_grad(g: Tensor, t: Tensor, dim: int, log: bool) -> Tensor:
    """out * (grad - sum(grad * out)) per pool (grad - exp(out) * sum(grad) for log_softmax),
    at the output's entries (the output made again from the saved input)."""
    out = _softmax(t, dim, log)
    _, pools = _pools(t, dim)
    result = out.sparse.values
    grad = sparse.dense(sparse.coalesced(g.sparse, g.shape), g.shape, g.dtype)[
        tuple(out.sparse.indices)] if g.sparse is not None else g.data[tuple(out.sparse.indices)]
    sums = np.zeros(int(pools.max()) + 1 if len(pools) else 0, result.dtype)
    np.add.at(sums, pools, grad if log else grad * result)
    values = grad - kernels_order.scalar_exp(result) * sums[pools] if log else \
        result * (grad - sums[pools])
    return sparse.make(out.sparse.indices, values, t.shape, g.dtype, True)


_SOFTMAX = {log: _row(f"_sparse_{'log_' if log else ''}softmax",
                       f"Sparse{'Log' if log else ''}SoftmaxBackward0", _softmax, save=(0,),
                       promote="none", vjp=(_softmax_grad,)) for log in (False, True)}


def _softmax_call(t: Tensor, dim: int, dtype, log: bool) -> Tensor:
    _entries(t)
    dim = dim % t.ndim
    if dim >= t.sparse.indices.shape[0] or t.sparse.values.ndim != 1:
        raise errors.TorchError("NotImplementedError", "gradcli does not support the softmax of "
                                "hybrid sparse tensors yet")
    if dtype is not None:
        t = sparse_cast(t, dtype)
    return sparse_apply(_SOFTMAX[log], t, dim=dim, log=log)


def sparse_softmax(t: Tensor, dim: int, dtype=None) -> Tensor:
    """torch.sparse.softmax: a softmax over each pool of entries along `dim` (unspecified
    elements take no part, as if -inf)."""
    return _softmax_call(t, dim, dtype, False)


def sparse_log_softmax(t: Tensor, dim: int, dtype=None) -> Tensor:
    """torch.sparse.log_softmax, as softmax."""
    return _softmax_call(t, dim, dtype, True)


def _add(a: Tensor, b: Tensor) -> Tensor:
    return _built(sparse.merged(a.sparse, b.sparse), a.shape, a.dtype)


_ADD = _row("add.sparse", "AddBackward0", _add, promote="none",
             vjp=(lambda g, a, b: g, lambda g, a, b: g))


_SUB = _row("sub.sparse", "SubBackward0", lambda a, b: _built(
    sparse.merged(a.sparse, b.sparse, -1), a.shape, a.dtype), promote="none",
    vjp=(lambda g, a, b: g, lambda g, a, b: _negated(g)))


def sparse_sub(a: Tensor, b: Tensor) -> Tensor:
    """sparse - sparse: the entry lists merged, the second's values negated."""
    _check_sparse_pair(a, b)
    return sparse_apply(_SUB, a, b)


def _check_sparse_pair(a: Tensor, b) -> None:
    if not isinstance(b, Tensor) or b.sparse is None:
        raise errors.runtime("add(sparse, dense) is not supported. Use add(dense, sparse) "
                             "instead.")
    if a.shape != b.shape:
        raise errors.runtime(f"add: expected 'self' and 'other' to have same size, but self has "
                             f"size {list(a.shape)} while other has size {list(b.shape)} (FYI: "
                             "dense-sparse addition does not currently support broadcasting)")


def sparse_add(a: Tensor, b: Tensor) -> Tensor:
    """sparse + sparse: the two entry lists merged, as torch's add walks them; dense + sparse:
    a dense sum."""
    if a.sparse is None:
        return F.add(a, to_dense(b))
    _check_sparse_pair(a, b)
    return sparse_apply(_ADD, a, b)


def _valued(t: Tensor, fn, *args) -> Tensor:
    """`t`'s entries with fn(values tensor, *args) as values (its dtype the result's)."""
    out = fn(Tensor(t.sparse.values, t.dtype), *args)
    return sparse.make(t.sparse.indices, out.data, t.shape, out.dtype, t.sparse.coalesced)


def _scaled(t: Tensor, factor) -> Tensor:
    return _valued(t, F.mul, factor)


def _divided(t: Tensor, divisor) -> Tensor:
    return _valued(t, F.div, divisor)


def _negated(t: Tensor) -> Tensor:
    return _valued(t, F.neg)


def _cast(t: Tensor, dtype: dtypes.DType) -> Tensor:
    return _valued(t, F.to_dtype, dtype)


_MUL = _row("mul.sparse", "MulBackward0", _scaled, promote="none",
             vjp=(lambda g, t, factor: _scaled(g, factor),))
_DIV = _row("div.sparse", "DivBackward0", _divided, promote="none",
             vjp=(lambda g, t, divisor: _divided(g, divisor),))
_NEG = _row("neg.sparse", "NegBackward0", _negated, promote="none", vjp=(
    lambda g, t: _negated(g),))
_CLONE = _row("clone.sparse", "CloneBackward0", lambda t: _valued(t, F.clone),
               promote="none", vjp=(lambda g, t: g,))
_TO_COPY = _row("_to_copy.sparse", "ToCopyBackward0", _cast, save=(0,), promote="none",
                 vjp=(lambda g, t, dtype: _cast(g, t.dtype),))


def sparse_div(t: Tensor, divisor) -> Tensor:
    """sparse / number: each value divided, the entries kept."""
    if isinstance(divisor, Tensor):
        raise errors.TorchError("NotImplementedError", "gradcli does not support dividing a "
                                "sparse tensor by a tensor yet")
    return sparse_apply(_DIV, t, divisor)


def sparse_neg(t: Tensor) -> Tensor:
    return sparse_apply(_NEG, t)


def sparse_clone(t: Tensor, memory_format=None) -> Tensor:
    if memory_format is not None:
        raise errors.runtime(f"unsupported memory format option {memory_format.label}")
    return sparse_apply(_CLONE, t)


def sparse_zero_(t: Tensor) -> Tensor:
    """Tensor.zero_ of a sparse tensor: its entries cleared, in place."""
    if t._requires_grad and t.grad_fn is None and STATE.grad_enabled:
        raise errors.runtime("a leaf Variable that requires grad is being used in an in-place "
                             "operation.")
    cleared = sparse_zeros_like(t, t.dtype)
    t.sparse = cleared.sparse
    t.bump_version()
    return t


def sparse_zeros_like(t: Tensor, dtype: dtypes.DType) -> Tensor:
    """zeros_like of a sparse tensor: no entries, the same sparse dimensions."""
    dims = t.sparse.indices.shape[0]
    return sparse.make(np.zeros((dims, 0), np.int64), np.zeros((0,) + t.shape[dims:], dtype.np),
                       t.shape, dtype, True)


def sparse_cast(t: Tensor, dtype: dtypes.DType) -> Tensor:
    """A sparse tensor's values as another dtype (ToCopyBackward0 to a floating one)."""
    if not dtype.differentiable:
        with F.no_grad():
            return _cast(t, dtype)
    return sparse_apply(_TO_COPY, t, dtype)


def sparse_mul(t: Tensor, factor) -> Tensor:
    """sparse * number: each value scaled, the entries kept."""
    if isinstance(factor, Tensor):
        raise errors.TorchError("NotImplementedError", "gradcli does not support multiplying "
                                "a sparse tensor by a tensor yet")
    return sparse_apply(_MUL, t, factor)


def _permuted(t: Tensor, dims: tuple) -> Tensor:
    coo = t.sparse
    return sparse.make(coo.indices[list(dims)], coo.values, tuple(t.shape[d] for d in dims),
                       t.dtype, False)


def _unpermuted(g: Tensor, t: Tensor, dims: tuple) -> Tensor:
    return _permuted(g, tuple(np.argsort(dims).tolist()))


# t, transpose and permute (and .T) reorder the index rows; the entries are no longer coalesced
_PERMUTES = {label: _row(key, label, _permuted, promote="none", vjp=(_unpermuted,))
             for key, label in (("t.sparse", "TBackward0"), ("transpose.sparse",
                                "TransposeBackward0"), ("permute.sparse", "PermuteBackward0"))}


def sparse_permute(t: Tensor, dims: tuple, label: str = "PermuteBackward0") -> Tensor:
    """A sparse tensor's dimensions reordered (its sparse ones only: no dense dimensions)."""
    if t.sparse.indices.shape[0] != t.ndim:
        raise errors.TorchError("NotImplementedError", "gradcli does not support reordering "
                                "the dimensions of a hybrid sparse tensor yet")
    return sparse_apply(_PERMUTES[label], t, dims=tuple(dims))


def sparse_t(t: Tensor) -> Tensor:
    """Tensor.t of a sparse matrix: its two index rows swapped."""
    sparse_dims = t.sparse.indices.shape[0]
    if sparse_dims > 2 or sparse_dims != t.ndim:
        raise errors.runtime(f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, but "
                             f"got {sparse_dims} sparse and {t.ndim - sparse_dims} dense "
                             "dimensions")
    return sparse_permute(t, (1, 0), "TBackward0") if t.ndim == 2 else t


def sparse_transpose(t: Tensor, dim0: int, dim1: int) -> Tensor:
    dims = list(range(t.ndim))
    dims[dim0], dims[dim1] = dims[dim1], dims[dim0]
    return sparse_permute(t, tuple(dims), "TransposeBackward0")


# ---- declarations: the public names of this area ------------------------------------------------

declare("to_dense", to_dense, "to_dense(Tensor self, ScalarType? dtype=None, *, "
        "bool? masked_grad=None)", variants="method")
declare("sparse_mask", sparse_mask, "sparse_mask(Tensor self, Tensor mask)", variants="method")
declare("to_sparse", to_sparse, "to_sparse(Tensor self, int sparse_dim)",
        "to_sparse(Tensor self, *, Layout? layout=None, int[2]? blocksize=None, "
        "int? dense_dim=None)", variants="method")
declare("to_sparse_coo", to_sparse, python="self", variants="method")  # torch's is Python's
for _name, _impl in (("coalesce", coalesce), ("is_coalesced", is_coalesced),
                     ("indices", indices), ("values", values), ("_indices", _raw_indices),
                     ("_values", _values), ("_nnz", _nnz), ("sparse_dim", sparse_dim),
                     ("dense_dim", dense_dim)):
    declare(_name, _impl, f"{_name}(Tensor self)", variants="method")
declare("mm", sparse_mm, "mm(Tensor sparse, Tensor dense)", variants="sparse")
for _name, _impl in (("softmax", sparse_softmax), ("log_softmax", sparse_log_softmax)):
    declare(_name, _impl, f"{_name}(Tensor input, int dim, *, ScalarType? dtype=None)",
            variants="sparse")
declare("spmm", spmm, "mm(Tensor self, Tensor mat2, *, Tensor? out=None)",
        "mm(Tensor self, Tensor mat2, ScalarType out_dtype, *, Tensor? out=None)", variants="torch")
declare("addmm", sparse_addmm, "addmm(Tensor input, Tensor mat1, Tensor mat2, *, Scalar beta=1, "
        "Scalar alpha=1)", variants="sparse")
declare("sum", sparse_sum, "sum(Tensor input, int[1]? dim=None, *, ScalarType? dtype=None)",
        variants="sparse")

export(__name__, globals())
