"""torch.masked's functions (also torch.masked._ops) on strided tensors with a boolean mask:
the masked-out elements replaced by the operation's identity, then torch's own reduction or
normalization, the same calls as torch's Python code. MaskedTensor is not offered."""

from __future__ import annotations

import math

from gradcli.engine import dtypes, errors
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.distribution_base import Calls, attr, op
from gradcli.language.runtime import protocols
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

_WIDENED = (dtypes.uint8, dtypes.bool_, dtypes.int8, dtypes.int16, dtypes.int32)


def _canonical_dim(dim, ndim: int) -> tuple:
    """dim as a sorted tuple of dims (None or (): all of them), with torch's errors."""
    if dim is None or dim == ():
        return tuple(range(ndim))
    ndim = max(ndim, 1)
    dims = []
    for d in (dim,) if isinstance(dim, int) else dim:
        if d in dims:
            raise errors.runtime(f"dim={d} appears multiple times in the list of dims")
        if d >= ndim or d < -ndim:
            raise errors.TorchError("IndexError", "Dimension out of range (expected to be in "
                                    f"range of [{-ndim}, {ndim - 1}], but got {d})")
        dims.append(d % ndim)
    return tuple(sorted(dims))


def _input_mask(c: Calls, input, mask):
    """The mask broadcast to input's shape, as bool."""
    if mask is None:
        raise errors.value_error("_input_mask requires explicit mask")
    for value in (mask, input):  # (torch's Python compares mask.shape with input.shape)
        if not isinstance(value, Tensor):
            raise errors.no_attribute(value, "shape")
    if tuple(mask.shape) != tuple(input.shape):
        if mask.ndim > input.ndim:
            raise errors.TorchError("IndexError", "_input_mask expected broadcastable mask (got "
                                    "mask dimensionality higher than of the input)")
        mask = c.torch("broadcast_to", c.method(mask, "clone"), input.shape)
    return c.method(mask, "to", dtype=dtypes.bool_)


def _iinfo(c: Calls, dtype, name: str) -> int:
    return protocols.get_attribute(c.torch("iinfo", dtype), name)


def _identity(c: Calls, name: str, input, ord=2):
    """_reduction_identity: the value a masked-out element takes for operation `name`."""
    dtype = input.dtype
    if name in ("sum", "norm"):
        value = math.inf if name == "norm" and ord == -math.inf else 0
    elif name == "prod":
        value = 1
    elif name in ("amax", "logsumexp"):
        value = -math.inf if dtype.is_floating_point else _iinfo(c, dtype, "min")
    elif name == "amin":
        value = math.inf if dtype.is_floating_point else _iinfo(c, dtype, "max")
    else:  # median
        return c.torch("tensor", math.nan, dtype=dtype if dtype.is_floating_point
                       else dtypes.float32)
    return c.torch("tensor", value, dtype=dtype)


def _combined(c: Calls, name: str, input, mask, ord=2):
    """_combine_input_and_mask: input with its masked-out elements set to the identity."""
    if mask is None:
        return input
    return c.torch("where", _input_mask(c, input, mask), input, _identity(c, name, input, ord))


def _widened(input, dtype):
    """sum's and prod's default dtype: integers and bool accumulate in int64."""
    if dtype is not None:
        return dtype
    return dtypes.int64 if input.dtype in _WIDENED else input.dtype


def _masked(kind: str):
    """The masked functions that take (input, dim, *, keepdim, dtype, mask)."""

    def run(runtime, input, dim=None, *, keepdim=False, dtype=None, mask=None):
        c = Calls(runtime)
        if kind == "sum":
            dtype = _widened(input, dtype)
            return c.torch("sum", _combined(c, "sum", input, mask),
                           _canonical_dim(dim, input.ndim), bool(keepdim), dtype=dtype)
        if kind == "prod":
            dtype = _widened(input, dtype)
            result = c.method(_combined(c, "prod", input, mask), "to", dtype=dtype)
            for d in reversed(_canonical_dim(dim, input.ndim)):
                result = c.method(result, "prod", dim=d, keepdim=bool(keepdim))
            return result
        dtype = input.dtype if dtype is None else dtype
        masked = _combined(c, kind.replace("arg", "a"), input, mask)
        if kind in ("argmax", "argmin"):
            found = c.torch(kind, masked, dim, bool(keepdim))
        else:
            found = c.torch(kind, masked, _canonical_dim(dim, input.ndim), bool(keepdim))
        return c.method(found, "to", dtype=dtype)
    return run


