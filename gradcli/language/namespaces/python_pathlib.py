"""Python's `pathlib` as scripts build checkpoint and log paths with it (Path('runs') / name,
.stem, .suffix, .with_suffix): Python's own pure POSIX paths behind a table. What would touch
the file system (exists, mkdir, open, glob, cwd...) is refused, as os's functions are."""

from __future__ import annotations

import pathlib

from gradcli.engine import errors
from gradcli.language.namespaces.python_io import host_errors, refusal
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.protocols import CLASS_METHODS
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, type_name

# the file system's methods, refused
_FILE_SYSTEM = ("exists", "is_file", "is_dir", "is_symlink", "mkdir", "rmdir", "touch", "unlink",
                "open", "read_text", "write_text", "read_bytes", "write_bytes", "glob", "rglob",
                "iterdir", "resolve", "absolute", "stat", "lstat", "rename", "replace",
                "expanduser", "samefile", "chmod", "owner", "group", "readlink", "symlink_to",
                "hardlink_to", "walk")


class PathValue(TableObject):
    """A pathlib path: Python's PurePosixPath, shown as the class the program made it with."""

    __slots__ = ("host", "kind")

    def __init__(self, host: pathlib.PurePosixPath, kind: PyType):
        self.host, self.kind = host, kind

    @property
    def language_type(self) -> PyType:
        return self.kind

    def _made(self, host) -> "PathValue":
        return PathValue(host, self.kind)

    def __eq__(self, other):
        return isinstance(other, PathValue) and self.host == other.host

    def __lt__(self, other):
        if not isinstance(other, PathValue):
            return NotImplemented
        return self.host < other.host

    def __hash__(self):
        return hash(self.host)

    def attribute(self, name: str):
        if name in _PROPERTIES:
            value = _PROPERTIES[name](self.host)
            return self._made(value) if isinstance(value, pathlib.PurePath) else value
        if name in ("parents",):
            return tuple(self._made(p) for p in self.host.parents)
        if name in _FILE_SYSTEM:
            return entry(name, lambda *args, **kwargs: _refuse(name), "*args, **kwargs")
        method = _METHODS.get(name)
        if method is None:
            raise self.missing(name)
        function, signature = method

        def call(*args):
            with host_errors():
                value = function(self.host, *(_part(a) for a in args))
            return self._made(value) if isinstance(value, pathlib.PurePath) else value
        return entry(name, call, signature, qualname=f"{self.class_name}.{name}")

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("AttributeError", f"property '{name}' of '{self.class_name}' "
                                "object has no setter" if name in _PROPERTIES else
                                f"'{self.class_name}' object has no attribute '{name}'")

    def operator(self, op: str, other, reflected: bool, inplace: bool = False):
        if op != "/" or not isinstance(other, (str, PathValue)):
            return NotImplemented
        with host_errors():
            joined = _part(other) / self.host if reflected else self.host / _part(other)
        return self._made(joined)

    def str(self, printer) -> str:
        return str(self.host)

    def repr(self, printer) -> str:
        return f"{self.class_name}({str(self.host)!r})"


def fspath(value):
    """os.fspath: a path's text (strings as they are), for os.path's functions."""
    return str(value.host) if isinstance(value, PathValue) else value


def _part(value):
    """A path argument as Python's pathlib takes it."""
    if isinstance(value, PathValue):
        return value.host
    if not isinstance(value, str):
        raise errors.type_error(f"expected str, bytes or os.PathLike object, not "
                                f"{type_name(value)}")
    return value


def _refuse(name: str):
    raise refusal("pathlib.Path", name)


_PROPERTIES = {"name": lambda p: p.name, "stem": lambda p: p.stem, "suffix": lambda p: p.suffix,
               "suffixes": lambda p: p.suffixes, "parent": lambda p: p.parent,
               "parts": lambda p: p.parts, "anchor": lambda p: p.anchor, "root": lambda p: p.root,
               "drive": lambda p: p.drive}
_P = pathlib.PurePosixPath
_METHODS = {"with_suffix": (_P.with_suffix, "suffix"), "with_name": (_P.with_name, "name"),
            "with_stem": (_P.with_stem, "stem"), "joinpath": (_P.joinpath, "*pathsegments"),
            "relative_to": (_P.relative_to, "*other"),
            "is_relative_to": (_P.is_relative_to, "*other"),
            "is_absolute": (_P.is_absolute, ""), "as_posix": (_P.as_posix, ""),
            "match": (_P.match, "path_pattern"), "is_reserved": (_P.is_reserved, "")}


def _construct(name: str, kind: str):
    def make(*segments):
        with host_errors():
            return PathValue(pathlib.PurePosixPath(*(_part(s) for s in segments)), _KINDS[kind])
    return entry(name, make, "*pathsegments", frames=0)


# Path() makes a PosixPath, PurePath() a PurePosixPath (this machine's kind, as Python's)
_KINDS = {"pure": PyType("pathlib.PurePosixPath", (PathValue,),
                         _construct("PurePosixPath", "pure")),
          "posix": PyType("pathlib.PosixPath", (PathValue,), _construct("Path", "posix"))}
CLASS_METHODS[PathValue] = table(*(entry(name, lambda *args, name=name: _refuse(name), "")
                                   for name in ("cwd", "home")))
PATHLIB = Namespace("pathlib", {"Path": _KINDS["posix"], "PosixPath": _KINDS["posix"],
                                "PurePath": _KINDS["pure"], "PurePosixPath": _KINDS["pure"]})
