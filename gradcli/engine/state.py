"""Process-wide engine settings torch keeps globally: grad mode and the default dtype."""

from __future__ import annotations

from contextlib import contextmanager

from gradcli.engine import dtypes


class EngineState:
    """Mutable settings that every op consults; `reset()` restores torch's start-up values."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.grad_enabled = True
        self.default_dtype = dtypes.float32


STATE = EngineState()


@contextmanager
def grad_mode(enabled: bool):
    """Run a block with grad mode set to `enabled` (torch.no_grad / enable_grad / set_grad_enabled)."""
    previous = STATE.grad_enabled
    STATE.grad_enabled = enabled
    try:
        yield
    finally:
        STATE.grad_enabled = previous
