"""Anomaly mode's forward tracebacks: where each node made while it is on was computed, and the
warning torch's engine gives, before the error itself, when a node fails in backward."""

from __future__ import annotations

import weakref

from gradcli.engine.state import STATE
from gradcli.engine.triggered import triggered

_STACKS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_SOURCE = "torch/csrc/autograd/python_anomaly_mode.cpp"


def record(node) -> None:
    """Keep the traceback of the forward call making `node` (rendered by the language layer,
    which knows the program's calls), as torch's nodes store it in anomaly mode."""
    render = STATE.forward_traceback
    if render is not None:
        _STACKS[node] = render()


def warn_failed(node) -> None:
    """torch's warning for a node whose backward raised in anomaly mode."""
    stack = _STACKS.get(node)
    if stack is None:
        message = triggered(f"Error detected in {node.name()}. No forward pass information "
                            "available. Enable detect anomaly during forward pass for more "
                            "information.", _SOURCE, 100)
    else:
        message = triggered(f"Error detected in {node.name()}. Traceback of forward call that "
                            f"caused the error:\n{stack}", _SOURCE, 122)
    STATE.warn("UserWarning", message)
