"""Arranging values: triangles (tril, triu and their indices), grids and stacks (meshgrid,
hstack, vstack, dstack, column_stack, atleast_nd): functions and rows."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import OPS, apply, defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor


def _triangle(a, diagonal, upper):
    if a.ndim == 0 or a.size == 0:
        return a.copy()
    rows, cols = a.shape[-2:]
    keep = np.triu(np.ones((rows, cols), dtype=bool), diagonal) if upper else np.tril(
        np.ones((rows, cols), dtype=bool), diagonal)
    return np.where(keep, a, a.dtype.type(0))


defop("tril", "TrilBackward0", lambda a, diagonal: _triangle(a, diagonal, False),
      promote="none", vjp=lambda g, a, diagonal: F.tril(g, diagonal))
defop("triu", "TriuBackward0", lambda a, diagonal: _triangle(a, diagonal, True),
      promote="none", vjp=lambda g, a, diagonal: F.triu(g, diagonal))


def _check_matrix(name: str, a: Tensor) -> None:
    if a.ndim < 2:
        raise errors.runtime(f"{name}: input tensor must have at least 2 dimensions")


def tril(a: Tensor, diagonal: int = 0) -> Tensor:
    _check_matrix("tril", a)
    return apply(OPS["tril"], a, diagonal=diagonal)


def triu(a: Tensor, diagonal: int = 0) -> Tensor:
    _check_matrix("triu", a)
    return apply(OPS["triu"], a, diagonal=diagonal)


def _triangle_indices(name: str, row: int, col: int, offset: int, dtype, upper: bool) -> Tensor:
    dtype = dtypes.int64 if dtype is None else dtype
    if dtype.name not in ("int64", "int32"):
        raise errors.TorchError("NotImplementedError", f'"{name}" not implemented for '
                                f"'{dtype.legacy_name.removesuffix('Tensor')}'")
    for what, value in (("row", row), ("col", col)):
        if value < 0:
            raise errors.runtime(f"{what} must be non-negative, got{value}")
    pick = np.triu_indices if upper else np.tril_indices
    rows, cols = pick(row, offset, col) if row and col else (np.zeros(0), np.zeros(0))
    return Tensor(np.stack([rows, cols]).astype(dtype.np), dtype)


def tril_indices(row: int, col: int, offset: int = 0, dtype=None, layout=None, device=None,
                 pin_memory=None) -> Tensor:
    return _triangle_indices("tril_indices", row, col, offset, dtype, False)


def triu_indices(row: int, col: int, offset: int = 0, dtype=None, layout=None, device=None,
                 pin_memory=None) -> Tensor:
    return _triangle_indices("triu_indices", row, col, offset, dtype, True)


# ---- grids ----------------------------------------------------------------------------------------

MESHGRID_WARNING = ("torch.meshgrid: in an upcoming release, it will be required to pass the "
                    "indexing argument.")


def _tensor_list(tensors, argument: int = 0) -> list:
    """A function's tensors given as separate arguments or as one sequence (meshgrid(a, b) or
    meshgrid([a, b])), with torch's error for an element that is not a tensor."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise errors.type_error(f"expected Tensor as element {i} in argument {argument}, "
                                    f"but got {type(t).__name__}")
    return list(tensors)


def meshgrid(*tensors, indexing=None) -> tuple:
    tensors = _tensor_list(tensors)
    if indexing is None:
        STATE.warn("UserWarning", MESHGRID_WARNING, once=True)
        indexing = "ij"
    if indexing not in ("xy", "ij"):
        raise errors.runtime('torch.meshgrid: indexing must be one of "xy" or "ij", but '
                             f"received: {indexing}")
    if not tensors:
        raise errors.runtime("meshgrid expects a non-empty TensorList")
    for t in tensors[1:]:
        if t.dtype is not tensors[0].dtype:
            raise errors.runtime("meshgrid expects all tensors to have the same dtype")
    for i, t in enumerate(tensors):
        if t.ndim > 1:
            raise errors.runtime(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list "
                                 f"but got a {t.ndim}D tensor")
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        tensors[0], tensors[1] = tensors[1], tensors[0]
    grid = tuple(t.numel() for t in tensors)
    outputs = []
    for i, t in enumerate(tensors):
        shape = [1] * len(tensors)
        shape[i] = -1
        outputs.append(F.expand(F.view(t, tuple(shape)), grid))
    if swap:
        outputs[0], outputs[1] = outputs[1], outputs[0]
    return tuple(outputs)


