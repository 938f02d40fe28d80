"""Compiled lexer regexes kept across processes.

lark's contextual lexer joins the terminals each parser state accepts into one big regex, and
CPython compiles regexes in pure Python (re._parser, re._compiler): a few milliseconds each, most
of the parsing time of a short program. What that compilation produces is plain data (the
opcode list handed to _sre.compile), so it is stored as JSON in the user's cache directory, keyed by the
pattern and flags, in a file named after the interpreter's version and _sre's magic number. The
pattern objects built from it are the ones re.compile builds.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import sys

import _sre

try:  # CPython 3.11 on; elsewhere regexes compile as usual, uncached
    from re import _compiler, _parser
except ImportError:
    _compiler = _parser = None

error = re.error
match = re.match  # lark's _create_unless uses re_.match on single terminals (cached by re)

_STORE: dict | None = None
_DIRTY = False
_PATH: str | None = None
_MOST = 1000  # stored patterns (a grammar's lexer needs a few dozen to a few hundred)


def _file(folder: str) -> str:
    return os.path.join(folder, f"regex-{sys.hexversion:x}-{_sre.MAGIC}.json")


def _load() -> dict:
    global _STORE
    if _STORE is None:
        _STORE = {}
        if _PATH is not None:
            try:
                with open(_PATH, encoding="utf-8") as handle:
                    _STORE = {(pattern, flags): (parts[0], parts[1], parts[2], parts[3],
                                                 tuple(parts[4]))
                              for pattern, flags, parts in json.load(handle)}
            except (OSError, ValueError, TypeError, IndexError, KeyError):
                _STORE = {}
            if len(_STORE) > _MOST:  # grammars come and go: start afresh rather than grow
                _STORE = {}
    return _STORE


def use_folder(folder: str | None) -> None:
    """Keep compiled regexes in `folder` (None: this process only)."""
    global _PATH
    _PATH = _file(folder) if folder else None


def compile(pattern, flags=0):  # noqa: A001 - lark calls re_module.compile
    """re.compile(pattern, flags), from the stored opcodes when this pattern was seen before."""
    global _DIRTY, _PATH
    if _compiler is None or not isinstance(pattern, str) or int(flags) & re.DEBUG:
        return re.compile(pattern, flags)
    key = (pattern, int(flags))
    store = _load()
    parts = store.get(key)
    if parts is None:
        parts = _compile_parts(pattern, int(flags))
        store[key] = parts
        if not _DIRTY and _PATH is not None:
            atexit.register(_save)
        _DIRTY = True
    try:
        return _sre.compile(pattern, *parts)
    except (TypeError, ValueError, RuntimeError):  # a stored form this _sre does not take
        store.clear()
        _PATH = None
        return re.compile(pattern, flags)


def _compile_parts(pattern: str, flags: int) -> tuple:
    """What re._compiler.compile hands _sre.compile after the pattern itself."""
    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = parsed.state.groupdict
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (flags | parsed.state.flags, [int(op) for op in code], parsed.state.groups - 1,
            dict(groupindex),
            tuple(indexgroup))


def _save() -> None:
    if not _DIRTY or _PATH is None or _STORE is None:
        return
    temporary = f"{_PATH}.{os.getpid()}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump([[pattern, flags, parts] for (pattern, flags), parts in _STORE.items()],
                      handle)
        os.replace(temporary, _PATH)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
