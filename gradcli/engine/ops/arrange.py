"""Arranging values: triangles (tril, triu and their indices), grids and stacks (meshgrid,
hstack, vstack, dstack, column_stack, atleast_nd): functions and rows."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import (autograd, dtypes, errors, float_fmod, memory_format, pointwise_order,
                            schemas, vmap_batched)
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import (AS_VJP, LINEAR, OPS, RESULT, apply, defop,
                                         not_implemented, pointwise_op)
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor, require_tensors
from gradcli.engine.triggered import triggered
from gradcli.engine.creation import COPY_WARNING


def _triangle(a, diagonal, upper):
    if a.ndim == 0 or a.size == 0:
        return a.copy()
    rows, cols = a.shape[-2:]
    keep = np.triu(np.ones((rows, cols), dtype=bool), diagonal) if upper else np.tril(
        np.ones((rows, cols), dtype=bool), diagonal)
    return np.where(keep, a, a.dtype.type(0))


defop("tril", "TrilBackward0", lambda a, diagonal: _triangle(a, diagonal, False),
      promote="none", vjp=lambda g, a, diagonal: F.tril(g, diagonal), jvp=LINEAR, complex=True)
defop("triu", "TriuBackward0", lambda a, diagonal: _triangle(a, diagonal, True),
      promote="none", vjp=lambda g, a, diagonal: F.triu(g, diagonal), jvp=LINEAR, complex=True)


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
        raise errors.not_implemented_for(name, dtype)
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

MESHGRID_WARNING = triggered("torch.meshgrid: in an upcoming release, it will be required to "
                             "pass the indexing argument.",
                             "aten/src/ATen/native/TensorShape.cpp", 4215)


def _tensor_list(tensors, unpack: bool = False) -> list:
    """A function's tensors, given as separate arguments (or, with `unpack`, as one sequence:
    meshgrid([a, b])), with torch's error for an element that is not a tensor."""
    if unpack and len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    require_tensors(tensors)
    return list(tensors)


def meshgrid(*tensors, indexing=None) -> tuple:
    tensors = _tensor_list(tensors, unpack=True)
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
    """torch.atleast_Nd(*tensors): one argument is handed on alone, several as a tuple, to the
    C++ function with overloads (Tensor input) and (tuple of Tensors tensors)."""
    name = f"atleast_{ndim}d"
    overloads = (schemas.parse_schema(f"{name}(Tensor input)"),
                 schemas.parse_schema(f"{name}(Tensor[] tensors)"))

    def function(*tensors):
        given = tensors[0] if len(tensors) == 1 else tensors
        index, _ = schemas.bind(overloads, (given,), {}, True, name)
        return atleast(given, ndim) if index == 0 else tuple(atleast(t, ndim) for t in given)
    function.__name__ = name
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
      promote="none", vjp=lambda g, a, shifts, dims: F.roll(g, tuple(-s for s in shifts), dims),
      jvp=LINEAR)
defop("rot90", "Rot90Backward0", lambda a, k, dims: np.rot90(a, k, dims).copy(), promote="none",
      vjp=lambda g, a, k, dims: F.rot90(g, -k, dims), jvp=LINEAR)


def roll(a: Tensor, shifts, dims=()) -> Tensor:
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if not shifts:
        raise errors.runtime("`shifts` required")
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
        if a.dtype not in (dtypes.int64, dtypes.int32):
            raise errors.not_implemented_for("repeat_interleave_cpu", a.dtype)
        if a.ndim != 1:
            raise errors.runtime("repeat_interleave only accept 1D vector as repeat")
        if (a.data < 0).any():
            raise errors.runtime("repeats can not be negative")
        return Tensor(np.repeat(np.arange(a.data.size, dtype=a.dtype.np), a.data), a.dtype)
    if isinstance(repeats, Tensor) and repeats.ndim > 1:  # checked before the dim, as torch does
        raise errors.runtime("repeats must be 0-dim or 1-dim tensor")
    source = a if dim is not None else F.reshape(a, (-1,))
    d = F.wrap_dim(dim if dim is not None else 0, source.ndim)
    if isinstance(repeats, Tensor):
        counts = repeats.data.reshape(-1)
        if counts.size == 1 and source.shape[d] != 1:
            counts = np.repeat(counts, source.shape[d])
        if counts.size != source.shape[d]:
            raise errors.runtime("repeats must have the same size as input along dim, but got "
                                 f"repeats.size(0) = {counts.size} and input.size("
                                 f"{dim if dim is not None else 0}) = {source.shape[d]}")
        if repeats.dtype not in (dtypes.int64, dtypes.int32):  # its kernel counts in integers
            raise errors.not_implemented_for("repeat_interleave_cpu", repeats.dtype)
        counts = counts.astype(np.int64)
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
    try:
        inferred = F.infer_shape(sizes, a.shape[d])
    except errors.TorchError as error:  # torch words infer_size's "is invalid" for unflatten
        if "is invalid for input of size" not in error.message:
            raise
        raise errors.runtime(
            f"unflatten: Provided sizes {F.size_list(sizes)} don't multiply up to the size of dim "
            f"{d} ({a.shape[d]}) in the input tensor") from None
    return F.view(a, a.shape[:d] + tuple(inferred) + a.shape[d + 1:])


