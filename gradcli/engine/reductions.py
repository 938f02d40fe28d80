"""torch-level reductions: sum, mean, prod, max/min, norms, var/std, logsumexp, cumsum/cumprod."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine.declarations import declare
from gradcli.engine import dtypes, errors
from gradcli.engine.ops.registry import OPS, apply
from gradcli.engine.tensor import Tensor

__all__ = ["sum", "mean", "prod", "amax", "amin", "max", "min", "argmax", "argmin", "norm",
           "vector_norm", "var", "std", "logsumexp", "cumsum", "cumprod", "ReturnTypes"]


class ReturnTypes(tuple):
    """A torch.return_types structseq, e.g. torch.return_types.max(values=..., indices=...)."""

    fields = ("values", "indices")

    def __new__(cls, name: str, values: Tensor, indices: Tensor):
        result = super().__new__(cls, (values, indices))
        result.name = name
        return result

    @property
    def values(self) -> Tensor:
        return self[0]

    @property
    def indices(self) -> Tensor:
        return self[1]


def dims_of(dim, ndim: int) -> tuple:
    """`dim` (int or sequence) as sorted-as-given non-negative dims, with torch's range error."""
    from gradcli.engine.functional import normalize_dims
    return normalize_dims(dim, ndim)


def _all_dims(dim) -> bool:
    return dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0)


def _scalar_name(dtype: dtypes.DType) -> str:
    return dtype.legacy_name.removesuffix("Tensor")


