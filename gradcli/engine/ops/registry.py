"""The OpDef record, the OPS table, and `apply`: the one place that promotes, runs forwards and builds nodes."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Callable

import numpy as np

from gradcli.engine import dtypes
from gradcli.engine.autograd import Node, gradient_edge
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

RESULT = "result"


@dataclass(frozen=True)
class OpDef:
    """One op overload: its forward on arrays, one vjp per differentiable input, and its grad_fn label.

    `promote` says how input dtypes combine: "none" keeps the first tensor's dtype, "binary" is
    torch.result_type over the positional operands, "float" is that with integers raised to the
    default float dtype. `out_dtype` maps that compute dtype to the result's (e.g. comparisons give
    bool). `save` lists the positional inputs (by index) and/or RESULT that the vjps read;
    `save_for`, one tuple per vjp, narrows that to what each input's vjp reads. A view op's result
    shares its input's storage and version counter.
    """

    key: str
    label: str
    forward: Callable
    vjp: tuple = ()
    save: tuple = ()
    promote: str = "binary"
    out_dtype: Callable | None = None
    view: bool = False
    n_outputs: int = 1
    differentiable_outputs: tuple = (0,)
    save_for: tuple | None = None

    @cached_property
    def edge_slots(self) -> tuple:
        """Indices of the positional inputs that get a backward edge (those with a vjp)."""
        return tuple(i for i, rule in enumerate(self.vjp) if rule is not None)

    def saved_for(self, args: tuple) -> tuple:
        """What to save: all of `save`, or with `save_for` only what the vjps of inputs that
        require grad read (torch's conditional saving, which decides which in-place changes
        break backward)."""
        if self.save_for is None:
            return self.save
        needed = set()
        for slot, reads in zip(self.edge_slots, self.save_for):
            arg = args[slot]
            if isinstance(arg, Tensor) and arg.requires_grad:
                needed.update(reads)
        return tuple(k for k in self.save if k in needed)


OPS: dict[str, OpDef] = {}


def defop(key: str, label: str, forward: Callable, **fields) -> OpDef:
    """Declare one op overload and add it to the OPS table."""
    if "vjp" in fields and callable(fields["vjp"]):
        fields["vjp"] = (fields["vjp"],)
    op = OpDef(key, label, forward, **fields)
    OPS[key] = op
    return op


def compute_dtype(op: OpDef, args: tuple) -> dtypes.DType:
    """The dtype the forward computes in, following the op's promotion rule."""
    if op.promote == "none":
        return next(a.dtype for a in args if isinstance(a, Tensor))
    operands = [a for a in args if isinstance(a, (Tensor, bool, int, float))]
    result = dtypes.result_type(operands, STATE.default_dtype)
    if op.promote == "float" and not result.is_floating_point:
        return STATE.default_dtype
    return result


def apply(op: OpDef, *args, **params):
    """Run `op` on tensors and Python scalars; record a backward node when grad mode asks for one."""
    dtype = compute_dtype(op, args)
    arrays = [_as_operand(a, dtype, op.promote) for a in args]
    raw = op.forward(*arrays, **params)
    if op.n_outputs == 1:
        raw = (raw,)
    out_dtypes = op.out_dtype(dtype, params) if op.out_dtype else dtype
    if not isinstance(out_dtypes, tuple):
        out_dtypes = (out_dtypes,) * op.n_outputs
    base = _view_base(args[0]) if op.view else None
    outputs = tuple(Tensor(np.asarray(r), d, base=base) for r, d in zip(raw, out_dtypes))
    if STATE.grad_enabled and op.vjp and _needs_grad(op, args):
        node = Node(op, tuple(_edge(args[i]) for i in op.edge_slots), params)
        node.save(args, outputs)
        for nr in op.differentiable_outputs:
            outputs[nr].grad_fn, outputs[nr].output_nr = node, nr
            outputs[nr]._requires_grad = True
    return outputs[0] if op.n_outputs == 1 else outputs


def _as_operand(value, dtype: dtypes.DType, promote: str):
    if not isinstance(value, Tensor):
        return value
    if promote != "none" and value.dtype is not dtype:
        return value.data.astype(dtype.np)
    return value.data


def _view_base(tensor: Tensor) -> Tensor:
    return tensor._base if tensor._base is not None else tensor


def _needs_grad(op: OpDef, args: tuple) -> bool:
    return any(
        rule is not None and isinstance(a, Tensor) and a.requires_grad
        for rule, a in zip(op.vjp, args)
    )


def _edge(arg):
    if not isinstance(arg, Tensor) or not arg.requires_grad:
        return (None, 0)
    return gradient_edge(arg)
