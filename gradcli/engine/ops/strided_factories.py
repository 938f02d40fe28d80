"""empty_strided, empty_permuted and Tensor.new_empty_strided: new tensors in a given layout
(zeros where torch's memory is uninitialised)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import devices, dtypes, errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

_FACTORY_KEYWORDS = ("ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
                     "bool? pin_memory=False, bool? requires_grad=False")


def _new(array: np.ndarray, dtype: dtypes.DType, requires_grad) -> Tensor:
    if requires_grad and not dtype.differentiable:
        raise errors.runtime("Only Tensors of floating point and complex dtype can require "
                             "gradients")
    return Tensor(array, dtype, requires_grad=bool(requires_grad))


def _strided(size, stride, dtype: dtypes.DType, requires_grad) -> Tensor:
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise errors.runtime(f"dimensionality of sizes ({len(size)}) must match dimensionality "
                             f"of strides ({len(stride)})")
    if any(n < 0 for n in stride):
        raise errors.runtime(f"Storage size calculation overflowed with sizes={list(size)} and "
                             f"strides={list(stride)}")
    F.storage(size, dtype)  # torch's size checks
    needed = 0 if 0 in size else 1 + sum((n - 1) * st for n, st in zip(size, stride))
    storage = np.zeros(needed, dtype.np)
    array = np.lib.stride_tricks.as_strided(storage, size, [st * storage.itemsize
                                                            for st in stride])
    return _new(array, dtype, requires_grad)


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, pin_memory=False,
                  requires_grad=False) -> Tensor:
    devices.place_new(device)
    return _strided(size, stride, dtype or STATE.default_dtype, requires_grad)


def new_empty_strided(t: Tensor, size, stride, *, dtype=None, layout=None, device=None,
                      pin_memory=False, requires_grad=False) -> Tensor:
    devices.place(device)
    return _strided(size, stride, dtype or t.dtype, requires_grad)


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None,
                   pin_memory=False, requires_grad=False) -> Tensor:
    """A dense tensor whose dimensions lie in memory in the order `physical_layout` gives,
    outermost first."""
    devices.place_new(device)
    size, order = tuple(size), tuple(physical_layout)
    if len(size) != len(order):
        raise errors.runtime(f"Number of dimensions in size does not match the length of the "
                             f"physical_layout; i.e. len(size) = {len(size)} is not equal to "
                             f"len(physical_layout) = {len(order)}")
    seen = set()
    for i, d in enumerate(order):
        if not 0 <= d < len(size):
            raise errors.runtime(f"Dimension out of range (expected to be between 0 and "
                                 f"{len(size) - 1}, but got {d} at index {i}).  NB: negative "
                                 "dims not currently supported; file an issue if you want it.")
        if d in seen:
            raise errors.runtime("Duplicate dim not allowed")
        seen.add(d)
    dtype = dtype or STATE.default_dtype
    physical = np.zeros(F.storage(tuple(size[d] for d in order), dtype), dtype.np)
    return _new(physical.transpose(np.argsort(order)), dtype, requires_grad)


declare("empty_strided", empty_strided, "empty_strided(int[] size, int[] stride, *, "
        f"{_FACTORY_KEYWORDS})", variants="torch")
declare("empty_permuted", empty_permuted, "empty_permuted(int[] size, int[] physical_layout, *, "
        f"{_FACTORY_KEYWORDS})", variants="torch")
declare("new_empty_strided", new_empty_strided, "new_empty_strided(Tensor self, int[] size, "
        f"int[] stride, *, {_FACTORY_KEYWORDS})", variants="method")
