"""torch.save and torch.load, kept in memory: a program may save a checkpoint and load it back
in the same run, as tutorials do, to a path or an io.BytesIO; nothing is written to or read from
the disk.

What is saved is a snapshot (later changes to the objects do not reach it) and every load gives
new objects, with the sharing inside one save kept, as torch's pickling does (views come back
over a copy of their base's storage, as torch saves whole storages). Tensors come back
as leaves (a Parameter as a Parameter), keeping requires_grad. Objects other than tensors,
numbers, strings and containers of them are refused when loaded with weights_only (torch's
default since 2.6) in torch's words; with weights_only=False a module or an instance of the
program's class comes back as a deep copy of what was saved (a whole model saved for inference),
and gradcli loads nothing else."""

from __future__ import annotations

from collections import OrderedDict

from gradcli.engine import errors, parameters
from gradcli.engine.dtypes import DType
from gradcli.engine.devices import Device
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.python_copy import deepcopy, snapshot_kinds
from gradcli.language.namespaces import state_dict_metadata
from gradcli.language.namespaces.python_io import BytesIO
from gradcli.language.namespaces.python_pathlib import fspath
from gradcli.language.runtime import attributes
from gradcli.language.runtime.exceptions import register_exception
from gradcli.language.runtime.frames import UserFunction
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Printer, Size, qualified_type_name, type_name

_ATOMS = (int, float, complex, bool, str, bytes, type(None), DType, Device)

