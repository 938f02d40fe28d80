"""Math entries of torch, Tensor methods, torch.nn.functional and torch.linalg (shared specs)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import conversions, creation, devices, dtypes, einsum, errors
from gradcli.engine.dtypes import DType
from gradcli.engine.functions import F
from gradcli.engine.ops import pointwise as P
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.triggered import triggered
from gradcli.language.namespaces.builtins import (LEGACY_DTYPES, TENSOR_TYPE, entry,
                                                  table)
from gradcli.language.namespaces.conv_grads import NN_GRAD
from gradcli.language.namespaces.declared_tables import DeclaredEntries, layered
from gradcli.language.namespaces.legacy_new import reading_sequences
from gradcli.language.namespaces.tensor_subclassing import MODE_TYPE, resolve_name
from gradcli.language.namespaces.nn_init import NN_INIT
from gradcli.language.namespaces.nn_utils import NN_UTILS
from gradcli.language.namespaces.public_names import worded_as_torch
from gradcli.language.runtime import classes, protocols, subclass_protocol, tensor_subclasses
from gradcli.language.runtime.exceptions import LINALG_ERROR
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import WrappedBuiltin, declared_entry
from gradcli.language.runtime.objects import LazyTable
from gradcli.language.runtime.values import Namespace, iterate, type_name


# Parameters that torch's Python-coded functions hand to its C++ ops as tensors
_TENSOR_PARAMETERS = frozenset(("input", "target", "x1", "x2", "input1", "input2", "anchor",
                                "positive", "negative", "a", "b"))
_OPTIONAL_TENSOR_PARAMETERS = frozenset(("weight", "bias", "running_mean", "running_var"))


def _tensor_arguments(spec: str) -> str:
    """`spec` with `: Tensor` on its tensor parameters that say nothing else (a wrong type then
    fails as torch's C++ parser fails, never inside the implementation)."""
    spec, semicolon, ordered = spec.partition(";")
    checked = {c.partition(":")[0].strip() for c in ordered.split(",")}
    parts = []
    for part in spec.split(","):
        name, equals, default = part.partition("=")
        if name.strip() in checked:
            pass
        elif ":" not in name and name.strip() in _TENSOR_PARAMETERS:
            part = f"{name.rstrip()}: Tensor{equals}{default}"
        elif ":" not in name and name.strip() in _OPTIONAL_TENSOR_PARAMETERS:
            part = f"{name.rstrip()}: Tensor?{equals}{default}"
        parts.append(part)
    return ",".join(parts) + semicolon + ordered


_NAMESPACES = {"torch": "torch", "method": "torch.Tensor", "functional": "torch.nn.functional",
               "linalg": "torch.linalg", "special": "torch.special",
               "fft": "torch.fft"}


def declared_entries(variant: str) -> DeclaredEntries:
    """The table entries of every function declared for `variant` (see engine/declarations),
    each made when a program first names it."""
    def make(name, declaration):
        if declaration.python is None:
            return declared_entry(declaration, variant)
        spec = _tensor_arguments(declaration.python)
        if variant == "method":
            spec = "self" + ("," + spec.split(",", 1)[1] if "," in spec else "")
        made = entry(name, declaration.impl, spec, qualname=declaration.python_title)
        return worded_as_torch(_NAMESPACES[variant], {name: made})[name]
    return DeclaredEntries(variant, make)


def _like(fn):
    return lambda t, *, dtype, layout, device, requires_grad, memory_format: devices.place(
        device) or fn(t, dtype=dtype, requires_grad=requires_grad, memory_format=memory_format)


def tensor_type(t: Tensor, dtype=None, non_blocking: bool = False):
    """Tensor.type(): a legacy tensor type (torch.FloatTensor, torch.Tensor) stands for its
    dtype; any other class is torch's "invalid type" ValueError, named as C names classes."""
    if dtype is TENSOR_TYPE:
        dtype = STATE.default_dtype
    elif isinstance(dtype, PyType) and dtype in LEGACY_DTYPES:
        dtype = LEGACY_DTYPES[dtype]
    elif isinstance(dtype, PyType) and dtype.name in conversions.CUDA_LEGACY_NAMES:
        dtype = dtype.name  # (which CUDA, never loaded, refuses by its name too)
    elif isinstance(dtype, classes.UserClass):
        raise errors.value_error(f"invalid type: '{dtype.name}'")
    elif isinstance(dtype, PyType):
        raise errors.value_error(f"invalid type: '{_type_name_in_c(dtype.name)}'")
    return conversions.type_(t, dtype, non_blocking)


def _type_name_in_c(name: str) -> str:
    """A class's tp_name: builtin and C classes (float, numpy.float32, torch.Size) dotted in
    full, torch's Python-coded ones (torch.nn.modules.linear.Linear) by their own name."""
    if "." not in name or name.startswith(("numpy.", "torch._C.")) or name in _C_CLASSES:
        return name
    return name.rsplit(".", 1)[-1]


_C_CLASSES = frozenset(("torch.Size", "torch.finfo", "torch.iinfo", "torch.Tensor"))


def _set_default_dtype(dtype) -> None:
    creation.set_default_dtype(dtype)


_TENSOR_TYPE_DEPRECATED = triggered(
    "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
    "torch.set_default_dtype() and torch.set_default_device() as alternatives.",
    "torch/csrc/tensor/python_tensor.cpp", 434)


def _set_default_tensor_type(t) -> None:
    """The deprecated torch.set_default_tensor_type: a legacy type (or its dotted name) sets
    the default dtype, floating types only."""
    if isinstance(t, str):
        module, _, name = t.partition(".")
        if module != "torch":
            raise errors.TorchError("ModuleNotFoundError", f"No module named '{module}'")
        found = {legacy.name: legacy for legacy in LEGACY_DTYPES}.get(t)
        if found is None and name not in dtypes.BY_NAME:
            raise errors.TorchError("AttributeError", f"module 'torch' has no attribute '{name}'")
        t = found
    STATE.warn("UserWarning", _TENSOR_TYPE_DEPRECATED, once=True)
    dtype = LEGACY_DTYPES.get(t) if isinstance(t, PyType) else None
    if dtype is None:
        raise errors.type_error(
            "invalid type object: only floating-point types are supported as the default type")
    if not dtype.is_floating_point:
        raise errors.type_error("only floating-point types are supported as the default type")
    creation.set_default_dtype(dtype)


_LIKE = ("input: Tensor, *, dtype: ScalarType?=None, layout=None, device=None, "
         "requires_grad=False, memory_format=None")

def _sparse_place(device) -> None:
    """Where sparse_coo_tensor copies its data: a CPU-only torch has no allocator linked in for
    another device (the meta device aside)."""
    if device is not None and devices.device(device).type != "meta":
        devices.link(device)
    else:
        devices.place_new(device)


_tensor, _as_tensor = (reading_sequences(make) for make in (creation.tensor, creation.as_tensor))


def _einsum(runtime, *args):
    """torch.einsum; its old interface, the operands in one list, calls it again with them
    spread, as torch's does (their handlers see them there)."""
    if len(args) == 2 and isinstance(args[0], str) and isinstance(args[1], (list, tuple)):
        return runtime.call(protocols.MODULES["torch"].table["einsum"], [args[0], *args[1]], {})
    return einsum.einsum(*args)


TORCH_MATH = layered(declared_entries("torch"), worded_as_torch("torch", table(
    entry("einsum", _einsum, "*args", context=True),
    entry("tensor", lambda data, dtype, device, requires_grad, pin_memory:
          devices.place_new(device) or _tensor(data, dtype, requires_grad),
          "data, *, dtype: ScalarType?=None, device=None, requires_grad=False, pin_memory=False"),
    entry("sparse_coo_tensor", lambda indices, values, size, dtype, device, pin_memory,
          requires_grad, check_invariants, is_coalesced: _sparse_place(device) or
          F.sparse_coo_tensor(indices, values, size, dtype, requires_grad,
                              check_invariants, is_coalesced),
          "indices=None, values=None, size=None, *, dtype: ScalarType?=None, device=None, "
          "pin_memory=False, requires_grad=False, check_invariants=None, is_coalesced=None"),
    entry("as_tensor", lambda data, dtype, device:
          devices.place_new(device) or _as_tensor(data, dtype),
          "data, *, dtype: ScalarType?=None, device=None"),
    entry("asarray", lambda obj, dtype, device, copy, requires_grad:
          (devices.link if isinstance(obj, (Tensor, np.ndarray)) else devices.place)(device)
          or creation.asarray(obj, dtype, copy, requires_grad),
          "obj, *, dtype: ScalarType?=None, device=None, copy=None, requires_grad=None"),
    entry("from_numpy", creation.from_numpy, "ndarray", style="exact",
          qualname="torch._VariableFunctionsClass.from_numpy"),
    entry("ones_like", _like(creation.ones_like), _LIKE),
    entry("zeros_like", _like(creation.zeros_like), _LIKE),
    entry("empty_like", _like(creation.zeros_like), _LIKE),
    entry("full_like", lambda t, value, dtype, layout, device, requires_grad, memory_format:
          creation.full_like(t, value, dtype, requires_grad, memory_format),
          "input: Tensor, fill_value: Number, *, dtype: ScalarType?=None, "
          "layout=None, device=None, requires_grad=False, memory_format=None"),
    entry("set_default_dtype", _set_default_dtype, "d"),
    entry("set_default_tensor_type", _set_default_tensor_type, "t, /"),
    entry("get_default_dtype", creation.get_default_dtype, "", style="noargs",
          qualname="torch.get_default_dtype"),
)))

TENSOR_MATH = layered(declared_entries("method"), worded_as_torch("torch.Tensor", table(
    entry("type", tensor_type, "self, dtype=None, non_blocking: bool=False", style="parser"),
    entry("type_as", lambda t, other: conversions.to_dtype(t, other.dtype),
          "self, other: Tensor", style="parser"),
    *(entry(name, lambda t, memory_format, convert=convert: convert(t),
            "self, *, memory_format=None", style="parser")
      for name, convert in conversions.CONVERTERS.items()),
)))

_LOSS = "size_average=None, reduce=None, reduction='mean'"
# torch's activations test `inplace` first, then call X_ or X
_INPLACE = "; inplace: truth, input: Tensor@inplace"
_SIZES = "; target: .size, input: .size"  # torch's losses compare target.size() with input's


def _implicit_softmax(fn, name):
    """F.softmax / F.log_softmax: torch's Python code asks input.dim() when no dim is given,
    then calls the tensor's own method (whose parser checks dim and dtype)."""
    def run(t, dim=None, _stacklevel=3, dtype=None):
        if not isinstance(t, Tensor):
            raise errors.TorchError("AttributeError", f"'{type_name(t)}' object has no attribute "
                                    f"'{'dim' if dim is None else name}'")
        if dim is None and not isinstance(_stacklevel, int):  # warnings.warn's stacklevel
            raise errors.type_error(f"'{type_name(_stacklevel)}' object cannot be interpreted as "
                                    "an integer")
        if dim is not None and (type(dim) is not int):
            raise errors.type_error(f"{name}(): argument 'dim' (position 1) must be int, not "
                                    f"{type_name(dim)}")
        dtype = dtypes.dtype_argument(dtype)
        if dtype is not None and not isinstance(dtype, DType):
            raise errors.type_error(f"{name}(): argument 'dtype' must be torch.dtype, not "
                                    f"{type_name(dtype)}")
        if dim is None:
            STATE.warn("UserWarning", f"Implicit dimension choice for {name} has been deprecated. "
                       "Change the call to include dim=X as an argument.")
            dim = 0 if t.ndim in (0, 1, 3) else 1
        return fn(t, dim, dtype)
    return run


def _overrides(value) -> bool:
    """Whether `value` brings its own __torch_function__ (an instance of a user class that
    defines one); tensors and Python values do not."""
    return classes.special_method(value, "__torch_function__") is not None


def _has_torch_function(relevant_args) -> bool:
    """torch._C._has_torch_function: whether a value among `relevant_args` (any iterable, as
    PySequence_Fast takes it) brings a handler."""
    if not isinstance(relevant_args, (list, tuple)):
        try:
            relevant_args = list(iterate(relevant_args))
        except errors.TorchError:
            raise errors.type_error("expected a sequence") from None
    return any(_has_handler(value) for value in relevant_args)


def _has_handler(value) -> bool:
    """torch._C._has_torch_function's test of one value: it brings its own __torch_function__,
    or it is an instance of a class derived from torch.Tensor whose handler is not
    torch._C._disabled_torch_function_impl (nn.Parameter's)."""
    cls = tensor_subclasses.class_of(value) if isinstance(value, Tensor) else None
    if cls is not None:
        return cls.attribute("__torch_function__") is not subclass_protocol.DISABLED_HANDLER
    return _overrides(value)


def _handle_torch_function(runtime, public_api, relevant_args, *args, **kwargs):
    """torch.overrides.handle_torch_function: each overriding argument's __torch_function__ in
    turn until one does not return NotImplemented, else torch's TypeError; with none that
    overrides, `public_api` itself."""
    from gradcli.language.namespaces.type_names import torch_typename
    relevant = list(iterate(relevant_args))
    overloaded = [a for a in relevant if _overrides(a)]
    if not overloaded and any(isinstance(a, Tensor) for a in relevant):
        return runtime.call(public_api, list(args), kwargs)  # Tensor's own __torch_function__
    if not overloaded and isinstance(public_api, (Tensor, int, float, str, list, tuple, dict)):
        raise errors.no_attribute(public_api, "__name__")  # torch names the function
    kinds = []
    for value in overloaded:
        if classes.class_of(value) not in kinds:
            kinds.append(classes.class_of(value))
    from gradcli.language.runtime.torch_function import warn_plain_methods
    warn_plain_methods(kinds, in_python=True)
    for value in overloaded:
        result = classes.call_bound(classes.special_method(value, "__torch_function__"),
                                    [public_api, tuple(kinds), args, kwargs])
        if result is not NotImplemented:
            return result
    raise errors.type_error(f"no implementation found for '{torch_typename(public_api)}' on types "
                            "that implement __torch_function__: "
                            f"{runtime.printer.str([classes.class_of(a) for a in overloaded])}")


def _tensor_method_or_property(func) -> bool:
    """torch.overrides.is_tensor_method_or_property: a method torch.Tensor holds, or a getter's
    __get__."""
    return (resolve_name(func) or "").startswith("torch.Tensor.")


def _wrap_torch_function(runtime, dispatcher):
    """torch.overrides.wrap_torch_function(dispatcher): a decorator whose function, named as the
    one it wraps, hands a call to the handlers of the tensor-likes dispatcher(*args, **kwargs)
    returns, else calls the wrapped function."""
    from gradcli.language.runtime import attributes

    def decorate(func):
        def run(*args, **kwargs):
            relevant = runtime.call(dispatcher, list(args), kwargs)
            if any(_has_handler(value) for value in iterate(relevant)):
                return _handle_torch_function(runtime, wrapped, relevant, *args, **kwargs)
            return runtime.call(func, list(args), kwargs)
        wrapped = WrappedBuiltin(attributes.get(func, "__name__"), run, "*args, **kwargs",
                                 qualname=attributes.get(func, "__qualname__"), wrapped=func)
        return wrapped
    return entry("inner", decorate, "func", qualname="wrap_torch_function.<locals>.inner")


def _functional_entries() -> dict:
    # loaded when a program first uses torch.nn.functional, with the areas it needs
    from gradcli.engine.ops import activation as A
    from gradcli.engine.ops import inplace as inplace_ops
    from gradcli.engine.ops import linalg as L
    from gradcli.engine.ops import losses as losses
    from gradcli.language.namespaces.distance_losses import triplet_margin_with_distance_loss
    def optionally_inplace(fn):
        """F.fn(input, ..., inplace): written into `input` when inplace is true, as torch does."""
        return lambda t, *options: inplace_ops.apply_inplace(
            t, lambda own: fn(own, *options[:-1])) if options[-1] else fn(t, *options[:-1])

    def inplace(fn):
        return lambda t, *options: inplace_ops.apply_inplace(t, lambda own: fn(own, *options))

    return worded_as_torch("torch.nn.functional", table(
        entry("has_torch_function", _has_torch_function, "relevant_args, /",
              qualname="torch._C._has_torch_function", style="exact"),
        entry("has_torch_function_unary", _has_handler, "obj, /",
              qualname="torch._C._has_torch_function_unary", style="exact"),
        entry("handle_torch_function", _handle_torch_function,
              "public_api, relevant_args, *args, **kwargs", context=True),
        entry("has_torch_function_variadic", lambda *args: any(map(_has_handler, args)),
              "*args"),
        entry("triplet_margin_with_distance_loss", triplet_margin_with_distance_loss,
              "anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False, "
              "reduction='mean'", context=True),
        entry("relu", optionally_inplace(A.relu), "input, inplace=False" + _INPLACE),
        entry("relu_", inplace(A.relu), "input: Tensor"),
        entry("prelu", A.prelu, "input: Tensor, weight: Tensor"),
        entry("silu", optionally_inplace(A.silu), "input, inplace=False" + _INPLACE),
        entry("softplus", A.softplus, "input: Tensor, beta: Number=1.0, threshold: Number=20.0"),
        entry("sigmoid", P.sigmoid, "input: .sigmoid"),
        entry("tanh", P.tanh, "input: .tanh"),
        entry("softmax", _implicit_softmax(A.softmax, "softmax"),
              "input, dim=None, _stacklevel=3, dtype=None"),
        entry("log_softmax", _implicit_softmax(A.log_softmax, "log_softmax"),
              "input, dim=None, _stacklevel=3, dtype=None"),
        entry("linear", L.linear, "input: Tensor, weight: Tensor, bias: Tensor=None"),
        entry("mse_loss", losses.mse_loss, "input, target, " + _LOSS + ", weight=None" + _SIZES),
        entry("l1_loss", losses.l1_loss, "input, target, " + _LOSS + ", weight=None" + _SIZES),
        entry("smooth_l1_loss", losses.smooth_l1_loss,
              "input, target, " + _LOSS + ", beta=1.0" + _SIZES),
        entry("binary_cross_entropy", losses.binary_cross_entropy,
              "input, target, weight=None, " + _LOSS + _SIZES),
        entry("binary_cross_entropy_with_logits", losses.binary_cross_entropy_with_logits,
              "input, target, weight=None, " + _LOSS + ", pos_weight=None" + _SIZES),
        entry("cross_entropy", losses.cross_entropy,
              "input: Tensor@cross_entropy_loss, target: Tensor@cross_entropy_loss, "
              "weight: Tensor@cross_entropy_loss=None, size_average=None, "
              "ignore_index=-100, "
              "reduce=None, reduction='mean', label_smoothing=0.0"),
        entry("nll_loss", losses.nll_loss,
              "input: Tensor@nll_loss_nd, target: Tensor@nll_loss_nd, "
              "weight: Tensor@nll_loss_nd=None, size_average=None, ignore_index=-100, "
              "reduce=None, reduction='mean'"),
    ))


NN_FUNCTIONAL = Namespace("torch.nn.functional", layered(declared_entries("functional"),
                                                         LazyTable({"grad": NN_GRAD},
                                                                   _functional_entries)))


def _linalg_entries() -> dict:
    # loaded when a program first uses torch.linalg
    from gradcli.engine.ops import linalg as L
    return worded_as_torch("torch.linalg", table(
        entry("matmul", L.matmul, "input, other"),
    ))


LINALG = Namespace("torch.linalg", layered(declared_entries("linalg"), LazyTable(
    {"LinAlgError": LINALG_ERROR}, _linalg_entries)))
SPECIAL = Namespace("torch.special", declared_entries("special"))
FFT = Namespace("torch.fft", declared_entries("fft"))
SPARSE = Namespace("torch.sparse", layered(declared_entries("sparse"), {
    # torch.sparse.FloatTensor ...: the deprecated constructors of sparse tensors
    dtype.legacy_name: PyType(f"torch.sparse.{dtype.legacy_name}", (), entry(
        dtype.legacy_name, lambda *args, dtype=dtype: F.legacy_sparse(dtype, *args),
        "*args"), "torch.tensortype") for dtype in dtypes.ALL}))
def _is_tensor_like(value) -> bool:
    """torch.overrides.is_tensor_like: a tensor (of any subclass), or what defines its own
    __torch_function__."""
    return isinstance(value, Tensor) or _overrides(value)


_OVERRIDING = ("handle_torch_function", "has_torch_function", "has_torch_function_unary",
               "has_torch_function_variadic")  # the names torch.nn.functional imports
OVERRIDES = Namespace("torch.overrides", LazyTable({}, lambda: {
    name: NN_FUNCTIONAL.table[name] for name in _OVERRIDING} | table(
        entry("is_tensor_like", _is_tensor_like, "inp"),
        entry("resolve_name", resolve_name, "f"),
        entry("wrap_torch_function", _wrap_torch_function, "dispatcher", context=True),
        entry("get_default_nowrap_functions", subclass_protocol.default_nowrap, ""),
        entry("is_tensor_method_or_property", _tensor_method_or_property, "func")) | {
            "TorchFunctionMode": MODE_TYPE}))
MATH_MODULES = {"torch.nn.functional": NN_FUNCTIONAL, "torch.nn.init": NN_INIT,
                "torch.overrides": OVERRIDES,
                "torch.nn.grad": NN_GRAD,
                "torch.nn.utils": NN_UTILS, "torch.nn.utils.rnn": NN_UTILS.table["rnn"],
                "torch.linalg": LINALG, "torch.special": SPECIAL, "torch.fft": FFT,
                "torch.sparse": SPARSE}
