"""torch.distributed and DistributedDataParallel in a single process that has joined no process
group, as training scripts import them for the runs they launch with torchrun: what asks the
(absent) default group fails as torch's does, and init_process_group's env:// rendezvous finds
no RANK, gradcli's programs reaching no environment."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.state import STATE
from gradcli.language.namespaces.modules import ModuleKind
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

NO_GROUP = ("Default process group has not been initialized, please make sure to call "
            "init_process_group.")
_GROUP_CALLS = {
    "get_rank": "group=None", "get_world_size": "group=None",
    "barrier": "group=None, async_op=False, device_ids=None, timeout=None",
    "all_reduce": "tensor, op=None, group=None, async_op=False",
    "reduce": "tensor, dst=None, op=None, group=None, async_op=False, group_dst=None",
    "broadcast": "tensor, src=None, group=None, async_op=False, group_src=None",
    "all_gather": "tensor_list, tensor, group=None, async_op=False",
}


def no_group(*args, **kwargs):
    raise errors.value_error(NO_GROUP)


def _init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1,
                        store=None, group_name="", pg_options=None, device_id=None):
    if store is not None or init_method not in (None, "env://"):
        raise errors.TorchError("NotImplementedError", "gradcli does not support process "
                                "groups: a program runs as one process")
    if backend == "nccl":
        STATE.warn("UserWarning", "Attempted to get default timeout for nccl backend, but NCCL "
                   "support is not compiled")
    missing = "RANK" if rank == -1 else "WORLD_SIZE" if world_size == -1 else "MASTER_ADDR"
    raise errors.value_error(f"Error initializing torch.distributed using env:// rendezvous: "
                             f"environment variable {missing} expected, but not set")


def _destroy_process_group(group=None):
    raise errors.TorchError("AssertionError", "Process group cannot be None")


DISTRIBUTED = Namespace("torch.distributed", table(
    entry("is_available", lambda: True, "", frames=0),
    entry("is_initialized", lambda: False, "", frames=0),
    entry("is_torchelastic_launched", lambda: False, "", frames=0),
    entry("init_process_group", _init_process_group, "backend=None, init_method=None, "
          "timeout=None, world_size=-1, rank=-1, store=None, group_name='', pg_options=None, "
          "device_id=None", frames=0),
    entry("destroy_process_group", _destroy_process_group, "group=None", frames=0),
    *(entry(name, no_group, signature, frames=0) for name, signature in _GROUP_CALLS.items()),
))


# torch.nn.parallel.DistributedDataParallel: its construction asks the default process group
DDP_KIND = ModuleKind(
    "DistributedDataParallel", "", "module, device_ids=None, output_device=None, dim=0, "
    "broadcast_buffers=None, init_sync=True, process_group=None, bucket_cap_mb=None, "
    "find_unused_parameters=False, check_reduction=False, gradient_as_bucket_view=False, "
    "static_graph=False, delay_all_reduce_named_params=None, param_to_hook_all_reduce=None, "
    "mixed_precision=None, device_mesh=None, skip_all_reduce_unused_params=False, "
    "bucket_cap_mb_list=None, batched_grad_copy=False, forward_sync_buffers=None",
    no_group, "*inputs, **kwargs", build=no_group, path="torch.nn.parallel.distributed")
