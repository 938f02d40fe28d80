"""Tensor attributes and methods reachable from the language: the only way into a tensor."""

from __future__ import annotations

from gradcli.engine import creation, errors, functional as F, grad_api, inplace
from gradcli.engine.tensor import Tensor
from gradcli.language.builtins import entry, table
from gradcli.language.values import Size


def _set_grad(t: Tensor, value) -> None:
    if value is not None:
        if not isinstance(value, Tensor):
            raise errors.type_error(f"assigned grad expected to be a Tensor or None but got grad "
                                    f"of type {type(value).__name__}")
        if value.shape != t.shape:
            raise errors.runtime(
                f"attempting to assign a gradient of size '[{', '.join(map(str, value.shape))}]' "
                f"to a tensor of size '[{', '.join(map(str, t.shape))}]'. Please ensure that the "
                "gradient and the tensor are the same size")
    t.grad = value


def _set_data(t: Tensor, value) -> None:
    if not isinstance(value, Tensor):
        raise errors.type_error(f"Variable data has to be a tensor, but got {type(value).__name__}")
    t.data, t.dtype = value.data, value.dtype


def _get_grad(t: Tensor):
    return t.grad


def _set_requires_grad(t: Tensor, flag) -> None:
    t.requires_grad = bool(flag)


# name -> (getter, setter or None)
TENSOR_ATTRS = {
    "grad": (_get_grad, _set_grad),
    "data": (F.detach, _set_data),
    "requires_grad": (lambda t: t.requires_grad, _set_requires_grad),
    "grad_fn": (lambda t: t.grad_fn, None),
    "is_leaf": (lambda t: t.is_leaf, None),
    "retains_grad": (lambda t: t.retains_grad, None),
    "shape": (lambda t: Size(t.shape), None),
    "dtype": (lambda t: t.dtype, None),
    "ndim": (lambda t: t.ndim, None),
    "output_nr": (lambda t: t.output_nr, None),
    "_version": (lambda t: t._version, None),
}


def _size(t: Tensor, dim=None):
    if dim is None:
        return Size(t.shape)
    return t.shape[F.normalize_dims(dim, t.ndim)[0]]


def _detach_(t: Tensor) -> Tensor:
    t.grad_fn, t._requires_grad = None, False
    return t


TENSOR_METHODS = table(
    entry("backward", grad_api.backward,
          "self, gradient=None, retain_graph=None, create_graph=False, inputs=None",
          qualname="Tensor.backward"),
    entry("sum", F.sum, "self, dim=None, keepdim=False, *, dtype=None"),
    entry("mean", F.mean, "self, dim=None, keepdim=False, *, dtype=None"),
    entry("exp", F.exp, "self"),
    entry("log", F.log, "self"),
    entry("sin", F.sin, "self"),
    entry("cos", F.cos, "self"),
    entry("sqrt", F.sqrt, "self"),
    entry("abs", F.abs, "self"),
    entry("neg", F.neg, "self"),
    entry("pow", F.pow, "self, exponent"),
    entry("add", F.add, "self, other, *, alpha=1"),
    entry("sub", F.sub, "self, other, *, alpha=1"),
    entry("mul", F.mul, "self, other"),
    entry("div", F.div, "self, other"),
    entry("item", grad_api.item, "self"),
    entry("detach", F.detach, "self"),
    entry("detach_", _detach_, "self"),
    entry("requires_grad_", grad_api.requires_grad_, "self, requires_grad=True"),
    entry("retain_grad", grad_api.retain_grad, "self"),
    entry("zero_", inplace.zero_, "self"),
    entry("size", _size, "self, dim=None"),
    entry("dim", lambda t: t.ndim, "self"),
    entry("numel", lambda t: t.numel(), "self"),
    entry("clone", lambda t: F.apply_op("clone", t), "self"),
    entry("tolist", lambda t: t.data.tolist(), "self"),
    entry("expand", lambda t, *size: F.expand(t, creation.size_args(size)), "self, *size"),
)
