"""Process-wide engine settings torch keeps globally: grad mode, default dtype, warning sink."""

from __future__ import annotations

import gc
import sys
from contextlib import contextmanager

import numpy as np

from gradcli.engine import dtypes, errors

# inf and nan results are values, as in torch, not warnings: set once for the process, since a
# per-op np.errstate would cost more than the rest of an op.
np.seterr(all="ignore")
# Graphs make no reference cycles (saved outputs are held through shadows), yet every node is a
# container the cycle collector scans: with its default thresholds, full collections of a
# million-node graph would take most of the time. Consider a full collection 100 times less often.
gc.set_threshold(700, 10, 1000)

DEFAULT_SEED = 67280421310721  # a new torch.Generator()'s seed (c10's default_rng_seed_val)


class EngineState:
    """Mutable settings that every op consults; `reset()` restores torch's start-up values."""

    def __init__(self) -> None:
        self.warning_sink = _write_warning
        # Provenance: the source position of the expression being evaluated, set by the
        # language before each operation (an object the engine never looks inside), and read
        # when a node is built, a version bumped or a graph freed. None outside any program.
        self.origin = None
        # Called with each step of a backward pass when narration is asked for (explain).
        self.backward_observer = None
        # The language layer's rendering of the running program's calls, as Python's
        # traceback.format_stack() would give it (anomaly mode keeps one per node).
        self.forward_traceback = None
        self.grad_off_at = None  # the origin of the call that last turned grad mode off
        self.warning_notes = ()  # the notes of the warning being reported, for its sink
        self.warning_action = "default"  # the filter action of the warning being reported
        self.reset()

    def warn(self, category: str, message: str, *, once: bool | str = False,
             notes: tuple = ()) -> None:
        """Report a torch warning (e.g. "UserWarning") through `warning_sink`, which the
        language layer may replace to add the source position. `once` warnings (torch's
        TORCH_WARN_ONCE) are reported only the first time after a reset: each text once, or
        once in all when `once` names the one place torch warns from. `notes` ((text,
        origin) pairs, as on errors) are in `warning_notes`, and the filter's action in
        `warning_action` (which says how often a sink shows it), while the sink runs."""
        action = next((action for action, matches in self.warning_filters
                       if matches(category, message)), "default")
        if action == "ignore":
            return
        if action == "error":
            raise errors.TorchError(category, message)
        if once and not self.warn_always:  # torch.set_warn_always(True): every time
            key = once if isinstance(once, str) else message
            if key in self.warned:
                return
            self.warned.add(key)
        self.warning_notes = tuple(note for note in notes if note[1] is not None)
        self.warning_action = action
        try:
            self.warning_sink(category, message)
        finally:
            self.warning_notes = ()

    def once_key(self, category: str, message: str, line: int):
        """What a sink shows the warning being reported once for, as Python's registries do:
        None when its filter's action shows it every time, its text for "once" and "module"
        (a program is one module), and its text and line by default."""
        if self.warning_action in ("always", "all"):
            return None
        if self.warning_action in ("once", "module"):
            return category, message
        return category, message, line

    def reset(self) -> None:
        self.grad_enabled = True
        self.default_dtype = dtypes.float32
        self.default_device = None  # torch.set_default_device's device (None: the CPU)
        self.forward_ad = False  # a dual level is open and tangents propagate through ops
        self.dual_level = None  # the open dual level: a WeakSet of the tensors with tangents
        self.anomaly = (False, True)  # detect_anomaly: (enabled, check_nan)
        self.inference = False  # inside torch.inference_mode
        self.random_refused = None  # what a random draw raises (vmap's randomness="error")
        self.vmap_batched = None  # while a vmap runs: a WeakSet of the tensors it batches
        self.vmap_sample = None  # (sample, batch size) of a vmap running alone, for row folds
        self.func_transforms = ()  # the kinds of torch.func transforms running ("grad", "vmap")
        # vmap runs its samples one by one: all but the last keep the graph autograd.grad walks,
        # which torch's one batched backward walks once
        self.graph_kept = False
        self.autocast = (False, dtypes.bfloat16)  # CPU autocast: (enabled, its dtype)
        # A forward is computing a bfloat16 or float16 result (on float32 arrays): that dtype,
        # which the few kernels whose reduced precision code rounds along the way read; else None
        self.reduced_kernel = None
        self.flags: dict[str, object] = {}  # settings a program changed (torch.backends...)
        # Python's warning filters, first match wins: (action, matches(category, message))
        self.warning_filters: list = []
        self.warned: set[str] = set()
        self.warn_always = False  # torch.set_warn_always: once-warnings every time


def _write_warning(category: str, message: str) -> None:
    sys.stderr.write(f"{category}: {message}\n")


STATE = EngineState()


class grad_mode:
    """Run a block with grad mode set to `enabled` (torch.no_grad / enable_grad / set_grad_enabled).
    A class rather than a generator: backward enters one per call."""

    __slots__ = ("enabled", "previous")

    def __init__(self, enabled: bool):
        self.enabled = enabled

    def __enter__(self) -> None:
        self.previous = STATE.grad_enabled, STATE.grad_off_at
        STATE.grad_enabled = self.enabled
        if not self.enabled:
            STATE.grad_off_at = STATE.origin  # the `with torch.no_grad():` line, for notes

    def __exit__(self, *exc) -> None:
        STATE.grad_enabled, STATE.grad_off_at = self.previous


@contextmanager
def default_dtype(dtype: dtypes.DType):
    """Run a block as if torch.set_default_dtype(dtype) were in effect, then restore the default."""
    previous, STATE.default_dtype = STATE.default_dtype, dtype
    try:
        yield
    finally:
        STATE.default_dtype = previous