# ---- stacks -------------------------------------------------------------------------------------

def atleast(a: Tensor, ndim: int) -> Tensor:
    """torch.atleast_1d/2d/3d of one tensor."""
    if a.ndim >= ndim:
        return a
    if a.ndim == 0:
        return F.reshape(a, (1,) * ndim)
    if ndim == 2 or a.ndim == 2:
        return F.unsqueeze(a, 0) if a.ndim == 1 else F.unsqueeze(a, -1)
    return F.unsqueeze(F.unsqueeze(a, 0), -1)


def _atleast(ndim: int):
    def function(*tensors):
        if len(tensors) == 1 and isinstance(tensors[0], Tensor):
            return atleast(tensors[0], ndim)
        return tuple(atleast(t, ndim) for t in _tensor_list(tensors))
    function.__name__ = f"atleast_{ndim}d"
    return function


atleast_1d, atleast_2d, atleast_3d = _atleast(1), _atleast(2), _atleast(3)


def _nonempty(name: str, tensors) -> list:
    tensors = list(tensors)
    if not tensors:
        raise errors.runtime(f"{name} expects a non-empty TensorList")
    return tensors


def hstack(tensors) -> Tensor:
    parts = [atleast(t, 1) for t in _nonempty("hstack", tensors)]
    return F.cat(parts, 0 if parts[0].ndim == 1 else 1)


def vstack(tensors) -> Tensor:
    return F.cat([atleast(t, 2) for t in _nonempty("vstack", tensors)], 0)


def dstack(tensors) -> Tensor:
    return F.cat([atleast(t, 3) for t in _nonempty("dstack", tensors)], 2)


def column_stack(tensors) -> Tensor:
    parts = [F.reshape(t, (t.numel(), 1)) if t.ndim <= 1 else t
             for t in _nonempty("column_stack", tensors)]
    return F.cat(parts, 1)


__all__ = ["tril", "triu", "tril_indices", "triu_indices", "meshgrid", "atleast", "atleast_1d",
           "atleast_2d", "atleast_3d", "hstack", "vstack", "dstack", "column_stack",
           "MESHGRID_WARNING"]


# ---- declarations: the public names of this area ------------------------------------------------

declare("tril", tril, "tril(Tensor self, int diagonal=0, *, Tensor? out=None)")
declare("triu", triu, "triu(Tensor self, int diagonal=0, *, Tensor? out=None)")
_INDICES_FACTORY = ("int row, int col, int offset=0, *, ScalarType? dtype=None, "
                    "Layout? layout=None, Device? device=None, bool? pin_memory=False)")
declare("tril_indices", tril_indices, "tril_indices(" + _INDICES_FACTORY, variants="torch")
declare("triu_indices", triu_indices, "triu_indices(" + _INDICES_FACTORY, variants="torch")
declare("meshgrid", meshgrid, python="*tensors, indexing=None", variants="torch")
for _function in (atleast_1d, atleast_2d, atleast_3d):
    declare(_function.__name__, _function, python="*tensors", variants="torch")
declare("hstack", hstack, "hstack(Tensor[] tensors, *, Tensor? out=None)", variants="torch")
declare("vstack", vstack, "vstack(Tensor[] tensors, *, Tensor? out=None)", variants="torch",
        aliases=("row_stack",))
declare("dstack", dstack, "dstack(Tensor[] tensors, *, Tensor? out=None)", variants="torch")
declare("column_stack", column_stack, "column_stack(Tensor[] tensors, *, Tensor? out=None)",
        variants="torch")


