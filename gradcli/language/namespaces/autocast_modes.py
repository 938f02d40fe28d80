"""torch.autocast (also torch.amp.autocast and the deprecated torch.cpu.amp.autocast and
torch.cuda.amp.autocast) and the queries of its state; what it casts is the engine's (gradcli/engine/autocast.py)."""

from __future__ import annotations

from gradcli.engine import devices, dtypes, errors, schemas
from gradcli.engine.dtypes import DType
from gradcli.engine.state import STATE
from gradcli.engine.triggered import triggered
from gradcli.language.namespaces.grad_scaler import (AMP_GRAD_SCALER, CPU_GRAD_SCALER,
                                                     CUDA_GRAD_SCALER)
from gradcli.language.runtime.frames import ContextManager
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.values import Namespace, type_name

_CPU_DTYPES = (dtypes.bfloat16, dtypes.float16)
_CPU_DTYPE_WARNING = ("In CPU autocast, but the target dtype is not supported. Disabling "
                      "autocast.\nCPU Autocast only supports dtypes of torch.bfloat16, "
                      "torch.float16 currently.")
_LABEL = "torch.amp.autocast_mode.autocast"


def _device_type(device_type: str) -> str:
    """The device type of a device string, refused as torch refuses an unknown one."""
    return devices.device(device_type).type


def get_autocast_dtype(device_type: str) -> DType:
    kind = _device_type(device_type)
    if kind == "meta":
        raise errors.runtime("unsupported scalarType")
    return STATE.autocast[1] if kind == "cpu" else dtypes.float16


def is_autocast_enabled(*args, **kwargs) -> bool:
    """torch.is_autocast_enabled(device_type) or, with no argument, about CUDA (False)."""
    bound = schemas.bind_cpp(("is_autocast_enabled(str device_type)", "is_autocast_enabled()"),
                             *args, **kwargs)
    if "device_type" not in bound:
        return False
    return _device_type(bound["device_type"]) == "cpu" and STATE.autocast[0]


def _deprecated_cpu_query(name: str, replacement: str, line: int, value):
    """torch.is_autocast_cpu_enabled() and get_autocast_cpu_dtype(): the value, with the
    DeprecationWarning torch's C++ raises (from `line` of its autograd/init.cpp)."""
    def query():
        STATE.warn("DeprecationWarning", triggered(
            f"torch.{name}() is deprecated. Please use torch.{replacement} instead.",
            "torch/csrc/autograd/init.cpp", line))
        return value()
    return entry(name, query, "", style="noargs", qualname=f"torch.{name}")


def autocast(device_type, dtype=None, enabled=True, cache_enabled=None) -> ContextManager:
    """torch.autocast(device_type, dtype, enabled): on the CPU, sets autocast on (or off) with
    its dtype on entry and restores both on exit; elsewhere it casts nothing."""
    if not isinstance(device_type, str):
        raise errors.value_error(f"Expected `device_type` of type `str`, got: "
                                 f"`<class '{type_name(device_type)}'>`")
    fast_dtype = get_autocast_dtype(device_type) if dtype is None else dtype
    kind = _device_type(device_type)
    if kind != "cpu":
        if enabled and kind == "cuda":
            STATE.warn("UserWarning", "CUDA is not available or torch_xla is imported. "
                       "Disabling autocast.")
        return ContextManager(lambda: None, lambda: None, label=_LABEL)
    if enabled and fast_dtype not in _CPU_DTYPES:
        STATE.warn("UserWarning", _CPU_DTYPE_WARNING)
        enabled = False
    saved = []

    def enter():
        saved.append(STATE.autocast)
        STATE.autocast = (bool(enabled), fast_dtype)

    def leave():
        STATE.autocast = saved.pop()

    return ContextManager(enter, leave, label=_LABEL)


def _cpu_amp_autocast(enabled=True, dtype=None, cache_enabled=True) -> ContextManager:
    STATE.warn("FutureWarning", "`torch.cpu.amp.autocast(args...)` is deprecated. Please use "
               "`torch.amp.autocast('cpu', args...)` instead.")
    return autocast("cpu", dtype=dtypes.bfloat16 if dtype is None else dtype, enabled=enabled,
                    cache_enabled=cache_enabled)


def _cuda_amp_autocast(enabled=True, dtype=None, cache_enabled=True) -> ContextManager:
    """torch.cuda.amp.autocast: deprecated, then torch.autocast('cuda', ...), which a CPU-only
    torch disables."""
    STATE.warn("FutureWarning", "`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
               "`torch.amp.autocast('cuda', args...)` instead.")
    return autocast("cuda", dtype=dtypes.float16 if dtype is None else dtype, enabled=enabled,
                    cache_enabled=cache_enabled)


AUTOCAST_TYPE = PyType(_LABEL, (), entry(
    "autocast", autocast, "device_type, dtype=None, enabled=True, cache_enabled=None",
    qualname="autocast.__init__"))
AUTOCAST = {
    "autocast": AUTOCAST_TYPE,
    "get_autocast_dtype": entry("get_autocast_dtype", get_autocast_dtype, "device_type: str",
                                style="parser"),
    "is_autocast_enabled": entry("is_autocast_enabled", is_autocast_enabled, "*args, **kwargs"),
    "is_autocast_cpu_enabled": _deprecated_cpu_query(
        "is_autocast_cpu_enabled", "is_autocast_enabled('cpu')", 883, lambda: STATE.autocast[0]),
    "get_autocast_cpu_dtype": _deprecated_cpu_query(
        "get_autocast_cpu_dtype", "get_autocast_dtype('cpu')", 1016, lambda: STATE.autocast[1]),
}
AMP = Namespace("torch.amp", {"autocast": AUTOCAST_TYPE, "GradScaler": AMP_GRAD_SCALER})
CPU_AMP = Namespace("torch.cpu.amp", {"autocast": PyType(
    "torch.cpu.amp.autocast_mode.autocast", (), entry(
        "autocast", _cpu_amp_autocast, "enabled=True, dtype=None, cache_enabled=True",
        qualname="autocast.__init__")), "GradScaler": CPU_GRAD_SCALER})
CPU = Namespace("torch.cpu", {"amp": CPU_AMP})
CUDA_AMP = Namespace("torch.cuda.amp", {"autocast": PyType(
    "torch.cuda.amp.autocast_mode.autocast", (), entry(
        "autocast", _cuda_amp_autocast, "enabled=True, dtype=None, cache_enabled=True",
        qualname="autocast.__init__")), "GradScaler": CUDA_GRAD_SCALER})
