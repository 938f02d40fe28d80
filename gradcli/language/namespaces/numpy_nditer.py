"""np.nditer: NumPy's multi-dimensional iterator (CS231n's numerical gradient walks an array
with it, `multi_index` and `iternext()`), a table object around NumPy's own iterator."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.language.runtime.frames import BoundMethod, ContextManager
from gradcli.language.runtime.objects import TableIterator
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry

NDITER_TYPE = PyType("numpy.nditer", (np.nditer,))

# the attributes of an nditer, as NumPy gives them
_PROPERTIES = {
    "finished": lambda h: h.finished, "multi_index": lambda h: h.multi_index,
    "index": lambda h: h.index, "iterindex": lambda h: h.iterindex,
    "itersize": lambda h: h.itersize, "ndim": lambda h: h.ndim, "nop": lambda h: h.nop,
    "shape": lambda h: h.shape, "operands": lambda h: h.operands, "value": lambda h: h.value,
    "has_multi_index": lambda h: h.has_multi_index, "has_index": lambda h: h.has_index,
    "dtypes": lambda h: h.dtypes, "itviews": lambda h: h.itviews,
}


def _set_multi_index(host, value) -> None:
    host.multi_index = value


def _set_index(host, value) -> None:
    host.index = value


def _set_iterindex(host, value) -> None:
    host.iterindex = value


# the ones a program may set (to jump to a position)
_SETTERS = {"multi_index": _set_multi_index, "index": _set_index, "iterindex": _set_iterindex}


def _numpy_errors(thunk):
    try:
        return thunk()
    except (ValueError, TypeError, IndexError, StopIteration) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None


class NdIter(TableIterator):
    """One np.nditer: iterating gives its current element(s) (0-d views, writable with
    op_flags=['readwrite']); `finished`, `multi_index` and `iternext()` step it by hand."""

    __slots__ = ("host",)

    def __init__(self, host: np.nditer):
        self.host = host

    @property
    def language_type(self):
        return NDITER_TYPE

    def step(self):
        return next(self.host)

    def attribute(self, name: str):
        if name in _PROPERTIES:
            return _numpy_errors(lambda: _PROPERTIES[name](self.host))
        method = _METHODS.get(name)
        if method is None:
            raise self.missing(name)
        return BoundMethod(self, method)

    def set_attribute(self, name: str, value) -> None:
        if name in _SETTERS:
            _numpy_errors(lambda: _SETTERS[name](self.host, value))
            return
        raise self.missing(name)

    def item(self, key):
        return _numpy_errors(lambda: self.host[key])

    subscriptable = True

    def context(self):
        return ContextManager(lambda: self, lambda: self.host.close(), label="numpy.nditer")

    def repr(self, printer) -> str:
        return f"<numpy.nditer object at 0x{id(self):x}>"


_METHODS = {
    "iternext": entry("iternext", lambda it: it.host.iternext(), "self",
                      qualname="nditer.iternext"),
    "reset": entry("reset", lambda it: it.host.reset(), "self", qualname="nditer.reset"),
    "close": entry("close", lambda it: it.host.close(), "self", qualname="nditer.close"),
    "copy": entry("copy", lambda it: NdIter(it.host.copy()), "self", qualname="nditer.copy"),
}


def nditer(array_of):
    """np.nditer(...) over arrays (the program's arrays themselves, so writes land in them);
    `array_of` turns the language's values into what NumPy takes."""
    def make(op, flags=None, op_flags=None, op_dtypes=None, order="K", casting="safe",
             op_axes=None, itershape=None, buffersize=0):
        return NdIter(_numpy_errors(lambda: np.nditer(
            array_of(op), flags=flags, op_flags=op_flags, op_dtypes=array_of(op_dtypes),
            order=order, casting=casting, op_axes=op_axes, itershape=itershape,
            buffersize=buffersize)))
    return entry("nditer", make, "op, flags=None, op_flags=None, op_dtypes=None, order='K', "
                 "casting='safe', op_axes=None, itershape=None, buffersize=0",
                 qualname="nditer")
