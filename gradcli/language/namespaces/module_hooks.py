"""nn.Module hooks: forward pre-hooks, forward hooks and full backward (pre-)hooks, run around a
module's forward as torch's `Module._call_impl` runs them (torch/nn/modules/module.py), the
backward ones through identity nodes named `BackwardHookFunctionBackward` on the module's tensor
inputs and outputs (torch/utils/hooks.py's BackwardHook); the deprecated non-full backward hooks
(`register_backward_hook`) on the grad_fn of the output."""

from __future__ import annotations

from gradcli.engine import errors, node_hooks
from gradcli.engine.custom import FunctionNode, attach_output, returned_input
from gradcli.engine.functions import F
from gradcli.engine.hooks import Hook, RemovableHandle
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.autograd_graph import hook_name
from gradcli.language.runtime import protocols
from gradcli.language.runtime.calls import get_item
from gradcli.language.runtime.coercions import length
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import type_name

KINDS = ("forward_pre", "forward", "backward_pre", "backward", "legacy_backward")
# torch.nn.modules.module's global hooks (register_module_forward_hook and its kin), run on
# every module before its own; emptied for each program (`reset`)
GLOBAL: dict[str, list] = {kind: [] for kind in KINDS[:4]}
# hooks that do not run around forward: state_dict's and load_state_dict's
OTHER_KINDS = ("load_state_dict_post", "load_state_dict_pre", "state_dict_pre", "state_dict")
_BOTH_BACKWARDS = ("Cannot use both regular backward hooks and full backward hooks on a single "
                   "Module. Please use only one of them.")
_NO_INPUT_GRAD = (
    "Full backward hook is firing when gradients are computed with respect to module outputs "
    "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
    "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details.")


class ModuleHook(Hook):
    """A module hook and how torch calls it."""

    __slots__ = ("with_kwargs", "always_call")

    def __init__(self, fn, with_kwargs: bool = False, always_call: bool = False):
        super().__init__(fn, "hook")
        self.with_kwargs, self.always_call = with_kwargs, always_call


def register(module, kind: str, fn, prepend: bool, with_kwargs: bool = False,
             always_call: bool = False) -> RemovableHandle:
    """Add a hook of `kind` to the module's table (created on first use). A module's backward
    hooks are all full or all not, from the first one on (torch's `_is_full_backward_hook`)."""
    if module.hooks is None:
        module.hooks = {each: [] for each in KINDS + OTHER_KINDS}
        module.hooks["full"] = None
    if kind in ("backward", "legacy_backward"):
        full = kind == "backward"
        if module.hooks["full"] is (not full):
            raise errors.runtime(_BOTH_BACKWARDS)
        module.hooks["full"] = full
    hooks = module.hooks[kind]
    hook = ModuleHook(fn, with_kwargs, always_call)
    hooks.insert(0, hook) if prepend else hooks.append(hook)
    return RemovableHandle(hooks, hook)


def reset() -> None:
    for hooks in GLOBAL.values():
        hooks.clear()


def register_global(kind: str, fn, with_kwargs: bool = False,
                    always_call: bool = False) -> RemovableHandle:
    """A global module hook of `kind`, as torch.nn.modules.module.register_module_*_hook."""
    hook = ModuleHook(fn, with_kwargs, always_call)
    GLOBAL[kind].append(hook)
    return RemovableHandle(GLOBAL[kind], hook)


GLOBAL_REGISTRATION = table(  # torch.nn.modules.module's functions
    entry("register_module_forward_pre_hook", lambda hook: register_global("forward_pre", hook),
          "hook"),
    entry("register_module_forward_hook", lambda hook, with_kwargs, always_call: register_global(
        "forward", hook, with_kwargs, always_call), "hook, *, with_kwargs=False, "
        "always_call=False"),
    entry("register_module_full_backward_pre_hook", lambda hook: register_global(
        "backward_pre", hook), "hook"),
    entry("register_module_full_backward_hook", lambda hook: register_global("backward", hook),
          "hook"))


def has_hooks(module) -> bool:
    return any(GLOBAL.values()) or (module.hooks is not None
                                    and any(module.hooks[kind] for kind in KINDS))


def hooks_of(module, kind: str) -> list:
    """The hooks of `kind` a call of `module` runs: the global ones, then its own."""
    own = module.hooks[kind] if module.hooks is not None else []
    return GLOBAL.get(kind, []) + own