# ---- rolls, rotations, differences, repeats -------------------------------------------------------

defop("roll", "RollBackward0", lambda a, shifts, dims: np.roll(a, shifts, dims or None),
      promote="none", vjp=lambda g, a, shifts, dims: F.roll(g, tuple(-s for s in shifts), dims))
defop("rot90", "Rot90Backward0", lambda a, k, dims: np.rot90(a, k, dims).copy(), promote="none",
      vjp=lambda g, a, k, dims: F.rot90(g, -k, dims))


def roll(a: Tensor, shifts, dims=()) -> Tensor:
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if len(shifts) != len(dims) and (dims or len(shifts) != 1):
        raise errors.runtime(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:"
                             f"{len(dims)}")
    dims = F.normalize_dims(dims, a.ndim) if dims else ()
    return apply(OPS["roll"], a, shifts=shifts, dims=dims)


def rot90(a: Tensor, k: int = 1, dims=(0, 1)) -> Tensor:
    dims = tuple(dims)
    if len(dims) != 2:
        raise errors.runtime(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if a.ndim < 2:
        raise errors.runtime(f"expected total dims >= 2, but got total dims = {a.ndim}")
    d0, d1 = F.normalize_dims(dims, a.ndim)
    if d0 == d1:
        raise errors.runtime(f"expected rotation dims to be different, but got dim0 = {d0} and "
                             f"dim1 = {d1}")
    return apply(OPS["rot90"], a, k=k % 4, dims=(d0, d1))


def diff(a: Tensor, n: int = 1, dim: int = -1, prepend=None, append=None) -> Tensor:
    if a.ndim == 0:
        raise errors.runtime("diff expects input to be at least one-dimensional")
    if n < 0:
        raise errors.runtime(f"order must be non-negative but got {n}")
    d = F.wrap_dim(dim, a.ndim)
    parts = [t for t in (prepend, a, append) if t is not None]
    if len(parts) > 1:
        a = F.cat(parts, d)
    for _ in range(n):
        size = a.shape[d]
        if size == 0:
            break
        later, earlier = F.narrow(a, d, 1, size - 1), F.narrow(a, d, 0, size - 1)
        a = F.logical_xor(later, earlier) if a.dtype is dtypes.bool_ else F.sub(later, earlier)
    return a


def tile(a: Tensor, dims) -> Tensor:
    dims = tuple(dims)
    if len(dims) < a.ndim:
        dims = (1,) * (a.ndim - len(dims)) + dims
    return F.repeat(a, dims)


def repeat_interleave(a: Tensor, repeats=None, dim=None, output_size=None) -> Tensor:
    if repeats is None:  # repeat_interleave(repeats): the indices that repeat each position
        counts = a.data.astype(np.int64)
        return Tensor(np.repeat(np.arange(counts.size), counts), dtypes.int64)
    source = a if dim is not None else F.reshape(a, (-1,))
    d = F.wrap_dim(dim if dim is not None else 0, source.ndim)
    if isinstance(repeats, Tensor):
        counts = repeats.data.astype(np.int64).reshape(-1)
        if counts.size == 1 and source.shape[d] != 1:
            counts = np.repeat(counts, source.shape[d])
        if counts.size != source.shape[d]:
            raise errors.runtime("repeats must have the same size as input along dim, but got "
                                 f"repeats.size(0) = {counts.size} and input.size({d}) = "
                                 f"{source.shape[d]}")
        if (counts < 0).any():
            raise errors.runtime("repeats can not be negative")
        index = Tensor(np.repeat(np.arange(counts.size), counts), dtypes.int64)
        return F.index_select(source, d, index)
    if repeats < 0:
        raise errors.runtime("Repeats must be non-negative")
    sizes = source.shape[:d + 1] + (repeats,) + source.shape[d + 1:]
    expanded = F.contiguous(F.expand(F.unsqueeze(source, d + 1), sizes))
    return F.view(expanded, source.shape[:d] + (source.shape[d] * repeats,) + source.shape[d + 1:])


# ---- shapes and broadcasting -----------------------------------------------------------------------

def swapaxes(a: Tensor, axis0: int, axis1: int) -> Tensor:
    return F.transpose(a, axis0, axis1)


def select_index(a: Tensor, dim: int, index: int) -> Tensor:
    if a.ndim == 0:
        raise errors.index_error("select() cannot be applied to a 0-dim tensor.")
    d = F.wrap_dim(dim, a.ndim)
    size = a.shape[d]
    if not -size <= index < size:
        raise errors.index_error(f"select(): index {index} out of range for tensor of size "
                                 f"{F.size_list(a.shape)} at dimension {d}")
    return F.select(a, d, index % size)


def unflatten(a: Tensor, dim: int, sizes) -> Tensor:
    d = F.wrap_dim(dim, a.ndim)
    sizes = tuple(sizes)
    if not sizes:
        raise errors.runtime("unflatten: sizes must be non-empty")
    known = [s for s in sizes if s != -1]
    inferred = F.infer_shape(sizes, a.shape[d]) if -1 in sizes else sizes
    if -1 not in sizes and int(np.prod(known)) != a.shape[d]:
        raise errors.runtime(
            f"unflatten: Provided sizes {F.size_list(sizes)} don't multiply up to the size of dim "
            f"{dim} ({a.shape[d]}) in the input tensor")
    return F.view(a, a.shape[:d] + tuple(inferred) + a.shape[d + 1:])


def fliplr(a: Tensor) -> Tensor:
    if a.ndim < 2:
        raise errors.runtime("Input must be >= 2-d.")
    return F.flip(a, (1,))


def flipud(a: Tensor) -> Tensor:
    if a.ndim < 1:
        raise errors.runtime("Input must be >= 1-d.")
    return F.flip(a, (0,))


def broadcast_to(a: Tensor, size) -> Tensor:
    return F.expand(a, tuple(size))


def broadcast_tensors(*tensors) -> tuple:
    tensors = _tensor_list(tensors)
    shape = ()
    for t in tensors:
        shape = F.broadcast_shape(shape, t.shape)
    return tuple(t if t.shape == shape else F.expand(t, shape) for t in tensors)


__all__ += ["roll", "rot90", "diff", "tile", "repeat_interleave", "swapaxes", "select_index",
            "unflatten", "fliplr", "flipud", "broadcast_to", "broadcast_tensors"]

declare("roll", roll, "roll(Tensor self, int[1] shifts, int[1] dims=[])")
declare("rot90", rot90, "rot90(Tensor self, int k=1, int[] dims=[0,1])")
declare("diff", diff, "diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, "
        "Tensor? append=None, *, Tensor? out=None)")
declare("tile", tile, "tile(Tensor self, int[] dims)")
declare("repeat_interleave", repeat_interleave,
        "repeat_interleave(Tensor self, Tensor repeats, int? dim=None, *, int? output_size=None)",
        "repeat_interleave(Tensor repeats, *, int? output_size=None)",
        "repeat_interleave(Tensor self, int repeats, int? dim=None, *, int? output_size=None)",
        method=("repeat_interleave(Tensor self, Tensor repeats, int? dim=None, *, "
                "int? output_size=None)",
                "repeat_interleave(Tensor self, int repeats, int? dim=None, *, "
                "int? output_size=None)"))
declare("swapaxes", swapaxes, "swapaxes(Tensor self, int axis0, int axis1)")
declare("swapdims", swapaxes, "swapdims(Tensor self, int dim0, int dim1)")
declare("select", select_index, "select(Tensor self, int dim, int index)")
declare("unflatten", unflatten, "unflatten(Tensor self, int dim, int[] sizes)")
declare("fliplr", fliplr, "fliplr(Tensor self)")
declare("flipud", flipud, "flipud(Tensor self)")
declare("broadcast_to", broadcast_to, "broadcast_to(Tensor self, int[] size)")
declare("broadcast_tensors", broadcast_tensors, python="*tensors", variants="torch")


export(__name__, globals())