def _cumulative(kind: str):
    def run(runtime, input, dim, *, dtype=None, mask=None):
        c = Calls(runtime)
        dtype = input.dtype if dtype is None else dtype
        masked = _combined(c, "sum" if kind == "cumsum" else "prod", input, mask)
        found = c.torch(kind, masked, _canonical_dim(dim, input.ndim)[0], dtype=dtype)
        return c.method(found, "to", dtype=dtype)
    return run


def _normalized(kind: str, identity: str):
    def run(runtime, input, dim, *, dtype=None, mask=None):
        c = Calls(runtime)
        dtype = input.dtype if dtype is None else dtype
        return c.functional(kind, _combined(c, identity, input, mask),
                            _canonical_dim(dim, input.ndim)[0], dtype=dtype)
    return run


def mean(runtime, input, dim=None, *, keepdim=False, dtype=None, mask=None):
    c = Calls(runtime)
    source = "Optional" if dtype is not None else "Input"
    dtype = input.dtype if dtype is None else dtype
    if not (dtype.is_floating_point or dtype.is_complex):
        raise errors.value_error(f"mean(): Could not infer output dtype. {source} dtype must be "
                                 "either a floating point or complex dtype. Got: "
                                 f"torch.{dtype.name}")
    total_of = _masked("sum")
    if mask is None:
        count = total_of(runtime, c.torch("ones", input.shape, dtype=dtypes.int64), dim,
                         keepdim=keepdim)
        total = total_of(runtime, input, dim, keepdim=keepdim, dtype=dtype)
    else:
        inmask = _input_mask(c, input, mask)
        count = c.method(inmask, "sum", dim=dim, keepdim=bool(keepdim))
        total = total_of(runtime, input, dim, keepdim=keepdim, dtype=dtype, mask=inmask)
    return op("/", total, count)


def median(runtime, input, dim=-1, *, keepdim=False, dtype=None, mask=None):
    c = Calls(runtime)
    dtype = input.dtype if dtype is None else dtype
    d = _canonical_dim(dim, input.ndim)[0]
    is_float = input.dtype.is_floating_point
    if not is_float:
        input = c.method(input, "to", dtype=dtypes.float32)
    output = attr(c.torch("nanmedian", _combined(c, "median", input, mask), d, keepdim), "values")
    if is_float:
        return output
    if not c.method(c.method(c.torch("isnan", output), "any"), "item"):
        return c.method(output, "to", dtype=dtype)
    raise errors.value_error("masked median expects no fully masked out rows if dtype is not "
                             "floating point")


def logaddexp(runtime, input, other, *, dtype=None, input_mask=None, other_mask=None):
    c = Calls(runtime)
    dtype = input.dtype if dtype is None else dtype
    return c.method(c.torch("logaddexp", _combined(c, "amax", input, input_mask),
                            _combined(c, "amax", other, other_mask)), "to", dtype=dtype)


def norm(runtime, input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None):
    c = Calls(runtime)
    dtype = input.dtype if dtype is None else dtype
    vector_norm = protocols.get_attribute(protocols.MODULES["torch"].lookup("linalg"),
                                          "vector_norm")
    return runtime.call(vector_norm, [_combined(c, "norm", input, mask, ord), ord,
                                      _canonical_dim(dim, input.ndim), bool(keepdim)],
                        {"dtype": dtype})


def _std_var(runtime, input, dim, unbiased, correction_opt, keepdim, dtype, mask, take_sqrt):
    c = Calls(runtime)
    correction = 1.0
    if unbiased is not None:
        correction = 1.0 if unbiased else 0.0
    if correction_opt is not None:
        correction = float(correction_opt)
    if dtype is None:
        dtype = input.dtype
        if not (dtype.is_floating_point or dtype.is_complex):
            dtype = dtypes.float32
    compute = dtype if dtype.is_floating_point or dtype.is_complex else dtypes.float32
    total_of = _masked("sum")
    inmask = None
    if mask is None:
        count = total_of(runtime, c.torch("ones", input.shape, dtype=dtypes.int64), dim,
                         keepdim=True)
    else:
        inmask = _input_mask(c, input, mask)
        count = c.method(inmask, "sum", dim=dim, keepdim=True)
    sample_total = total_of(runtime, input, dim, keepdim=True, dtype=dtype, mask=inmask)
    x = c.torch("subtract", input, c.torch("divide", sample_total, count))
    total = total_of(runtime, op("*", x, c.method(x, "conj")), dim, keepdim=keepdim,
                     dtype=compute, mask=inmask)
    if not keepdim:
        count = c.method(count, "reshape", total.shape)
    if correction != 0:
        count = c.method(count, "to", dtypes.real_of(compute))
        count = c.torch("subtract", count, correction)
        count = c.torch("maximum", count, c.method(count, "new_zeros", []))
    output = c.method(c.torch("divide", total, count), "to", dtype=dtype)
    return c.torch("sqrt", output) if take_sqrt else output


