"""Tensor attributes and methods reachable from the language: the only way into a tensor."""

from __future__ import annotations

from collections.abc import Mapping

from gradcli.engine import conversions, creation, devices, errors, grad_api, hooks, layouts
from gradcli.engine.functions import F
from gradcli.engine.ops import inplace as inplace
from gradcli.engine.ops import selection as selection
from gradcli.engine.ops import shapes as S
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.triggered import triggered
from gradcli.language.namespaces.autograd_graph import register_post_accumulate_grad_hook
from gradcli.language.namespaces.builtins import TENSOR_TYPE, entry, table
from gradcli.language.namespaces.declared_tables import layered
from gradcli.language.namespaces.legacy_new import legacy_new
from gradcli.language.namespaces.public_names import worded_as_torch
from gradcli.language.namespaces.torch_wording import C_CODED
from gradcli.language.namespaces.math_table import TENSOR_MATH
from gradcli.language.namespaces.storages import storage_of, untyped_storage_of
from gradcli.language.namespaces.tensor_apply import TENSOR_APPLY
from gradcli.language.namespaces.tensor_subclassing import AS_SUBCLASS, MAKE_SUBCLASS
from gradcli.language.namespaces import tensor_dunders  # noqa: F401  (x.__add__ and the rest)
from gradcli.language.runtime import protocols, subclass_protocol
from gradcli.language.runtime.frames import BoundMethod, GradRuntimeError, UserFunction
from gradcli.language.runtime.signatures import Builtin, WrappedBuiltin
from gradcli.language.runtime.values import Size, type_name
from gradcli.language.runtime.uninitialized import check_shape


def _volatile(t: Tensor) -> bool:
    STATE.warn("UserWarning", "volatile was removed (Variable.volatile is always False)")
    return False


def set_volatile(t, value) -> None:
    """Setting a tensor's (or Variable()'s) volatile flag, which no longer does anything."""
    STATE.warn("UserWarning", "volatile was removed and now has no effect. Use `with "
               "torch.no_grad():` instead.")


def _version(t: Tensor) -> int:
    if t.inference:
        raise errors.runtime("Inference tensors do not track version counter.")
    return t._version


# name -> (getter, setter or None)
TENSOR_ATTRS = {
    "grad": (grad_api.read_grad, grad_api.assign_grad),
    "data": (grad_api.read_data, grad_api.assign_data),
    "requires_grad": (lambda t: t.requires_grad, grad_api.set_requires_grad),
    "T": (S.reversed_dims, None),
    "real": (lambda t: F.real(t), None),
    "imag": (lambda t: F.imag(t), None),
    "mT": (S.matrix_transpose, None),
    "mH": (lambda t: S.adjoint(t, "mH"), None),
    "H": (S.hermitian, None),
    "grad_fn": (lambda t: t.grad_fn, None),
    "name": (lambda t: None, None),  # (a tensor's graph name, which only tracing gives)
    "is_leaf": (lambda t: t.is_leaf, None),
    "retains_grad": (lambda t: t.retains_grad, None),
    "shape": (lambda t: check_shape(t) or Size(t.shape), None),
    "dtype": (lambda t: t.dtype, None),
    "device": (lambda t: devices.CPU, None),
    "is_cuda": (lambda t: False, None),
    "is_cpu": (lambda t: True, None),
    "ndim": (lambda t: t.ndim, None),
    "output_nr": (lambda t: t.output_nr, None),
    "_version": (_version, None),
    "volatile": (_volatile, set_volatile),
    "grad_dtype": (grad_api.grad_dtype, grad_api.set_grad_dtype),
    "_base": (lambda t: t._base, None),
    "nbytes": (lambda t: t.numel() * t.dtype.itemsize, None),
    "itemsize": (lambda t: t.dtype.itemsize, None),
    **{name: (lambda t: False, None) for name in (  # a CPU tensor is none of these
        "is_sparse_csr", "is_quantized", "is_meta", "is_mkldnn", "is_nested",
        "is_mps", "is_xpu", "is_vulkan", "is_ipu", "is_xla", "is_mtia", "is_maia")},
    "is_sparse": (lambda t: t.sparse is not None, None),
    "layout": (lambda t: layouts.STRIDED if t.sparse is None else layouts.SPARSE_COO, None),
}


def _register_hook(ctx, t: Tensor, hook) -> hooks.RemovableHandle:
    """The hook runs in the program (errors in it surface there); torch names it in its errors."""
    name = hook.name if isinstance(hook, UserFunction) else "hook"
    return hooks.register_hook(t, lambda grad: ctx.call(hook, [grad], {}), name)


