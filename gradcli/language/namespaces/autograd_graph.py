"""torch.autograd.graph: saved-tensor hooks, node hooks, multi-gradient hooks, the Node
methods and attributes that reach them (register_hook, register_prehook, _raw_saved_*), and
gradient edges (GradientEdge, get_gradient_edge)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors, node_hooks, saved, saved_hooks
from gradcli.engine import autograd
from gradcli.engine.autograd import AccumulateGrad, Node
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.frames import BoundMethod, ContextManager, UserFunction
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, NamedTuple, type_name


def hook_name(fn) -> str:
    """The name torch's errors give a hook: its function's name."""
    return fn.name if isinstance(fn, UserFunction) else "hook"


def calling(ctx, fn):
    """A Python callable that runs the program's `fn` (its errors surface in the program)."""
    return lambda *args: ctx.call(fn, list(args), {})


def _hooks_manager(pack, unpack, label: str) -> ContextManager:
    return ContextManager(lambda: saved_hooks.push(pack, unpack),
                          lambda: saved_hooks.STACK.pop(), label=label)


def saved_tensors_hooks(ctx, pack_hook, unpack_hook) -> ContextManager:
    return _hooks_manager(calling(ctx, pack_hook), calling(ctx, unpack_hook),
                          "torch.autograd.graph.saved_tensors_hooks")


def _copy(tensor: Tensor) -> Tensor:
    return Tensor(np.array(tensor.data, copy=True), tensor.dtype)


def save_on_cpu(pin_memory=False, device_type="cuda") -> ContextManager:
    """On a CPU-only machine: each saved tensor is kept as it is (torch packs tensor.cpu(), the
    tensor itself there, so a later in-place change shows through, unchecked)."""
    return _hooks_manager(lambda tensor: tensor, lambda packed: packed,
                          "torch.autograd.graph.save_on_cpu")


_MUTATION_CONTEXTS: list = []  # the open allow_mutation_on_saved_tensors context, if any


def allow_mutation_on_saved_tensors() -> ContextManager:
    """Tensors saved inside may be changed in place: each is kept as a copy when saved (torch
    copies it when first changed, to the same effect), and a backward through them after the
    context closes is refused, as torch refuses it."""
    state = {"open": True}

    def enter():
        if _MUTATION_CONTEXTS:
            raise errors.runtime("allow_mutation_on_saved_tensors contexts cannot be nested")
        _MUTATION_CONTEXTS.append(state)
        saved_hooks.push(_copy, unpack)

    def unpack(packed: Tensor) -> Tensor:
        if not state["open"]:
            raise errors.TorchError("AssertionError", "Trying to backward outside of the "
                                    "'allow_mutation_on_saved_tensors' contextin which the graph "
                                    "was originally recorded.")
        return packed

    def leave():
        saved_hooks.STACK.pop()
        _MUTATION_CONTEXTS.pop()
        state["open"] = False

    return ContextManager(enter, leave, label="contextlib._GeneratorContextManager")


def disable_saved_tensors_hooks(error_message) -> ContextManager:
    """A function in torch (a @contextmanager's), not a class as its sibling managers are."""
    return ContextManager(lambda: saved_hooks.DISABLED.append(error_message),
                          lambda: saved_hooks.DISABLED.pop(),
                          label="contextlib._GeneratorContextManager")


class RawSaved(TableObject):
    """grad_fn._raw_saved_<name>: torch._C._autograd.SavedTensor."""

    __slots__ = ("saved",)

    def __init__(self, saved_tensor: saved_hooks.SavedTensor):
        self.saved = saved_tensor

    @property
    def language_type(self) -> PyType:
        return SAVED_TENSOR_TYPE

    def attribute(self, name: str):
        if name == "register_hooks":
            return BoundMethod(self, _REGISTER_HOOKS)
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"<torch._C._autograd.SavedTensor object at 0x{id(self.saved):x}>"


_REGISTER_HOOKS = entry("register_hooks", lambda ctx, raw, pack, unpack: raw.saved.register_hooks(
    calling(ctx, pack), calling(ctx, unpack)), "self, arg0, arg1, /", context=True)
SAVED_TENSOR_TYPE = PyType("torch._C._autograd.SavedTensor", (RawSaved,))


class MultiHandle(TableObject):
    """What register_multi_grad_hook returns."""

    __slots__ = ("handle",)

    def __init__(self, handle: node_hooks.MultiHandle):
        self.handle = handle

    @property
    def language_type(self) -> PyType:
        return MULTI_HANDLE_TYPE

    def attribute(self, name: str):
        if name == "remove":
            return BoundMethod(self, _REMOVE)
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"<torch.autograd.graph._MultiHandle object at 0x{id(self):x}>"