def _spread(take_sqrt: bool):
    def run(runtime, input, dim=None, unbiased=None, *, correction=None, keepdim=False,
            dtype=None, mask=None):
        if unbiased is not None and correction is not None:
            raise errors.TorchError("AssertionError",
                                    "Only one of unbiased and correction may be given")
        return _std_var(runtime, input, dim, unbiased, correction, keepdim, dtype, mask,
                        take_sqrt)
    return run


def normalize(runtime, input, ord, dim, *, eps=1e-12, dtype=None, mask=None):
    c = Calls(runtime)
    dtype = input.dtype if dtype is None else dtype
    masked = _combined(c, "sum", input, mask)
    nrm = norm(runtime, input, ord, dim, keepdim=True, dtype=dtype, mask=mask)
    return c.torch("divide", masked, c.torch("maximum", nrm, c.method(nrm, "new_full", [], eps)))


_REDUCTION = "input, dim=None, *, keepdim=False, dtype=None, mask=None"
_NORMALIZATION = "input, dim, *, dtype=None, mask=None"
# the attribute torch's Python reads first of an input that is not a tensor (without a dtype,
# with one): its AttributeError is what a program sees
_FIRST_READ = {"sum": ("layout", "ndim"), "prod": ("layout", "ndim"), **dict.fromkeys(
    ("amax", "amin", "logsumexp", "cumsum", "cumprod", "softmax", "log_softmax", "softmin",
     "median"), ("dtype", "ndim"))}


def _op(name: str, fn, signature: str):
    """A masked function's table entry: `fn`, for a tensor input."""
    without_dtype, with_dtype = _FIRST_READ.get(name, ("dtype", "layout"))

    def run(runtime, input, *args, **kwargs):
        if not isinstance(input, Tensor):
            raise errors.no_attribute(input, without_dtype if kwargs.get("dtype") is None
                                      else with_dtype)
        return fn(runtime, input, *args, **kwargs)
    return entry(name, run, signature, context=True)


_OPS = table(
    *(_op(kind, _masked(kind), _REDUCTION)
      for kind in ("sum", "prod", "amax", "amin", "logsumexp")),
    *(_op(kind, _masked(kind), _REDUCTION) for kind in ("argmax", "argmin")),
    *(_op(kind, _cumulative(kind), _NORMALIZATION)
      for kind in ("cumsum", "cumprod")),
    _op("softmax", _normalized("softmax", "amax"), _NORMALIZATION),
    _op("log_softmax", _normalized("log_softmax", "amax"), _NORMALIZATION),
    _op("softmin", _normalized("softmin", "amin"), _NORMALIZATION),
    _op("mean", mean, _REDUCTION),
    _op("median", median, "input, dim=-1, *, keepdim=False, dtype=None, mask=None"),
    _op("logaddexp", logaddexp, "input, other, *, dtype=None, input_mask=None, "
          "other_mask=None"),
    _op("norm", norm, "input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None"),
    _op("var", _spread(False), "input, dim=None, unbiased=None, *, correction=None, "
          "keepdim=False, dtype=None, mask=None"),
    _op("std", _spread(True), "input, dim=None, unbiased=None, *, correction=None, "
          "keepdim=False, dtype=None, mask=None"),
    _op("normalize", normalize, "input, ord, dim, *, eps=1e-12, dtype=None, mask=None"),
)
MASKED_OPS = Namespace("torch.masked._ops", _OPS | table(
    entry("is_masked_tensor", lambda obj: False, "obj, /")))  # no MaskedTensor exists here
MASKED = Namespace("torch.masked", dict(MASKED_OPS.table) | {"_ops": MASKED_OPS})
