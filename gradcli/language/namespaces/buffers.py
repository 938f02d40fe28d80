"""nn.Buffer: a plain tensor marked as a buffer, which a module registers when it is assigned."""

from __future__ import annotations

from weakref import WeakKeyDictionary

import numpy as np

from gradcli.engine import errors, grad_api
from gradcli.engine.functions import F
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.values import type_name

# the tensors nn.Buffer made, with their `persistent` flags
PERSISTENT: WeakKeyDictionary = WeakKeyDictionary()


class _BufferMeta(type):
    def __instancecheck__(cls, value) -> bool:
        return isinstance(value, Tensor) and value in PERSISTENT


class BufferHost(metaclass=_BufferMeta):
    """The class isinstance sees for nn.Buffer: a tensor nn.Buffer made."""


def wrapped_data(data) -> Tensor:
    """What nn.Parameter(data) and nn.Buffer(data) wrap: an empty tensor for None; anything
    else but a tensor fails where torch's Python detaches it."""
    if data is None:
        return Tensor(np.zeros(0, STATE.default_dtype.np), STATE.default_dtype)
    if not isinstance(data, Tensor):
        raise errors.TorchError("AttributeError",
                                f"'{type_name(data)}' object has no attribute 'detach'")
    return data


def _buffer(cls, data, persistent):
    data = wrapped_data(data)
    tensor = grad_api.requires_grad_(F.detach(data), data.requires_grad)
    PERSISTENT[tensor] = persistent
    return tensor


BUFFER_TYPE = PyType("torch.nn.parameter.Buffer", (BufferHost,), BoundMethod(
    None, entry("__new__", _buffer, "cls, data=None, *, persistent=True",
                qualname="Buffer.__new__")))
