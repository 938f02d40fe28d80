"""torch.nn.parallel.scatter where no accelerator is found: objects that are not tensors are
copied by reference per target, as scatter_gather.scatter does; a tensor has its targets' device
indices checked (_get_device_index) and then meets the missing torch._C._scatter of a CPU-only
build."""

from __future__ import annotations

from gradcli.engine import devices, errors
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.values import NamedTuple


def _device_index(target) -> None:
    """torch._utils._get_device_index(target, optional=True) without an accelerator: a CPU
    device is refused, and a target without an index finds no current device."""
    if isinstance(target, str):
        target = devices.device(target)
    if isinstance(target, devices.Device):
        if target.type == "cpu":
            raise errors.value_error(f"Expected a non cpu device, but got: {target}")
        if target.index is not None:
            return
    elif isinstance(target, int):
        return
    raise errors.value_error(
        "Expected a torch.device with a specified index or an integer, but got:None")


def scatter(inputs, target_gpus, dim=0):
    """Slice tensors into approximately equal chunks and distributes them across given GPUs."""
    targets = list(target_gpus)

    def scatter_map(obj):
        if isinstance(obj, Tensor):
            for target in targets:
                _device_index(target)
            raise errors.TorchError("AttributeError",
                                    "module 'torch._C' has no attribute '_scatter'")
        if isinstance(obj, NamedTuple):
            return [obj.remade(args) for args in zip(*map(scatter_map, obj))]
        if isinstance(obj, tuple) and obj:
            return list(zip(*map(scatter_map, obj)))
        if isinstance(obj, list) and obj:
            return [list(i) for i in zip(*map(scatter_map, obj))]
        if isinstance(obj, dict) and obj:
            return [type(obj)(i) for i in zip(*map(scatter_map, obj.items()))]
        return [obj for _ in targets]

    return scatter_map(inputs)
