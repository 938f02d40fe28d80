"""A state dict's `_metadata`: each module's version under its prefix, which Module.state_dict
records on the OrderedDict it makes (or on a destination that has `_metadata`). It lives in the
dict's own attributes, so torch.save/torch.load and the copy module keep it and a dict built from
one (a comprehension, dict(), OrderedDict(), .copy()) has none.

A load without a version of 2 for a norm layer takes a checkpoint from before BatchNorm's
version 2, which had no num_batches_tracked: torch's _NormBase then loads the module's own count
in its place."""

from __future__ import annotations

from collections import OrderedDict

from gradcli.language.runtime import instance_dicts

# the module classes whose _version is 2 (torch's _NormBase); every other module's is 1
_NORM_BASES = frozenset(f"{lazy}{kind}Norm{d}d" for lazy in ("", "Lazy")
                        for kind in ("Batch", "Instance") for d in (1, 2, 3)) | {"SyncBatchNorm"}


def version(module) -> int:
    return 2 if module.kind.name in _NORM_BASES else 1


def of(state_dict):
    """The `_metadata` the program can read on `state_dict`, or None."""
    found = instance_dicts.lookup(state_dict, "_metadata")
    return None if found is instance_dicts.MISSING else found


def record(state_dict, modules, made: bool) -> None:
    """Note each (path, module) of a state_dict call on `state_dict`: on a new one, a new
    `_metadata`; on a destination the program passed, only when it has one."""
    if made:
        instance_dicts.store(state_dict, "_metadata", OrderedDict())
    metadata = of(state_dict)
    if isinstance(metadata, dict):
        for path, module in modules:
            metadata[path] = {"version": version(module)}


def version_in(state_dict, path: str):
    """The version `state_dict` records for the module at `path`, as torch's load reads it."""
    metadata = of(state_dict)
    local = metadata.get(path, {}) if isinstance(metadata, dict) else {}
    return local.get("version") if isinstance(local, dict) else None


def carry(source, copied, copier=lambda value: value) -> None:
    """A copy keeps the attributes of the OrderedDict it copies (a deep copy, copies of them
    made by `copier`)."""
    for name, value in instance_dicts.attributes(source).items():
        instance_dicts.store(copied, name, copier(value))
