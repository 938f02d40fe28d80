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


export(__name__, globals())