_WEIGHTS_ONLY = (
    "Weights only load failed. This file can still be loaded, to do so you have two options, "
    "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n"
    "\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in "
    "`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to "
    "`False` will likely succeed, but it can result in arbitrary code execution. Do it only if "
    "you got the file from a trusted source.\n"
    "\t(2) Alternatively, to load with `weights_only=True` please check the recommended steps in "
    "the following error message.\n"
    "\tWeightsUnpickler error: Unsupported global: GLOBAL {name} was not an allowed global by "
    "default. Please use `torch.serialization.add_safe_globals([{name}])` or the "
    "`torch.serialization.safe_globals([{name}])` context manager to allowlist this global if "
    "you trust this class/function.\n\n"
    "Check the documentation of torch.load to learn more about types accepted by default with "
    "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


class UnpicklingError(Exception):
    """pickle.UnpicklingError, which torch.load raises (the pickle module itself is not used)."""


class PicklingError(Exception):
    """pickle.PicklingError, which torch.save raises for what pickle cannot name."""


# the classes pickle.UnpicklingError and pickle.PicklingError name
PICKLE_ERRORS = {cls.__name__: PyType(f"_pickle.{cls.__name__}", (cls,), entry(
    cls.__name__, cls, "*args", style="expected", frames=0))
    for cls in (UnpicklingError, PicklingError)}
for _error in PICKLE_ERRORS.values():
    register_exception(_error)


class _Opaque:
    """A saved object other than tensors, numbers, strings and containers: the name pickle gives
    its class and, for a module or a program's instance, a deep copy of it (else None)."""

    def __init__(self, name: str, snapshot=None):
        self.name, self.snapshot = name, snapshot


def _opaque(memo: dict):
    """What save keeps of an object `_copy` does not copy; `memo` is shared by the save's deep
    copies (and `_copy`'s tensors), so that objects shared between them stay shared."""
    def make(value) -> _Opaque:
        _check_picklable(value)
        snapshot = None
        if isinstance(value, snapshot_kinds()):
            try:
                snapshot = deepcopy(value, memo)
            except errors.TorchError:  # a tensor deepcopy refuses: the load refuses it
                snapshot = None
        return _Opaque(_pickled_name(value), snapshot)
    return make


def _check_picklable(value) -> None:
    """pickle's refusal of what it saves by reference but cannot find again: a lambda, or a
    function or class defined inside a function."""
    if isinstance(value, UserFunction):
        qualname = value.qualname
    elif isinstance(value, TableObject) and value.user_class() is not None:
        qualname = value.user_class().qualname
    else:
        return
    if "<locals>" in qualname.split("."):
        raise errors.TorchError("AttributeError", f"Can't pickle local object '{qualname}'")
    if qualname == "<lambda>":
        raise errors.TorchError("PicklingError", f"Can't pickle {Printer().repr(value)}: "
                                "attribute lookup <lambda> on __main__ failed")


def _copy(value, memo: dict, opaque, shared: dict):
    """A deep copy of tensors, numbers, strings and containers; `opaque(value)` for the rest.
    `shared` is the memo of the deep copies `opaque` makes: a tensor met both inside a module and
    outside it is copied once."""
    if isinstance(value, _ATOMS):
        return value
    found = memo.get(id(value))
    if found is not None:
        return found[1]
    if isinstance(value, Tensor) and id(value) in shared:
        made = shared[id(value)]
    elif isinstance(value, Tensor):
        base = value._base
        if base is not None and not value.requires_grad:  # torch saves whole storages: a view
            base = _copy(base, memo, opaque, shared)      # loads sharing its base's copy
            made = Tensor(value._view_fn(base.data), value.dtype)
            made.make_view_of(base, value._view_fn)
        else:
            made = Tensor(value.data.copy(), value.dtype)
        made = parameters.parameter(made, value.requires_grad) if value.is_parameter else made
        made.requires_grad = value.requires_grad
        shared[id(value)] = made
    elif isinstance(value, (dict, OrderedDict)):
        made = type(value)((_copy(k, memo, opaque, shared), _copy(v, memo, opaque, shared))
                           for k, v in value.items())
        state_dict_metadata.carry(value, made, lambda item: _copy(item, memo, opaque, shared))
    elif isinstance(value, Size):
        made = value
    elif isinstance(value, (list, tuple)):
        made = type(value)(_copy(each, memo, opaque, shared) for each in value)
    else:
        made = opaque(value)
    memo[id(value)] = (value, made)  # the original is kept alive so that its id stays unique
    return made


def _pickled_name(value) -> str:
    """The global pickle names first for a value's class: the program's classes are __main__'s,
    and a nested one is reached through `getattr` (pickle's protocol 2, which torch.save uses)."""
    cls = value.user_class() if isinstance(value, TableObject) else None
    if cls is None:
        return qualified_type_name(value)
    return "getattr" if "." in cls.qualname else f"{cls.module}.{cls.qualname}"


def _check_file_name(path: str) -> None:
    """PyTorchFileWriter's refusal of a path whose last part names no file: empty (a folder's
    path ending in '/'), '.', or '..' (a folder it fails to open)."""
    base = path.rsplit("/", 1)[-1]
    if base in ("", "."):
        raise errors.runtime(f"[enforce fail at inline_container.cc:720] . invalid file name: "
                             f"{path}")
    if base == "..":
        raise errors.runtime("[enforce fail at inline_container.cc:747] . open file failed with "
                             "strerror: Is a directory")


def save(ctx, obj, f, pickle_module=None, pickle_protocol=2,
         _use_new_zipfile_serialization=True, _disable_byteorder_record=False) -> None:
    if pickle_module is not None:
        attributes.get(pickle_module, "__name__")  # torch's _check_dill_version reads it first
    f = fspath(f)  # a pathlib path names the file its text does
    if not isinstance(f, (str, BytesIO)):
        raise errors.TorchError("AttributeError", "expected 'f' to be string, path, or a "
                                "file-like object with a 'write' attribute")
    if isinstance(f, str):
        _check_file_name(f)
    shared: dict = {}
    record = _copy(obj, {}, _opaque(shared), shared)
    if isinstance(f, BytesIO):
        f.write_record(record)
    else:
        ctx.saved[f] = record


def load(ctx, f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         **pickle_load_args):
    if pickle_module is not None:
        attributes.get(pickle_module, "__name__")  # torch's _check_dill_version reads it first
    f = fspath(f)
    if not isinstance(f, (str, BytesIO)):
        raise errors.TorchError("AttributeError", f"'{type_name(f)}' object has no attribute "
                                "'seek'. You can only torch.load from a file that is seekable. "
                                "Please pre-load the data into a buffer like io.BytesIO and try "
                                "to load from it instead.")
    if isinstance(f, str) and f not in ctx.saved:
        raise errors.TorchError("FileNotFoundError",
                                f"[Errno 2] No such file or directory: {f!r}")

    copies: dict = {}  # one memo for the load's deep copies and tensors

    def refuse(value: _Opaque):
        if weights_only is False and value.snapshot is not None:
            return deepcopy(value.snapshot, copies)
        if weights_only is False:
            raise errors.TorchError("NotImplementedError", "gradcli's torch.load gives back "
                                    "tensors, numbers, strings and containers of them, not a "
                                    f"{value.name} (save its state_dict() instead)")
        raise errors.TorchError("UnpicklingError", _WEIGHTS_ONLY.format(name=value.name))
    memo: dict = {}
    loaded = _copy(f.read_record() if isinstance(f, BytesIO) else ctx.saved[f], memo, refuse,
                   copies)
    if _to_cuda(map_location) and any(isinstance(v, Tensor) for v, _ in memo.values()):
        raise errors.runtime(
            "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
            "False. If you are running on a CPU-only machine, please use torch.load with "
            "map_location=torch.device('cpu') to map your storages to the CPU.")
    return loaded


def _to_cuda(map_location) -> bool:
    """Whether map_location puts the storages on a CUDA device (a CPU-only torch refuses)."""
    targets = map_location.values() if isinstance(map_location, dict) else (map_location,)
    return any(isinstance(t, Device) and t.type == "cuda" or
               isinstance(t, str) and t.split(":")[0] == "cuda" for t in targets)


SERIALIZATION = table(
    entry("save", save, "obj, f, pickle_module=None, pickle_protocol=2, "
          "_use_new_zipfile_serialization=True, _disable_byteorder_record=False", context=True),
    entry("load", load, "f, map_location=None, pickle_module=None, *, weights_only=None, "
          "mmap=None, **pickle_load_args", context=True),
)
