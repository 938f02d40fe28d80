"""Backward's fast step: a node's vjps run on raw arrays (ops/raw_vjps.py) when no graph is built.

The gradients it hands on are the tensors the node's own vjps would make: the same values and
layout, and the same `_history` note (what `_note_no_history` gives results computed without
grad mode), so hooks, retain_grad and error notes further down see no difference.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, saved_hooks
from gradcli.engine.autograd import RAW_EXPAND, RAW_VJPS, no_grad_history
from gradcli.engine.functions import F
from gradcli.engine.ops import registry
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor


def run_raw(node, node_grads: list, add_to_buffer) -> bool:
    """Run `node` on its gradient and buffer what it sends each edge, as the general step would;
    False, having done nothing, where this path does not apply. The caller has checked what holds
    for the whole pass (`applies`)."""
    rules = RAW_VJPS.get(node.op.key)
    if rules is None or node.hooks or node.retained or (
            saved_hooks.EVER_PACKED and node in saved_hooks.PACKED):
        return False
    g = node_grads[0]
    if g is None:
        return False
    dtype = g.dtype
    name = dtype.name
    if dtype.category != dtypes.FLOATING or node._output_meta[0][1] != name:
        return False
    edge_meta = node.edge_meta
    for meta in edge_meta:
        if meta is not None and meta[1] != name:
            return False
    if node.freed or node.saved_versions:
        node.check_saved()
    saved = node.saved_args  # (a tensor there has its version in saved_versions)
    arrays = [a.data if type(a) is Tensor else a for a in saved] if node.saved_versions else saved
    g_data, params, slots = g.data, node.params, node.edge_slots
    index = 0
    for next_node, nr in node.next_edges:
        if next_node is not None:
            rule, reads = rules[slots[index]]
            raw = rule(g_data, *arrays, **params)
            if raw is g_data:
                grad = g
            elif reads is RAW_EXPAND:
                grad = _expanded(g, raw)
            else:
                grad = Tensor(raw if type(raw) is np.ndarray else np.asarray(raw), dtype)
                grad._history = _note(g, saved, reads)
            shape = edge_meta[index][0]
            if grad.data.shape != shape:
                grad = F.fit_grad(grad, shape, node, index)
            add_to_buffer(next_node, nr, grad)
        index += 1
    return True


def applies() -> bool:
    """Whether the fast step may serve this backward pass at all: no narration, no anomaly
    mode, no forward-mode level (whose tangents the tensor vjps carry)."""
    return STATE.backward_observer is None and not STATE.anomaly[0] and not STATE.forward_ad


def _expanded(g: Tensor, raw: np.ndarray) -> Tensor:
    """expand's result as `apply` makes it without grad mode: a view of `g`, with its note."""
    grad = Tensor(raw, g.dtype)
    registry._link_views(registry.OPS["expand"], g, (grad,), {"size": raw.shape, "sizes": g.shape},
                         False, False)
    grad._history = _note(g, (), ())
    return grad


def _note(g: Tensor, saved: tuple, reads: tuple | None):
    """The `_history` the tensor vjp's result would carry (see registry._note_no_history)."""
    if reads is None:  # pow: g * (exponent * self ** (exponent - 1)), or zeros when exponent is 0
        if saved[1] == 0:
            return None
        if g._requires_grad:
            return no_grad_history(STATE.origin)
        if g._history is not None:
            return g._history
        a = saved[0]
        return no_grad_history(STATE.origin) if a._requires_grad else a._history
    if g._requires_grad:
        return no_grad_history(STATE.origin)
    for i in reads:
        t = saved[i]
        if type(t) is Tensor and t._requires_grad:
            return no_grad_history(STATE.origin)
    if g._history is not None:
        return g._history
    for i in reads:
        t = saved[i]
        if type(t) is Tensor and t._history is not None:
            return t._history
    return None