def _pin_memory(t: Tensor, device=None):
    raise errors.runtime("Cannot access accelerator device when none is available.")


def _is_pinned(t: Tensor, device=None) -> bool:
    """Never pinned: there is no accelerator; a device named is deprecated, and any but the
    CPU is refused as pin_memory refuses it."""
    if device is not None:
        STATE.warn("DeprecationWarning", triggered(
            "The argument 'device' of Tensor.is_pinned() is deprecated. Please do not pass this "
            "argument.", "aten/src/ATen/native/Memory.cpp", 31))
        if str(device) != "cpu":
            _pin_memory(t)
    return False


def _resizes():
    """The deprecated out-of-place resizes, loaded when a program first calls one."""
    from gradcli.language.namespaces import tensor_resize
    return tensor_resize


def no_arguments(name: str, fn) -> Builtin:
    """A Tensor method torch implements in C without parameters (METH_NOARGS), with its
    wording for arguments it is given."""
    return entry(name, fn, "self", style="noargs", qualname=f"TensorBase.{name}")


def _size(t: Tensor, dim=None):
    if dim is None:
        return Size(t.shape)
    return S.size_at(t, int(dim.data) if isinstance(dim, Tensor) else dim)


TENSOR_METHODS = layered(worded_as_torch("torch.Tensor", table(
    entry("backward", grad_api.backward,
          "self, gradient=None, retain_graph=None, create_graph=False, inputs=None",
          qualname="Tensor.backward"),
    no_arguments("item", grad_api.item),
    no_arguments("detach", F.detach),
    no_arguments("detach_", grad_api.detach_),
    entry("requires_grad_", grad_api.requires_grad_, "self, requires_grad: bool=True"),
    no_arguments("retain_grad", grad_api.retain_grad),
    entry("register_hook", _register_hook, "self, hook", context=True),
    entry("register_post_accumulate_grad_hook", register_post_accumulate_grad_hook,
          "self, hook", context=True),
    entry("size", _size, "self, dim: index=None"),
    no_arguments("dim", lambda t: t.ndim),
    no_arguments("_is_view", lambda t: t._base is not None),
    entry("is_pinned", _is_pinned, "self, device=None"),
    entry("pin_memory", _pin_memory, "self, device=None"),
    no_arguments("ndimension", lambda t: t.ndim),
    no_arguments("data_ptr", lambda t: t.data.ctypes.data),
    no_arguments("tolist", grad_api.tolist),
    entry("storage", storage_of, "self", qualname="Tensor.storage"),
    entry("untyped_storage", untyped_storage_of, "self"),
    entry("numpy", conversions.to_numpy, "self, *, force: bool=False", style="parser"),
    entry("cpu", lambda t: t, "self", style="parser"),
    AS_SUBCLASS,
    entry("new", lambda t, *args, **kwargs: legacy_new(args, kwargs, t.dtype, True),
          "self, *args, **kwargs", style="parser"),
    # shapes and indexing
    entry("split", S.split, "self, split_size, dim=0"),
    entry("resize", lambda t, *sizes: _resizes().resize(t, *sizes), "self, *sizes",
          qualname="Tensor.resize"),
    entry("resize_as", lambda t, tensor: _resizes().resize_as(t, tensor), "self, tensor",
          qualname="Tensor.resize_as"),
) | TENSOR_APPLY), TENSOR_MATH)

protocols.TENSOR_ATTRS, protocols.TENSOR_METHODS = TENSOR_ATTRS, TENSOR_METHODS


# the special methods torch.Tensor has from torch._C.TensorBase (written in C)
_C_DUNDERS = frozenset("""__abs__ __add__ __and__ __bool__ __complex__ __delitem__ __eq__
    __float__ __ge__ __getitem__ __gt__ __iadd__ __iand__ __ifloordiv__ __ilshift__ __imod__
    __imul__ __index__ __int__ __invert__ __ior__ __irshift__ __isub__ __itruediv__
    __ixor__ __le__ __lshift__ __lt__ __matmul__ __mod__ __mul__ __ne__ __neg__ __or__ __pos__
    __radd__ __rand__ __rmul__ __ror__ __rshift__ __rxor__ __setitem__ __sub__
    __truediv__ __xor__ __div__ __idiv__""".split())

