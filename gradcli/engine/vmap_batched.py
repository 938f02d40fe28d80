"""The tensors a running vmap batches (its inputs' samples and what ops make of them): torch's
vmap cannot turn them into Python values (item(), float(), int(), bool(), tolist(), numpy()) nor
give them a shape that depends on their values (nonzero, boolean masks)."""

from __future__ import annotations

import weakref
from contextlib import contextmanager

from gradcli.engine import errors
from gradcli.engine.state import STATE

_ITEM = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
         "calling .item() on a Tensor, please try to rewrite what you're doing with other "
         "operations. If error is occurring somewhere inside PyTorch internals, please file a bug "
         "report.")
_CONTROL_FLOW = ("vmap: It looks like you're attempting to use a Tensor in some data-dependent "
                 "control flow. We don't support that yet, please file an issue at "
                 "https://github.com/pytorch/pytorch/issues .")


STORAGE = "Cannot access data pointer of Tensor that doesn't have storage"
MASK_INDEX = ("vmap: We do not support batching operators that can support dynamic shape. "
              "Attempting to batch over indexing with a boolean mask.")
MASKED_SELECT = ("vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot "
                 "support this because for each batch this would return a differently shaped "
                 "Tensor. Please file an issue at https://github.com/pytorch/pytorch/issues if you "
                 "need this feature.")


def dynamic_shape(op: str) -> str:
    return (f"vmap: We do not support batching operators that can output dynamic shape. "
            f"Attempted to vmap over aten::{op}. Please file an issue at "
            "https://github.com/pytorch/pytorch/issues if you need this feature.")


def begin() -> weakref.WeakSet | None:
    """Open a vmap's set (a nested vmap adds to its outer one's); returns the set to restore."""
    outer = STATE.vmap_batched
    if outer is None:
        STATE.vmap_batched = weakref.WeakSet()
    return outer


def end(outer) -> None:
    STATE.vmap_batched = outer


@contextmanager
def suspended(when: bool = True):
    """No tensor counts as batched inside (when `when`): a custom Function with its own vmap rule
    runs forward on whole tensors in torch, not on batched ones."""
    outer = STATE.vmap_batched
    if when:
        STATE.vmap_batched = None
    try:
        yield
    finally:
        STATE.vmap_batched = outer


def mark(t) -> None:
    STATE.vmap_batched.add(t)


def spread(args: tuple, outputs: tuple) -> None:
    """An op's outputs are batched when any of its tensor operands is."""
    batched = STATE.vmap_batched
    for a in args:
        if a in batched if not isinstance(a, (list, tuple)) else any(x in batched for x in a):
            batched.update(outputs)
            return


def any_batched(*tensors) -> bool:
    """Whether a running vmap batches any of `tensors` (torch then takes the op's batch rule)."""
    batched = STATE.vmap_batched
    return batched is not None and any(t in batched for t in tensors)


def refuse(t, message: str) -> None:
    """torch's vmap error `message` when t is batched."""
    if STATE.vmap_batched is not None and t in STATE.vmap_batched:
        raise errors.runtime(message)


def check_item(t) -> None:
    refuse(t, _ITEM)


def check_truth(t) -> None:
    refuse(t, _CONTROL_FLOW)
