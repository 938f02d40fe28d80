"""index_reduce: source's slices combined (prod, mean, amax or amin) into self's slices picked
by an index along a dimension; scatter_reduce's kernel and backward over the index expanded to
source's shape."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import OPS, RESULT, apply, defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.triggered import triggered

__all__ = ["index_reduce", "index_reduce_"]
_REDUCTIONS = ("prod", "mean", "amax", "amin")
BETA_WARNING = triggered("index_reduce() is in beta and the API may change at any time.",
                         "aten/src/ATen/native/TensorAdvancedIndexing.cpp", 1523)


def _backward(which: int):
    def vjp(g, a, source, index, dim, reduce, include_self, out):
        def clear(grad_self):  # index_fill over the index (the expanded one's line along dim)
            along = np.moveaxis(index, dim, 0).reshape(index.shape[dim], -1)
            positions = along[:, 0] if along.size else np.zeros(index.shape[dim], np.int64)
            return F.index_fill(grad_self, dim, F.tensor_from(positions), 0)
        return F.scatter_reduce_backward(g, a, source, index, dim, reduce, include_self, out,
                                         "index_reduce", clear)[which]
    return vjp


defop("index_reduce", "IndexReduceBackward0", F.scatter_reduce_kernel, promote="none",
      saves_params=True, save=(0, 1, RESULT), vjp=(_backward(0), _backward(1)))


def _checks(a: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str) -> int:
    """ATen's index_reduce meta checks, in their order; the wrapped dim."""
    if reduce not in _REDUCTIONS:
        raise errors.runtime(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                             f"amin but got {reduce}.")
    d = F.wrap_dim(dim, a.ndim)
    F.check_index_source("index_reduce_", a, d, index, source)
    return d


def index_reduce(a: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, *,
                 include_self: bool = True) -> Tensor:
    d = _checks(a, dim, index, source, reduce)
    STATE.warn("UserWarning", BETA_WARNING, once=True)
    positions = index.data.reshape(-1).astype(np.int64)
    size = a.shape[d] if a.ndim else 1
    if ((positions < 0) | (positions >= size)).any():
        raise errors.index_error("index out of range in self")
    if not source.ndim:  # a 0-dim self and source: as one element each
        one = F.reshape(a, (1,))
        return F.reshape(apply(OPS["index_reduce"], one, F.reshape(source, (1,)),
                               index=positions, dim=0, reduce=reduce,
                               include_self=include_self), ())
    along = [1] * source.ndim
    along[d] = positions.size
    expanded = np.broadcast_to(positions.reshape(along), source.shape).copy()
    return apply(OPS["index_reduce"], a, source, index=expanded, dim=d, reduce=reduce,
                 include_self=include_self)


def index_reduce_(t: Tensor, *args, **kwargs) -> Tensor:
    return F.apply_inplace(t, lambda self: index_reduce(self, *args, **kwargs))


declare("index_reduce", index_reduce, "index_reduce(Tensor self, int dim, Tensor index, "
        "Tensor source, str reduce, *, bool include_self=True, Tensor? out=None)",
        method=("index_reduce(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, "
                "bool include_self=True)",))
declare("index_reduce_", index_reduce_, "index_reduce_(Tensor self, int dim, Tensor index, "
        "Tensor source, str reduce, *, bool include_self=True)", variants="method")

export(__name__, globals())
