"""Python's `sys` and `os` as training scripts use them: the command line (`sys.argv`, the
script's own name), `sys.exit`, the standard streams, and os.path's string functions. A program
reads the process's environment (os.environ, os.getenv) and keeps what it sets to itself;
whatever would read or change the machine (files, directories) is refused."""

from __future__ import annotations

import posixpath
import sys
from collections.abc import Mapping

from gradcli.engine import errors
from gradcli.engine.state import STATE
from gradcli.language.namespaces.python_io import refusal
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import NOT_GIVEN, entry, table
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

ENVIRON = "os.environ"  # STATE.flags key: the program's environment


def _environment() -> dict:
    """The program's environment: the process's, read when the program first looks; what the
    program sets stays its own (torch's process would pass it to child processes, which a
    program here has none of)."""
    if ENVIRON not in STATE.flags:
        import os
        STATE.flags[ENVIRON] = dict(os.environ)
    return STATE.flags[ENVIRON]


def _text(part) -> str:
    """os.environ's keys and values are strings (Python's encodekey/encodevalue)."""
    if not isinstance(part, str):
        raise errors.type_error(f"str expected, not {type_name(part)}")
    return part


def _missing_key(key) -> errors.TorchError:
    return errors.TorchError("KeyError", repr(key), (key,))


class Environ(TableObject, Mapping):
    """os.environ: a mutable mapping of strings to strings."""

    __slots__ = ()
    subscriptable = sized = True

    @property
    def language_type(self) -> PyType:
        return ENVIRON_TYPE

    def item(self, key):
        try:
            return _environment()[_text(key)]
        except KeyError:
            raise _missing_key(key) from None

    def set_item(self, key, value) -> None:
        _environment()[_text(key)] = _text(value)

    def delete_item(self, key) -> None:
        try:
            del _environment()[_text(key)]
        except KeyError:
            raise _missing_key(key) from None

    def length(self) -> int:
        return len(_environment())

    __len__ = length
    __getitem__ = item

    def __iter__(self):
        return iter(list(_environment()))

    def operator(self, op: str, other, reflected: bool, inplace: bool = False):
        if op == "in" and reflected:
            return _text(other) in _environment()
        return NotImplemented

    def attribute(self, name: str):
        method = _ENVIRON_METHODS.get(name)
        if method is None:
            raise self.missing(name)
        return BoundMethod(self, method)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"environ({printer.repr(_environment())})"


def _pop(env, key, default=NOT_GIVEN):
    try:
        return _environment().pop(_text(key))
    except KeyError:
        if default is NOT_GIVEN:
            raise _missing_key(key) from None
        return default


def _update(env, other=(), /, **kwargs):
    pairs = other.items() if isinstance(other, (dict, Environ)) else iterate(other)
    for key, value in [*pairs, *kwargs.items()]:
        env.set_item(key, value)


def _get(env, key, default=None):
    return _environment().get(_text(key), default)


def _setdefault(env, key, value):
    return _environment().setdefault(_text(key), _text(value))


_ENVIRON_METHODS = table(
    entry("get", _get, "self, key, default=None", qualname="Mapping.get"),
    entry("setdefault", _setdefault, "self, key, value", qualname="_Environ.setdefault"),
    entry("pop", _pop, "self, key, default=NOT_GIVEN", qualname="MutableMapping.pop"),
    entry("update", _update, "self, other=(), /, **kwds", qualname="MutableMapping.update"),
    entry("keys", lambda env: _environment().keys(), "self", qualname="Mapping.keys"),
    entry("values", lambda env: _environment().values(), "self", qualname="Mapping.values"),
    entry("items", lambda env: _environment().items(), "self", qualname="Mapping.items"),
    entry("copy", lambda env: dict(_environment()), "self", qualname="_Environ.copy"),
)

ENVIRON_TYPE = PyType("os._Environ", ())

def _cpu_count() -> int | None:
    """os.cpu_count(): how many cores the machine has (torch's thread count reads the same)."""
    import os
    return os.cpu_count()


OS = Namespace("os", table(
    *(_refused("os", name) for name in (
        "makedirs", "mkdir", "listdir", "remove", "rmdir", "rename", "getcwd", "chdir", "walk",
        "scandir", "system", "getpid", "unlink")),
    entry("getenv", lambda key, default=None: _get(None, key, default), "key, default=None",
          frames=0),
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
