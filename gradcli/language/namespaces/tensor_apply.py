"""Tensor.apply_ and Tensor.map_: a Python callable run on each element (CPU tensors only, as
torch's), its results written back in place without a new version."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.ops import shapes as S
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.coercions import tensor_scalar
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import type_name


def _refuse_grad(t: Tensor, name: str) -> None:
    if t.requires_grad:
        raise errors.runtime(f"Can't call {name}() on Variable that requires grad. Use "
                             f"var.detach().{name}() instead.")


def _number(value, complex_ok: bool):
    """The callable's result as the element torch unpacks from it."""
    if isinstance(value, Tensor):
        value = tensor_scalar(value)
    kinds = (bool, int, float, complex) if complex_ok else (bool, int, float)
    if not isinstance(value, kinds + (np.number, np.bool_)):
        raise errors.type_error(f"must be real number, not {type_name(value)}")
    return value


def _run(ctx, t: Tensor, fn, others: tuple) -> Tensor:
    """Each element of `t` replaced by fn(element, *the others' elements there)."""
    own = np.asarray(t.data)
    columns = [np.asarray(o.data).reshape(-1) for o in others]
    complex_ok = t.dtype.is_complex
    results = [_number(ctx.call(fn, [v.item(), *(c[i].item() for c in columns)], {}), complex_ok)
               for i, v in enumerate(own.reshape(-1))]
    values = np.array(results, dtype=object).astype(own.dtype).reshape(own.shape) \
        if results else own
    if isinstance(t.data, np.ndarray):
        np.copyto(t.data, values, casting="unsafe")
    else:
        t.data = np.array(values, t.dtype.np)
    return t


def apply_(ctx, t: Tensor, fn) -> Tensor:
    _refuse_grad(t, "apply_")
    return _run(ctx, t, fn, ())


def map_(ctx, t: Tensor, other, fn) -> Tensor:
    if not isinstance(other, Tensor):
        raise errors.type_error(f"map_(): argument 'other' (position 1) must be Tensor, not "
                                f"{type_name(other)}")
    _refuse_grad(t, "map_")
    if other.dtype is not t.dtype:
        raise errors.type_error(f"map_: expected {t.dtype.type_string} for 'other' (got "
                                f"{other.dtype.type_string})")
    return _run(ctx, t, fn, (S.expand(other, t.shape),))


TENSOR_APPLY = table(
    entry("apply_", apply_, "self, callable, /", context=True, style="exact",
          qualname="TensorBase.apply_"),
    # torch's parser: `other` checked before a missing callable is counted
    entry("map_", map_, "self, other: Tensor, callable", context=True, style="parser"),
)
