"""Python's `sys` and `os` as training scripts use them: the command line (`sys.argv`, the
script's own name), `sys.exit`, the standard streams, and os.path's string functions. Whatever
would read or change the machine (files, directories, the environment) is refused."""

from __future__ import annotations

import posixpath
import sys

from gradcli.engine import errors
from gradcli.engine.state import STATE
from gradcli.language.namespaces.python_io import refusal
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import (FlagNamespace, NamedTuple, Namespace, iterate,
                                            type_name)

ARGV = "sys.argv"  # STATE.flags key: the program's command line, set by whoever runs it


def argv() -> list:
    """The program's sys.argv (Python's interactive [''] when nothing set it)."""
    return STATE.flags.setdefault(ARGV, [""])


class SysNamespace(FlagNamespace):
    """sys: its argv is the running program's, and a program may rebind it."""

    def lookup(self, attr: str):
        if attr == "argv":
            argv()
        return super().lookup(attr)


def exit_program(code=None):
    """sys.exit: Python's SystemExit (with no args for no code), whose code the command line
    turns into a status."""
    raise errors.TorchError("SystemExit", "" if code is None else str(code),
                            () if code is None else (code,))


class Stream(TableObject):
    """sys.stdout or sys.stderr: text written goes where the program's output goes."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    @property
    def language_type(self) -> PyType:
        return STREAM_TYPE

    def write_text(self, ctx, text) -> int:
        if not isinstance(text, str):
            raise errors.type_error(f"write() argument must be str, not {type_name(text)}")
        if self.name == "stdout":
            ctx.write(text)
        else:
            sys.stderr.write(text)
        return len(text)

    def attribute(self, name: str):
        if name == "write":
            return entry("write", self.write_text, "text, /", context=True)
        if name == "flush":
            return entry("flush", lambda: sys.stderr.flush() if self.name == "stderr" else None,
                         "")
        if name == "isatty":
            return entry("isatty", lambda: False, "")
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"<_io.TextIOWrapper name='<{self.name}>' mode='w' encoding='utf-8'>"


STREAM_TYPE = PyType("_io.TextIOWrapper", ())
STDOUT, STDERR = Stream("stdout"), Stream("stderr")


def _refused(module: str, name: str):
    def refuse(*args, **kwargs):
        raise refusal(module, name)
    return entry(name, refuse, "*args, **kwargs", frames=0)


def _strings(name: str, function, spec: str):
    """An os.path function on strings only (posixpath's own), with its TypeError otherwise."""
    def call(*args):
        from gradcli.language.namespaces.python_pathlib import fspath
        args = tuple(fspath(arg) for arg in args)
        for arg in args:
            if not isinstance(arg, (str, bytes)):
                raise errors.type_error(
                    f"join() argument must be str, bytes, or os.PathLike object, not "
                    f"'{type_name(arg)}'" if name == "join" else
                    f"expected str, bytes or os.PathLike object, not {type_name(arg)}")
        try:
            return function(*args)
        except TypeError as error:  # str and bytes mixed
            raise errors.type_error(str(error)) from None
    return entry(name, call, spec, frames=0)


def _relpath(path, start=None):
    """os.path.relpath between absolute paths (a relative one would read the directory)."""
    if not all(isinstance(p, str) and posixpath.isabs(p) for p in (path, start)):
        raise refusal("os.path", "relpath")
    return posixpath.relpath(path, start)


def _common(name: str, function):
    """commonprefix / commonpath of a list of strings."""
    def call(paths):
        paths = list(iterate(paths))
        for path in paths:
            if not isinstance(path, (str, bytes)):
                raise errors.type_error(f"expected str, bytes or os.PathLike object, not "
                                        f"{type_name(path)}")
        try:
            return function(paths)
        except (TypeError, ValueError) as error:
            raise (errors.type_error if isinstance(error, TypeError) else errors.value_error)(
                str(error)) from None
    return entry(name, call, "m, /" if name == "commonprefix" else "paths, /", frames=0)


PATH = Namespace("posixpath", table(
    _strings("join", posixpath.join, "a, /, *p"),
    _strings("basename", posixpath.basename, "p, /"),
    _strings("dirname", posixpath.dirname, "p, /"),
    _strings("split", posixpath.split, "p, /"),
    _strings("splitext", posixpath.splitext, "p, /"),
    _strings("normpath", posixpath.normpath, "path, /"),
    _strings("isabs", posixpath.isabs, "s, /"),
    _strings("normcase", posixpath.normcase, "s, /"),
    _strings("splitdrive", posixpath.splitdrive, "p, /"),
    entry("relpath", _relpath, "path, start=None", frames=0),
    _common("commonprefix", posixpath.commonprefix),
    _common("commonpath", posixpath.commonpath),
    *(_refused("os.path", name) for name in (
        "exists", "isfile", "isdir", "getsize", "abspath", "realpath", "expanduser",
        "getmtime", "islink")),
) | {"sep": "/"})

ENVIRON = "os.environ"  # STATE.flags key: the variables the program set


class Environ(TableObject):
    """os.environ: a program may set variables (`os.environ["PYTHONHASHSEED"] = "0"` in a
    seeding helper) and read back what it set; the machine's own environment stays unread."""

    __slots__ = ()
    is_sequence = True  # item(key) reads, set_item writes

    @property
    def language_type(self) -> PyType:
        return ENVIRON_TYPE

    @staticmethod
    def _set() -> dict:
        return STATE.flags.setdefault(ENVIRON, {})

    def item(self, key):
        if key not in self._set():
            raise errors.TorchError("NotImplementedError", f"gradcli does not support reading "
                                    f"os.environ[{key!r}]: a program reaches no environment "
                                    "but the variables it set")
        return self._set()[key]

    def set_item(self, key, value) -> None:
        for part in (key, value):
            if not isinstance(part, str):
                raise errors.type_error(f"str expected, not {type_name(part)}")
        self._set()[key] = value

    def length(self) -> int:
        raise refusal("os.environ", "__len__")

    def members(self) -> list:
        raise refusal("os.environ", "__iter__")

    def attribute(self, name: str):
        if name in ("get", "setdefault", "items", "keys", "pop"):
            return _refused("os.environ", name)
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        raise refusal("os.environ", "__repr__")


ENVIRON_TYPE = PyType("os._Environ", ())

def _cpu_count() -> int | None:
    """os.cpu_count(): how many cores the machine has (torch's thread count reads the same)."""
    import os
    return os.cpu_count()


OS = Namespace("os", table(
    *(_refused("os", name) for name in (
        "makedirs", "mkdir", "listdir", "remove", "rmdir", "rename", "getcwd", "chdir", "walk",
        "scandir", "getenv", "system", "getpid", "unlink")),
    # the machine's core count, as DataLoader's num_workers=os.cpu_count() reads it
    entry("cpu_count", _cpu_count, "", style="noargs", frames=0),
) | {"path": PATH, "sep": "/", "linesep": "\n", "name": "posix",
     "environ": Environ()})



def _structseq(name: str, value):
    """sys.version_info, float_info, int_info: structseqs printed by their dotted names."""
    kind = type(name, (NamedTuple,), {"__slots__": (), "language_fields": value.__match_args__})
    return kind(value)


SYS = SysNamespace("sys", table(
    entry("exit", exit_program, "status=None, /", frames=0),
    entry("getrecursionlimit", lambda ctx: ctx.recursion_limit, "", context=True, frames=0),
) | {"stdout": STDOUT, "stderr": STDERR, "maxsize": sys.maxsize, "platform": sys.platform,
     "byteorder": sys.byteorder, "version": sys.version,
     **{name: _structseq(f"sys.{name}", vars(sys)[name]) for name in (
         "version_info", "float_info", "int_info")}}, defaults={"argv": None})

MODULES = {"sys": SYS, "os": OS, "os.path": PATH}
