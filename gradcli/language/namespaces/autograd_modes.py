"""torch.inference_mode and anomaly detection (set_detect_anomaly, detect_anomaly)."""

from __future__ import annotations

from gradcli.engine.state import STATE
from gradcli.language.runtime.frames import ContextManager
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry

_ANOMALY_WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime and "
                    "should only be enabled for debugging.")


def _switch(read, write, value, label: str) -> ContextManager:
    """A manager that sets a setting on entry and restores it on exit."""
    saved = []

    def enter():
        saved.append(read())
        write(value)

    return ContextManager(enter, lambda: write(saved.pop()), label=label)


def _set_inference(mode: bool) -> None:
    STATE.inference = mode
    STATE.grad_enabled = not mode if mode else STATE.grad_enabled


def inference_mode(ctx, mode=True):
    """torch.inference_mode(mode) as a manager or decorator; `@torch.inference_mode` bare too.
    Inside, grad mode is off (tensors made there are not marked as inference tensors)."""
    if not isinstance(mode, (bool, int)):  # the decorated function itself
        return ctx.call(inference_mode(ctx, True), [mode], {})
    mode = bool(mode)
    return _switch(lambda: (STATE.inference, STATE.grad_enabled),
                   lambda v: _restore_inference(v) if isinstance(v, tuple) else _set_inference(v),
                   mode, "torch.autograd.grad_mode.inference_mode")


def _restore_inference(saved: tuple) -> None:
    STATE.inference, STATE.grad_enabled = saved


def _write_anomaly(value: tuple) -> None:
    STATE.anomaly = value


def detect_anomaly(check_nan=True) -> ContextManager:
    """torch.autograd.detect_anomaly(): its __init__ warns, entering it switches the mode on."""
    STATE.warn("UserWarning", _ANOMALY_WARNING)
    return _switch(lambda: STATE.anomaly, _write_anomaly, (True, bool(check_nan)),
                   "torch.autograd.anomaly_mode.detect_anomaly")


def set_detect_anomaly(mode, check_nan=True) -> ContextManager:
    """Takes effect at once; as a manager, restores the previous setting on exit."""
    previous = STATE.anomaly
    STATE.anomaly = (bool(mode), bool(check_nan))
    return ContextManager(lambda: None, lambda: _write_anomaly(previous),
                          label="torch.autograd.anomaly_mode.set_detect_anomaly")


MODES = {
    "inference_mode": PyType("torch.autograd.grad_mode.inference_mode", (), entry(
        "inference_mode", inference_mode, "mode=True", context=True, style="new",
        qualname="inference_mode.__new__")),
    **{name: entry(name, query, "", style="noargs", qualname=f"torch.{name}") for name, query in (
        ("is_inference_mode_enabled", lambda: STATE.inference),
        ("is_anomaly_enabled", lambda: STATE.anomaly[0]),
        ("is_anomaly_check_nan_enabled", lambda: STATE.anomaly[1]))},
}
ANOMALY = {  # (classes in torch, printed as such)
    "detect_anomaly": PyType("torch.autograd.anomaly_mode.detect_anomaly", (), entry(
        "detect_anomaly", detect_anomaly, "check_nan=True", qualname="detect_anomaly.__init__")),
    "set_detect_anomaly": PyType("torch.autograd.anomaly_mode.set_detect_anomaly", (), entry(
        "set_detect_anomaly", set_detect_anomaly, "mode, check_nan=True",
        qualname="set_detect_anomaly.__init__")),
    "inference_mode": MODES["inference_mode"],
}