# torch.Tensor's power operators: C methods wrapped in Python functions of their names
_WRAPPED = {"__pow__": "pow", "__ipow__": "pow_"}

# special methods torch.Tensor binds to another of its methods (`__rtruediv__ = __rdiv__`)
_ALIASES = {"__abs__": "abs", "__neg__": "neg", "__pos__": "positive",
            "__rtruediv__": "__rdiv__", "__itruediv__": "__idiv__"}


class _UnboundMethods(Mapping):
    """torch.Tensor's methods as the class holds them (`torch.Tensor.sum(x)`): Python-coded ones
    as they are, C ones as method descriptors that check their first argument."""

    def __getitem__(self, name: str):
        if name in _ALIASES:
            return self[_ALIASES[name]]
        if name == "_make_subclass":
            return MAKE_SUBCLASS
        if name == "__torch_function__":  # a classmethod: bound to torch.Tensor
            return BoundMethod(TENSOR_TYPE, subclass_protocol.DEFAULT_HANDLER)
        method = TENSOR_METHODS[name] if name in TENSOR_METHODS else \
            tensor_dunders.TENSOR_DUNDERS[name]
        if name in _C_DUNDERS:
            return _descriptor(name, method)
        if name in _WRAPPED:
            return _wrapped_operator(name)
        if isinstance(method, Builtin) and method.qualname.startswith("Tensor."):
            return method
        if isinstance(method, Builtin) and name not in C_CODED["torch.Tensor"]:
            return _python_method(name, method)  # torch writes it in Python (Tensor.unique)
        return _descriptor(name, method)

    def __iter__(self):
        return iter(TENSOR_METHODS)

    def __len__(self) -> int:
        return len(TENSOR_METHODS)


def _python_method(name: str, method: Builtin) -> Builtin:
    """A Tensor method torch writes in Python, as the class holds it: the function
    Tensor.name, the same one each time. Given another receiver than a tensor, it fails as the
    torch function of its name, which its code calls, does."""
    def call(ctx, *args, **kwargs):
        if not args:
            raise errors.type_error(f"Tensor.{name}() missing 1 required positional argument: "
                                    "'self'")
        if isinstance(args[0], Tensor):
            return ctx.call(method, list(args), kwargs)
        function = protocols.MODULES["torch"].table.get(name) or _descriptor(name, method)
        return ctx.call(function, list(args), kwargs)
    if name not in _PYTHON_METHODS:
        _PYTHON_METHODS[name] = entry(name, call, "*args, **kwargs", context=True,
                                      qualname=f"Tensor.{name}")
    return _PYTHON_METHODS[name]


_PYTHON_METHODS: dict[str, Builtin] = {}


def _wrapped_operator(name: str) -> WrappedBuiltin:
    """torch.Tensor.__pow__ or __ipow__: a Python function wrapping TensorBase.pow or pow_,
    named as it, that reads a TypeError (a receiver not a tensor) as NotImplemented."""
    if name not in _PYTHON_METHODS:
        inner = _UNBOUND[_WRAPPED[name]]

        def call(ctx, *args, **kwargs):
            try:
                return ctx.call(inner, list(args), kwargs)
            except (errors.TorchError, GradRuntimeError) as error:
                if error.kind == "TypeError":
                    return NotImplemented
                raise
        _PYTHON_METHODS[name] = WrappedBuiltin(inner.name, call, "*args, **kwargs",
                                               needs_context=True, qualname=inner.qualname,
                                               wrapped=inner)
    return _PYTHON_METHODS[name]


def _descriptor(name: str, method):
    """A Tensor method torch writes in C, as the class holds it: a method descriptor, the same
    one each time, that checks its first argument."""
    if name not in _DESCRIPTORS:
        _DESCRIPTORS[name] = _checking_receiver(name, method)
    return _DESCRIPTORS[name]


_DESCRIPTORS: dict[str, Builtin] = {}


def _checking_receiver(name: str, method):
    def call(ctx, *args, **kwargs):
        if not args:
            raise errors.type_error(f"unbound method TensorBase.{name}() needs an argument")
        if not isinstance(args[0], Tensor):
            raise errors.type_error(f"descriptor '{name}' for 'torch._C.TensorBase' objects "
                                    f"doesn't apply to a '{type_name(args[0])}' object")
        return ctx.call(method, list(args), kwargs)
    return entry(name, call, "*args, **kwargs", context=True, qualname=f"TensorBase.{name}")


_UNBOUND = protocols.CLASS_METHODS[Tensor] = _UnboundMethods()
