"""torch.device: every tensor lives on the CPU; asking for CUDA fails as a CPU-only torch does."""

from __future__ import annotations

import re

from gradcli.engine import errors
from gradcli.engine.declarations import call, declare
from gradcli.engine.state import STATE

_DEVICE_TYPES = ("cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, "
                 "lazy, vulkan, mps, meta, hpu, mtia, privateuseone")
_KNOWN = frozenset(_DEVICE_TYPES.split(", "))


class Device:
    """A device name and optional index, printed as torch prints one."""

    __slots__ = ("type", "index")

    def __init__(self, type_: str, index: int | None = None):
        self.type, self.index = type_, index

    def __repr__(self) -> str:
        index = "" if self.index is None else f", index={self.index}"
        return f"device(type='{self.type}'{index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        return isinstance(other, Device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


CPU = Device("cpu")


_DEVICE_STRING = re.compile(r"([a-zA-Z_]+)(?::([1-9]\d*|0))?")  # torch's device-string grammar


def device(spec, index: int | None = None) -> Device:
    """torch.device('cpu'), torch.device('cuda:0'), torch.device('cpu', 0)."""
    if isinstance(spec, Device):
        return spec
    if isinstance(spec, int) and not isinstance(spec, bool):
        raise errors.runtime("Device index must not be negative" if spec < 0 else
                             "Cannot access accelerator device when none is available.")
    if not isinstance(spec, str):
        raise errors.type_error(f"device() received an invalid combination of arguments - got "
                                f"({errors.type_name(spec)})")
    parsed = _DEVICE_STRING.fullmatch(spec)
    if parsed is None:
        raise errors.runtime(f"Invalid device string: '{spec}'")
    name, number = parsed.groups()
    if name not in _KNOWN:
        raise errors.runtime(f"Expected one of {_DEVICE_TYPES} device type at start of device "
                             f"string: {name}")
    if name == "mkldnn":
        STATE.warn("UserWarning", "'mkldnn' is no longer used as device type. So "
                   "torch.device('mkldnn') will be deprecated and removed in the future. Please "
                   "use other valid device types instead.", once=True)
    return Device(name, index if number is None else int(number))


declare("device", lambda spec, index=-1: device(spec, None if index == -1 else index),
        "device(Device device)", "device(str type, int index=-1)", variants="torch")


_NOT_COMPILED = {  # what a CPU-only torch's lazy initialisation of the device's module says
    "cuda": "Torch not compiled with CUDA enabled",
    "xpu": "Torch not compiled with XPU enabled",
    "mtia": "Torch not compiled with MTIA enabled. Ensure you have `import "
            "mtia.host_runtime.torch_mtia.dynamic_library` in your python src file and include "
            "`//mtia/host_runtime/torch_mtia:torch_mtia` as your target dependency!"}
_NO_MODULE = ("hpu", "privateuseone")  # torch looks for a torch.<type> module that is not there


def place(spec, copying: bool = False) -> None:
    """Check a `device=` argument or (`copying`) `.to(device)`: only the CPU can hold a tensor;
    another device fails as a CPU-only torch fails for it."""
    if spec is None:
        return
    kind = device(spec).type
    if kind == "cpu":
        return
    if kind in _NOT_COMPILED:
        raise errors.TorchError("AssertionError", _NOT_COMPILED[kind])
    if kind in _NO_MODULE:
        raise errors.TorchError("ModuleNotFoundError", f"No module named 'torch.{kind}'")
    if copying and kind not in ("meta", "lazy"):  # the copy finds no allocator linked in
        link(spec)
    raise errors.TorchError("NotImplementedError",
                            f"gradcli does not support tensors on the {kind} device")


def place_new(spec) -> None:
    """Check where a factory puts a new tensor: `device=`, else the default device (which a
    CPU-only torch accepts as CUDA's, and then refuses to allocate on)."""
    place(default() if spec is None else spec)


def link(spec) -> None:
    """Check the `device=` torch.asarray copies Python data or an array to: a CPU-only torch has
    no other device's allocator linked in."""
    if spec is not None and device(spec).type != "cpu":
        raise errors.runtime(f"PyTorch is not linked with support for {device(spec).type} "
                             "devices")


def cuda(t, device_spec=None, non_blocking: bool = False, memory_format=None):
    """Tensor.cuda(): a CPU-only torch's refusals (a device that is not CUDA's is invalid)."""
    if device_spec is not None and device(device_spec).type != "cuda":
        raise errors.runtime("Invalid device, must be cuda device")
    raise errors.TorchError("AssertionError", "Torch not compiled with CUDA enabled")


declare("cuda", cuda, "cuda(Tensor self, Device? device=None, bool non_blocking=False, *, "
        "MemoryFormat? memory_format=None)", variants="method")


def set_default_device(spec) -> None:
    """torch.set_default_device: the CPU (or None, back to it), or CUDA's, where a CPU-only torch
    then refuses each factory call (devices gradcli has no tensors for are not offered)."""
    if spec is not None and call("torch", "device", spec).type not in ("cpu", "cuda"):
        raise errors.TorchError("NotImplementedError", "gradcli does not support default devices "
                                "other than the CPU")
    STATE.default_device = None if spec is None else call("torch", "device", spec)


def get_default_device() -> Device:
    """torch.get_default_device: a default device without an index is the one a new empty
    tensor lands on (CUDA's refuses)."""
    if default().index is None:
        place_new(None)
    return default()


def default() -> Device:
    """The device factories put new tensors on."""
    return STATE.default_device or CPU


def enter_default(spec: Device) -> Device:
    """`with torch.device(...)`: the default device inside the block; returns the one before."""
    previous = STATE.default_device
    set_default_device(spec)
    return previous


def restore_default(previous: Device | None) -> None:
    STATE.default_device = previous

declare("set_default_device", set_default_device, python="device", variants="torch")
declare("get_default_device", get_default_device, python="", variants="torch")