def _call(ctx, module, *args, **kwargs):
    """Module.__call__ with hooks: pre-hooks, backward-hook inputs, forward, forward hooks,
    backward-hook outputs; on an error, the always_call forward hooks that did not run yet."""
    hooks, called = {kind: hooks_of(module, kind) for kind in KINDS}, set()
    result = None
    try:
        for hook in list(hooks["forward_pre"]):
            if hook.with_kwargs:
                found = ctx.call(hook.fn, [module, args, kwargs], {})
                if found is not None:
                    if not (isinstance(found, tuple) and len(found) == 2):
                        raise errors.runtime("forward pre-hook must return None or a tuple of "
                                             f"(new_args, new_kwargs), but got "
                                             f"{ctx.printer.str(found)}.")
                    args, kwargs = found
            else:
                found = ctx.call(hook.fn, [module, args], {})
                if found is not None:
                    args = found if isinstance(found, tuple) else (found,)
        backward = None
        if hooks["backward"] or hooks["backward_pre"]:
            backward = _BackwardHook(ctx, module)
            args = backward.setup_input_hook(args)
        result = ctx.call(module.forward_method(), list(args), dict(kwargs))
        for hook in list(hooks["forward"]):
            called.add(id(hook))
            found = ctx.call(hook.fn, [module, args, kwargs, result] if hook.with_kwargs
                             else [module, args, result], {})
            if found is not None:
                result = found
        if backward is not None:
            if not isinstance(result, (Tensor, tuple)):
                STATE.warn("UserWarning", "For backward hooks to be called, module output "
                           "should be a Tensor or a tuple of Tensors but received "
                           f"<class '{type_name(result)}'>")
            result = backward.setup_output_hook(result)
        if hooks["legacy_backward"]:
            _legacy_backward(ctx, module, args, result)
        return result
    except Exception:  # as torch: the always_call hooks run, then the error goes on
        for hook in list(hooks["forward"]):
            if hook.always_call and id(hook) not in called:
                try:
                    found = ctx.call(hook.fn, [module, args, kwargs, result] if hook.with_kwargs
                                     else [module, args, result], {})
                except Exception as error:
                    STATE.warn("UserWarning", "module forward hook with ``always_call=True`` "
                               "raised an exception that was silenced as another error was "
                               f"raised in forward: {getattr(error, 'message', error)}")
                    continue
                if found is not None:
                    result = found
        raise


def _legacy_backward(ctx, module, args: tuple, result) -> None:
    """The non-full backward hooks: registered on the grad_fn of the output's first tensor,
    called as hook(module, grad_inputs, grad_outputs) of that node; torch warns when the node's
    inputs are not the module's."""
    var = result
    while not isinstance(var, Tensor):
        if isinstance(var, dict):
            var = next((v for v in var.values() if isinstance(v, Tensor)), None)
            if var is None:
                raise errors.TorchError("StopIteration", "")
        else:
            var = protocols.get_item(var, 0)
    node = var.grad_fn
    if node is None:
        return
    for hook in hooks_of(module, "legacy_backward"):
        node_hooks.register_posthook(
            node, lambda grad_inputs, grad_outputs, fn=hook.fn: ctx.call(
                fn, [module, grad_inputs, grad_outputs], {}), hook_name(hook.fn))
    problem = _legacy_problem(args, result, node)
    if problem:
        STATE.warn("FutureWarning", problem)


def _legacy_problem(inputs: tuple, result, node) -> str | None:
    """torch's `_maybe_warn_non_full_backward_hook`: what the hook will miss, if anything."""
    results = (result,) if isinstance(result, Tensor) else result
    if not (isinstance(results, tuple) and all(isinstance(r, Tensor) for r in results)):
        return ("Using non-full backward hooks on a Module that does not return a single Tensor "
                "or a tuple of Tensors is deprecated and will be removed in future versions. "
                "This hook will be missing some of the grad_output. Please use "
                "register_full_backward_hook to get the documented behavior.")
    if not all(isinstance(i, Tensor) for i in inputs):
        return ("Using non-full backward hooks on a Module that does not take as input a single "
                "Tensor or a tuple of Tensors is deprecated and will be removed in future "
                "versions. This hook will be missing some of the grad_input. Please use "
                "register_full_backward_hook to get the documented behavior.")
    out_nodes = {id(r.grad_fn) for r in results if r.grad_fn is not None}
    if not out_nodes or (len(out_nodes) == 1 and id(node) not in out_nodes):
        return ("Using a non-full backward hook when outputs are nested in python data structure "
                "is deprecated and will be removed in future versions. This hook will be missing "
                "some grad_output.")
    if len(out_nodes) > 1:
        return ("Using a non-full backward hook when outputs are generated by different autograd "
                "Nodes is deprecated and will be removed in future versions. This hook will be "
                "missing some grad_output. Please use register_full_backward_hook to get the "
                "documented behavior.")
    if {id(i.grad_fn) for i in inputs if i.grad_fn is not None} != {
            id(each) for each, _ in node.next_functions}:
        return ("Using a non-full backward hook when the forward contains multiple autograd Nodes "
                "is deprecated and will be removed in future versions. This hook will be missing "
                "some grad_input. Please use register_full_backward_hook to get the documented "
                "behavior.")
    return None