_REMOVE = entry("remove", lambda h: h.handle.remove(), "self")
MULTI_HANDLE_TYPE = PyType("torch.autograd.graph._MultiHandle", (MultiHandle,))


def register_multi_grad_hook(ctx, tensors, fn, mode="all") -> MultiHandle:
    return MultiHandle(node_hooks.register_multi_grad_hook(
        tensors, calling(ctx, fn), mode, hook_name(fn)))


def raw_saved_attribute(name: str):
    """The getter of node._raw_saved_<name>."""
    return lambda node: RawSaved(saved.raw_saved(node, name))


NODE_HOOK_METHODS = table(
    entry("register_hook", lambda ctx, node, fn: node_hooks.register_posthook(
        node, calling(ctx, fn), hook_name(fn)), "self, fn", context=True),
    entry("register_prehook", lambda ctx, node, fn: node_hooks.register_prehook(
        node, calling(ctx, fn), hook_name(fn)), "self, fn", context=True),
)


def register_post_accumulate_grad_hook(ctx, tensor: Tensor, hook):
    return node_hooks.register_post_accumulate(tensor, calling(ctx, hook), hook_name(hook))


def region_activation_memory_budget(budget):
    """A compiled region's activation memory budget: its checks, then torch's refusal in eager
    mode (gradcli runs compiled functions eagerly)."""
    if isinstance(budget, bool) or not isinstance(budget, (int, float)):
        raise errors.type_error("torch.autograd.graph.region_activation_memory_budget: expects a "
                                f"float, got {type_name(budget)}")
    if not 0.0 <= budget <= 1.0:
        raise errors.value_error("torch.autograd.graph.region_activation_memory_budget: must be "
                                 f"in [0, 1], got {budget}")
    raise errors.runtime("torch.autograd.graph.region_activation_memory_budget can only be used "
                         "inside a torch.compile region; it has no effect in eager mode.")


def increment_version(tensor) -> None:
    """torch.autograd.graph.increment_version: a tensor's (or each tensor's) version counter
    bumped, as an in-place change autograd did not see (inference tensors have none)."""
    if isinstance(tensor, Tensor):
        tensor = (tensor,)
    elif not isinstance(tensor, (list, tuple)):
        raise errors.runtime("increment_version expect a Iterable[Tensor] as input")
    if not all(isinstance(t, Tensor) for t in tensor):
        raise errors.runtime("increment_version expects each element of the iterable to be a "
                             "tensor")
    for t in tensor:
        if not t.inference:
            t.bump_version()


class GradientEdge(NamedTuple, autograd.GradientEdge):
    """torch.autograd.graph.GradientEdge: (node, output_nr, ownership_token)."""

    __slots__ = ()
    language_fields = ("node", "output_nr", "ownership_token")


GRADIENT_EDGE_TYPE = PyType("torch.autograd.graph.GradientEdge", (GradientEdge,), entry(
    "GradientEdge", lambda node, output_nr, ownership_token: GradientEdge(
        (node, output_nr, ownership_token)), "node, output_nr, ownership_token=None", frames=0))


def get_gradient_edge(tensor) -> GradientEdge:
    """The edge a gradient for `tensor` flows into: its grad_fn (its AccumulateGrad if a leaf)
    and output number."""
    if not isinstance(tensor, Tensor):
        raise errors.no_attribute(tensor, "requires_grad")
    if not tensor.requires_grad:
        raise errors.runtime("It is not possible to get the gradient edge for a Tensor that does "
                             "not require gradients")
    node, output_nr = autograd.gradient_edge(tensor)
    return GradientEdge((node, output_nr, None))


def _class(name: str, construct) -> PyType:
    return PyType(f"torch.autograd.graph.{name}", (), construct)


GRAPH = Namespace("torch.autograd.graph", {
    "saved_tensors_hooks": _class("saved_tensors_hooks", entry(
        "saved_tensors_hooks", saved_tensors_hooks, "pack_hook, unpack_hook", context=True)),
    "save_on_cpu": _class("save_on_cpu", entry(
        "save_on_cpu", save_on_cpu, "pin_memory=False, device_type='cuda'")),
    "Node": PyType("torch.autograd.graph.Node", (Node, AccumulateGrad)),
    "GradientEdge": GRADIENT_EDGE_TYPE,
} | table(
    entry("get_gradient_edge", get_gradient_edge, "tensor"),
    entry("allow_mutation_on_saved_tensors", allow_mutation_on_saved_tensors, ""),
    entry("register_multi_grad_hook", register_multi_grad_hook, "tensors, fn, *, mode='all'",
          context=True),
    entry("region_activation_memory_budget", region_activation_memory_budget, "budget"),
    entry("increment_version", increment_version, "tensor"),
    entry("disable_saved_tensors_hooks", disable_saved_tensors_hooks, "error_message"),
))
