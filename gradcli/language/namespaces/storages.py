"""Tensor.storage(): torch's (deprecated) TypedStorage over the memory a tensor and its views
share, read and written element by element in memory order."""

from __future__ import annotations

import numpy as np

from gradcli.engine import devices, errors, memory_format
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.objects import TableInstance
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table

_DEPRECATED = ("TypedStorage is deprecated. It will be removed in the future and UntypedStorage "
               "will be the only storage class. This should only matter to you if you are using "
               "storages directly.  To access UntypedStorage directly, use "
               "tensor.untyped_storage() instead of tensor.storage()")


def _warn() -> None:
    STATE.warn("UserWarning", _DEPRECATED, once=True)


class TypedStorage(TableInstance):
    """The storage of `owner` (a tensor that is no view): its elements in memory order."""

    __slots__ = ("owner", "attrs")
    is_sequence = True

    def __init__(self, owner: Tensor):
        self.owner, self.attrs = owner, {}

    @property
    def language_type(self) -> PyType:
        return TYPED_STORAGE_TYPE

    def memory(self) -> np.ndarray:
        """A flat array whose elements are the storage's, written through to the tensor."""
        data = self.owner.data
        flat = np.empty(data.size, data.dtype)
        steps = tuple(s * data.itemsize for s in memory_format.element_strides(data))
        np.lib.stride_tricks.as_strided(flat, data.shape, steps)[...] = data
        return flat

    def size(self) -> int:
        return self.owner.data.size

    def index(self, key) -> int:
        if not isinstance(key, int) or isinstance(key, bool):
            raise errors.runtime(f"can't index a <class 'torch.storage.TypedStorage'> with "
                                 f"<class '{type(key).__name__}'>")
        if not -self.size() <= key < self.size():
            raise errors.index_error(f"index {key} out of range for storage of size "
                                     f"{self.size()}")
        return key % self.size()

    def item(self, key):
        _warn()
        return self.memory()[self.index(key)].item()

    def set_item(self, key, value) -> None:
        _warn()
        position = self.index(key)
        flat = self.memory()
        flat[position] = value
        data = self.owner.data
        steps = tuple(s * data.itemsize for s in memory_format.element_strides(data))
        data[...] = np.lib.stride_tricks.as_strided(flat, data.shape, steps)  # no version bump

    def length(self) -> int:
        _warn()
        return self.size()

    def members(self) -> list:
        _warn()
        return self.memory().tolist()

    def repr(self, printer) -> str:
        _warn()
        info = (f"[torch.storage.TypedStorage(dtype={self.owner.dtype!r}, device=cpu) of size "
                f"{self.size()}]")
        return " " + "\n ".join(printer.str(v) for v in self.memory().tolist()) + "\n" + info


def storage_of(t: Tensor) -> TypedStorage:
    """Tensor.storage()."""
    _warn()
    return TypedStorage(t._base if t._base is not None else t)


TypedStorage.PROPERTIES = {"dtype": lambda s: s.owner.dtype, "device": lambda s: devices.CPU}
TypedStorage.METHODS = table(
    entry("size", lambda s: s.size(), "self"),
    entry("tolist", lambda s: s.memory().tolist(), "self"),
    entry("element_size", lambda s: s.owner.data.itemsize, "self"),
    entry("nbytes", lambda s: s.owner.data.nbytes, "self"),
    entry("data_ptr", lambda s: s.owner.data.ctypes.data, "self"),
)
TYPED_STORAGE_TYPE = PyType("torch.storage.TypedStorage", (TypedStorage,))