_UNFLATTEN = "unflatten(Tensor self, int dim, int[] sizes)"
_CPP_UNFLATTEN = (schemas.parse_schema(_UNFLATTEN),)


def unflatten_method(a: Tensor, dim, sizes) -> Tensor:
    """Tensor.unflatten, Python in torch: `sizes` tested for truth, then the C++ method binds."""
    if not F.truth(sizes):
        raise errors.runtime("unflatten: sizes must be non-empty")
    _, bound = schemas.bind(_CPP_UNFLATTEN, (dim, sizes), {}, False, "unflatten")
    return unflatten(a, bound["dim"], bound["sizes"])


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


def _check_vector(t: Tensor) -> None:
    if t.ndim != 1:
        raise errors.runtime(f"Expect a 1D vector, but got shape {F.size_list(t.shape)}")


def cartesian_prod(*tensors) -> Tensor:
    """torch's cartesian_prod: the ij meshgrid of the vectors, each flattened, stacked as columns
    (one vector is returned itself)."""
    tensors = _tensor_list(tensors)
    for t in tensors:
        _check_vector(t)
    if len(tensors) == 1:
        return tensors[0]
    return F.stack([F.flatten(g) for g in meshgrid(*tensors, indexing="ij")], 1)


def unravel_index(indices: Tensor, shape) -> tuple:
    """torch.unravel_index (Python in torch): each flat index's coordinates in `shape`, one
    tensor per dimension."""
    if isinstance(indices, dtypes.DType):  # torch calls indices.is_complex(): a dtype's is a bool
        raise errors.type_error("'bool' object is not callable")
    if not isinstance(indices, Tensor):  # torch's first use of it
        raise errors.TorchError("AttributeError", f"'{errors.type_name(indices)}' object has no "
                                "attribute 'is_complex'")
    if indices.dtype.category != dtypes.INTEGRAL:
        raise errors.type_error(f"expected 'indices' to be integer dtype, but got {indices.dtype!r}")
    if isinstance(shape, int) and not isinstance(shape, bool) or type(shape) is bool:
        shape = (shape,)
    elif not isinstance(shape, (tuple, list, str, range)):
        raise errors.type_error("expected 'shape' to be int or sequence of ints, but got "
                                f"{_class_of(shape)}")
    for size in shape:
        if not isinstance(size, int):
            raise errors.type_error("expected 'shape' sequence to only contain ints, but got "
                                    f"{_class_of(size)}")
    if any(size < 0 for size in shape):
        raise errors.value_error(f"'shape' cannot have negative values, but got {tuple(shape)}")
    coefs = [math.prod(shape[d + 1:]) for d in range(len(shape))]
    flat = F.unsqueeze(indices, -1)
    coordinates = F.remainder(F.floor_divide(flat, Tensor(np.array(coefs, dtype=np.int64), dtypes.int64)),
                              Tensor(np.array(shape, dtype=np.int64), dtypes.int64))
    return F.unbind(coordinates, -1)


def _class_of(value) -> str:
    name = "torch.Tensor" if isinstance(value, Tensor) else errors.type_name(value)
    return f"<class '{name}'>"


