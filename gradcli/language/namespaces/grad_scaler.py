"""torch.amp.GradScaler (also torch.GradScaler and the deprecated torch.cuda.amp and
torch.cpu.amp ones), as torch/amp/grad_scaler.py runs it on a CPU-only build: the default
device "cuda" warns and disables it; "cpu" scales losses and unscales grads."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors, parameters
from gradcli.engine.ops.pointwise import mul
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.objects import TableInstance
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import iterate, type_name

_READY, _UNSCALED, _STEPPED = 0, 1, 2
_FIX = ("This may indicate your script did not use scaler.scale(loss or outputs) earlier in "
        "the iteration.")
_NEW_SCALE = ("new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
              "torch.FloatTensor with requires_grad=False.")
_SPEC = "init_scale=65536.0, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000, " \
        "enabled=True"


def _assertion(text: str) -> errors.TorchError:
    return errors.TorchError("AssertionError", text)


class GradScaler(TableInstance):
    """A GradScaler: its settings, the lazily made scale and growth tracker, and each
    optimizer's stage and found-inf flag since the last update()."""

    __slots__ = ("type", "device", "enabled", "init_scale", "growth_factor", "backoff_factor",
                 "growth_interval", "init_growth_tracker", "scale", "tracker", "states",
                 "attrs")

    def __init__(self, kind: PyType, device, init_scale, growth_factor, backoff_factor,
                 growth_interval, enabled):
        self.type, self.device, self.enabled, self.attrs = kind, device, enabled, {}
        if device == "cuda" and enabled:
            STATE.warn("UserWarning", "torch.cuda.amp.GradScaler is enabled, but CUDA is not "
                       "available.  Disabling.")
            self.enabled = False
        if self.enabled:
            if growth_factor <= 1.0:
                raise _assertion("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise _assertion("The backoff factor must be < 1.0.")
        self.init_scale, self.growth_factor = init_scale, growth_factor
        self.backoff_factor, self.growth_interval = backoff_factor, growth_interval
        self.init_growth_tracker, self.scale, self.tracker, self.states = 0, None, None, {}

    @property
    def language_type(self) -> PyType:
        return self.type

    def repr(self, printer) -> str:
        return f"<{self.type.name} object at 0x{id(self):x}>"

    def checked(self, funcname: str) -> None:
        """_check_scale_growth_tracker."""
        if self.scale is None:
            raise _assertion(f"Attempted {funcname} but _scale is None.  " + _FIX)

    def state(self, optimizer) -> dict:
        return self.states.setdefault(id(optimizer), {"stage": _READY, "found_inf": None})


def _scale(scaler: GradScaler, outputs):
    if not scaler.enabled:
        return outputs

    def apply(value):
        if isinstance(value, Tensor):
            if scaler.scale is None:
                scaler.scale = Tensor(np.array(scaler.init_scale, np.float32))
                scaler.tracker = Tensor(np.array(scaler.init_growth_tracker, np.int32),
                                        dtypes.int32)
            return mul(value, scaler.scale)
        if isinstance(value, (list, tuple)):
            return type(value)(apply(v) for v in value)
        return map(apply, _iterable(value))
    return apply(outputs)


def _iterable(value):
    """iter(value) for scale()'s map, or its ValueError when value is not iterable."""
    try:
        return iterate(value)
    except errors.TorchError as error:
        if error.kind == "TypeError" and error.message.endswith("object is not iterable"):
            raise errors.value_error("outputs must be a Tensor or an iterable of Tensors")
        raise


def _unscale(scaler: GradScaler, optimizer) -> None:
    if not scaler.enabled:
        return
    scaler.checked("unscale_")
    state = scaler.state(optimizer)
    if state["stage"] == _UNSCALED:
        raise errors.runtime("unscale_() has already been called on this optimizer since the "
                             "last update().")
    if state["stage"] == _STEPPED:
        raise errors.runtime("unscale_() is being called after step().")
    inv_scale = np.float32(1.0 / np.float64(scaler.scale.data))
    found = None  # no grads: no inf checks recorded
    for group in _optimizer(optimizer, "param_groups").param_groups:
        for param in group["params"]:
            if not isinstance(param, Tensor):
                raise _assertion(f"expected param to be torch.Tensor, got {type_name(param)}")
            grad = param.grad
            if grad is None:
                continue
            if grad.dtype is dtypes.float16:
                raise errors.value_error("Attempting to unscale FP16 gradients.")
            values = np.asarray(grad.data)
            found = bool(found) or not bool(np.isfinite(values).all())
            if inv_scale != 1:
                parameters.write(grad, values * values.dtype.type(inv_scale))
    state["found_inf"] = None if found is None else Tensor(np.array(float(found), np.float32))
    state["stage"] = _UNSCALED


def _optimizer(value, name: str):
    """`value`, an optimizer, where torch's Python reads its attribute `name`."""
    from gradcli.language.namespaces.optim import Optimizer  # the optimizers load on first use
    if not isinstance(value, Optimizer):
        raise errors.no_attribute(value, name)
    return value


def _step(ctx, scaler: GradScaler, optimizer, *args, **kwargs):
    if not scaler.enabled:
        return ctx.call(_optimizer(optimizer, "step").attribute("step"), list(args), kwargs)
    if "closure" in kwargs:
        raise errors.runtime("Closure use is not currently supported if GradScaler is enabled.")
    scaler.checked("step")
    state = scaler.state(optimizer)
    if state["stage"] == _STEPPED:
        raise errors.runtime("step() has already been called since the last update().")
    if state["stage"] == _READY:
        _unscale(scaler, optimizer)
    if state["found_inf"] is None:
        raise _assertion("No inf checks were recorded for this optimizer.")
    result = None
    if not float(state["found_inf"].data):
        result = ctx.call(optimizer.attribute("step"), list(args), kwargs)
    state["stage"] = _STEPPED
    return result


def _update(scaler: GradScaler, new_scale=None) -> None:
    if not scaler.enabled:
        return
    scaler.checked("update")
    if new_scale is not None:
        if isinstance(new_scale, float):
            parameters.write(scaler.scale, new_scale)
        else:
            if not isinstance(new_scale, Tensor):
                raise errors.TorchError("AttributeError", f"'{type_name(new_scale)}' object has "
                                        "no attribute 'device'")
            if scaler.device != "cpu" or new_scale.numel() != 1 or new_scale.requires_grad:
                raise _assertion(_NEW_SCALE)
            parameters.write(scaler.scale, np.asarray(new_scale.data).reshape(()))
    else:
        found = [s["found_inf"] for s in scaler.states.values() if s["found_inf"] is not None]
        if not found:
            raise _assertion("No inf checks were recorded prior to update.")
        _update_scale(scaler, sum(float(f.data) for f in found))
    scaler.states = {}


def _update_scale(scaler: GradScaler, found_inf: float) -> None:
    """torch._amp_update_scale_ on the CPU: back off on an inf, grow after growth_interval
    clean steps (when the grown scale is finite)."""
    scale = float(scaler.scale.data)
    if found_inf:
        parameters.write(scaler.scale, np.float32(scale * scaler.backoff_factor))
        parameters.write(scaler.tracker, 0)
        return
    successful = int(scaler.tracker.data) + 1
    if successful == scaler.growth_interval:
        grown = np.float32(scale * scaler.growth_factor)
        if np.isfinite(grown):
            parameters.write(scaler.scale, grown)
        successful = 0
    parameters.write(scaler.tracker, successful)


def _get_scale(scaler: GradScaler):
    if not scaler.enabled:
        return 1.0
    return scaler.init_scale if scaler.scale is None else float(scaler.scale.data)


def _growth_tracker(scaler: GradScaler):
    if not scaler.enabled:
        return 0
    return scaler.init_growth_tracker if scaler.tracker is None else int(scaler.tracker.data)


def _state_dict(scaler: GradScaler) -> dict:
    if not scaler.enabled:
        return {}
    return {"scale": _get_scale(scaler), "growth_factor": scaler.growth_factor,
            "backoff_factor": scaler.backoff_factor, "growth_interval": scaler.growth_interval,
            "_growth_tracker": _growth_tracker(scaler)}


def _load_state_dict(scaler: GradScaler, state_dict) -> None:
    if not scaler.enabled:
        return
    if len(state_dict) == 0:
        raise errors.runtime("The source state dict is empty, possibly because it was saved "
                             "from a disabled instance of GradScaler.")
    for key in ("scale", "growth_factor", "backoff_factor", "growth_interval", "_growth_tracker"):
        if key not in state_dict:
            raise errors.TorchError("KeyError", repr(key))
    scaler.init_scale = state_dict["scale"]
    if scaler.scale is not None:
        parameters.write(scaler.scale, state_dict["scale"])
    scaler.growth_factor = state_dict["growth_factor"]
    scaler.backoff_factor = state_dict["backoff_factor"]
    scaler.growth_interval = state_dict["growth_interval"]
    scaler.init_growth_tracker = state_dict["_growth_tracker"]
    if scaler.tracker is not None:
        parameters.write(scaler.tracker, state_dict["_growth_tracker"])


def _set_growth_factor(scaler: GradScaler, new_factor) -> None:
    scaler.growth_factor = new_factor


def _set_backoff_factor(scaler: GradScaler, new_factor) -> None:
    scaler.backoff_factor = new_factor


def _set_growth_interval(scaler: GradScaler, new_interval) -> None:
    scaler.growth_interval = new_interval


GradScaler.METHODS = table(
    entry("scale", _scale, "self, outputs"),
    entry("unscale_", _unscale, "self, optimizer"),
    entry("step", _step, "self, optimizer, *args, **kwargs", context=True),
    entry("update", _update, "self, new_scale=None"),
    entry("get_scale", _get_scale, "self"),
    entry("get_growth_factor", lambda s: s.growth_factor, "self"),
    entry("set_growth_factor", _set_growth_factor, "self, new_factor"),
    entry("get_backoff_factor", lambda s: s.backoff_factor, "self"),
    entry("set_backoff_factor", _set_backoff_factor, "self, new_factor"),
    entry("get_growth_interval", lambda s: s.growth_interval, "self"),
    entry("set_growth_interval", _set_growth_interval, "self, new_interval"),
    entry("is_enabled", lambda s: s.enabled, "self"),
    entry("state_dict", _state_dict, "self"),
    entry("load_state_dict", _load_state_dict, "self, state_dict"),
)


def _amp_type(path: str, device: str | None) -> PyType:
    """A GradScaler class: torch.amp's takes the device; the deprecated ones fix it and warn."""
    def construct(_, *args):
        if device is None:
            return GradScaler(kind, *args)
        short = path.rsplit(".", 2)[0]
        STATE.warn("FutureWarning", f"`{short}.GradScaler(args...)` is deprecated. Please use "
                   f"`torch.amp.GradScaler('{device}', args...)` instead.")
        return GradScaler(kind, device, *args)
    spec = "self, " + ("device='cuda', " if device is None else "") + _SPEC
    kind = PyType(path, (GradScaler,), BoundMethod(None, entry(
        "__init__", construct, spec, qualname="GradScaler.__init__")))
    return kind


AMP_GRAD_SCALER = _amp_type("torch.amp.grad_scaler.GradScaler", None)
CPU_GRAD_SCALER = _amp_type("torch.cpu.amp.grad_scaler.GradScaler", "cpu")
CUDA_GRAD_SCALER = _amp_type("torch.cuda.amp.grad_scaler.GradScaler", "cuda")
