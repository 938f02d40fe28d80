"""Math entries of torch, Tensor methods, torch.nn.functional and torch.linalg (shared specs)."""

from __future__ import annotations

from gradcli.engine import (activation as A, comparison as C, conversions, creation, devices,
                            einsum, errors, inplace as inplace_ops, linalg as L, losses,
                            pointwise as P, reductions as R)
from gradcli.engine.state import STATE
from gradcli.language.namespaces.builtins import entry, table
from gradcli.language.runtime.objects import LazyTable
from gradcli.language.runtime.values import Namespace

_FACTORY = "dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False"

# (name, function, parameters after the tensor, where: "both", "torch" or "method")
_SHARED = [
    ("add", P.add, "other, *, alpha=1", "both"),
    ("sub", P.sub, "other, *, alpha=1", "both"),
    ("subtract", P.sub, "other, *, alpha=1", "both"),
    ("rsub", P.rsub, "other, *, alpha=1", "torch"),
    ("mul", P.mul, "other", "both"),
    ("multiply", P.mul, "other", "both"),
    ("div", P.div, "other, *, rounding_mode=None", "both"),
    ("divide", P.div, "other, *, rounding_mode=None", "both"),
    ("true_divide", P.div, "other", "both"),
    ("floor_divide", P.floor_divide, "other", "both"),
    ("remainder", P.remainder, "other", "both"),
    ("pow", P.pow, "exponent", "both"),
    ("square", P.square, "", "both"),
    ("atan2", P.atan2, "other", "both"),
    ("arctan2", P.atan2, "other", "both"),
    ("maximum", P.maximum, "other", "both"),
    ("minimum", P.minimum, "other", "both"),
    ("clamp", P.clamp, "min=None, max=None", "both"),
    ("clip", P.clamp, "min=None, max=None", "both"),
    ("lerp", P.lerp, "end, weight", "both"),
    ("round", P.round, "*, decimals=0", "both"),
    ("masked_fill", P.masked_fill, "mask, value", "method"),
    ("sum", R.sum, "dim=None, keepdim=False, *, dtype=None", "both"),
    ("mean", R.mean, "dim=None, keepdim=False, *, dtype=None", "both"),
    ("prod", R.prod, "dim=None, keepdim=False, *, dtype=None", "both"),
    ("amax", R.amax, "dim=(), keepdim=False", "both"),
    ("amin", R.amin, "dim=(), keepdim=False", "both"),
    ("max", R.max, "dim=None, keepdim=False", "both"),
    ("min", R.min, "dim=None, keepdim=False", "both"),
    ("argmax", R.argmax, "dim=None, keepdim=False", "both"),
    ("argmin", R.argmin, "dim=None, keepdim=False", "both"),
    ("norm", R.norm, "p='fro', dim=None, keepdim=False, dtype=None", "both"),
    ("var", R.var, "dim=None, unbiased=None, keepdim=False, *, correction=None", "both"),
    ("std", R.std, "dim=None, unbiased=None, keepdim=False, *, correction=None", "both"),
    ("logsumexp", R.logsumexp, "dim, keepdim=False", "both"),
    ("cumsum", R.cumsum, "dim, *, dtype=None", "both"),
    ("cumprod", R.cumprod, "dim, *, dtype=None", "both"),
    ("softmax", A.softmax, "dim, dtype=None", "both"),
    ("log_softmax", A.log_softmax, "dim, dtype=None", "both"),
    ("relu", A.relu, "", "both"),
    ("eq", C.eq, "other", "both"),
    ("ne", C.ne, "other", "both"),
    ("lt", C.lt, "other", "both"),
    ("le", C.le, "other", "both"),
    ("gt", C.gt, "other", "both"),
    ("ge", C.ge, "other", "both"),
    ("greater", C.gt, "other", "both"),
    ("less", C.lt, "other", "both"),
    ("greater_equal", C.ge, "other", "both"),
    ("less_equal", C.le, "other", "both"),
    ("not_equal", C.ne, "other", "both"),
    ("logical_and", C.logical_and, "other", "both"),
    ("logical_or", C.logical_or, "other", "both"),
    ("logical_xor", C.logical_xor, "other", "both"),
    ("logical_not", C.logical_not, "", "both"),
    ("bitwise_not", C.bitwise_not, "", "both"),
    ("isnan", C.isnan, "", "both"),
    ("isinf", C.isinf, "", "both"),
    ("isfinite", C.isfinite, "", "both"),
    ("any", C.any, "dim=None, keepdim=False", "both"),
    ("all", C.all, "dim=None, keepdim=False", "both"),
    ("allclose", C.allclose, "other, rtol=1e-05, atol=1e-08, equal_nan=False", "both"),
    ("isclose", C.isclose, "other, rtol=1e-05, atol=1e-08, equal_nan=False", "both"),
    ("equal", C.equal, "other", "both"),
    ("matmul", L.matmul, "other", "both"),
    ("mm", L.mm, "mat2", "both"),
    ("mv", L.mv, "vec", "both"),
    ("dot", L.dot, "tensor", "both"),
    ("inner", L.dot, "other", "both"),
    ("bmm", L.bmm, "mat2", "both"),
    ("outer", L.outer, "vec2", "both"),
    ("ger", L.outer, "vec2", "both"),
    ("trace", L.trace, "", "both"),
    ("diag", L.diag, "diagonal=0", "both"),
    ("diagonal", L.diagonal, "offset=0, dim1=0, dim2=1", "both"),
    ("movedim", L.movedim, "source, destination", "both"),
    ("to", conversions.to, "*args, dtype=None, device=None, non_blocking=False, copy=False",
     "method"),
    ("type", conversions.type_, "dtype=None, non_blocking=False", "method"),
    ("type_as", lambda t, other: conversions.to_dtype(t, other.dtype), "other", "method"),
]
_UNARY = {
    "neg": P.neg, "negative": P.neg, "reciprocal": P.reciprocal, "exp": P.exp, "exp2": P.exp2,
    "expm1": P.expm1, "log": P.log, "log2": P.log2, "log10": P.log10, "log1p": P.log1p,
    "sqrt": P.sqrt, "rsqrt": P.rsqrt, "abs": P.abs, "absolute": P.abs, "sign": P.sign,
    "sgn": P.sgn, "sin": P.sin, "cos": P.cos, "tan": P.tan, "asin": P.asin, "acos": P.acos,
    "atan": P.atan, "arcsin": P.asin, "arccos": P.acos, "arctan": P.atan, "sinh": P.sinh,
    "cosh": P.cosh, "tanh": P.tanh, "sigmoid": P.sigmoid, "erf": P.erf, "floor": P.floor,
    "ceil": P.ceil, "trunc": P.trunc, "fix": P.trunc, "frac": P.frac,
}


