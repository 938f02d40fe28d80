"""Python's io.BytesIO as torch.save and torch.load use it: an in-memory file holding what each
torch.save wrote there (a snapshot, as for a path) in order, and a position among them.

Bytes themselves are not kept, so the buffer seeks to its start only and has no getvalue."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.runtime.objects import TableObject
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
IO = Namespace("io", {"BytesIO": BYTES_IO_TYPE})
