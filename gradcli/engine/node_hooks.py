"""Hooks on graph nodes (torch.autograd.graph): a node's pre-hooks and post-hooks, a leaf's
post-accumulate-grad hooks, and multi-gradient hooks over several tensors.

They live in side tables keyed by the node or tensor, so the nodes themselves carry nothing for
the many graphs that never have hooks.
"""

from __future__ import annotations

import itertools
import weakref
from typing import Callable

from gradcli.engine import errors
from gradcli.engine.autograd import gradient_edge
from gradcli.engine.hooks import Hook, RemovableHandle, check_result, register_hook
from gradcli.engine.tensor import Tensor

_PRE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_POST: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_POST_ACCUMULATE: "weakref.WeakKeyDictionary[Tensor, list]" = weakref.WeakKeyDictionary()
_RUNS = itertools.count()
REGISTERED = False  # whether any hook was ever registered: passes skip the tables until then
# The backward passes under way, innermost last: (id, nodes in its graph, nodes that run or None).
CURRENT: list = []


def _add(table, key, fn: Callable, name: str) -> RemovableHandle:
    global REGISTERED
    REGISTERED = True
    hooks = table.setdefault(key, [])
    hook = Hook(fn, name)
    hooks.append(hook)
    return RemovableHandle(hooks, hook)


def register_prehook(node, fn: Callable, name: str) -> RemovableHandle:
    """Node.register_prehook: `fn(grad_outputs)` before the node runs; a tuple replaces them."""
    return _add(_PRE, node, fn, name)


def register_posthook(node, fn: Callable, name: str) -> RemovableHandle:
    """Node.register_hook: `fn(grad_inputs, grad_outputs)` after it ran; a tuple replaces
    grad_inputs."""
    return _add(_POST, node, fn, name)


def register_post_accumulate(tensor: Tensor, fn: Callable, name: str) -> RemovableHandle:
    """Tensor.register_post_accumulate_grad_hook: `fn(tensor)` once .grad has been updated."""
    if not tensor.requires_grad:
        raise errors.runtime("cannot register a hook on a tensor that doesn't require gradient")
    if tensor.grad_fn is not None:
        raise errors.runtime("post accumulate grad hooks cannot be registered on non-leaf "
                             "tensors")
    return _add(_POST_ACCUMULATE, tensor, fn, name)


def _checked(result, hook: Hook, originals: tuple) -> tuple | None:
    """A node hook's returned tuple against the values it was given (torch's _call_hooks)."""
    count = len(originals)
    if result is None:
        return None
    if not isinstance(result, tuple):
        raise errors.type_error(f"expected tuple, but hook returned '{errors.type_name(result)}'")
    if len(result) != count:
        raise errors.runtime(f"hook '{hook.name}' has returned an incorrect number of values "
                             f"(got {len(result)}, but expected {count})")
    for item, original in zip(result, originals):  # torch's check_single_result on each value
        if item is None:
            continue
        if original is None:
            raise errors.runtime("can't replace a None gradient with a non-None value")
        check_result(item, original, hook)
    return result


def run_prehooks(node, grads: list) -> list:
    for hook in list(_PRE.get(node, ())):
        result = _checked(hook.fn(tuple(grads)), hook, tuple(grads))
        if result is not None:
            grads = list(result)
    return grads


def run_posthooks(node, grad_inputs: list, grad_outputs: list) -> list:
    for hook in list(_POST.get(node, ())):
        result = _checked(hook.fn(tuple(grad_inputs), tuple(grad_outputs)), hook,
                          tuple(grad_inputs))
        if result is not None:
            grad_inputs = list(result)
    return grad_inputs


def has_hooks(node) -> bool:
    return REGISTERED and (node in _PRE or node in _POST)


def after_accumulate(tensor: Tensor) -> None:
    if not REGISTERED:
        return
    value, modified = tensor, False
    for hook in list(_POST_ACCUMULATE.get(tensor, ())):
        result = hook.fn(value)
        if result is not None and result is not value:  # torch's _call_hooks
            value, modified = check_result(result, value, hook), True
    if modified:
        raise errors.runtime("Tensor post accumulate grad hooks should return None.")


class running:
    """Marks a backward pass as under way for the multi-grad hooks (`with running(...)`)."""

    def __init__(self, nodes: dict, wanted):
        self.entry = (next(_RUNS), nodes, wanted)

    def __enter__(self):
        CURRENT.append(self.entry)

    def __exit__(self, *exc):
        CURRENT.remove(self.entry)


def _will_run(node) -> bool:
    _, nodes, wanted = CURRENT[-1]
    return node in nodes and (wanted is None or node in wanted)


class MultiHandle:
    """What register_multi_grad_hook returns: `remove()` removes every tensor's hook."""

    def __init__(self, handles: tuple):
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()


def register_multi_grad_hook(tensors, fn: Callable, mode: str, name: str) -> MultiHandle:
    """`fn(grads)` once every tensor whose gradient this backward computes has it ("all"), or
    `fn(grad)` with the first gradient of the pass ("any")."""
    if mode not in ("all", "any"):
        raise errors.value_error(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    for t in tensors:  # torch's Python code reads each one's requires_grad first
        if not isinstance(t, Tensor):
            raise errors.TorchError("AttributeError", f"'{errors.type_name(t)}' object has no "
                                    "attribute 'requires_grad'")
    if mode == "any":
        ran: set = set()

        def first(grad):
            run_id = CURRENT[-1][0]
            if run_id not in ran:
                ran.add(run_id)
                fn(grad)
        return MultiHandle(tuple(register_hook(t, first, name) for t in tensors))
    nodes = [gradient_edge(t)[0] for t in tensors]
    buffers: dict = {}

    def inner(index: int):
        def hook(grad):
            run_id = CURRENT[-1][0]
            if run_id not in buffers:
                buffers[run_id] = ([None] * len(tensors), [0, sum(map(_will_run, nodes))])
            grads, (seen, expected) = buffers[run_id]
            grads[index] = grad
            buffers[run_id][1][0] = seen + 1
            if seen + 1 == expected:
                del buffers[run_id]
                fn(grads)
        return hook
    return MultiHandle(tuple(register_hook(t, inner(i), name) for i, t in enumerate(tensors)))
