"""Saved-tensor hooks (torch.autograd.graph.saved_tensors_hooks): a pack function sees each
tensor a node saves when the node is made, an unpack function gives it back when it is read.

Packed values live in a side table keyed by the node, so nodes without hooks carry nothing.
"""

from __future__ import annotations

import weakref

from gradcli.engine import errors
from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor

RESULT = "result"  # as engine/autograd.py names a saved output
STACK: list = []  # the (pack, unpack) pairs in force, innermost last
DISABLED: list = []  # the messages of disable_saved_tensors_hooks blocks in force
# Ops whose saved tensors torch packs in another order than their rules read them.
_ORDER = {"addmm": (1, 2), "mv": (0, 1), "atan2": (1, 0)}
PACKED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # node -> {slot: SavedTensor}
# whether a saved tensor was ever packed: until then backward skips PACKED (a WeakKeyDictionary's
# truth test is a Python-level len(), which every node of every backward would pay)
EVER_PACKED = False


_PACK_IN_PLACE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack "
    "hook cannot be modified by in-place operations as this can lead to unexpected side-effects. "
    "Please open an issue if you need to perform in-place operations on the input to a pack hook.")


def _pack(pack, value: Tensor):
    """Run a pack hook as torch does: grad mode off, and its input not changed in place."""
    version = value._version_counter.value
    with grad_mode(False):
        packed = pack(value)
    if value._version_counter.value != version:
        raise errors.runtime(_PACK_IN_PLACE)
    return packed


class SavedTensor:
    """One saved value: packed by a pair of hooks, or not (yet) hooked (grad_fn._raw_saved_*)."""

    __slots__ = ("node", "slot", "packed", "unpack_fn", "orphan", "__weakref__")

    def __init__(self, node, slot):
        self.node, self.slot = weakref.ref(node), slot
        # The value a user's handle (grad_fn._raw_saved_*) keeps should it outlive its node, as
        # torch's does; set only for those handles, so hooked nodes hold nothing extra.
        self.packed = self.unpack_fn = self.orphan = None

    def register_hooks(self, pack, unpack) -> None:
        """Pack the saved value now; `unpack` gives it back whenever it is read."""
        if self.unpack_fn is not None:
            raise errors.runtime("Calling register_hooks on a saved tensor whose hooks have "
                                 "already been set. Hint: only one pair of hooks is allowed at a "
                                 "time.")
        node = self.node()
        if node is None:  # its node is gone: torch still packs the value it holds, to no effect
            if self.orphan is None:
                raise errors.runtime(errors.BACKWARD_TWICE)
            self.packed = _pack(pack, Tensor(self.orphan.data, self.orphan.dtype))
            self.unpack_fn = unpack
            return
        value = saved_tensor(node, self.slot)
        if value is None:  # freed by a backward without retain_graph
            raise errors.runtime(
                "Calling register_hooks on a saved tensor after it has been freed. Saved "
                "intermediate values of the graph are freed when you call .backward() or "
                "autograd.grad(). Specify retain_graph=True if you need to backward through the "
                "graph a second time or if you need to access saved variables after calling "
                "backward.")
        self.packed = _pack(pack, Tensor(value.data, value.dtype))
        self.unpack_fn = unpack
        _remember(node)[self.slot] = self


def saved_tensor(node, slot) -> Tensor:
    """What `slot` of `node` saved, before any hook."""
    if slot == RESULT:
        out = node.saved_result
        return out[0] if type(out) is tuple else out
    return node.saved_args[slot]


def push(pack, unpack) -> None:
    if DISABLED:
        raise errors.runtime(DISABLED[-1])
    STACK.append((pack, unpack))


def _remember(node) -> dict:
    """The packed entries of `node`, as a dict its new entries go into."""
    global EVER_PACKED
    EVER_PACKED = True
    return PACKED.setdefault(node, {})


def pack_node(node, slots: tuple, outputs: tuple) -> None:
    """Pack what a new node saved, in the order its rules read them (torch's order)."""
    pack, unpack = STACK[-1]
    entries = {}
    order = _ORDER.get(node.op.key)
    if order is not None:
        slots = sorted(slots, key=lambda slot: order.index(slot) if slot in order else len(order))
    for slot in dict.fromkeys(slots):
        if slot == RESULT:  # the output as it will be once the node is its grad_fn
            value = Tensor(outputs[0].data, outputs[0].dtype, grad_fn=node)
            value._version_counter = outputs[0].own_counter()
        else:
            value = node.saved_args[slot]
            if not isinstance(value, Tensor):
                continue
        entry = SavedTensor(node, slot)
        entry.packed = _pack(pack, value)
        entry.unpack_fn = unpack
        entries[slot] = entry
    _remember(node).update(entries)


def unpack_value(entry: SavedTensor, like: Tensor | None) -> Tensor:
    """The unpack hook's tensor as a new tensor with the history of the value saved."""
    value = entry.unpack_fn(entry.packed)
    if not isinstance(value, Tensor):
        raise errors.type_error("Output of saved tensor unpack_hook expected to be a Tensor but "
                                f"got result of type {errors.type_name(value)}")
    if like is None:
        return value
    result = Tensor(value.data, value.dtype, requires_grad=like.requires_grad,
                    grad_fn=like.grad_fn, output_nr=like.output_nr)
    result._accumulator = like._accumulator
    return result


def unpack_node(node, saved_args: tuple, out):
    """The node's saved inputs and output with its unpack hooks applied."""
    args = list(saved_args)
    for slot, entry in PACKED[node].items():
        if slot == RESULT:
            value = unpack_value(entry, None)
            out = Tensor(value.data, value.dtype, grad_fn=out.grad_fn, output_nr=out.output_nr)
        else:
            args[slot] = unpack_value(entry, args[slot])
    return tuple(args), out


def pack_values(tensors: tuple) -> list | None:
    """A custom Function's ctx.save_for_backward under hooks: each tensor packed."""
    if not STACK:
        return None
    pack, unpack = STACK[-1]
    return [(_pack(pack, t), unpack) if t is not None else None for t in tensors]


def unpack_values(packed: list, originals: tuple) -> tuple:
    results = []
    for item, like in zip(packed, originals):
        if item is None:
            results.append(None)
            continue
        entry = SavedTensor.__new__(SavedTensor)
        entry.packed, entry.unpack_fn = item
        results.append(unpack_value(entry, like))
    return tuple(results)
