"""Python's in-memory files: io.StringIO (Python's own, behind a table), and io.BytesIO as
torch.save and torch.load use it: an in-memory file holding what each torch.save wrote there (a
snapshot, as for a path) in order, and a position among them.

Bytes themselves are not kept, so the BytesIO seeks to its start only and has no getvalue."""

from __future__ import annotations

import io
from contextlib import contextmanager

from gradcli.engine import errors
from gradcli.language.runtime.frames import ContextManager
from gradcli.language.runtime.objects import TableIterator, TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.values import Namespace


class BytesIO(TableObject):
    """An io.BytesIO: the records saved into it and the index of the next one to load."""

    __slots__ = ("records", "position", "closed")

    def __init__(self):
        self.records: list = []
        self.position = 0
        self.closed = False

    @property
    def language_type(self) -> PyType:
        return BYTES_IO_TYPE

    def _check_open(self) -> None:
        if self.closed:
            raise errors.value_error("I/O operation on closed file.")

    def write_record(self, record) -> None:
        """torch.save into the buffer: the record replaces whatever followed the position."""
        self._check_open()
        self.records[self.position:] = [record]
        self.position = len(self.records)

    def read_record(self):
        """torch.load from the buffer: the record at the position (EOFError past the last)."""
        self._check_open()
        if self.position >= len(self.records):
            raise errors.TorchError("EOFError", "")
        self.position += 1
        return self.records[self.position - 1]

    def _seek(self, pos, whence=0):
        self._check_open()
        if not isinstance(pos, int):
            raise errors.type_error(f"'{type(pos).__name__}' object cannot be interpreted as "
                                    "an integer")
        if (pos, whence) != (0, 0):
            raise errors.TorchError("NotImplementedError", "gradcli's io.BytesIO seeks to its "
                                    "start only (seek(0))")
        self.position = 0
        return 0

    def _tell(self):
        self._check_open()
        if self.position:
            raise errors.TorchError("NotImplementedError", "gradcli's io.BytesIO knows its "
                                    "position only at its start")
        return 0

    def _close(self) -> None:
        self.closed = True

    def attribute(self, name: str):
        if name == "closed":
            return self.closed
        methods = {"seek": (self._seek, "pos, whence=0, /"), "tell": (self._tell, ""),
                   "close": (self._close, ""), "flush": (self._check_open, "")}
        if name in methods:
            function, signature = methods[name]
            return entry(name, function, signature, qualname=f"BytesIO.{name}")
        if name in ("getvalue", "getbuffer", "read", "write", "readable", "writable"):
            raise errors.TorchError("NotImplementedError",
                                    f"gradcli does not support io.BytesIO.{name} yet")
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("AttributeError",
                                f"'_io.BytesIO' object has no attribute '{name}'")

    def repr(self, printer) -> str:
        return f"<_io.BytesIO object at 0x{id(self):x}>"


def _bytes_io(initial_bytes=b""):
    if initial_bytes not in (b"", None):
        raise errors.TorchError("NotImplementedError",
                                "gradcli's io.BytesIO starts empty (no initial bytes)")
    return BytesIO()


BYTES_IO_TYPE = PyType("_io.BytesIO", (BytesIO,),
                       entry("BytesIO", _bytes_io, "initial_bytes=b''", frames=0))


def refusal(module: str, name: str) -> errors.TorchError:
    """gradcli's refusal of a function that would reach the machine (os, sys, pathlib)."""
    return errors.TorchError("NotImplementedError", f"gradcli does not support {module}.{name}"
                             ": a program reaches no files, directories or environment")


@contextmanager
def host_errors(*kinds: type):
    """A host module's ValueError and TypeError (and `kinds`) as the language's errors."""
    try:
        yield
    except (ValueError, TypeError, *kinds) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None


_S = io.StringIO
# StringIO's methods: name -> (Python's method, its signature)
_STRING_IO_METHODS = {
    "read": (_S.read, "size=-1, /"), "readline": (_S.readline, "size=-1, /"),
    "readlines": (_S.readlines, "hint=-1, /"), "write": (_S.write, "s, /"),
    "writelines": (_S.writelines, "lines, /"), "getvalue": (_S.getvalue, ""),
    "tell": (_S.tell, ""), "seek": (_S.seek, "pos, whence=0, /"),
    "truncate": (_S.truncate, "pos=None, /"), "close": (_S.close, ""), "flush": (_S.flush, ""),
    "readable": (_S.readable, ""), "writable": (_S.writable, ""),
    "seekable": (_S.seekable, "")}


class StringIO(TableIterator):
    """An io.StringIO: Python's, whose lines `for` walks."""

    __slots__ = ("host",)

    def __init__(self, host: io.StringIO):
        self.host = host

    @property
    def language_type(self) -> PyType:
        return STRING_IO_TYPE

    def step(self):
        with host_errors():
            return next(self.host)

    def attribute(self, name: str):
        if name == "closed":
            return self.host.closed
        if name not in _STRING_IO_METHODS:
            raise self.missing(name)
        method, signature = _STRING_IO_METHODS[name]

        def call(*args):
            if name == "writelines":
                from gradcli.language.runtime.values import iterate
                args = (list(iterate(args[0])),)
            with host_errors():
                return method(self.host, *args)
        return entry(name, call, signature, qualname=f"StringIO.{name}")

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("AttributeError",
                                f"'_io.StringIO' object has no attribute '{name}'")

    def context(self) -> ContextManager:
        return ContextManager(lambda: self, self.host.close, label="_io.StringIO")

    def repr(self, printer) -> str:
        return f"<_io.StringIO object at 0x{id(self):x}>"


def _string_io(initial_value="", newline="\n"):
    with host_errors():
        return StringIO(io.StringIO(initial_value, newline))


STRING_IO_TYPE = PyType("_io.StringIO", (StringIO,),
                        entry("StringIO", _string_io, "initial_value='', newline='\\n'", frames=0))
IO = Namespace("io", {"BytesIO": BYTES_IO_TYPE, "StringIO": STRING_IO_TYPE})
