"""torch.nn's lazy modules (LazyLinear, LazyConvNd, LazyConvTransposeNd, LazyBatchNormNd,
LazyInstanceNormNd) and the Uninitialized tensors they hold until their first call, which infers
the input's size, draws the values as the non-lazy class does and becomes that class."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors, parameters
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.modules import KIND_METHODS, ModuleKind, construct
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.uninitialized import KINDS as UNINITIALIZED

_ZERO_ELEMENT = "Initializing zero-element tensors is a no-op"


def uninitialized(kind: str, requires_grad: bool, dtype=None) -> Tensor:
    """torch.empty(0) made an UninitializedParameter or UninitializedBuffer."""
    dtype = dtype or STATE.default_dtype
    t = Tensor(np.empty(0, dtype.np), dtype)
    if kind == "UninitializedParameter":
        t = parameters.parameter(t, requires_grad)
    else:
        t.requires_grad = requires_grad
    UNINITIALIZED[t] = kind
    return t


def uninitialized_types(parameter_host: type) -> dict:
    """nn.UninitializedParameter (a Parameter) and nn.UninitializedBuffer (a Tensor)."""
    types = {}
    for name, base, requires_grad in (("UninitializedParameter", parameter_host, True),
                                      ("UninitializedBuffer", Tensor, False)):
        meta = type(f"_{name}Meta", (type(base),), {
            "__instancecheck__": lambda cls, value: (isinstance(value, Tensor) and
                                                     UNINITIALIZED.get(value) == cls.__name__)})
        host = meta(name, (base,), {"__slots__": ()})
        types[name] = PyType(f"torch.nn.parameter.{name}", (host,), BoundMethod(None, entry(
            "__new__", lambda cls, requires_grad, device, dtype, kind=name: uninitialized(
                kind, requires_grad, dtype),
            f"cls, requires_grad={requires_grad}, device=None, dtype=None",
            qualname=f"{name}.__new__")))
    return types


def _tensors(module):
    return [*module.params.values(), *module.buffers.values()]


def has_uninitialized_params(module) -> bool:
    return any(t in UNINITIALIZED for t in _tensors(module) if t is not None)


def _shape(x, member: str = "shape") -> tuple:
    """input.shape (or input.dim()) as torch's Python code reads it."""
    if not isinstance(x, Tensor):
        raise errors.no_attribute(x, member)
    return x.shape


def _dimension(shape: tuple, dim: int) -> int:
    if not -len(shape) <= dim < len(shape):
        raise errors.TorchError("IndexError", "tuple index out of range")
    return shape[dim]


def _size_from_last(module, x) -> int:
    return _dimension(_shape(x), -1)


def _size_from_channels(spatial: int):
    def infer(module, x) -> int:
        _shape(x, "dim")
        if x.ndim not in (spatial + 1, spatial + 2):
            raise errors.runtime(
                f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) input to "
                f"{module.kind.name}, but got input of size: "
                f"torch.Size([{', '.join(map(str, x.shape))}])")
        return x.shape[1] if x.ndim == spatial + 2 else x.shape[0]
    return infer


def _size_from_dim_1(module, x) -> int:
    return _dimension(_shape(x), 1)


def _initialize(module, base: ModuleKind, infer, *inputs) -> None:
    """initialize_parameters: infer the size, build the non-lazy module from the same options
    (its draws, in its order) and move its values into the uninitialized tensors."""
    if not has_uninitialized_params(module):  # loaded from a checkpoint: only the size is read
        _infer_size(module, infer, inputs[0])
        return
    values, keywords = module.options
    keywords = {k: v for k, v in keywords.items() if k != "bias" or "bias" in base.option_names}
    size = infer(module, inputs[0])
    values = [size, *values]
    # materialize keeps the dtype the tensors have now (module.double() before the first call)
    values[base.option_names.index("dtype")] = next(
        t.dtype for t in _tensors(module) if t is not None and t in UNINITIALIZED)
    fresh = construct(base, *values, **keywords)
    for mine, theirs in ((module.params, fresh.params), (module.buffers, fresh.buffers)):
        for name, t in mine.items():
            if t is not None and t in UNINITIALIZED:
                t.data, t.dtype = theirs[name].data, theirs[name].dtype
                del UNINITIALIZED[t]
    module.attrs.update((k, v) for k, v in fresh.attrs.items() if k != "training")
    module.options = fresh.options


def _infer_size(module, infer, x) -> None:
    """initialize_parameters of a module whose tensors a checkpoint gave their shapes:
    LazyLinear reads the input size it has not yet read, checked against the weight's (the
    convolutions and norms keep their 0)."""
    if module.attrs.get("in_features") != 0:
        return
    size = infer(module, x)
    if size != module.params["weight"].shape[-1]:
        raise errors.TorchError("AssertionError", f"The in_features inferred from input: {size} "
                                f"is not equal to in_features from self.weight: "
                                f"{module.params['weight'].shape[-1]}")
    module.attrs["in_features"] = size


# the class each one's initialize_parameters is defined on (None: the lazy class itself)
_DEFINED_ON = {"last": None, "channels": "_LazyConvXdMixin", "dim1": "_LazyNormBase"}


def lazy_kind(name: str, base: ModuleKind, infer_name: str, spatial: int = 0) -> ModuleKind:
    """Lazy<base>: base's options without the inferred size (the first)."""
    infer = {"last": _size_from_last, "channels": _size_from_channels(spatial),
             "dim1": _size_from_dim_1}[infer_name]
    norm = infer_name == "dim1"
    options = ("eps=1e-05, momentum=0.1, affine=True, track_running_stats=True, device=None, "
               "dtype=None, *, bias=True") if norm else base.options.split(", ", 1)[1]

    def build(module, *values, bias=True) -> None:
        """torch's lazy __init__: the base class's with sizes 0 (nothing drawn), then its
        parameters and running statistics uninitialized."""
        sizes = (0,) if norm else (0, 0)
        rest = values if norm else values[1:]
        STATE.warning_filters.insert(0, ("ignore", lambda c, m: m == _ZERO_ELEMENT))
        try:
            base.build(module, *sizes, *rest)
        finally:
            del STATE.warning_filters[0]
        if not norm:
            module.attrs[next(n for n in ("out_features", "out_channels")
                              if n in module.attrs)] = values[0]
        for key, t in module.params.items():
            if t is not None:
                module.params[key] = uninitialized("UninitializedParameter", True, t.dtype)
        if norm and not bias:
            module.params["bias"] = None
        for key in ("running_mean", "running_var"):
            if module.buffers.get(key) is not None:
                module.buffers[key] = uninitialized("UninitializedBuffer", False,
                                                    module.buffers[key].dtype)

    def forward(ctx, module, *inputs):
        """The first call's hook: initialize, then become the non-lazy class."""
        _initialize(module, base, infer, *inputs)
        module.kind, module.__class__ = base, base.host
        return base.forward(ctx, module, *inputs)

    # the first call's hook reads the input before the forward's own first checks
    kind = ModuleKind(name, base.package, options, forward, base.inputs.split(";")[0],
                      extra_repr=base.extra_repr, build=build,
                      host=type(name, (base.host,), {"__slots__": ()}))
    KIND_METHODS[name] = table(
        entry("has_uninitialized_params", has_uninitialized_params, "self",
              qualname="LazyModuleMixin.has_uninitialized_params"),
        entry("initialize_parameters", lambda module, x, *args, **kwargs: _initialize(
            module, base, infer, x), "self, input, *args, **kwargs",
            qualname=f"{_DEFINED_ON[infer_name] or name}.initialize_parameters"))
    return kind
