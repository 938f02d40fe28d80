"""Python's `sys` and `os` as training scripts use them: the command line (`sys.argv`, the
script's own name), `sys.exit`, the standard streams, and os.path's string functions. Whatever
would read or change the machine (files, directories, the environment) is refused."""

from __future__ import annotations

import posixpath
import sys

from gradcli.engine import errors
from gradcli.engine.state import STATE
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import FlagNamespace, Namespace, type_name

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
        raise errors.TorchError("NotImplementedError", f"gradcli does not support {module}.{name}"
                                ": a program reaches no files, directories or environment")
    return entry(name, refuse, "*args, **kwargs", frames=0)


def _strings(name: str, function, spec: str):
    """An os.path function on strings only (posixpath's own), with its TypeError otherwise."""
    def call(*args):
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


PATH = Namespace("posixpath", table(
    _strings("join", posixpath.join, "a, /, *p"),
    _strings("basename", posixpath.basename, "p, /"),
    _strings("dirname", posixpath.dirname, "p, /"),
    _strings("split", posixpath.split, "p, /"),
    _strings("splitext", posixpath.splitext, "p, /"),
    _strings("normpath", posixpath.normpath, "path, /"),
    _strings("isabs", posixpath.isabs, "s, /"),
    *(_refused("os.path", name) for name in (
        "exists", "isfile", "isdir", "getsize", "abspath", "realpath", "expanduser",
        "getmtime", "islink")),
) | {"sep": "/"})

OS = Namespace("os", table(
    *(_refused("os", name) for name in (
        "makedirs", "mkdir", "listdir", "remove", "rmdir", "rename", "getcwd", "chdir", "walk",
        "scandir", "getenv", "system", "cpu_count", "getpid", "unlink")),
) | {"path": PATH, "sep": "/", "linesep": "\n", "name": "posix",
     "environ": Namespace("os.environ", table(*(_refused("os.environ", name) for name in (
         "get", "setdefault", "items", "keys")))),
     })

SYS = SysNamespace("sys", table(
    entry("exit", exit_program, "status=None, /", frames=0),
    entry("getrecursionlimit", lambda ctx: ctx.recursion_limit, "", context=True, frames=0),
) | {"stdout": STDOUT, "stderr": STDERR, "maxsize": sys.maxsize, "platform": sys.platform,
     "byteorder": sys.byteorder}, defaults={"argv": None})

MODULES = {"sys": SYS, "os": OS, "os.path": PATH}
