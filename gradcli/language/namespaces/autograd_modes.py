"""torch.inference_mode, anomaly detection (set_detect_anomaly, detect_anomaly) and
torch.autograd.enforce_grad_layout_policy."""

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
    """As c10::InferenceMode(mode): inference mode on turns grad mode off, off turns it on
    (inside no_grad too)."""
    STATE.inference = mode
    STATE.grad_enabled = not mode


def inference_mode(ctx, mode=True):
    """torch.inference_mode(mode) as a manager or decorator; `@torch.inference_mode` bare too.
    Inside, grad mode is off, or on for mode=False (tensors made there are not marked as
    inference tensors)."""
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


def enforce_grad_layout_policy(enable=True) -> ContextManager:
    """Whether accumulated gradients are made to match their parameters' strides: gradcli's
    gradients follow no other layout, so either setting leaves them as they are."""
    return ContextManager(lambda: None, lambda: None,
                          label="torch.autograd.grad_mode.enforce_grad_layout_policy")


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
    "enforce_grad_layout_policy": PyType(
        "torch.autograd.grad_mode.enforce_grad_layout_policy", (), entry(
            "enforce_grad_layout_policy", enforce_grad_layout_policy, "enable=True",
            qualname="enforce_grad_layout_policy.__init__")),
}
