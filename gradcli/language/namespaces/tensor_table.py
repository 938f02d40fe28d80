"""Tensor attributes and methods reachable from the language: the only way into a tensor."""

from __future__ import annotations

from gradcli.engine import conversions, creation, devices, grad_api, hooks
from gradcli.engine.functions import F
from gradcli.engine.ops import inplace as inplace
from gradcli.engine.ops import selection as selection
from gradcli.engine.ops import shapes as S
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.builtins import entry, table
from gradcli.language.namespaces.declared_tables import layered
from gradcli.language.namespaces.math_table import TENSOR_MATH
from gradcli.language.runtime.frames import UserFunction
from gradcli.language.runtime.values import Size


# name -> (getter, setter or None)
TENSOR_ATTRS = {
    "grad": (grad_api.read_grad, grad_api.assign_grad),
    "data": (grad_api.read_data, grad_api.assign_data),
    "requires_grad": (lambda t: t.requires_grad, grad_api.set_requires_grad),
    "T": (S.reversed_dims, None),
    "mT": (S.matrix_transpose, None),
    "grad_fn": (lambda t: t.grad_fn, None),
    "is_leaf": (lambda t: t.is_leaf, None),
    "retains_grad": (lambda t: t.retains_grad, None),
    "shape": (lambda t: Size(t.shape), None),
    "dtype": (lambda t: t.dtype, None),
    "device": (lambda t: devices.CPU, None),
    "is_cuda": (lambda t: False, None),
    "ndim": (lambda t: t.ndim, None),
    "output_nr": (lambda t: t.output_nr, None),
    "_version": (lambda t: t._version, None),
    "_base": (lambda t: t._base, None),
    "nbytes": (lambda t: t.numel() * t.data.itemsize, None),
    "itemsize": (lambda t: t.data.itemsize, None),
}


def _register_hook(ctx, t: Tensor, hook) -> hooks.RemovableHandle:
    """The hook runs in the program (errors in it surface there); torch names it in its errors."""
    name = hook.name if isinstance(hook, UserFunction) else "hook"
    return hooks.register_hook(t, lambda grad: ctx.call(hook, [grad], {}), name)


def _size(t: Tensor, dim=None):
    if dim is None:
        return Size(t.shape)
    return t.shape[S.wrap_dim(dim, t.ndim)]


TENSOR_METHODS = layered(table(
    entry("backward", grad_api.backward,
          "self, gradient=None, retain_graph=None, create_graph=False, inputs=None",
          qualname="Tensor.backward"),
    entry("item", grad_api.item, "self"),
    entry("detach", F.detach, "self"),
    entry("detach_", grad_api.detach_, "self"),
    entry("requires_grad_", grad_api.requires_grad_, "self, requires_grad: bool=True"),
    entry("retain_grad", grad_api.retain_grad, "self"),
    entry("register_hook", _register_hook, "self, hook", context=True),
    entry("size", _size, "self, dim: int=None"),
    entry("dim", lambda t: t.ndim, "self"),
    entry("tolist", grad_api.tolist, "self"),
    entry("numpy", conversions.to_numpy, "self, *, force=False"),
    entry("cpu", lambda t: t, "self"),
    entry("cuda", lambda t, device: devices.place(device or "cuda"), "self, device=None"),
    # shapes and indexing
    entry("split", S.split, "self, split_size, dim=0"),
    entry("index_put", lambda t, indices, values, accumulate: selection.index_put(
        t, selection.index_put_key(indices), values, accumulate),
        "self, indices, values: Tensor, accumulate=False"),
    # in place
    entry("normal_", lambda t, mean, std, generator: creation.fill_random(t, "normal", mean, std),
          "self, mean=0, std=1, *, generator=None"),
    entry("uniform_", lambda t, low, high, generator: creation.fill_random(t, "uniform", low,
                                                                           high),
          "self, from_=0, to=1, *, generator=None"),
), TENSOR_MATH)
