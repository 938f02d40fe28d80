"""grad_fn._saved_<name>: what a node saved, under the names torch's generated nodes use."""

from __future__ import annotations

from gradcli.engine import dtypes, errors, saved_hooks
from gradcli.engine.autograd import RESULT
from gradcli.engine.tensor import Tensor, wrap

# Argument names of the op rows whose inputs torch does not call (self, other).
_ARG_NAMES = {
    "mm": ("self", "mat2"), "bmm": ("self", "mat2"), "mv": ("self", "vec"),
    "dot": ("self", "tensor"), "pow.Tensor_Scalar": ("self", "exponent"),
    "pow.Tensor_Tensor": ("self", "exponent"), "pow.Scalar": ("self", "exponent"),
}
PREFIX = "_saved_"
RAW_PREFIX = "_raw_saved_"


def _names(op) -> dict:
    """name -> what it reads: an argument index or RESULT."""
    arg_names = _ARG_NAMES.get(op.key, ("self", "other"))
    names = {}
    for slot in op.save:
        if slot == RESULT:
            names["result"] = RESULT
        elif slot < len(arg_names):
            names[arg_names[slot]] = slot
    if op.key == "pow.Tensor_Scalar":
        names["exponent"] = 1
    return names


def _slot(node, attr: str, prefix: str):
    op = getattr(node, "op", None)
    names = _names(op) if op is not None else {}
    slot = names.get(attr[len(prefix):], None) if attr.startswith(prefix) else None
    if slot is None:
        raise errors.TorchError("AttributeError",
                                f"'{node.class_name}' object has no attribute '{attr}'")
    return slot


def raw_saved(node, attr: str) -> saved_hooks.SavedTensor:
    """node._raw_saved_<name>: the saved tensor as an object that takes a pair of hooks."""
    slot = _slot(node, attr, RAW_PREFIX)
    if slot != RESULT and not isinstance(node.saved_args[slot], Tensor) and not node.freed:
        raise errors.TorchError("AttributeError",
                                f"'{node.class_name}' object has no attribute '{attr}'")
    entry = saved_hooks.PACKED.get(node, {}).get(slot)
    if entry is None:
        entry = saved_hooks.SavedTensor(node, slot)
        entry.orphan = None if node.freed else saved_hooks.saved_tensor(node, slot)
    return entry


def saved_value(node, attr: str):
    """node._saved_<name>: the saved input itself (None when that input was not saved), or the
    saved output as a new tensor; torch's errors once freed or for a name the node lacks."""
    slot = _slot(node, attr, PREFIX)
    if slot != RESULT:
        value = node.saved_args[slot] if slot < len(node.saved_args) else None
        if type(value) in (bool, int, float, complex) and node.op.key.endswith(".Tensor"):
            if node.freed:  # a wrapped number, saved as a tensor
                raise errors.runtime(errors.BACKWARD_TWICE)
            return wrap(value, dtypes.scalar_dtype(value, dtypes.float64))
        if not isinstance(value, Tensor) and not (node.freed and slot in _tensors_saved(node)):
            return value
    if node.freed:
        raise errors.runtime(errors.BACKWARD_TWICE)
    entry = saved_hooks.PACKED.get(node, {}).get(slot)
    if entry is not None and slot == RESULT:
        value = saved_hooks.unpack_value(entry, None)
        return Tensor(value.data, value.dtype, grad_fn=node)
    if entry is not None:
        return saved_hooks.unpack_value(entry, node.saved_args[slot])
    if slot == RESULT:
        return node.unpack()[1]
    return node.saved_args[slot]


def _tensors_saved(node) -> set:
    """The argument slots the node saved (those of the inputs that required grad)."""
    op = node.op
    if op.save_for is None:
        return set(op.save)
    slots = set()
    for slot, reads, (next_node, _) in zip(op.edge_slots, op.save_for, node.next_edges):
        if next_node is not None:
            slots.update(reads)
    return slots
