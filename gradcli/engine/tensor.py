"""The Tensor record: values, dtype, autograd fields and the version counter. No math lives here."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors


class VersionCounter:
    """Counts in-place writes; a view shares its base's counter, as in torch."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


class Tensor:
    """An n-dimensional array with torch's autograd metadata."""

    __slots__ = (
        "data", "dtype", "_requires_grad", "grad", "grad_fn", "output_nr", "_version_counter",
        "_base", "retains_grad", "_accumulator", "__weakref__",
    )

    def __init__(self, data: np.ndarray, dtype: dtypes.DType | None = None, *,
                 requires_grad: bool = False, grad_fn=None, output_nr: int = 0,
                 base: "Tensor | None" = None):
        self.dtype = dtype or dtypes.from_numpy(data.dtype)
        if data.dtype != self.dtype.np:
            data = data.astype(self.dtype.np)
        self.data = data
        self._requires_grad = requires_grad or grad_fn is not None
        self.grad: Tensor | None = None
        self.grad_fn = grad_fn
        self.output_nr = output_nr
        self._base = base
        self._version_counter = base._version_counter if base is not None else VersionCounter()
        self.retains_grad = False
        self._accumulator = None

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        if self.grad_fn is not None:
            if flag:
                return
            raise errors.runtime(
                "you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach().")
        if flag and not self.dtype.is_floating_point:
            raise errors.runtime(
                "only Tensors of floating point and complex dtype can require gradients")
        self._requires_grad = bool(flag)

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def _version(self) -> int:
        return self._version_counter.value

    def bump_version(self) -> None:
        self._version_counter.value += 1

    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    @property
    def ndim(self) -> int:
        return self.data.ndim

    def numel(self) -> int:
        return int(self.data.size)

    def is_view(self) -> bool:
        return self._base is not None

    def __repr__(self) -> str:  # for debugging; the language prints through engine.printing
        return f"Tensor({self.data!r}, dtype={self.dtype!r})"


def wrap(value, dtype: dtypes.DType) -> Tensor:
    """A new leaf tensor holding `value` (array-like) as `dtype`."""
    return Tensor(np.asarray(value, dtype=dtype.np), dtype)