def _where(condition, a=None, b=None):
    if a is None or b is None:
        raise errors.type_error("where() missing required arguments 'input' and 'other'")
    return P.where(condition, a, b)


def _shared_entries(first: str, wanted: str) -> dict:
    entries = [entry(name, fn, f"{first}, {spec}" if spec else first)
               for name, fn, spec, where in _SHARED if where in ("both", wanted)]
    entries += [entry(name, fn, first) for name, fn in _UNARY.items()]
    return table(*entries)


def _factory(fn):
    """A factory whose size comes as *size (ones(2, 3) or ones((2, 3))) or as size=(2, 3)."""
    def make(*sizes, size, dtype, device, requires_grad, **_):
        devices.place(device)
        if size is not None:
            if sizes:
                raise errors.type_error(f"{fn.__name__}() got multiple values for argument "
                                        "'size'")
            sizes = (size,)
        return fn(*sizes, dtype=dtype, requires_grad=requires_grad)
    return make


def _like(fn):
    return lambda t, *, dtype, layout, device, requires_grad, memory_format: fn(
        t, dtype=dtype, requires_grad=requires_grad)


def _set_default_dtype(dtype) -> None:
    creation.set_default_dtype(dtype)


_LIKE = "input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None"

TORCH_MATH = _shared_entries("input", "torch") | table(
    entry("where", _where, "condition, input=None, other=None"),
    entry("einsum", einsum.einsum, "equation, *operands"),
    entry("tensor", lambda data, dtype, device, requires_grad, pin_memory:
          devices.place(device) or creation.tensor(data, dtype, requires_grad),
          "data, *, dtype=None, device=None, requires_grad=False, pin_memory=False"),
    entry("as_tensor", lambda data, dtype, device: creation.as_tensor(data, dtype),
          "data, dtype=None, device=None"),
    entry("from_numpy", creation.from_numpy, "ndarray"),
    entry("ones", _factory(creation.ones), "*sizes, size=None, " + _FACTORY),
    entry("zeros", _factory(creation.zeros), "*sizes, size=None, " + _FACTORY),
    entry("empty", _factory(creation.empty), "*sizes, size=None, " + _FACTORY),
    entry("rand", _factory(creation.rand), "*sizes, size=None, generator=None, " + _FACTORY),
    entry("randn", _factory(creation.randn), "*sizes, size=None, generator=None, " + _FACTORY),
    entry("full", lambda size, fill_value, dtype, layout, device, requires_grad, pin_memory:
          creation.full(size, fill_value, dtype, requires_grad),
          "size, fill_value, *, " + _FACTORY),
    entry("ones_like", _like(creation.ones_like), _LIKE),
    entry("zeros_like", _like(creation.zeros_like), _LIKE),
    entry("rand_like", _like(creation.rand_like), _LIKE),
    entry("randn_like", _like(creation.randn_like), _LIKE),
    entry("full_like", lambda t, value, dtype, layout, device, requires_grad, memory_format:
          creation.full_like(t, value, dtype, requires_grad), "input, fill_value, *, dtype=None, "
          "layout=None, device=None, requires_grad=False, memory_format=None"),
    entry("arange", lambda start, end, step, dtype, layout, device, requires_grad, pin_memory:
          creation.arange(start, end, step, dtype, requires_grad),
          "start, end=None, step=1, *, " + _FACTORY),
    entry("linspace", lambda start, end, steps, dtype, layout, device, requires_grad, pin_memory:
          creation.linspace(start, end, steps, dtype, requires_grad),
          "start, end, steps, *, " + _FACTORY),
    entry("eye", lambda n, m, dtype, layout, device, requires_grad, pin_memory:
          creation.eye(n, m, dtype, requires_grad), "n, m=None, *, " + _FACTORY),
    entry("randint", lambda *args, dtype, layout, device, requires_grad, pin_memory, generator:
          creation.randint(*args, dtype=dtype, requires_grad=requires_grad),
          "*args, generator=None, " + _FACTORY),
    entry("randperm", lambda n, dtype, layout, device, requires_grad, pin_memory, generator:
          creation.randperm(n, dtype, requires_grad), "n, *, generator=None, " + _FACTORY),
    entry("manual_seed", creation.manual_seed, "seed"),
    entry("set_default_dtype", _set_default_dtype, "d"),
    entry("get_default_dtype", creation.get_default_dtype, ""),
)