CALL = entry("_call_impl", _call, "self, *args, **kwargs", context=True)


class _BackwardHook:
    """torch.utils.hooks.BackwardHook: identity nodes on the tensor inputs and outputs; the
    output node's hook records the output gradients (after the backward pre-hooks), the input
    node's hook calls the full backward hooks with (module, grad_input, grad_output)."""

    def __init__(self, ctx, module):
        self.ctx, self.module = ctx, module
        self.grad_outputs = None
        self.n_inputs = self.n_outputs = -1
        self.input_index = self.output_index = None

    def _user_hooks(self, kind: str) -> list:
        return hooks_of(self.module, kind)

    def setup_input_hook(self, args: tuple) -> tuple:
        result, self.input_index = identity_nodes(args, self._input_hook)
        self.n_inputs = len(args)
        return result

    def setup_output_hook(self, result):
        single = not isinstance(result, tuple)
        values = (result,) if single else result
        values, self.output_index = identity_nodes(values, self._output_hook)
        self.n_outputs = len((result,) if single else result)
        return values[0] if single else values

    def _input_hook(self, grad_inputs: tuple, _grad_outputs: tuple):
        if self.grad_outputs is None:  # reached without passing through the outputs
            return None
        packed = _pack(self.input_index, grad_inputs, self.n_inputs)
        for hook in self._user_hooks("backward"):
            out = self.ctx.call(hook.fn, [self.module, packed, self.grad_outputs], {})
            if out is None:
                continue
            if length(out) != len(packed):  # (a tensor returned is read as its rows)
                raise errors.runtime("Backward hook returned an invalid number of grad_input, "
                                     f"got {length(out)}, but expected {len(packed)}")
            packed = out
        self.grad_outputs = None
        return tuple(get_item(packed, i) for i in self.input_index)

    def _output_hook(self, _grad_inputs: tuple, grad_outputs: tuple):
        self.grad_outputs = _pack(self.output_index, grad_outputs, self.n_outputs)
        expected = len(self.grad_outputs)
        for hook in self._user_hooks("backward_pre"):
            found = self.ctx.call(hook.fn, [self.module, self.grad_outputs], {})
            if found is None:
                continue
            if length(found) != expected:
                raise errors.runtime("Backward pre hook returned an invalid number of "
                                     f"grad_output, got {length(found)}, but expected {expected}")
            self.grad_outputs = found
        local = self.grad_outputs
        if self.input_index is None:
            STATE.warn("UserWarning", _NO_INPUT_GRAD)
            nothing = (None,) * self.n_inputs
            for hook in self._user_hooks("backward"):
                out = self.ctx.call(hook.fn, [self.module, nothing, self.grad_outputs], {})
                if out is not None and not (isinstance(out, tuple) and
                                            all(each is None for each in out)):
                    raise errors.runtime("Backward hook for Modules where no input requires "
                                         "gradient should always return None or None for all "
                                         "gradients.")
            self.grad_outputs = None
        return tuple(get_item(local, i) for i in self.output_index)


def _pack(indices: list, values: tuple, size: int) -> tuple:
    packed = [None] * size
    for position, value in zip(indices, values):
        packed[position] = value
    return tuple(packed)


def identity_nodes(values: tuple, hook, label: str = "BackwardHookFunctionBackward",
                   views: bool = True) -> tuple:
    """BackwardHookFunction.apply over the tensors among `values` when one requires grad (and
    grad mode is on): new tensors over the same data, one node named `label` passing the
    gradients through, `hook` (if any) registered on it. Returns the values with the tensors
    replaced, and their indices. With `views`, the outputs are views of the inputs, which may not
    be modified in place, as BackwardHookFunction's are."""
    indices = [i for i, value in enumerate(values) if isinstance(value, Tensor)]
    tensors = tuple(values[i] for i in indices)
    if not (STATE.grad_enabled and any(t.requires_grad for t in tensors)):
        return values, None
    outputs = tuple(returned_input(t, t.requires_grad) if views else F.detach(t)
                    for t in tensors)
    node = FunctionNode(label, tensors, outputs, lambda grads: tuple(grads))
    for nr, (source, out) in enumerate(zip(tensors, outputs)):
        if source.requires_grad:
            attach_output(out, node, nr)
    if hook is not None:
        node_hooks.register_posthook(node, hook, "hook")
    replaced = list(values)
    for position, out in zip(indices, outputs):
        replaced[position] = out
    return tuple(replaced), indices

