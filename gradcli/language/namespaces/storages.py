"""Tensor.storage() and Tensor.untyped_storage(): torch's (deprecated) TypedStorage over the
memory a tensor and its views share, read and written element by element in memory order, and
the UntypedStorage of its bytes; their constructors and torch.is_storage."""

from __future__ import annotations

import numpy as np

from gradcli.engine import devices, dtypes, errors, memory_format
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.objects import TableInstance
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import type_name

_DEPRECATED = ("TypedStorage is deprecated. It will be removed in the future and UntypedStorage "
               "will be the only storage class. This should only matter to you if you are using "
               "storages directly.  To access UntypedStorage directly, use "
               "tensor.untyped_storage() instead of tensor.storage()")


def _warn() -> None:
    STATE.warn("UserWarning", _DEPRECATED, once=True)


class _Storage(TableInstance):
    """The memory of `owner` (a tensor that is no view), in memory order."""

    __slots__ = ("owner", "attrs")
    is_sequence = True

    def __init__(self, owner: Tensor):
        self.owner, self.attrs = owner, {}

    def memory(self) -> np.ndarray:
        """A flat array of the owner's elements in memory order (a copy)."""
        data = self.owner.data
        flat = np.empty(data.size, data.dtype)
        steps = tuple(s * data.itemsize for s in memory_format.element_strides(data))
        np.lib.stride_tricks.as_strided(flat, data.shape, steps)[...] = data
        return flat

    def write_back(self, flat: np.ndarray) -> None:
        """Store `flat` (memory()'s layout) into the owner, with no version bump."""
        data = self.owner.data
        steps = tuple(s * data.itemsize for s in memory_format.element_strides(data))
        data[...] = np.lib.stride_tricks.as_strided(flat, data.shape, steps)

    def size(self) -> int:
        return self.owner.data.size

    def index(self, key) -> int:
        if not isinstance(key, int) or isinstance(key, bool):
            raise errors.runtime(f"can't index a <class '{self.language_type.name}'> with "
                                 f"<class '{type(key).__name__}'>")
        if not -self.size() <= key < self.size():
            raise errors.index_error(f"index {key} out of range for storage of size "
                                     f"{self.size()}")
        return key % self.size()


class TypedStorage(_Storage):
    """The storage's elements, of the owner's dtype."""

    __slots__ = ()

    @property
    def language_type(self) -> PyType:
        return TYPED_STORAGE_TYPE

    def item(self, key):
        _warn()
        return self.memory()[self.index(key)].item()

    def set_item(self, key, value) -> None:
        _warn()
        position = self.index(key)
        flat = self.memory()
        flat[position] = value
        self.write_back(flat)

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


class UntypedStorage(_Storage):
    """The bytes of the memory `owner` (a tensor that is no view) holds, in memory order."""

    __slots__ = ()

    @property
    def language_type(self) -> PyType:
        return UNTYPED_STORAGE_TYPE

    def memory(self) -> np.ndarray:
        return super().memory().view(np.uint8)

    def write_back(self, flat: np.ndarray) -> None:
        super().write_back(flat.view(self.owner.data.dtype))

    def size(self) -> int:
        return self.owner.data.nbytes

    def item(self, key):
        return int(self.memory()[self.index(key)])

    def set_item(self, key, value) -> None:
        position = self.index(key)
        flat = self.memory()
        flat[position] = value
        self.write_back(flat)

    def length(self) -> int:
        return self.size()

    def members(self) -> list:
        return self.memory().tolist()

    def repr(self, printer) -> str:
        values = "\n ".join(str(v) for v in self.memory().tolist())
        return f" {values}\n[torch.storage.UntypedStorage(device=cpu) of size {self.size()}]"


def _owner(t: Tensor) -> Tensor:
    return t._base if t._base is not None else t


def storage_of(t: Tensor) -> TypedStorage:
    """Tensor.storage()."""
    _warn()
    return TypedStorage(_owner(t))


def untyped_storage_of(t: Tensor) -> UntypedStorage:
    """Tensor.untyped_storage()."""
    return UntypedStorage(_owner(t))


def _new_storage(size, dtype: dtypes.DType) -> Tensor:
    if not isinstance(size, int) or isinstance(size, bool):
        raise errors.type_error(f"expected an int for the storage size, got {type_name(size)}")
    return Tensor(np.zeros(size, dtype.np), dtype)


def _typed_storage(size=0, *, dtype=None, device=None):
    """torch.TypedStorage(size, dtype=...): a new storage of `size` elements (zeros here, where
    torch leaves the memory as it finds it)."""
    _warn()
    from gradcli.engine.state import STATE
    return TypedStorage(_new_storage(size, dtype or STATE.default_dtype))


def is_storage(obj) -> bool:
    return isinstance(obj, _Storage)


TypedStorage.PROPERTIES = {"dtype": lambda s: s.owner.dtype, "device": lambda s: devices.CPU}
TypedStorage.METHODS = table(
    entry("size", lambda s: s.size(), "self"),
    entry("tolist", lambda s: s.memory().tolist(), "self"),
    entry("element_size", lambda s: s.owner.data.itemsize, "self"),
    entry("nbytes", lambda s: s.owner.data.nbytes, "self"),
    entry("data_ptr", lambda s: s.owner.data.ctypes.data, "self"),
)
UntypedStorage.PROPERTIES = {"device": lambda s: devices.CPU}
UntypedStorage.METHODS = table(
    entry("size", lambda s: s.size(), "self"),
    entry("nbytes", lambda s: s.size(), "self"),
    entry("tolist", lambda s: s.members(), "self"),
    entry("element_size", lambda s: 1, "self"),
    entry("data_ptr", lambda s: s.owner.data.ctypes.data, "self"),
)
TYPED_STORAGE_TYPE = PyType("torch.storage.TypedStorage", (TypedStorage,), entry(
    "TypedStorage", _typed_storage, "size=0, *, dtype=None, device=None", frames=0))
UNTYPED_STORAGE_TYPE = PyType("torch.storage.UntypedStorage", (UntypedStorage,), entry(
    "UntypedStorage", lambda size=0, device=None: UntypedStorage(
        _new_storage(size, dtypes.uint8)), "size=0, *, device=None", frames=0))
STORAGES = {"TypedStorage": TYPED_STORAGE_TYPE, "UntypedStorage": UNTYPED_STORAGE_TYPE,
            **table(entry("is_storage", is_storage, "obj"))}