TENSOR_MATH = _shared_entries("self", "method") | table(
    entry("where", lambda t, condition, other: P.where(condition, t, other),
          "self, condition, other"),
    *(entry(name, lambda t, memory_format, convert=convert: convert(t), "self, memory_format=None")
      for name, convert in conversions.CONVERTERS.items()),
)

_LOSS = "size_average=None, reduce=None, reduction='mean'"


def _implicit_softmax(fn, name):
    def run(t, dim=None, _stacklevel=3, dtype=None):
        if dim is None:
            STATE.warn("UserWarning", f"Implicit dimension choice for {name} has been deprecated. "
                       "Change the call to include dim=X as an argument.")
            dim = 0 if t.ndim in (0, 1, 3) else 1
        return fn(t, dim, dtype)
    return run


NN_FUNCTIONAL = Namespace("torch.nn.functional", table(
    entry("relu", lambda t, inplace: inplace_ops.apply_inplace(t, A.relu) if inplace else A.relu(t),
          "input, inplace=False"),
    entry("leaky_relu", lambda t, slope, inplace: A.leaky_relu(t, slope),
          "input, negative_slope=0.01, inplace=False"),
    entry("elu", lambda t, alpha, inplace: A.elu(t, alpha), "input, alpha=1.0, inplace=False"),
    entry("gelu", A.gelu, "input, approximate='none'"),
    entry("silu", lambda t, inplace: A.silu(t), "input, inplace=False"),
    entry("softplus", A.softplus, "input, beta=1.0, threshold=20.0"),
    entry("sigmoid", P.sigmoid, "input"),
    entry("tanh", P.tanh, "input"),
    entry("softmax", _implicit_softmax(A.softmax, "softmax"),
          "input, dim=None, _stacklevel=3, dtype=None"),
    entry("log_softmax", _implicit_softmax(A.log_softmax, "log_softmax"),
          "input, dim=None, _stacklevel=3, dtype=None"),
    entry("linear", L.linear, "input, weight, bias=None"),
    entry("mse_loss", losses.mse_loss, "input, target, " + _LOSS),
    entry("l1_loss", losses.l1_loss, "input, target, " + _LOSS),
    entry("smooth_l1_loss", losses.smooth_l1_loss, "input, target, " + _LOSS + ", beta=1.0"),
    entry("binary_cross_entropy", losses.binary_cross_entropy,
          "input, target, weight=None, " + _LOSS),
    entry("binary_cross_entropy_with_logits", losses.binary_cross_entropy_with_logits,
          "input, target, weight=None, " + _LOSS + ", pos_weight=None"),
    entry("cross_entropy", losses.cross_entropy,
          "input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, "
          "reduction='mean', label_smoothing=0.0"),
    entry("nll_loss", losses.nll_loss,
          "input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, "
          "reduction='mean'"),
))


def _nn_classes() -> dict:
    from gradcli.language.namespaces.nn_table import NN_CLASSES  # loaded when a program first needs one
    return NN_CLASSES


NN = Namespace("torch.nn", LazyTable({"functional": NN_FUNCTIONAL}, _nn_classes))
LINALG = Namespace("torch.linalg", table(
    entry("vector_norm", R.vector_norm, "x, ord=2, dim=None, keepdim=False, *, dtype=None"),
    entry("matmul", L.matmul, "input, other"),
))
MATH_MODULES = {"torch.nn": NN, "torch.nn.functional": NN_FUNCTIONAL, "torch.linalg": LINALG}