def sum(a: Tensor, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    if dim is None:
        return apply(OPS["sum"], a, sizes=a.shape, dtype=dtype)
    dims = () if _all_dims(dim) else dims_of(dim, a.ndim)
    return apply(OPS["sum.dim_IntList"], a, dim=dims, keepdim=keepdim, sizes=a.shape, dtype=dtype)


def mean(a: Tensor, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    out = dtype or a.dtype
    if not out.is_floating_point:
        raise errors.runtime(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {_scalar_name(out)}")
    if dim is None:
        return apply(OPS["mean"], a, sizes=a.shape, dtype=dtype)
    dims = () if _all_dims(dim) else dims_of(dim, a.ndim)
    return apply(OPS["mean.dim"], a, dim=dims, keepdim=keepdim, sizes=a.shape, dtype=dtype)


def prod(a: Tensor, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    if dim is None:
        return apply(OPS["prod"], a, dtype=dtype)
    return apply(OPS["prod.dim_int"], a, dim=dims_of(dim, a.ndim)[0], keepdim=keepdim, dtype=dtype)


def _check_nonempty(name: str, a: Tensor, dims: tuple) -> None:
    if a.numel() == 0:
        raise errors.index_error(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
            "the reduction dim with the 'dim' argument.")


def amax(a: Tensor, dim=(), keepdim: bool = False) -> Tensor:
    dims = () if _all_dims(dim) else dims_of(dim, a.ndim)
    _check_nonempty("amax", a, dims)
    return apply(OPS["amax"], a, dim=dims, keepdim=keepdim)


def amin(a: Tensor, dim=(), keepdim: bool = False) -> Tensor:
    dims = () if _all_dims(dim) else dims_of(dim, a.ndim)
    _check_nonempty("amin", a, dims)
    return apply(OPS["amin"], a, dim=dims, keepdim=keepdim)


def max(a: Tensor, dim=None, keepdim: bool = False):
    return _extreme("max", a, dim, keepdim)


def min(a: Tensor, dim=None, keepdim: bool = False):
    return _extreme("min", a, dim, keepdim)


def _extreme(name: str, a: Tensor, dim, keepdim: bool):
    """max()/min(): the whole tensor, (values, indices) along `dim`, or elementwise with a
    tensor."""
    from gradcli.engine import pointwise as P
    if isinstance(dim, Tensor):
        return P.maximum(a, dim) if name == "max" else P.minimum(a, dim)
    if dim is None:
        if a.numel() == 0:
            raise errors.runtime(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument.")
        return apply(OPS[name], a)
    axis = dims_of(dim, a.ndim)[0]
    indices = Tensor(_arg_extreme(name, a.data, axis, True), dtypes.int64)
    values, indices = apply(OPS[f"{name}.dim"], a, indices, dim=axis, keepdim=keepdim,
                            sizes=a.shape)
    return ReturnTypes(name, values, indices)


def _arg_extreme(name: str, array: np.ndarray, axis, keepdim: bool) -> np.ndarray:
    """Index of the first max (min) along `axis`, NaN counting as the extreme, like torch."""
    if array.ndim == 0:
        return np.zeros((), dtype=np.int64)
    pick = np.argmax if name == "max" else np.argmin
    if array.dtype.kind == "f" and np.isnan(array).any():
        flagged = np.isnan(array) if axis is not None else np.isnan(array.reshape(-1))
        found = np.argmax(flagged, axis=axis if axis is not None else 0)
        plain = pick(np.where(np.isnan(array), 0, array), axis=axis)
        has_nan = np.any(flagged, axis=axis if axis is not None else 0)
        result = np.where(has_nan, found, plain)
    else:
        result = pick(array, axis=axis)
    result = np.asarray(result, dtype=np.int64)
    return np.expand_dims(result, axis) if keepdim and axis is not None else result


def argmax(a: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    return _arg("max", a, dim, keepdim)


def argmin(a: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    return _arg("min", a, dim, keepdim)


def _arg(name: str, a: Tensor, dim, keepdim: bool) -> Tensor:
    if dim is None:
        index = _arg_extreme(name, a.data, None, False)
        if keepdim:
            index = index.reshape((1,) * a.ndim)
        return Tensor(index, dtypes.int64)
    axis = dims_of(dim, a.ndim)[0]
    if a.ndim == 0:
        return Tensor(np.zeros((), dtype=np.int64), dtypes.int64)
    return Tensor(_arg_extreme(name, a.data, axis, keepdim), dtypes.int64)


def vector_norm(a: Tensor, ord=2, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    if not a.dtype.is_floating_point:
        raise errors.runtime(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{_scalar_name(a.dtype)}")
    if dtype is not None:
        from gradcli.engine import conversions
        a = conversions.to_dtype(a, dtype)
    dims = None if _all_dims(dim) else dims_of(dim, a.ndim)
    return apply(OPS["linalg_vector_norm"], a, ord=float(ord), dim=dims, keepdim=keepdim)


def norm(a: Tensor, p="fro", dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    """torch.norm / Tensor.norm for vector norms (p a number, or 'fro' over at most two dims)."""
    if isinstance(p, str):
        if p != "fro":
            raise errors.runtime(f"linalg.vector_norm: ord must be a number, got {p}")
        p = 2
    if isinstance(dim, int):
        dim = (dim,)
    return vector_norm(a, p, dim, keepdim, dtype)


def _correction(unbiased, correction) -> float:
    if correction is not None:
        return correction
    return 1 if unbiased is None or unbiased else 0


def var(a: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    return _moment("var.correction", a, dim, unbiased, keepdim, correction)


def std(a: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    return _moment("std.correction", a, dim, unbiased, keepdim, correction)


def _moment(key: str, a: Tensor, dim, unbiased, keepdim: bool, correction) -> Tensor:
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if not a.dtype.is_floating_point:
        name = key.split(".")[0]
        raise errors.runtime(
            f"{name}(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {_scalar_name(a.dtype)}")
    dims = None if _all_dims(dim) else dims_of(dim, a.ndim)
    return apply(OPS[key], a, dim=dims, correction=_correction(unbiased, correction),
                 keepdim=keepdim)


def logsumexp(a: Tensor, dim, keepdim: bool = False) -> Tensor:
    dims = () if _all_dims(dim) else dims_of(dim, a.ndim)
    return apply(OPS["logsumexp"], a, dim=dims, keepdim=keepdim)


def cumsum(a: Tensor, dim, dtype=None) -> Tensor:
    return apply(OPS["cumsum"], a, dim=dims_of(dim, a.ndim)[0], dtype=dtype)


def cumprod(a: Tensor, dim, dtype=None) -> Tensor:
    return apply(OPS["cumprod"], a, dim=dims_of(dim, a.ndim)[0], dtype=dtype)


def reduced_numel(sizes: tuple, dims) -> int:
    """How many elements each output of a reduction over `dims` (None or () = all) combines."""
    if not dims or not sizes:
        return math.prod(sizes)
    return math.prod(sizes[d] for d in dims)


# ---- declarations: the public names of this area ------------------------------------------------

declare("sum", sum, "sum(Tensor self, *, ScalarType? dtype=None)",
        "sum(Tensor self, int[] dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None)",
        method=("sum(Tensor self, *, ScalarType? dtype=None)",
        "sum(Tensor self, int[] dim, bool keepdim=False, *, ScalarType? dtype=None)"))
declare("mean", mean, "mean(Tensor self, *, ScalarType? dtype=None, Tensor? out=None)",
        "mean(Tensor self, int[] dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None)",
        method=("mean(Tensor self, *, ScalarType? dtype=None)",
        "mean(Tensor self, int[] dim, bool keepdim=False, *, ScalarType? dtype=None)"))
declare("prod", prod, "prod(Tensor self, *, ScalarType? dtype=None)",
        "prod(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None)",
        method=("prod(Tensor self, *, ScalarType? dtype=None)",
        "prod(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None)"))
declare("amax", amax, "amax(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor? out=None)",
        method=("amax(Tensor self, int[1] dim=[], bool keepdim=False)",))
declare("amin", amin, "amin(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor? out=None)",
        method=("amin(Tensor self, int[1] dim=[], bool keepdim=False)",))
declare("max", max, "max(Tensor self, *, Tensor? out=None)",
        "max(Tensor self, Tensor other, *, Tensor? out=None)",
        "max(Tensor self, int dim, bool keepdim=False, *, Tensor[]? out=None)",
        method=("max(Tensor self)", "max(Tensor self, Tensor other)",
        "max(Tensor self, int dim, bool keepdim=False)"))
declare("min", min, "min(Tensor self, *, Tensor? out=None)",
        "min(Tensor self, Tensor other, *, Tensor? out=None)",
        "min(Tensor self, int dim, bool keepdim=False, *, Tensor[]? out=None)",
        method=("min(Tensor self)", "min(Tensor self, Tensor other)",
        "min(Tensor self, int dim, bool keepdim=False)"))
declare("argmax", argmax, "argmax(Tensor self, int? dim=None, bool keepdim=False, *, Tensor? out=None)",
        method=("argmax(Tensor self, int? dim=None, bool keepdim=False)",))
declare("argmin", argmin, "argmin(Tensor self, int? dim=None, bool keepdim=False, *, Tensor? out=None)",
        method=("argmin(Tensor self, int? dim=None, bool keepdim=False)",))
declare("norm", norm, python="input, p='fro', dim=None, keepdim=False, dtype=None")
declare("var", var, "var(Tensor self, int[] dim, bool unbiased=True, bool keepdim=False, *, Tensor? out=None)",
        "var(Tensor self, int[]? dim=None, *, Scalar? correction=None, bool keepdim=False, Tensor? out=None)",
        "var(Tensor self, bool unbiased=True)",
        method=("var(Tensor self, int[] dim, bool unbiased=True, bool keepdim=False)",
        "var(Tensor self, int[]? dim=None, *, Scalar? correction=None, bool keepdim=False)",
        "var(Tensor self, bool unbiased=True)"))
declare("std", std, "std(Tensor self, int[] dim, bool unbiased=True, bool keepdim=False, *, Tensor? out=None)",
        "std(Tensor self, int[]? dim=None, *, Scalar? correction=None, bool keepdim=False, Tensor? out=None)",
        "std(Tensor self, bool unbiased=True)",
        method=("std(Tensor self, int[] dim, bool unbiased=True, bool keepdim=False)",
        "std(Tensor self, int[]? dim=None, *, Scalar? correction=None, bool keepdim=False)",
        "std(Tensor self, bool unbiased=True)"))
declare("logsumexp", logsumexp, "logsumexp(Tensor self, int[1] dim, bool keepdim=False, *, Tensor? out=None)",
        method=("logsumexp(Tensor self, int[1] dim, bool keepdim=False)",))
declare("cumsum", cumsum, "cumsum(Tensor self, int dim, *, ScalarType? dtype=None, Tensor? out=None)",
        method=("cumsum(Tensor self, int dim, *, ScalarType? dtype=None)",))
declare("cumprod", cumprod, "cumprod(Tensor self, int dim, *, ScalarType? dtype=None, Tensor? out=None)",
        method=("cumprod(Tensor self, int dim, *, ScalarType? dtype=None)",))
