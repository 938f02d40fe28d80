"""Tensor hooks: functions that see, and may replace, the gradient flowing into a tensor.

A non-leaf's hooks live on its grad_fn (by output number), so they fire while the graph lives
even when the tensor is gone; a leaf's live beside the leaf, for its AccumulateGrad to run.
"""

from __future__ import annotations

import itertools
import weakref
from typing import Callable

from gradcli.engine import errors
from gradcli.engine.tensor import Tensor

_LEAF_HOOKS: "weakref.WeakKeyDictionary[Tensor, list]" = weakref.WeakKeyDictionary()
_IDS = itertools.count()  # torch.utils.hooks.RemovableHandle.next_id, shared by every handle


class Hook:
    """A registered function and the name torch's errors call it by."""

    __slots__ = ("fn", "name", "id")

    def __init__(self, fn: Callable, name: str):
        self.fn, self.name, self.id = fn, name, None


class RemovableHandle:
    """What register_hook returns: `remove()` unregisters the hook (a second call does nothing);
    `id` numbers it among all handles, as torch keys a module's hook dictionaries."""

    def __init__(self, hooks: list, hook: Hook):
        self._hooks, self._hook = hooks, hook
        self.id = hook.id = next(_IDS)

    def remove(self) -> None:
        if any(h is self._hook for h in self._hooks):
            self._hooks.remove(self._hook)


def register_hook(tensor: Tensor, fn: Callable, name: str) -> RemovableHandle:
    """Tensor.register_hook: `fn(grad)` runs when the gradient for `tensor` is ready."""
    if not tensor.requires_grad:
        raise errors.runtime("cannot register a hook on a tensor that doesn't require gradient")
    node = tensor.grad_fn
    if node is None:
        hooks = _LEAF_HOOKS.setdefault(tensor, [])
    else:
        if node.hooks is None:
            node.hooks = {}
        hooks = node.hooks.setdefault(tensor.output_nr, [])
    hook = Hook(fn, name)
    hooks.append(hook)
    return RemovableHandle(hooks, hook)


def leaf_hooks(tensor: Tensor) -> list | None:
    return _LEAF_HOOKS.get(tensor) if _LEAF_HOOKS.data else None


def run_hooks(hooks: list, grad: Tensor) -> Tensor:
    """Each hook in turn on the gradient; a returned tensor replaces it (torch's checks)."""
    for hook in list(hooks):
        result = hook.fn(grad)
        if result is not None:
            grad = check_result(result, grad, hook)
    return grad


def check_result(result, original: Tensor, hook: Hook) -> Tensor:
    """torch's check_single_result: a hook's returned value against the one it was given."""
    if not isinstance(result, Tensor):
        raise errors.type_error(
            f"expected Variable, but hook returned '{errors.type_name(result)}'")
    if result.dtype is not original.dtype:
        raise errors.runtime(
            f"hook '{hook.name}' has changed the type of value (was "
            f"{original.dtype.type_string} got {result.dtype.type_string})")
    if result.shape != original.shape:
        raise errors.runtime(f"hook '{hook.name}' has changed the size of value")
    return result
