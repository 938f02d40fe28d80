"""Shape functions (views and copies) with torch's argument checks, and their rows."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors, layout, schemas
from gradcli.engine import memory_format as memory_formats
from gradcli.engine.declarations import DECLARATIONS, declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import LINEAR, OPS, defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.triggered import triggered


def _expand(a: np.ndarray, size: tuple) -> np.ndarray:
    """A writable broadcast view (as torch's expand: writes reach the shared elements)."""
    lead = len(size) - a.ndim
    strides = [0] * lead + [0 if n == 1 and m != 1 else st
                            for n, m, st in zip(a.shape, size[lead:], a.strides)]
    if a.flags.c_contiguous and a.size:
        # the same view made straight over a's buffer (read-only when a is), skipping
        # as_strided's detour through __array_interface__, which costs most of a small expand
        return np.ndarray(size, a.dtype, buffer=a, strides=strides)
    return np.lib.stride_tricks.as_strided(a, shape=size, strides=strides,
                                           writeable=a.flags.writeable)


def _view(a, shape, sizes):
    """Reshape without copying, or torch's error when the strides do not allow it; size-1
    dimensions get the strides torch's computeStride gives them."""
    out = a.view()
    try:
        out.shape = shape
    except AttributeError:
        raise errors.runtime(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        ) from None
    if out.size and a.ndim:
        out = _with_strides(out, _view_strides(a.shape, memory_formats.element_strides(a),
                                               out.shape))
    return out


def _view_strides(old_shape: tuple, old_strides: tuple, shape: tuple) -> tuple:
    """torch's computeStride for a view of a non-empty tensor that NumPy could reshape."""
    strides = [0] * len(shape)
    view_d = len(shape) - 1
    base, tensor_numel, view_numel = old_strides[-1], 1, 1
    for d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[d]
        if d == 0 or (old_shape[d - 1] != 1 and old_strides[d - 1] != tensor_numel * base):
            while view_d >= 0 and (view_numel < tensor_numel or shape[view_d] == 1):
                strides[view_d] = view_numel * base
                view_numel *= shape[view_d]
                view_d -= 1
            if d > 0:
                base, tensor_numel, view_numel = old_strides[d - 1], 1, 1
    return tuple(strides)


def _with_strides(array: np.ndarray, strides: tuple) -> np.ndarray:
    """`array` itself, or a view of its memory with these element strides (they differ only in
    size-1 dimensions, which NumPy strides as it likes)."""
    if memory_formats.element_strides(array) == strides:
        return array
    return np.lib.stride_tricks.as_strided(array, array.shape,
                                           [s * array.itemsize for s in strides])


def _unsqueeze(a: np.ndarray, dim: int) -> np.ndarray:
    """The new size-1 dimension strided as torch's unsqueeze strides it."""
    strides = list(memory_formats.element_strides(a))
    strides.insert(dim, 1 if dim >= a.ndim else a.shape[dim] * strides[dim])
    return _with_strides(np.expand_dims(a, dim), tuple(strides))


def _unsqueeze_to(g, sizes, dims):
    """Undo a squeeze of `dims` (the size-1 dims among them) of a tensor of shape `sizes`."""
    for d in sorted(d for d in dims if d < len(sizes) and sizes[d] == 1):
        g = F.unsqueeze(g, d)
    return g


def _inverse(perm):
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return tuple(inverse)


def _repeat_backward(g, sizes, repeats):
    """torch's repeat_backward: sum away the new leading dims, then view each repeated dim d as
    (repeats[d], sizes[d]) and sum the repeats, in one reshape and one sum."""
    if 0 in repeats:
        return F.zeros_of(sizes, g.dtype)
    lead = len(repeats) - len(sizes)
    for _ in range(lead):
        g = F.sum(g, 0)
    split, sum_dims = [], []
    for repeat, size in zip(repeats[lead:], sizes):
        if repeat != 1:
            split.append(repeat)
            sum_dims.append(len(split) - 1)
        split.append(size)
    if not sum_dims:
        return g
    return F.sum(F.reshape(g, split), tuple(sum_dims))


def _split(a, sections, dim):
    return tuple(np.split(a, np.cumsum(sections)[:-1], axis=dim))


def _element_strides(a: np.ndarray) -> tuple:
    return tuple(s // a.itemsize for s in a.strides)


def _cat(*arrays, dim, sizes):
    """np.concatenate of the inputs cat does not skip (size None: a legacy empty 1-d tensor),
    laid out in the format all inputs suggest (NumPy would follow a permuted input's layout)."""
    kept = [a for a, size in zip(arrays, sizes) if size is not None]
    out = np.concatenate(kept, axis=dim) if kept else np.concatenate(arrays)
    return memory_formats.in_format(out, memory_formats.joined_format(
        [(a.shape, _element_strides(a)) for a in arrays]))


def _stack(*arrays, dim):
    """np.stack laid out as torch's stack lays it out: below the last dimension, cat of the
    inputs along `dim` (in the format they suggest) viewed with `dim` split in two; at the end,
    a contiguous result when every input is contiguous (the serial stack kernel), else cat of
    the inputs unsqueezed there (each with stride 1 in the new dimension)."""
    if dim < arrays[0].ndim and arrays[0].size:
        joined = memory_formats.in_format(np.concatenate(arrays, axis=dim), memory_formats
                                          .joined_format([(a.shape, _element_strides(a))
                                                          for a in arrays]))
        size, stride = arrays[0].shape[dim], joined.strides[dim]
        return np.lib.stride_tricks.as_strided(
            joined, joined.shape[:dim] + (len(arrays), size) + joined.shape[dim + 1:],
            joined.strides[:dim] + (size * stride, stride) + joined.strides[dim + 1:])
    out = np.stack(arrays, axis=dim)
    if all(a.flags.c_contiguous for a in arrays):
        return np.ascontiguousarray(out)
    return memory_formats.in_format(out, memory_formats.joined_format(
        [(a.shape + (1,), _element_strides(a) + (1,)) for a in arrays]))


def _cat_backward(g, *args, dim, sizes, input_index):
    if sizes[input_index] is None:
        return F.zeros_of((0,), g.dtype)
    start = sum(size for size in sizes[:input_index] if size is not None)
    return F.narrow(g, dim, start, sizes[input_index])


defop("view", "ViewBackward0", _view, promote="none", view=True,
      vjp=lambda g, a, shape, sizes: F.reshape(g, sizes), jvp=LINEAR,
      rule=("grad.reshape(self's shape)",))
defop("_reshape_alias", "ReshapeAliasBackward0", _view, promote="none", view=True,
      vjp=lambda g, a, shape, sizes: F.reshape(g, sizes), jvp=LINEAR)
defop("narrow_copy", "NarrowCopyBackward0",
      lambda a, dim, start, length, sizes: a[(slice(None),) * dim
                                             + (slice(start, start + length),)].copy(),
      promote="none", jvp=LINEAR,
      vjp=lambda g, a, dim, start, length, sizes: F.apply_op(
          "slice_backward", g, sizes=sizes, dim=dim, start=start, end=start + length, step=1),
      rule=("slice_backward(grad, self's shape, dim, start, start + length, 1)",))
defop("_unsafe_view", "UnsafeViewBackward0", lambda a, shape, sizes: a.reshape(shape),
      promote="none", vjp=lambda g, a, shape, sizes: F.reshape(g, sizes), jvp=LINEAR)
defop("expand", "ExpandBackward0", lambda a, size, sizes: _expand(a, size),
      promote="none", view=True, vjp=lambda g, a, size, sizes: F.sum_to(g, sizes), jvp=LINEAR,
      rule=("grad summed to self's shape",))
defop("unsqueeze", "UnsqueezeBackward0", _unsqueeze, promote="none",
      view=True, vjp=lambda g, a, dim: F.squeeze(g, dim), jvp=LINEAR,
      rule=('grad.squeeze(dim)',))
defop("squeeze", "SqueezeBackward0", lambda a, sizes: np.squeeze(a), promote="none", view=True,
      vjp=lambda g, a, sizes: _unsqueeze_to(g, sizes, range(len(sizes))), jvp=LINEAR,
      rule=("grad.reshape(self's shape)",))
defop("squeeze.dim", "SqueezeBackward1",
      lambda a, dim, sizes: np.squeeze(a, dim) if a.ndim and a.shape[dim] == 1 else a.view(),
      promote="none", view=True, vjp=lambda g, a, dim, sizes: _unsqueeze_to(g, sizes, (dim,)), jvp=LINEAR,
      rule=("grad.reshape(self's shape)",))
defop("squeeze.dims", "SqueezeBackward2",
      lambda a, dims, sizes: np.squeeze(a, tuple(d for d in dims if a.ndim and a.shape[d] == 1)),
      promote="none", view=True, vjp=lambda g, a, dims, sizes: _unsqueeze_to(g, sizes, dims), jvp=LINEAR)
defop("t", "TBackward0", lambda a: a.T, promote="none", view=True, vjp=lambda g, a: F.t(g), jvp=LINEAR,
      rule=('grad.t()',))
defop("transpose.int", "TransposeBackward0", lambda a, dim0, dim1: np.swapaxes(a, dim0, dim1),
      promote="none", view=True,
      vjp=lambda g, a, dim0, dim1: F.transpose(g, dim0, dim1), jvp=LINEAR)


def _inplace_key(key: str) -> str:
    """torch's name of an overload's in-place form: squeeze.dim -> squeeze_.dim."""
    name, dot, overload = key.partition(".")
    return f"{name}_{dot}{overload}"


def _restriding(row, key: str, label: str) -> None:
    """The row of X_ for a view op X whose in-place form changes the tensor's shape (t_,
    transpose_, squeeze_, unsqueeze_): X's forward and derivatives under torch's own label."""
    defop(key, label, row.forward, vjp=row.vjp, promote=row.promote, view=row.view, jvp=row.jvp,
          rule=row.rule)


for _key, _label in (("squeeze", "SqueezeBackward3"), ("squeeze.dim", "SqueezeBackward4"),
                     ("squeeze.dims", "SqueezeBackward5"), ("unsqueeze", "UnsqueezeBackward1"),
                     ("t", "TBackward1"), ("transpose.int", "TransposeBackward1")):
    _restriding(OPS[_key], _inplace_key(_key), _label)
defop("permute", "PermuteBackward0", lambda a, dims: np.transpose(a, dims), promote="none",
      view=True, vjp=lambda g, a, dims: F.permute(g, _inverse(dims)), jvp=LINEAR)
defop("alias", "AliasBackward0", lambda a: a.view(), promote="none", view=True, vjp=lambda g, a: g, jvp=LINEAR)
defop("split.Tensor", "SplitBackward0", lambda a, sections, dim: _split(a, sections, dim),
      promote="none", view=True, n_outputs=None, differentiable_outputs=None, jvp=LINEAR,
      vjp=lambda grads, a, sections, dim: F.cat(grads, dim))
defop("unsafe_split.Tensor", "UnsafeSplitBackward0",
      lambda a, sections, dim: _split(a, sections, dim), promote="none", n_outputs=None,
      differentiable_outputs=None, jvp=LINEAR,
      vjp=lambda grads, a, sections, dim: F.cat(grads, dim))
defop("split_with_sizes", "SplitWithSizesBackward0",
      lambda a, sections, dim: _split(a, sections, dim), promote="none", view=True,
      n_outputs=None, differentiable_outputs=None, jvp=LINEAR,
      vjp=lambda grads, a, sections, dim: F.cat(grads, dim))
defop("unbind.int", "UnbindBackward0",
      lambda a, dim: tuple(np.moveaxis(a, dim, 0)[i, ...] for i in range(a.shape[dim])),
      promote="none", view=True, n_outputs=None,
      differentiable_outputs=None, jvp=LINEAR, vjp=lambda grads, a, dim: F.stack(grads, dim))
defop("clone", "CloneBackward0",
      lambda a, contiguous=False, memory_format=None: (
          np.array(a, copy=True, order="C" if contiguous else "K") if memory_format is None
          else memory_formats.laid_out(a, memory_format)),
      promote="none", vjp=lambda g, a, contiguous=False, memory_format=None: g, jvp=LINEAR,
      rule=('grad',))
defop("repeat", "RepeatBackward0", lambda a, repeats, sizes: np.tile(a, repeats), promote="none",
      vjp=lambda g, a, repeats, sizes: _repeat_backward(g, sizes, repeats), jvp=LINEAR)
defop("flip", "FlipBackward0", lambda a, dims: np.flip(a, dims).copy(), promote="none",
      vjp=lambda g, a, dims: F.flip(g, dims), jvp=LINEAR)
defop("cat", "CatBackward0", _cat, variadic=True, vjp=_cat_backward, jvp=LINEAR)
defop("stack", "StackBackward0", _stack, variadic=True,
      vjp=lambda g, *args, dim, input_index: F.select(g, dim, input_index), jvp=LINEAR)


def _unfold(a, dimension, size, step, sizes):
    """Tensor.unfold as a strided view: `dimension` counts the windows, a last one runs within."""
    if a.ndim == 0:
        return a.reshape(1)[:size]
    count = (a.shape[dimension] - size) // step + 1
    shape = a.shape[:dimension] + (count,) + a.shape[dimension + 1:] + (size,)
    strides = (a.strides[:dimension] + (a.strides[dimension] * step,) + a.strides[dimension + 1:]
               + (a.strides[dimension],))
    return np.lib.stride_tricks.as_strided(a, shape, strides, writeable=a.flags.writeable)


def _unfold_backward(g, sizes, dimension, size, step):
    """Each window's gradient added back at its place, windows in order."""
    out = np.zeros(sizes, g.dtype)
    if not sizes:
        return g.reshape(()) if g.size else out
    windows = np.moveaxis(g, dimension, -2)
    places = np.arange(windows.shape[-2])[:, None] * step + np.arange(size)
    np.add.at(np.moveaxis(out, dimension, -1), (Ellipsis, places), windows)
    return out


defop("unfold", "UnfoldBackward0", _unfold, promote="none", view=True,
      vjp=lambda g, a, dimension, size, step, sizes: F.apply_op(
          "unfold_backward", g, sizes=sizes, dimension=dimension, size=size, step=step),
      jvp=LINEAR)
defop("unfold_backward", "UnfoldBackwardBackward0", _unfold_backward, promote="none",
      vjp=lambda g, a, sizes, dimension, size, step: F.unfold(g, dimension, size, step),
      jvp=LINEAR)


def _block_extent(shape: tuple) -> tuple:
    """The (rows, columns) a block_diag input fills: a 1-D one is a row, a 0-D one a 1x1 block."""
    return tuple(shape) if len(shape) == 2 else (1, shape[0] if shape else 1)


def _block_diag(*arrays, shapes):
    extents = [_block_extent(shape) for shape in shapes]
    out = np.zeros((sum(r for r, _ in extents), sum(c for _, c in extents)), arrays[0].dtype)
    row = col = 0
    for a, (rows, cols) in zip(arrays, extents):
        out[row:row + rows, col:col + cols] = a.reshape(-1, cols) if a.size else 0
        row, col = row + rows, col + cols
    return out


def _block_diag_backward(g, *args, shapes, input_index):
    """torch's block_diag_backward: each input's block sliced out of the gradient."""
    extents = [_block_extent(shape) for shape in shapes]
    shape = shapes[input_index]
    if shape == (0,):
        return F.zeros_of((0,), g.dtype)
    row = sum(r for r, _ in extents[:input_index])
    col = sum(c for _, c in extents[:input_index])
    rows, cols = extents[input_index]
    block = F.slice_dim(F.slice_dim(g, 0, row, row + rows, 1), 1, col, col + cols, 1)
    for _ in range(2 - len(shape)):
        block = F.squeeze(block, -1)
    return block


defop("block_diag", "BlockDiagBackward0", _block_diag, variadic=True, vjp=_block_diag_backward,
      jvp=LINEAR)


def normalize_dims(dim, ndim: int) -> tuple:
    """Dims as a tuple of non-negative ints, with torch's range error."""
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    rank = max(ndim, 1)
    out = []
    for d in dims:
        if not -rank <= d < rank:
            raise errors.index_error(
                f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], "
                f"but got {d})")
        out.append(d % rank)
    return tuple(out)


def reduction_dims(dim, ndim: int) -> tuple:
    """A reduction's dims, wrapped, each at most once (ATen's dim_list_to_bitset)."""
    dims = normalize_dims(dim, ndim)
    for k, d in enumerate(dims):
        if d in dims[:k]:
            raise errors.runtime(f"dim {d} appears multiple times in the list of dims")
    return dims


def wrap_dim(dim: int, ndim: int) -> int:
    return normalize_dims(dim, ndim)[0]


def size_at(a: Tensor, dim: int) -> int:
    """Tensor.size(dim), with torch's errors (a 0-dim tensor has no dimension to give)."""
    if a.ndim == 0:
        raise errors.index_error(f"Dimension specified as {dim} but tensor has no dimensions")
    return a.shape[wrap_dim(dim, a.ndim)]


def size_list(sizes) -> str:
    return f"[{', '.join(str(s) for s in sizes)}]"


def sizes_arg(args: tuple) -> tuple:
    """f(2, 3) and f((2, 3)) alike, as torch's *size parameters accept both."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    return tuple(int(a) for a in args)


def _op(key: str, *args, **params):
    return apply(OPS[key], *args, **params)


# ---- reshaping ----------------------------------------------------------------------------------

def infer_shape(shape, numel: int) -> tuple:
    """`shape` with its -1 filled in, or torch's error when it cannot hold `numel` elements."""
    shape = tuple(shape)
    inferred, known = None, 1
    for i, s in enumerate(shape):
        if s == -1:
            if inferred is not None:
                raise errors.runtime("only one dimension can be inferred")
            inferred = i
        elif s < 0:
            raise errors.runtime(f"invalid shape dimension {s} at index {i} of shape "
                                 f"{size_list(shape)}")
        else:
            known *= s
    if inferred is not None and known == numel == 0:
        raise errors.runtime(f"cannot reshape tensor of 0 elements into shape {size_list(shape)} "
                             "because the unspecified dimension size -1 can be any value and is "
                             "ambiguous")
    if inferred is not None and known != 0 and numel % known == 0:
        return shape[:inferred] + (numel // known,) + shape[inferred + 1:]
    if inferred is None and known == numel:
        return shape
    raise errors.runtime(f"shape '{size_list(shape)}' is invalid for input of size {numel}")


def _viewable(array: np.ndarray, shape: tuple) -> bool:
    probe = array.view()
    try:
        probe.shape = shape
    except AttributeError:
        return False
    return True


def view(a: Tensor, shape) -> Tensor:
    return _op("view", a, shape=infer_shape(shape, a.numel()), sizes=a.shape)


def view_as_dtype(a: Tensor, dtype: dtypes.DType) -> Tensor:
    """Tensor.view(dtype): the same bytes read as `dtype` (outside autograd, as in torch); the
    last dimension shrinks or grows by the ratio of element sizes."""
    if dtype is not a.dtype and dtype.itemsize != a.dtype.itemsize:
        names = f"{a.dtype.scalar_name} as {dtype.scalar_name}"
        if a.ndim == 0:
            raise errors.runtime(f"self.dim() cannot be 0 to view {names} (different element "
                                 "sizes)")
        last_stride = a.data.strides[-1] // a.dtype.itemsize
        if a.shape[-1] != 1 and last_stride != 1:
            raise errors.runtime(f"self.stride(-1) must be 1 to view {names} (different element "
                                 f"sizes), but got {last_stride}")
        ratio = dtype.itemsize // a.dtype.itemsize
        if ratio > 1 and a.shape[-1] % ratio:
            raise errors.runtime(f"self.size(-1) must be divisible by {ratio} to view {names} "
                                 f"(different element sizes), but got {a.shape[-1]}")
    return Tensor(a.data.view(dtype.np), dtype)


def reshape(a: Tensor, shape) -> Tensor:
    """As torch: a view of a contiguous tensor (ViewBackward0), an alias with new strides when
    they allow one (ReshapeAliasBackward0), else a contiguous copy (UnsafeViewBackward0)."""
    if a.sparse is not None:
        raise errors.runtime("reshape is not implemented for sparse tensors")
    shape = infer_shape(shape, a.numel())
    if a.data.flags.c_contiguous:
        return _op("view", a, shape=shape, sizes=a.shape)
    if _viewable(a.data, shape):
        return _op("_reshape_alias", a, shape=shape, sizes=a.shape)
    copy = _op("clone", a, contiguous=True)
    return _op("_unsafe_view", copy, shape=shape, sizes=copy.shape)


def flatten(a: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    if a.ndim == 0:
        return reshape(a, (1,))
    start, end = wrap_dim(start_dim, a.ndim), wrap_dim(end_dim, a.ndim)
    if start > end:
        raise errors.runtime("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return a
    merged = int(np.prod(a.shape[start:end + 1]))
    return reshape(a, a.shape[:start] + (merged,) + a.shape[end + 1:])


def squeeze(a: Tensor, dim=None, op=_op) -> Tensor:
    if dim is None:
        return op("squeeze", a, sizes=a.shape)
    if isinstance(dim, int):
        return op("squeeze.dim", a, dim=wrap_dim(dim, a.ndim), sizes=a.shape)
    return op("squeeze.dims", a, dims=reduction_dims(dim, a.ndim), sizes=a.shape)


def unsqueeze(a: Tensor, dim: int, op=_op) -> Tensor:
    return op("unsqueeze", a, dim=wrap_dim(dim, a.ndim + 1))


# ---- reordering ---------------------------------------------------------------------------------

def t(a: Tensor, op=_op) -> Tensor:
    if a.sparse is not None:
        return F.sparse_t(a)
    if a.ndim > 2:
        raise errors.runtime(f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D")
    return op("t", a)


def transpose(a: Tensor, dim0: int, dim1: int, op=_op) -> Tensor:
    if a.sparse is not None:
        return F.sparse_transpose(a, wrap_dim(dim0, a.ndim), wrap_dim(dim1, a.ndim))
    return op("transpose.int", a, dim0=wrap_dim(dim0, a.ndim), dim1=wrap_dim(dim1, a.ndim))


def _restrided(key: str, a: Tensor, **params) -> Tensor:
    """`a` itself takes the shape and strides of the view op `key` over it (torch's t_,
    transpose_, squeeze_, unsqueeze_ change metadata only), the op's node its history."""
    from gradcli.engine import forward_ad
    from gradcli.engine.ops.inplace import check_inplace
    check_inplace(a, a._requires_grad)
    result = _op(_inplace_key(key), a, **params)
    a.data = result.data
    a.bump_version()
    if result._fw_grad is not None:
        forward_ad.make_dual_in_place(a, result._fw_grad)
    if result._grad_fn is not None:  # a view keeps the op's node (no AsStrided regenerated)
        a.grad_fn, a.output_nr = result._grad_fn, result.output_nr
    return a


def squeeze_(a: Tensor, dim=None) -> Tensor:
    return squeeze(a, dim, _restrided)


def unsqueeze_(a: Tensor, dim: int) -> Tensor:
    return unsqueeze(a, dim, _restrided)


def t_(a: Tensor) -> Tensor:
    return t(a, _restrided)


def transpose_(a: Tensor, dim0: int, dim1: int) -> Tensor:
    return transpose(a, dim0, dim1, _restrided)


def permute(a: Tensor, dims) -> Tensor:
    dims = sizes_arg(dims) if not isinstance(dims, int) else (dims,)
    if len(dims) != a.ndim:
        raise errors.runtime(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {a.ndim} is not "
            f"equal to len(dims) = {len(dims)}")
    wrapped = normalize_dims(dims, a.ndim) if dims else ()
    if len(set(wrapped)) != len(wrapped):
        raise errors.runtime("permute(): duplicate dims are not allowed.")
    if a.sparse is not None:
        return F.sparse_permute(a, wrapped)
    return _op("permute", a, dims=wrapped)


def reversed_dims(a: Tensor) -> Tensor:
    """Tensor.T: all dims reversed, with torch's deprecation warnings off two dims."""
    if a.ndim == 0:
        STATE.warn("UserWarning", triggered("Tensor.T is deprecated on 0-D tensors. This "
                                            "function is the identity in these cases.",
                                            "aten/src/ATen/native/TensorShape.cpp", 4321),
                   once=True)
    elif a.ndim != 2:
        STATE.warn("UserWarning", triggered(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
            "reverse the dimensions of a tensor.", "aten/src/ATen/native/TensorShape.cpp", 4314),
            once=True)
    return permute(a, tuple(range(a.ndim - 1, -1, -1)))


def matrix_transpose(a: Tensor) -> Tensor:
    """Tensor.mT."""
    if a.ndim < 2:
        raise errors.runtime("tensor.mT is only supported on matrices or batches of matrices. "
                             f"Got {a.ndim}-D tensor.")
    return transpose(a, -2, -1)


def _conj_if_complex(a: Tensor) -> Tensor:
    return F.conj(a) if a.dtype.is_complex else a


def adjoint(a: Tensor, name: str = "adjoint()") -> Tensor:
    """torch.adjoint / Tensor.adjoint() and Tensor.mH: the last two dims swapped, conjugated
    when complex."""
    if a.ndim < 2:
        raise errors.runtime(f"tensor.{name} is only supported on matrices or batches of "
                             f"matrices. Got {a.ndim}-D tensor.")
    return _conj_if_complex(transpose(a, -2, -1))


def hermitian(a: Tensor) -> Tensor:
    """Tensor.H: a matrix's transpose, conjugated when complex; a 0-D tensor itself (its
    conjugate when complex), with torch's warning."""
    if a.ndim == 0:
        STATE.warn("UserWarning", triggered("Tensor.H is deprecated on 0-D tensors. Consider "
                                            "using x.conj().",
                                            "aten/src/ATen/native/TensorShape.cpp", 4335),
                   once=True)
        return _conj_if_complex(a)
    if a.ndim != 2:
        more = " For batches of matrices, consider using tensor.mH" if a.ndim > 2 else ""
        raise errors.runtime(f"tensor.H is only supported on matrices (2-D tensors). Got "
                             f"{a.ndim}-D tensor.{more}")
    return _conj_if_complex(transpose(a, 0, 1))


def flip(a: Tensor, dims) -> Tensor:
    dims = normalize_dims(dims, a.ndim)
    for d in dims:
        if dims.count(d) > 1:
            raise errors.runtime(f"dim {d} appears multiple times in the list of dims")
    return _op("flip", a, dims=dims if a.ndim else ())


# ---- broadcasting and copies --------------------------------------------------------------------

def expand(a: Tensor, size, implicit: bool = False) -> Tensor:
    size = tuple(size)
    lead = len(size) - a.ndim
    if lead < 0:
        raise errors.runtime(
            f"expand({a.dtype.type_string}{{{size_list(a.shape)}}}, size={size_list(size)})"
            f": the number of sizes provided ({len(size)}) must be greater or equal to the number "
            f"of dimensions in the tensor ({a.ndim})")
    target = list(size)
    for i in range(len(size) - 1, -1, -1):  # from the last dimension, as ATen checks
        if i < lead:
            if size[i] == -1:
                raise errors.runtime(f"The expanded size of the tensor (-1) isn't allowed in a "
                                     f"leading, non-existing dimension {i}")
            continue
        have = a.shape[i - lead]
        want = have if size[i] == -1 else size[i]
        if have != want and have != 1:
            raise errors.runtime(
                f"The expanded size of the tensor ({want}) must match the existing size ({have}) "
                f"at non-singleton dimension {i}.  Target sizes: {size_list(size)}.  Tensor "
                f"sizes: {size_list(a.shape)}")
        target[i] = want
    if min(target, default=0) < 0:  # a negative size at a singleton or leading dimension:
        # its product overflows in c10's safe_multiply_u64 (unless a zero size spares it, a
        # tensor of a negative size that gradcli cannot hold)
        raise errors.runtime("numel: integer multiplication overflow")
    return _op("expand", a, size=tuple(target), sizes=a.shape)


def expand_as(a: Tensor, other: Tensor) -> Tensor:
    return expand(a, other.shape)


def repeat(a: Tensor, repeats) -> Tensor:
    repeats = tuple(repeats)
    if len(repeats) < a.ndim:
        raise errors.runtime("Number of dimensions of repeat dims can not be smaller than number "
                             "of dimensions of tensor")
    lead = (1,) * (len(repeats) - a.ndim)
    for r, s in zip(repeats, lead + a.shape):
        if r < 0:
            shape = [r * s for r, s in zip(repeats, lead + a.shape)]
            raise errors.runtime(f"Trying to create tensor with negative dimension {r * s}: "
                                 f"{size_list(shape)}")
    return _op("repeat", a, repeats=repeats, sizes=a.shape)


def clone(a: Tensor, memory_format=None) -> Tensor:
    """A copy laid out in `memory_format`; preserve_format keeps a dense layout, else takes the
    format the strides suggest."""
    if a.sparse is not None:
        return F.sparse_clone(a, memory_format)
    if memory_format in (None, memory_formats.PRESERVE):
        if layout.dense_order(a.data) is not None:
            return _op("clone", a)
        memory_format = memory_formats.suggest(a.shape, F.strides(a))
    return _op("clone", a, memory_format=memory_formats.checked(memory_format, a.ndim))


def is_contiguous(a: Tensor, memory_format=memory_formats.CONTIGUOUS) -> bool:
    if memory_format in (memory_formats.CONTIGUOUS, memory_formats.PRESERVE):
        return bool(a.data.flags.c_contiguous)
    return memory_formats.is_contiguous(a.shape, F.strides(a), memory_format)


def contiguous(a: Tensor, memory_format=memory_formats.CONTIGUOUS) -> Tensor:
    if a.sparse is not None:
        return F.sparse_clone(a, memory_format)
    if is_contiguous(a, memory_format):
        return a
    if memory_format is memory_formats.CONTIGUOUS:
        return _op("clone", a, contiguous=True)
    if memory_format is memory_formats.PRESERVE:
        raise errors.runtime("preserve memory format is unsupported by the contiguous operator")
    return _op("clone", a, memory_format=memory_formats.checked(memory_format, a.ndim))


# ---- joining and splitting ----------------------------------------------------------------------

def _cat_skips(t: Tensor) -> bool:
    """torch's legacy rule: an empty 1-d tensor (torch.tensor([])) joins anything, and is left
    out of the shape checks and the result (it still takes part in type promotion)."""
    return t.ndim == 1 and t.shape[0] == 0


def cat(tensors, dim: int = 0) -> Tensor:
    tensors = list(tensors)
    if not tensors:
        raise errors.value_error("torch.cat(): expected a non-empty list of Tensors")
    for i, t_ in enumerate(tensors):
        if t_.ndim == 0:
            raise errors.runtime(f"zero-dimensional tensor (at position {i}) cannot be "
                                 "concatenated")
    kept = [(i, t_) for i, t_ in enumerate(tensors) if not _cat_skips(t_)]
    if not kept:
        return _op("cat", *tensors, dim=0, sizes=(None,) * len(tensors))
    first = kept[0][1]
    d = wrap_dim(dim, first.ndim)
    for i, t_ in kept[1:]:
        if t_.ndim != first.ndim:
            raise errors.runtime(f"Tensors must have same number of dimensions: got {first.ndim} "
                                 f"and {t_.ndim}")
        for k in range(first.ndim):
            if k != d and t_.shape[k] != first.shape[k]:
                raise errors.runtime(
                    f"Sizes of tensors must match except in dimension {d}. Expected size "
                    f"{first.shape[k]} but got size {t_.shape[k]} for tensor number {i} in the "
                    "list.")
    return _op("cat", *tensors, dim=d,
               sizes=tuple(None if _cat_skips(t_) else t_.shape[d] for t_ in tensors))


def stack(tensors, dim: int = 0) -> Tensor:
    tensors = list(tensors)
    if not tensors:
        raise errors.runtime("stack expects a non-empty TensorList")
    d = wrap_dim(dim, tensors[0].ndim + 1)
    for i, t_ in enumerate(tensors[1:], 1):
        if t_.shape != tensors[0].shape:
            raise errors.runtime(
                f"stack expects each tensor to be equal size, but got "
                f"{size_list(tensors[0].shape)} at entry 0 and {size_list(t_.shape)} at entry {i}")
    return _op("stack", *tensors, dim=d)


def split(a: Tensor, split_size_or_sections, dim: int = 0, op: str = "split.Tensor") -> tuple:
    """Tensor.split, Python in torch: a one-element tensor size read as int(), then an int to
    the C++ split, anything else to split_with_sizes (their parsers check)."""
    if isinstance(split_size_or_sections, Tensor) and split_size_or_sections.numel() == 1:
        split_size_or_sections = int(split_size_or_sections.data.item())
    if not isinstance(split_size_or_sections, int):
        declaration = DECLARATIONS["torch", "split_with_sizes"]
        positional, keywords = declaration.bind((a, split_size_or_sections, dim), {}, "torch")
        return declaration(*positional, **keywords)
    dim = schemas.bind_cpp(("split(Tensor input, int split_size, int dim=0)",
                            "split(Tensor input, int[] split_size, int dim=0)"),
                           a, split_size_or_sections, dim)["dim"]
    if a.ndim == 0:
        raise errors.runtime("split expects at least a 1-dimensional tensor")
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d]
    step = split_size_or_sections
    if step < 0:
        raise errors.runtime(f"split expects split_size be non-negative, but got "
                             f"split_size={step}")
    if step == 0 and size != 0:
        raise errors.runtime(f"split_size can only be 0 if dimension size is 0, but got "
                             f"dimension size of {size}")
    sections = [step] * (size // step) + ([size % step] if size % step else []) if step else [0]
    return _op(op, a, sections=tuple(sections), dim=d)


def split_with_sizes(a: Tensor, split_sizes, dim: int = 0) -> tuple:
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d]
    sections = tuple(split_sizes)
    if sum(sections) != size or any(s < 0 for s in sections):
        raise errors.runtime(
            f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size "
            f"at dimension {d}), but got split_sizes={size_list(sections)}")
    return _op("split_with_sizes", a, sections=sections, dim=d)


def chunk(a: Tensor, chunks: int, dim: int = 0, op: str = "split.Tensor") -> tuple:
    if chunks <= 0:
        raise errors.runtime(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    if a.ndim == 0:
        raise errors.runtime("chunk expects at least a 1-dimensional tensor")
    size = a.shape[wrap_dim(dim, a.ndim)]
    return split(a, max(-(-size // chunks), 1) if size else 0, dim, op)


def tensor_split(a: Tensor, indices_or_sections, dim: int = 0) -> tuple:
    """ATen's tensor_split: `sections` parts, the first dim_size % sections one longer, or the
    parts between `indices`; each a slice (SliceBackward0)."""
    if a.ndim == 0:
        raise errors.runtime("tensor_split expected at least a 1-dimensional tensor, but got a "
                             "tensor with 0 dims")
    if isinstance(indices_or_sections, Tensor):
        given = indices_or_sections
        if given.dtype is not dtypes.int64:
            raise errors.runtime(f"tensor_split expected tensor_indices_or_sections to have dtype "
                                 f"of long, but got {given.dtype.scalar_name}")
        if given.ndim > 1:
            raise errors.runtime(f"tensor_split expected tensor_indices_or_sections to be a "
                                 f"zero-dimensional or one-dimensional tensor, but got a tensor "
                                 f"with {given.ndim} dims")
        indices_or_sections = int(given.data) if given.ndim == 0 else given.data.tolist()
    d = wrap_dim(dim, a.ndim)
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if sections <= 0:
            raise errors.runtime(f"number of sections must be larger than 0, got {sections}")
        size, extra = divmod(a.shape[d], sections)
        lengths = [size + 1 if k < extra else size for k in range(sections)]
        bounds = [sum(lengths[:k]) for k in range(sections + 1)]
    else:
        bounds = [0, *indices_or_sections, a.shape[d]]
    return tuple(F.slice_dim(a, d, start, end, 1) for start, end in zip(bounds, bounds[1:]))


def _directional_split(name: str, least: int, dim_of):
    """torch.hsplit / vsplit / dsplit: tensor_split along one dimension, whole sections only."""
    def split_along(a: Tensor, indices_or_sections) -> tuple:
        if a.ndim < least:
            raise errors.runtime(f"torch.{name} requires a tensor with at least {least} dimension, "
                                 f"but got a tensor with {a.ndim} dimensions!")
        d = dim_of(a)
        if isinstance(indices_or_sections, int):
            sections = indices_or_sections
            if sections == 0 or a.shape[d] % sections:
                raise errors.runtime(f"torch.{name} attempted to split along dimension {d}, but "
                                     f"the size of the dimension {a.shape[d]} is not divisible by "
                                     f"the split_size {sections}!")
        return tensor_split(a, indices_or_sections, d)
    split_along.__name__ = name
    return split_along


hsplit = _directional_split("hsplit", 1, lambda a: 0 if a.ndim == 1 else 1)
vsplit = _directional_split("vsplit", 2, lambda a: 0)
dsplit = _directional_split("dsplit", 3, lambda a: 2)


def unsafe_split(a: Tensor, split_size: int, dim: int = 0) -> tuple:
    """split whose outputs autograd does not track as views (UnsafeSplitBackward0)."""
    return split(a, split_size, dim, "unsafe_split.Tensor")


def unsafe_chunk(a: Tensor, chunks: int, dim: int = 0) -> tuple:
    return chunk(a, chunks, dim, "unsafe_split.Tensor")


def unbind(a: Tensor, dim: int = 0) -> tuple:
    size_at(a, dim)
    return _op("unbind.int", a, dim=wrap_dim(dim, a.ndim))


def narrow(a: Tensor, dim: int, start, length: int) -> Tensor:
    if isinstance(start, Tensor):
        if start.ndim != 0 or start.dtype.is_floating_point or start.dtype is dtypes.bool_:
            raise errors.runtime("start must be an 0-dim integral Tensor.")
        start = int(start.data)
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d]
    if not -size <= start <= size:
        raise errors.index_error(f"start out of range (expected to be in range of [{-size}, "
                                 f"{size}], but got {start})")
    start = start % size if start < 0 else start
    if length < 0:
        raise errors.runtime("narrow(): length must be non-negative.")
    if start + length > size:
        raise errors.runtime(f"start ({start}) + length ({length}) exceeds dimension size "
                             f"({size}).")
    return F.slice_dim(a, d, start, start + length, 1)


def narrow_copy(a: Tensor, dim: int, start: int, length: int) -> Tensor:
    """torch.narrow_copy: narrow's values in a tensor of their own, with ATen's checks (a dim
    past the last in its assertion's words, a negative length as too long)."""
    if a.ndim == 0:
        raise errors.runtime("narrow() cannot be applied to a 0-dim tensor.")
    if dim >= a.ndim:
        raise errors.runtime("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, "
                             "but got false.  (Could this error message be improved?  If so, "
                             "please report an enhancement request to PyTorch.)")
    dim = wrap_dim(dim, a.ndim)
    size = a.shape[dim]
    if not -size <= start <= size:
        raise errors.index_error(f"start out of range (expected to be in range of [{-size}, "
                                 f"{size}], but got {start})")
    start = start + size if start < 0 else start
    if length < 0 or start + length > size:
        raise errors.runtime(f"start ({start}) + length ({length}) exceeds dimension size "
                             f"({size}).")
    return _op("narrow_copy", a, dim=dim, start=start, length=length, sizes=a.shape)


def reshape_as(a: Tensor, other: Tensor) -> Tensor:
    return reshape(a, other.shape)


def view_as(a: Tensor, other: Tensor) -> Tensor:
    return view(a, other.shape)


declare("numel", lambda a: a.numel(), "numel(Tensor self)")
declare("reshape", reshape, "reshape(Tensor self, int[] shape)")
declare("view", lambda a, size_or_dtype: view_as_dtype(a, size_or_dtype) if isinstance(
    size_or_dtype, dtypes.DType) else view(a, size_or_dtype),
    "view(Tensor self, ScalarType dtype)", "view(Tensor self, int[] size)", variants="method")
declare("reshape_as", reshape_as, "reshape_as(Tensor self, Tensor other)", variants="method")
declare("view_as", view_as, "view_as(Tensor self, Tensor other)", variants="method")
declare("flatten", flatten, "flatten(Tensor self, int start_dim=0, int end_dim=-1)")
declare("ravel", lambda a: F.view(F.contiguous(a), (-1,)), "ravel(Tensor self)")
declare("squeeze", squeeze, "squeeze(Tensor self)", "squeeze(Tensor self, int dim)",
        "squeeze(Tensor self, int[] dim)")
declare("unsqueeze", unsqueeze, "unsqueeze(Tensor self, int dim)")
declare("t", t, "t(Tensor self)")
declare("transpose", transpose, "transpose(Tensor self, int dim0, int dim1)")
declare("squeeze_", squeeze_, "squeeze_(Tensor self)", "squeeze_(Tensor self, int dim)",
        "squeeze_(Tensor self, int[] dim)", variants="method")
declare("unsqueeze_", unsqueeze_, "unsqueeze_(Tensor self, int dim)", variants="method")
declare("t_", t_, "t_(Tensor self)", variants="method")
declare("transpose_", transpose_, "transpose_(Tensor self, int dim0, int dim1)", variants="method")
declare("swapaxes_", transpose_, "swapaxes_(Tensor self, int axis0, int axis1)", variants="method")
declare("swapdims_", transpose_, "swapdims_(Tensor self, int dim0, int dim1)", variants="method")
declare("permute", permute, "permute(Tensor self, int[] dims)")
declare("flip", flip, "flip(Tensor self, int[] dims, *, Tensor? out=None)")
declare("expand", expand, "expand(Tensor self, int[] size, *, bool implicit=False)",
        variants="method")
declare("expand_as", expand_as, "expand_as(Tensor self, Tensor other)", variants="method")
declare("repeat", repeat, "repeat(Tensor self, int[] repeats)", variants="method")
declare("clone", clone, "clone(Tensor self, *, MemoryFormat? memory_format=None)")
declare("contiguous", contiguous, "contiguous(Tensor self, *, MemoryFormat memory_format=contiguous_format)",
        variants="method")
declare("dim_order", lambda self, ambiguity_check=False: memory_formats.dim_order(
    self.shape, F.strides(self), ambiguity_check), python="self, *, ambiguity_check=False",
        variants="method")
declare("is_contiguous", is_contiguous, "is_contiguous(Tensor self, *, MemoryFormat memory_format=contiguous_format)", variants="method")
declare("cat", cat, "cat(Tensor[] tensors, int dim=0, *, Tensor? out=None)",
        variants="torch", aliases=("concat", "concatenate"))
declare("stack", stack, "stack(Tensor[] tensors, int dim=0, *, Tensor? out=None)",
        variants="torch")
declare("chunk", chunk, "chunk(Tensor self, int chunks, int dim=0)")
declare("tensor_split", tensor_split, "tensor_split(Tensor self, int[] indices, int dim=0)",
        "tensor_split(Tensor self, Tensor tensor_indices_or_sections, int dim=0)",
        "tensor_split(Tensor self, int sections, int dim=0)")
declare("unsafe_chunk", unsafe_chunk, "unsafe_chunk(Tensor self, int chunks, int dim=0)")
declare("split_with_sizes", split_with_sizes,
        "split_with_sizes(Tensor self, int[] split_sizes, int dim=0)")
for _along in (hsplit, vsplit, dsplit):
    declare(_along.__name__, _along, f"{_along.__name__}(Tensor self, int sections)",
            f"{_along.__name__}(Tensor self, int[] indices)")
declare("adjoint", adjoint, "adjoint(Tensor self)")
declare("unsafe_split", unsafe_split, "unsafe_split(Tensor self, int split_size, int dim=0)")
declare("narrow", narrow, "narrow(Tensor self, int dim, Tensor start, int length)",
        "narrow(Tensor self, int dim, int start, int length)")
declare("narrow_copy", narrow_copy, "narrow_copy(Tensor self, int dim, int start, int length, "
        "*, Tensor? out=None)")
def unfold(a: Tensor, dimension: int, size: int, step: int) -> Tensor:
    d = wrap_dim(dimension, a.ndim)
    largest = a.shape[d] if a.ndim else 1
    if size > largest:
        raise errors.runtime(f"maximum size for tensor at dimension {d} is {largest} but size is "
                             f"{size}")
    if size < 0:
        raise errors.runtime(f"size is {size} but must be >= 0")
    if step <= 0:
        raise errors.runtime(f"step is {step} but must be > 0")
    return _op("unfold", a, dimension=d, size=size, step=step, sizes=a.shape)


declare("unbind", unbind, "unbind(Tensor self, int dim=0)")
declare("unfold", unfold, "unfold(Tensor self, int dimension, int size, int step)",
        variants="method")


# Imported last: the op rows import this module, so these names must already exist when they load.
from gradcli.engine.ops.registry import OPS, apply  # noqa: E402


export(__name__, globals())
