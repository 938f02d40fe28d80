"""Autograd through views written in place: torch's CopySlices node and AsStridedBackward0 regrowth."""

from __future__ import annotations

import numpy as np

from gradcli.engine.autograd import (Node, gradient_edge, move_retained, next_sequence_nr,
                                     record_forward_stack)
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.engine.functions import F
from gradcli.engine.functions import export

COPY_SLICES = "torch::autograd::CopySlices"


def view_index(view: Tensor) -> np.ndarray:
    """For each element of `view`, the flat (C order) index of the base element it shows."""
    base = view._base.data
    index = np.empty_like(base, dtype=np.int64)  # the base's memory layout, so that the view's
    index[...] = np.arange(base.size).reshape(base.shape)  # ops replay on it as they did
    return view._view_fn(index)


def regenerate_grad_fn(view: Tensor) -> None:
    """Give a view whose base changed in place a grad_fn that reads it out of the base."""
    OPS, apply = F.OPS, F.apply
    base = view._base
    view._view_version = view._version_counter.value
    if not base._requires_grad:
        return
    with grad_mode(True):
        node = apply(OPS["as_strided"], base, index=view_index(view), sizes=base.data.shape)._grad_fn
    old = view._grad_fn, view.output_nr
    view._grad_fn, view.output_nr, view._requires_grad = node, 0, True
    move_retained(view, *old)


class CopySlices(Node):
    """The base's grad_fn after an in-place op `fn` on one of its views.

    Backward hands `fn` the part of the base's gradient the view covers, sends `fn`'s gradient for
    the view's old value back into those places for the base's old history, and passes `fn`'s
    other gradients on. It saves nothing itself: `fn` holds the saved tensors.
    """

    __slots__ = ("fn", "index")
    class_name = "CopySlices"

    def __init__(self, base: Tensor, view: Tensor, fn: Node):
        self.op = None  # not a row of the op table: its backward is `apply` below
        self.fn, self.index, self.params = fn, view_index(view), {}
        base_edge = gradient_edge(base) if base._requires_grad else (None, 0)
        self.next_edges = (base_edge,) + fn.next_edges[1:]
        meta = (base.data.shape, base.dtype.name)
        self.edge_meta = (meta,) + fn.edge_meta[1:]
        self._output_meta = (meta,)
        self.sequence_nr = next_sequence_nr()
        self.saved_args, self.saved_result, self.freed, self.retained = (), None, False, None
        self.hooks, self.origin, self.freed_at = None, fn.origin, None
        if STATE.anomaly[0]:
            record_forward_stack(self)

    def name(self) -> str:
        return COPY_SLICES

    def apply(self, grads: list, wanted) -> list:

        grad = grads[0]
        sizes = grad.data.shape
        inner = F.apply_op("as_strided", grad, index=self.index, sizes=sizes)
        fn_grads = self.fn.apply([inner], None)
        view_grad = fn_grads[0]
        if view_grad is None:
            view_grad = F.zeros_of(self.index.shape, grad.dtype)
        elif view_grad.data.shape != self.index.shape:
            view_grad = F.sum_to(view_grad, self.index.shape)
        base_grad = F.apply_op("as_strided_scatter", grad, view_grad, index=self.index)
        return [base_grad, *fn_grads[1:]]

    def release(self) -> None:
        self.fn.release()


export(__name__, globals())
