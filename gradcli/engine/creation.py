"""Tensor factories: torch.tensor from nested data, ones/zeros/full, and the seeded random ones."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

FACTORY_GRAD_ERROR = "Only Tensors of floating point and complex dtype can require gradients"


def _leaf(array: np.ndarray, dtype: dtypes.DType, requires_grad: bool) -> Tensor:
    if requires_grad and not dtype.is_floating_point:
        raise errors.runtime(FACTORY_GRAD_ERROR)
    return Tensor(array, dtype, requires_grad=requires_grad)


def infer_dtype(data) -> dtypes.DType:
    """The dtype torch.tensor picks for nested Python data: bool < int64 < default float."""
    category, tensor_dtype = dtypes.BOOL, None
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, Tensor):
            tensor_dtype = item.dtype if tensor_dtype is None else dtypes.promote(tensor_dtype,
                                                                                  item.dtype)
        elif isinstance(item, bool):
            pass
        elif isinstance(item, int):
            category = max(category, dtypes.INTEGRAL)
        elif isinstance(item, float):
            category = dtypes.FLOATING
        else:
            raise errors.type_error(f"new(): invalid data type '{type(item).__name__}'")
    by_category = {dtypes.BOOL: dtypes.bool_, dtypes.INTEGRAL: dtypes.int64,
                   dtypes.FLOATING: STATE.default_dtype}
    if tensor_dtype is not None and tensor_dtype.category >= category:
        return tensor_dtype
    return by_category[category]


def _check_rectangular(data, depth: int = 0) -> None:
    if not isinstance(data, (list, tuple)):
        return
    lengths = [len(x) if isinstance(x, (list, tuple)) else None for x in data]
    if any(n is not None for n in lengths):
        first = lengths[0]
        for n in lengths:
            if n != first:
                got = n if n is not None else first
                expected = first if first is not None else n
                raise errors.value_error(
                    f"expected sequence of length {expected} at dim {depth + 1} (got {got})")
    for x in data:
        _check_rectangular(x, depth + 1)


def _values(data):
    if isinstance(data, Tensor):
        return data.data
    if isinstance(data, (list, tuple)):
        return [_values(x) for x in data]
    return data


def tensor(data, dtype: dtypes.DType | None = None, requires_grad: bool = False) -> Tensor:
    """torch.tensor: always a copy, dtype inferred from the data unless given."""
    if isinstance(data, Tensor):
        array = data.data.copy()
        dtype = dtype or data.dtype
    else:
        _check_rectangular(data)
        dtype = dtype or infer_dtype(data)
        array = np.array(_values(data), dtype=dtype.np)
    return _leaf(array.astype(dtype.np, copy=False), dtype, requires_grad)


def size_args(size: tuple) -> tuple[int, ...]:
    """Accept both ones(2, 3) and ones((2, 3)), as torch does."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        if s < 0:
            raise errors.runtime(
                f"Trying to create tensor with negative dimension {s}: [{', '.join(map(str, size))}]")
    return tuple(int(s) for s in size)


def full(size, fill_value, dtype=None, requires_grad: bool = False) -> Tensor:
    if dtype is None:
        dtype = dtypes.scalar_dtype(fill_value, STATE.default_dtype)
    return _leaf(np.full(size_args((size,)), fill_value, dtype=dtype.np), dtype, requires_grad)


def ones(*size, dtype=None, requires_grad: bool = False) -> Tensor:
    return full(size_args(size), 1, dtype or STATE.default_dtype, requires_grad)


def zeros(*size, dtype=None, requires_grad: bool = False) -> Tensor:
    return full(size_args(size), 0, dtype or STATE.default_dtype, requires_grad)


class RandomSource:
    """The default generator, created on first use so start-up stays light."""

    def __init__(self) -> None:
        self._generator = None

    @property
    def generator(self):
        if self._generator is None:
            from gradcli.engine.random import Generator
            self._generator = Generator()
        return self._generator

    def reset(self) -> None:
        self._generator = None


DEFAULT_GENERATOR = RandomSource()


def manual_seed(seed: int) -> None:
    DEFAULT_GENERATOR.generator.manual_seed(int(seed))


def _float_dtype(dtype):
    dtype = dtype or STATE.default_dtype
    return dtype


def randn(*size, dtype=None, requires_grad: bool = False) -> Tensor:
    dtype = _float_dtype(dtype)
    values = DEFAULT_GENERATOR.generator.normal(size_args(size), dtype.np)
    return _leaf(values, dtype, requires_grad)


def rand(*size, dtype=None, requires_grad: bool = False) -> Tensor:
    dtype = _float_dtype(dtype)
    values = DEFAULT_GENERATOR.generator.uniform(size_args(size), dtype.np)
    return _leaf(values, dtype, requires_grad)