def combinations(a: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """torch's combinations: the r-fold ij meshgrid of `a`, each grid's entries where the
    indices increase (or never decrease, with replacement) kept, stacked as columns."""
    _check_vector(a)
    if r < 0:
        raise errors.runtime(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return F.zeros_of((0,), a.dtype)
    indices = np.indices((a.shape[0],) * r)
    ordered = np.less_equal if with_replacement else np.less
    keep = np.all(ordered(indices[:-1], indices[1:]), axis=0)
    mask = Tensor(keep, dtypes.bool_)
    return F.stack([masked_select(g, mask) for g in meshgrid(*([a] * r), indexing="ij")], 1)


def block_diag(*tensors) -> Tensor:
    tensors = _tensor_list(tensors)
    if not tensors:
        return F.zeros_of((1, 0), STATE.default_dtype)
    for i, t in enumerate(tensors):
        if t.ndim > 2:
            raise errors.runtime(f"torch.block_diag: Input tensors must have 2 or fewer "
                                 f"dimensions. Input {i} has {t.ndim} dimensions")
    return apply(OPS["block_diag"], *tensors, shapes=tuple(t.shape for t in tensors))


def broadcast_tensors(*tensors) -> tuple:
    tensors = _tensor_list(tensors)
    shape = ()
    for t in tensors:
        shape = F.broadcast_shape(shape, t.shape)
    return tuple(t if t.shape == shape else F.expand(t, shape) for t in tensors)


__all__ += ["cartesian_prod", "combinations", "block_diag", "roll", "rot90", "diff", "tile", "repeat_interleave", "swapaxes",
            "select_index", "unflatten", "fliplr", "flipud", "broadcast_to", "broadcast_tensors",
            "unravel_index"]

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
declare("unflatten", unflatten, _UNFLATTEN, variants="torch")
declare("unflatten", unflatten_method, python="self, dim, sizes", variants="method")
declare("fliplr", fliplr, "fliplr(Tensor self)")
declare("flipud", flipud, "flipud(Tensor self)")
declare("broadcast_to", broadcast_to, "broadcast_to(Tensor self, int[] size)")
declare("broadcast_tensors", broadcast_tensors, python="*tensors", variants="torch")
declare("block_diag", block_diag, python="*tensors", variants="torch")
declare("unravel_index", unravel_index, python="indices, shape", variants="torch")
declare("cartesian_prod", cartesian_prod, python="*tensors", variants="torch")
declare("combinations", combinations,
        "combinations(Tensor self, int r=2, bool with_replacement=False)", variants="torch")


# ---- clamping, fmod, nan_to_num ------------------------------------------------------------------

def _where_zero(condition: Tensor, g: Tensor) -> Tensor:
    return F.where(condition, g, F.scalar_tensor(0.0, g.dtype))


for _bound, _pick, _keep, _moved in (("min", pointwise_order.at_least, "ge", "lt"),
                                     ("max", pointwise_order.at_most, "le", "gt")):
    defop(f"clamp_{_bound}", f"Clamp{_bound.capitalize()}Backward0", _pick, save=(0,),
          vjp=(lambda g, a, b, keep=_keep: _where_zero(F.compare(keep, a, b), g),), jvp=AS_VJP,
          refuses=(f"clamp_{_bound}_scalar_cpu", (dtypes.BOOL,)))
    pointwise_op(f"clamp_{_bound}.Tensor", f"Clamp{_bound.capitalize()}Backward1", _pick,
                 save=(0, 1),
                 vjp=(lambda g, a, b, keep=_keep: _where_zero(F.compare(keep, a, b), g),
                      lambda g, a, b, moved=_moved: _where_zero(F.compare(moved, a, b), g)),
                 jvp=lambda t, a, b, out, keep=_keep: F.where(F.compare(keep, a, b), t[0], t[1]))


def _clamp_bound(which: str):
    def function(a: Tensor, bound) -> Tensor:
        if isinstance(bound, Tensor):
            F.broadcast_shape(a.shape, bound.shape)
            return apply(OPS[f"clamp_{which}.Tensor"], a, bound)
        return apply(OPS[f"clamp_{which}"], a, bound)
    function.__name__ = f"clamp_{which}"
    return function


clamp_min, clamp_max = _clamp_bound("min"), _clamp_bound("max")

defop("fmod.Scalar", "FmodBackward0", float_fmod.fmod, vjp=lambda g, a, b: g)
pointwise_op("fmod.Tensor", "FmodBackward1", float_fmod.fmod, save=(0, 1), save_for=((), (0, 1)),
             vjp=(lambda g, a, b: g,
                  lambda g, a, b: F.mul(F.neg(g), F.div(a, b, rounding_mode="trunc"))))


def fmod(a: Tensor, other) -> Tensor:
    F.check_not_bool("fmod_cpu", a, other)
    F.check_integer_division(a, other)
    if isinstance(other, Tensor):
        F.broadcast_shape(a.shape, other.shape)
        return apply(OPS["fmod.Tensor"], a, other)
    return apply(OPS["fmod.Scalar"], a, other)


def _nan_to_num(a, nan, posinf, neginf):
    if a.dtype.kind != "f":
        return a.copy()
    largest = dtypes.float_max(STATE.reduced_kernel) if STATE.reduced_kernel else \
        np.finfo(a.dtype).max  # (of the dtype computed in float32, if reduced)
    return np.nan_to_num(a, nan=0.0 if nan is None else nan,
                         posinf=largest if posinf is None else posinf,
                         neginf=-largest if neginf is None else neginf)


defop("nan_to_num", "NanToNumBackward0", _nan_to_num, promote="none", save=(0,),
      vjp=lambda g, a, nan, posinf, neginf: F.mul(g, F.logical_not(
          F.logical_or(F.isinf(a), F.isnan(a)))))


def nan_to_num(a: Tensor, nan=None, posinf=None, neginf=None) -> Tensor:
    return apply(OPS["nan_to_num"], a, nan=nan, posinf=posinf, neginf=neginf)


# ---- masked_select, take, index_fill, scatter ------------------------------------------------------

def _masked_scatter(a, mask, source):
    shape = np.broadcast_shapes(a.shape, mask.shape)
    out = np.broadcast_to(a, shape).copy()
    mask = np.broadcast_to(mask, shape)
    out[mask] = source.reshape(-1)[:int(mask.sum())]
    return out


def _masked_scatter_backward(g, mask, sizes, grad_sizes):
    """The source's gradient: g's values where mask holds, in order, then zeros, in its shape."""
    picked = np.broadcast_to(g, np.broadcast_shapes(g.shape, mask.shape))[
        np.broadcast_to(mask, np.broadcast_shapes(g.shape, mask.shape))]
    out = np.zeros(int(np.prod(sizes)), g.dtype)
    out[:picked.size] = picked
    return out.reshape(sizes)


def _masked_scatter_source_grad(g, mask, sizes):
    return F.apply_op("masked_scatter_backward", g, mask, sizes=sizes, grad_sizes=g.shape)


defop("masked_select", "MaskedSelectBackward0",
      lambda a, mask: np.broadcast_to(a, np.broadcast_shapes(a.shape, mask.shape))[
          np.broadcast_to(mask, np.broadcast_shapes(a.shape, mask.shape))],
      promote="none", save=(0, 1), vjp=(lambda g, a, mask: F.sum_to(F.apply_op(
          "masked_scatter", F.zeros_of(np.broadcast_shapes(a.shape, mask.shape), g.dtype), mask,
          g, sizes=g.shape), a.shape), None), jvp=LINEAR)
defop("masked_scatter_backward", "MaskedScatterBackwardBackward0", _masked_scatter_backward,
      promote="none", save=(1,), vjp=(lambda gg, g, mask, sizes, grad_sizes: F.apply_op(
          "masked_scatter", F.zeros_of(grad_sizes, gg.dtype), mask, gg, sizes=gg.shape), None),
      jvp=LINEAR)
defop("masked_scatter", "MaskedScatterBackward0",
      lambda a, mask, source, sizes: _masked_scatter(a, mask, source), promote="none",
      save=(1,), vjp=(lambda g, a, mask, source, sizes: F.masked_fill(g, mask, 0), None,
                      lambda g, a, mask, source, sizes: _masked_scatter_source_grad(
                          g, mask, sizes)))


def masked_select(a: Tensor, mask: Tensor) -> Tensor:
    if mask.dtype is not dtypes.bool_:
        raise errors.runtime("masked_select: expected BoolTensor for mask")
    vmap_batched.refuse(mask, vmap_batched.MASKED_SELECT)
    F.broadcast_shape(mask.shape, a.shape)  # torch expands the mask and self in that order
    return apply(OPS["masked_select"], a, mask)


def masked_scatter(a: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """source's values, in order, where mask (broadcast with self) holds: torch's checks of
    masked_scatter_ after the broadcast."""
    F.broadcast_shape(mask.shape, a.shape)
    return _masked_scattered(a, mask, source)


def _masked_scattered(a: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    if a.dtype is not source.dtype:
        raise errors.runtime(f"masked_scatter: expected self and source to have same dtypes but "
                             f"got{a.dtype.scalar_name} and {source.dtype.scalar_name}")
    if mask.dtype is not dtypes.bool_:
        raise errors.runtime(f"masked_scatter_ only supports boolean masks, but got mask with "
                             f"dtype {mask.dtype.scalar_name}")
    if int(np.count_nonzero(np.broadcast_to(mask.data, np.broadcast_shapes(
            a.shape, mask.shape)))) > source.numel():
        raise errors.runtime("Number of elements of source < number of ones in mask")
    return apply(OPS["masked_scatter"], a, mask, source, sizes=source.shape)


def _masked_scatter_in_place(t: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """masked_scatter_: the mask expands to self's shape (torch's expand errors otherwise, a
    mask of more dimensions named by its C++ type)."""
    if mask.ndim > t.ndim:
        raise errors.runtime(
            f"expand({mask.dtype.type_string}{{{F.size_list(mask.shape)}}}, "
            f"size={F.size_list(t.shape)}): the number of sizes provided ({t.ndim}) must be "
            f"greater or equal to the number of dimensions in the tensor ({mask.ndim})")
    if mask.shape != t.shape:
        F.expand(mask, t.shape)
    return _masked_scattered(t, mask, source)


def _put(a, source, index, accumulate, source_shape=None):
    out = a.copy().reshape(-1)
    if accumulate:
        np.add.at(out, index.reshape(-1), source.reshape(-1))
    else:
        out[index.reshape(-1)] = source.reshape(-1)
    return out.reshape(a.shape)


defop("take", "TakeBackward0", lambda a, index, sizes: a.reshape(-1)[index], promote="none",
      saves_params=True, vjp=lambda g, a, index, sizes: F.apply_op(
          "put", F.zeros_of(sizes, g.dtype), g, index=index, accumulate=True), jvp=LINEAR)
# source_shape: the shape of a source with as many elements as the index but another shape
defop("put", "PutBackward0", _put, promote="none", saves_params=True,
      vjp=(lambda g, a, source, index, accumulate, source_shape=None: g if accumulate else
           F.apply_op("put", g, F.zeros_of(index.shape, g.dtype), index=index, accumulate=False),
           lambda g, a, source, index, accumulate, source_shape=None: F.reshape(
               F.apply_op("take", g, index=index, sizes=g.shape),
               index.shape if source_shape is None else source_shape)), jvp=LINEAR)


def take(a: Tensor, index: Tensor) -> Tensor:
    F.check_long_index("take", index)
    result = apply(OPS["take"], a, index=_flat_positions(index, a.numel()), sizes=a.shape)
    return autograd.save_also(result, index)


def _flat_positions(index: Tensor, count: int) -> np.ndarray:
    """take's and put_'s flat positions into `count` elements (negative ones from the end), or
    their out-of-range error naming the first bad index."""
    positions = index.data.astype(np.int64)
    bad = positions[(positions >= count) | (positions < -count)]
    if bad.size:
        raise errors.index_error(f"out of range: tried to access index {bad.flat[0]} on a "
                                 f"tensor of {count} elements.")
    return positions % max(count, 1)


def put(a: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """ATen's put_ checks in its order (index dtype, source dtype, counts, then bounds in the
    kernel), then `source` written (or added) at the flat positions `index`."""
    F.check_long_index("put_", index)
    if a.dtype is not source.dtype:
        raise errors.runtime(f"put_(): self and source expected to have the same dtype, but got "
                             f"self.dtype = {a.dtype.scalar_name} and source.dtype = "
                             f"{source.dtype.scalar_name}")
    if source.numel() != index.numel():
        raise errors.index_error(f"put_(): Expected source and index to have the same number of "
                                 f"elements, but got source.numel() = {source.numel()}, "
                                 f"index.numel() = {index.numel()}")
    positions = _flat_positions(index, a.numel())
    shape = {} if source.shape == index.shape else {"source_shape": source.shape}
    return autograd.save_also(apply(OPS["put"], a, source, index=positions, accumulate=accumulate,
                                    **shape), index)


def _index_fill_scalar(a, dim, index, value):
    out = a.copy()
    key = [slice(None)] * out.ndim
    if out.ndim:
        key[dim] = index
        out[tuple(key)] = value
    else:
        out[...] = value
    return out


defop("index_fill.int_Scalar", "IndexFillBackward0", _index_fill_scalar, promote="none",
      saves_params=True, vjp=lambda g, a, dim, index, value: F.apply_op(
          "index_fill.int_Scalar", g, dim=dim, index=index, value=0),
      jvp=(lambda t, a, dim, index, value, out: F.apply_op(
          "index_fill.int_Scalar", t, dim=dim, index=index, value=0),))


def index_fill(a: Tensor, dim: int, index: Tensor, value) -> Tensor:
    if isinstance(value, Tensor) and value.ndim:  # index_fill.int_Tensor checks it first
        raise errors.runtime("index_fill_ only supports a 0-dimensional value tensor, but got "
                             f"tensor with {value.ndim} dimension(s).")
    if index.dtype is not dtypes.int64:  # before the dim is wrapped, as index_fill_ checks
        raise errors.index_error("index_fill_(): Expected dtype int64 for index.")
    d = F.wrap_dim(dim, a.ndim)
    if index.ndim > 1:
        raise errors.index_error("Index has to be a vector/scalar")
    positions = index.data.reshape(-1).astype(np.int64)
    size = a.shape[d] if a.ndim else 1
    bad = positions[(positions >= size) | (positions < -size)]
    if bad.size:
        raise errors.index_error(f"index {bad[0]} is out of bounds for dimension {d} with size "
                                 f"{size}")
    if isinstance(value, Tensor):
        result = F.apply_op("index_fill.int_Tensor", a, Tensor(positions % size, dtypes.int64),
                            F.to_dtype(value, a.dtype), dim=d)
    else:
        result = apply(OPS["index_fill.int_Scalar"], a, dim=d, index=positions % size, value=value)
    return autograd.save_also(result, index)


def _scatter_value(a, index, dim, value):
    out = a.copy()
    F.scatter_into(out, index, dim, value)
    return out


def _scatter_reduce(a, src, index, dim, reduce):
    out = a.copy()
    F.scatter_into(out, index, dim, src, np.add if reduce == "add" else np.multiply)
    return out


defop("scatter.value", "ScatterBackward1", _scatter_value, promote="none", saves_params=True,
      vjp=lambda g, a, index, dim, value: F.apply_op("scatter.value", g, index=index, dim=dim,
                                                     value=0),
      jvp=(lambda t, a, index, dim, value, out: F.apply_op("scatter.value", t, index=index,
                                                           dim=dim, value=0),))
defop("scatter.reduce", "NotImplemented", _scatter_reduce,
      name="torch::autograd::NotImplemented", promote="none", saves_params=True,
      vjp=(not_implemented("aten::scatter"), None))

SCATTER_REDUCE_WARNING = triggered(
    "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a "
    "future PyTorch release. Use torch.scatter_reduce instead for more reduction options.",
    "aten/src/ATen/native/TensorAdvancedIndexing.cpp", 225)


def scatter_op(a: Tensor, dim: int, index: Tensor, src=None, value=None, reduce=None) -> Tensor:
    """torch.scatter / Tensor.scatter: from a tensor `src` or a number `value`, optionally
    reducing with 'add' or 'multiply'."""
    d = F.wrap_dim(dim, a.ndim)
    tensor_src = src if isinstance(src, Tensor) else None
    if reduce is not None and tensor_src is not None:
        STATE.warn("UserWarning", SCATTER_REDUCE_WARNING, once=True)
    F.scatter_checks(a, d, index, tensor_src)
    if reduce is not None and reduce not in ("add", "multiply"):
        raise errors.runtime("reduce argument must be either add or multiply.")
    positions = F.scatter_positions(a, d, index)
    if reduce is None and isinstance(src, Tensor):
        result = F.scatter(a, d, Tensor(positions, dtypes.int64), src)
    elif reduce is None:
        result = apply(OPS["scatter.value"], a, index=positions, dim=d, value=value)
    elif tensor_src is not None:
        result = apply(OPS["scatter.reduce"], a, src, index=positions, dim=d, reduce=reduce)
    else:
        result = apply(OPS["scatter.reduce"], a, index=positions, src=value, dim=d, reduce=reduce)
    return autograd.save_also(result, index)


def _scatter_entry(a, dim, index, src, reduce=None):
    if isinstance(src, Tensor):
        return scatter_op(a, dim, index, src=src, reduce=reduce)
    return scatter_op(a, dim, index, value=src, reduce=reduce)


def vander(x: Tensor, N=None, increasing: bool = False) -> Tensor:
    """ATen's vander: filled with ones, the columns past the first set to x and then to their
    cumulative product in place (so its backward fails as torch's does), flipped unless
    `increasing`; integers come out as int64."""
    if x.ndim != 1:
        raise errors.runtime("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise errors.runtime("N must be non-negative.")
    dtype = x.dtype if x.dtype.is_floating_point else dtypes.int64
    result = Tensor(np.empty((x.shape[0], n), dtype.np), dtype)
    if n > 0:
        F.fill_(result, 1)
    if n > 1:
        F.copy_(F.slice_dim(result, 1, 1, n, 1), F.unsqueeze(x, 1))
        tail = F.slice_dim(result, 1, 1, n, 1)
        F.copy_(tail, F.cumprod(tail, 1))
    return result if increasing else F.flip(result, (1,))


def linalg_vander(x: Tensor, N=None) -> Tensor:
    """ATen's linalg_vander: a column of ones, then the cumulative products of x repeated
    N - 1 times (integers come out as int64, as cumprod makes them)."""
    if x.dtype not in (dtypes.float32, dtypes.float64) and x.dtype.category != dtypes.INTEGRAL:
        raise errors.runtime("linalg.vander supports floating point, complex, and integer "
                             f"tensors, but got {x.dtype.scalar_name}")
    x = F.unsqueeze(x, -1) if x.ndim == 0 else x
    shape = list(x.shape)
    n = shape[-1] if N is None else N
    if n <= 1:
        raise errors.runtime("N must be greater than 1.")
    result = F.cumprod(F.expand(F.unsqueeze(x, -1), (*shape, n - 1)), -1)
    ones = Tensor(np.ones((*shape, 1), result.dtype.np), result.dtype)
    return F.cat([ones, result], -1)


_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")
_ALIASES = {"max": "amax", "min": "amin"}  # ATen's get_reduction_enum takes these too
_COMBINE = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum,
            "amin": np.minimum}


def _identity(dtype: np.dtype, reduce: str):
    """What scatter_reduce puts where src lands when self is left out."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "f":
        return -np.inf if reduce == "amax" else np.inf
    if dtype.kind == "b":
        return reduce == "amin"
    info = np.iinfo(dtype)
    return info.min if reduce == "amax" else info.max


def scatter_reduce_kernel(a, src, index, dim, reduce, include_self):
    """ATen's scatter_reduce.two on the CPU: src combined in order into self (or into the
    reduction's identity where self is left out); a mean divides by how many it combined."""
    reduce = _ALIASES.get(reduce, reduce)
    out = a.copy()
    if not include_self:
        F.scatter_into(out, index, dim, _identity(a.dtype, reduce))
    F.scatter_into(out, index, dim, src, _COMBINE[reduce])
    if reduce == "mean":
        count = np.full(a.shape, 1 if include_self else 0, a.dtype)
        F.scatter_into(count, index, dim, np.ones(src.shape, a.dtype), np.add)
        count[count == 0] = 1
        out = out / count if a.dtype.kind == "f" else np.floor_divide(out, count)
    return out.astype(a.dtype)


def scatter_reduce_backward(g, a, src, index, dim, reduce, include_self, out,
                            row="scatter_reduce.two", clear=None):
    """torch's scatter_reduce_backward (and index_reduce_backward, whose index is expanded to
    src's shape, whose `row` is index_reduce and which `clear`s self's grad where the index
    points by its own op): (grad for self, grad for src)."""
    positions = Tensor(index, dtypes.int64)

    def again(start, values):
        return apply(OPS[row], start, values, index=index, dim=dim,
                     reduce=reduce, include_self=include_self)
    if reduce == "sum":
        grad_self, grad_src = g, F.gather(g, dim, positions)
    elif reduce == "prod":
        masked_self = F.masked_fill(a, F.compare("eq", a, 0), 1)
        grad_self = F.div(F.mul(g, again(masked_self, src)), masked_self)
        src_zero = F.compare("eq", src, 0)
        zeros = F.gather(F.scatter_add(F.zeros_for(a), dim, positions, F.cast(src_zero, a.dtype)),
                         dim, positions)
        single_zero = F.logical_and(src_zero, F.compare("eq", zeros, 1))
        masked_src_result = again(a, F.masked_fill(src, single_zero, 1))
        grad_src = F.where(single_zero, F.gather(F.mul(g, masked_src_result), dim, positions),
                           F.div(F.gather(F.mul(g, out), dim, positions),
                                 F.masked_fill(src, src_zero, 1)))
    elif reduce == "mean":
        count = F.ones_for(g) if include_self else F.zeros_for(g)
        count = F.scatter_add(count, dim, positions, F.ones_for(src))
        count = F.masked_fill(count, F.compare("eq", count, 0), 1)
        grad_self = F.div(g, count)
        grad_src = F.div(F.gather(g, dim, positions), F.gather(count, dim, positions))
    elif reduce not in _REDUCTIONS:  # the forward's aliases "max" and "min"
        raise errors.runtime("Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', "
                             f"'amin' but got {reduce}.")
    else:
        value = F.gather(out, dim, positions)
        self_is_result = F.compare("eq", a, out)
        src_is_result = F.compare("eq", src, value)
        shares = F.scatter_add(F.cast(self_is_result, a.dtype), dim, positions,
                               F.cast(src_is_result, a.dtype))
        distributed = F.div(g, shares)
        grad_self = F.mul(self_is_result, distributed)
        grad_src = F.mul(src_is_result, F.gather(distributed, dim, positions))
    if not include_self:
        grad_self = F.apply_op("scatter.value", grad_self, index=index, dim=dim, value=0) \
            if clear is None else clear(grad_self)
    return grad_self, grad_src


defop("scatter_reduce.two", "ScatterReduceBackward0", scatter_reduce_kernel, promote="none",
      saves_params=True, save=(0, 1, RESULT),
      vjp=(lambda g, a, src, index, dim, reduce, include_self, out:
           scatter_reduce_backward(g, a, src, index, dim, reduce, include_self, out)[0],
           lambda g, a, src, index, dim, reduce, include_self, out:
           scatter_reduce_backward(g, a, src, index, dim, reduce, include_self, out)[1]))


def scatter_reduce(a: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    d = F.wrap_dim(dim, a.ndim)
    F.scatter_checks(a, d, index, src)
    if reduce not in _REDUCTIONS and reduce not in _ALIASES:
        raise errors.runtime("reduce argument must be either sum, prod, mean, amax or amin, got "
                             f"{reduce}")
    positions = F.scatter_positions(a, d, index)
    return autograd.save_also(apply(OPS["scatter_reduce.two"], a, src, index=positions, dim=d,
                                    reduce=reduce, include_self=include_self), index)


def _in_place(function):
    def method(t: Tensor, *args, **kwargs) -> Tensor:
        return F.apply_inplace(t, lambda self: function(self, *args, **kwargs))
    method.__name__ = function.__name__ + "_"
    return method


masked_fill_ = _in_place(lambda t, mask, value: F.masked_filled(t, mask, value))
masked_scatter_ = _in_place(_masked_scatter_in_place)
index_fill_ = _in_place(index_fill)
scatter_ = _in_place(_scatter_entry)
scatter_reduce_ = _in_place(scatter_reduce)
put_ = _in_place(put)

__all__ += ["clamp_min", "clamp_max", "fmod", "nan_to_num", "masked_select", "masked_scatter", "take",
            "index_fill", "scatter_op", "masked_fill_",
            "masked_scatter_", "index_fill_", "scatter_", "SCATTER_REDUCE_WARNING", "scatter_reduce",
            "scatter_reduce_", "vander", "put", "put_", "scatter_reduce_kernel",
            "scatter_reduce_backward"]

for _which, _function in (("min", clamp_min), ("max", clamp_max)):
    declare(f"clamp_{_which}", _function,
            f"clamp_{_which}(Tensor self, Tensor {_which}, *, Tensor? out=None)",
            f"clamp_{_which}(Tensor self, Scalar {_which}, *, Tensor? out=None)")
declare("fmod", fmod, "fmod(Tensor self, Tensor other, *, Tensor? out=None)",
        "fmod(Tensor self, Scalar other, *, Tensor? out=None)")
declare("nan_to_num", nan_to_num, "nan_to_num(Tensor self, float? nan=None, float? posinf=None, "
        "float? neginf=None, *, Tensor? out=None)")
declare("masked_select", masked_select,
        "masked_select(Tensor self, Tensor mask, *, Tensor? out=None)")
declare("masked_scatter", masked_scatter,
        "masked_scatter(Tensor self, Tensor mask, Tensor source)")
declare("masked_scatter_", masked_scatter_,
        "masked_scatter_(Tensor self, Tensor mask, Tensor source)", variants="method")
declare("take", take, "take(Tensor self, Tensor index, *, Tensor? out=None)")
declare("put", put, "put(Tensor self, Tensor index, Tensor source, bool accumulate=False)")
declare("put_", put_, "put_(Tensor self, Tensor index, Tensor source, bool accumulate=False)",
        variants="method")
declare("index_fill", index_fill, "index_fill(Tensor self, int dim, Tensor index, Tensor value)",
        "index_fill(Tensor self, int dim, Tensor index, Scalar value)")
_INDEX_FILL_METHOD = ("index_fill_(Tensor self, int dim, Tensor index, Tensor value)",
                      "index_fill_(Tensor self, int dim, Tensor index, Scalar value)")
declare("index_fill_", index_fill_, *_INDEX_FILL_METHOD, variants="method")
declare("scatter", _scatter_entry,
        "scatter(Tensor self, int dim, Tensor index, Tensor src, *, Tensor? out=None)",
        "scatter(Tensor self, int dim, Tensor index, Tensor src, *, str reduce, Tensor? out=None)",
        "scatter(Tensor self, int dim, Tensor index, Scalar value, *, Tensor? out=None)",
        "scatter(Tensor self, int dim, Tensor index, Scalar value, *, str reduce, "
        "Tensor? out=None)")
declare("scatter_", scatter_,
        "scatter_(Tensor self, int dim, Tensor index, Tensor src)",
        "scatter_(Tensor self, int dim, Tensor index, Tensor src, *, str reduce)",
        "scatter_(Tensor self, int dim, Tensor index, Scalar value)",
        "scatter_(Tensor self, int dim, Tensor index, Scalar value, *, str reduce)",
        variants="method")
declare("vander", linalg_vander, "vander(Tensor x, *, int? N=None)", variants="linalg")
declare("vander", vander, "vander(Tensor x, int? N=None, bool increasing=False)",
        variants="torch")
declare("scatter_reduce", scatter_reduce, "scatter_reduce(Tensor self, int dim, Tensor index, "
        "Tensor src, str reduce, *, bool include_self=True, Tensor? out=None)",
        method=("scatter_reduce(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, "
                "bool include_self=True)",))
declare("scatter_reduce_", scatter_reduce_, "scatter_reduce_(Tensor self, int dim, Tensor index, "
        "Tensor src, str reduce, *, bool include_self=True)", variants="method")
declare("masked_fill_", masked_fill_, "masked_fill_(Tensor self, Tensor mask, Tensor value)",
        "masked_fill_(Tensor self, Tensor mask, Scalar value)", variants="method")


# ---- queries and new_* factories -------------------------------------------------------------------

def strides(t: Tensor) -> tuple:
    """Element strides, as torch gives them."""
    return memory_format.element_strides(t.data)


def stride(t: Tensor, dim=None):
    if dim is None:
        return strides(t)
    return strides(t)[F.wrap_dim(dim, t.ndim)]


def storage_offset(t: Tensor) -> int:
    base = t._base
    if base is None or t.data.size == 0:
        return 0
    start = base.data.__array_interface__["data"][0]
    return (t.data.__array_interface__["data"][0] - start) // t.data.itemsize


def resize_(t: Tensor, size, memory_format=None) -> Tensor:
    """Tensor.resize_: the storage from the tensor's offset read with the new (contiguous)
    sizes, the storage grown (zeros where torch's memory is uninitialised) when too small; the
    same sizes leave the tensor as it is."""
    if t.requires_grad:
        raise errors.runtime("cannot resize variables that require grad")
    size = tuple(size)
    if any(n < 0 for n in size):
        raise errors.runtime("numel: integer multiplication overflow")
    if size == t.shape:
        return t
    owner = t._base if t._base is not None else t
    storage, offset = owner.data.reshape(-1), storage_offset(t)
    end = offset + int(np.prod(size))
    if end > storage.size or not owner.data.flags.c_contiguous:
        grown = np.zeros(max(end, storage.size), t.data.dtype)
        grown[:storage.size] = storage
        owner.data = grown if t._base is None else owner.data
        storage = grown
    t.data = storage[offset:end].reshape(size)
    t.bump_version()
    if t._base is not None:
        t._view_fn = lambda array: array.reshape(-1)[offset:end].reshape(size)
    return t


def _new(fill):
    def factory(t: Tensor, *size, dtype=None, device=None, requires_grad=False, layout=None,
                pin_memory=False) -> Tensor:
        dtype = dtype or t.dtype
        shape = F.storage(F.size_args(F.sizes_arg(size)), dtype)  # torch's size checks
        return Tensor(np.full(shape, fill, dtype=dtype.np), dtype,
                      requires_grad=bool(requires_grad))
    return factory


new_zeros, new_ones, new_empty = _new(0), _new(1), _new(0)


def new_full(t: Tensor, size, fill_value, dtype=None, device=None, requires_grad=False,
             layout=None, pin_memory=False) -> Tensor:
    dtype = dtype or t.dtype
    shape = F.storage(F.size_args(tuple(size)), dtype)
    dtypes.check_fill(fill_value, dtype, numel=math.prod(shape))
    return Tensor(np.full(shape, np.asarray(fill_value).astype(dtype.np)), dtype,
                  requires_grad=bool(requires_grad))


def new_tensor(t: Tensor, data, dtype=None, device=None, requires_grad=False, layout=None,
               pin_memory=False) -> Tensor:
    if isinstance(data, Tensor):  # torch's copy-construct warning, naming new_tensor
        STATE.warn("UserWarning", COPY_WARNING.replace("torch.tensor(", "tensor.new_tensor("))
        data = data.data
    return F.tensor(data, dtype or t.dtype, bool(requires_grad))


__all__ += ["strides", "stride", "storage_offset", "resize_", "new_zeros", "new_ones", "new_empty",
            "new_full", "new_tensor"]
_NEW = "dtype: ScalarType?=None, device=None, requires_grad=False, layout=None, pin_memory=False"
_NEW_OPTIONS = ("*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
                "bool? pin_memory=False, bool? requires_grad=False")
for _name, _function in (("new_zeros", new_zeros), ("new_ones", new_ones),
                         ("new_empty", new_empty)):
    declare(_name, _function, f"{_name}(Tensor self, int[] size, {_NEW_OPTIONS})",
            variants="method")
declare("new_full", new_full, f"new_full(Tensor self, int[] size, Scalar fill_value, {_NEW_OPTIONS})",
        variants="method")
declare("new_tensor", new_tensor, python="self, data, *, " + _NEW, variants="method")
declare("stride", stride, "stride(Tensor self, int? dim=None)", variants="method")
declare("storage_offset", storage_offset, python="self", variants="method")
declare("resize_", resize_, "resize_(Tensor self, int[] size, *, MemoryFormat? memory_format=None)",
        variants="method")
declare("element_size", lambda t: t.dtype.itemsize, python="self", variants="method")
declare("nelement", lambda t: t.numel(), python="self", variants="method")
declare("is_floating_point", lambda t: t.dtype.is_floating_point, python="input")
declare("is_complex", lambda t: t.dtype.is_complex, python="input")
declare("is_tensor", lambda obj: isinstance(obj, Tensor), python="obj", variants="torch")
declare("is_inference", lambda t: t.inference, "is_inference(Tensor self)")


export(__name__, globals())
