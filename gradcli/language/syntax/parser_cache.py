"""The built parser kept across processes.

Building lark's LALR parser from the generated tables (rules, parse table, one lexer per parser
state) and compiling its lexers' regexes (in pure Python: re._parser, re._compiler) take most of
a short program's start-up. The built parser, every lexer's scanner included, is plain data, so
it is pickled into the user's cache directory, in a file named after the grammar's digest, the
interpreter's version and _sre's magic number. Each regex is stored as the opcodes that
re._compiler hands _sre.compile, and loading accepts only lark's runtime classes: a damaged or
foreign file is ignored (and rebuilt), never run. The per-state lexers, two thirds of the file,
are each kept as pickled bytes and read on first use: a short program meets few of the states.
"""

from __future__ import annotations

import io
import os
import pickle
import re
import sys
from array import array
from functools import partial

import _sre

try:  # CPython 3.11 on; elsewhere the parser is built afresh each time
    from re import _compiler, _parser
except ImportError:
    _compiler = _parser = None

from gradcli.language.syntax import lark_standalone

_RUNTIME = lark_standalone.__name__
LAYOUT = 2  # how the file is laid out: a new layout is a new file name


def file_for(folder: str | None, grammar_digest: str) -> str | None:
    """Where the parser for this grammar, interpreter and regex engine is kept."""
    if folder is None or _compiler is None:
        return None
    return os.path.join(folder, f"parser{LAYOUT}-{lark_standalone.__version__}-{grammar_digest[:16]}-"
                                f"{sys.hexversion:x}-"
                                f"{_sre.MAGIC}.pickle")


def load(path: str | None, allowed: dict):
    """The parser stored at `path`, or None when there is none or it cannot be used.
    `allowed` names the classes outside lark's runtime the parser holds (the postlexer)."""
    if path is None:
        return None
    try:
        with open(path, "rb") as handle:
            return _Unpickler(handle, allowed).load()
    except Exception:  # noqa: BLE001 - a stale, damaged or foreign file: build afresh
        return None


def save(lark, path: str | None) -> None:
    """Store `lark`, with every lexer's scanner built, at `path` (atomically; silently not at
    all when the folder refuses)."""
    if path is None:
        return
    lexer = lark.parser.lexer
    lexer = getattr(lexer, "lexer", lexer)  # behind the indenter's PostLexConnector
    lexers = lexer.lexers
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        lexer.root_lexer.scanner  # noqa: B018 - builds and keeps the scanner
        lexer.lexers = StateLexers.of(lexers, lexer.root_lexer.terminals_by_name)
        with open(temporary, "wb") as handle:
            _Pickler(handle, protocol=pickle.HIGHEST_PROTOCOL).dump(lark)
        os.replace(temporary, path)
    except Exception:  # noqa: BLE001 - the cache only saves time: never fail a program over it
        try:
            os.unlink(temporary)
        except OSError:
            pass
    finally:
        lexer.lexers = lexers


class StateLexers(dict):
    """The contextual lexer's lexer for each parser state, unpickled when the state is first
    met (states with the same terminals share one lexer, and one pickled copy)."""

    def __init__(self, kinds: dict, blobs: list, terminals: dict) -> None:
        super().__init__()
        self.kinds = kinds  # parser state -> index into blobs
        self.blobs = blobs
        self.terminals = terminals
        self.loaded: dict = {}

    @classmethod
    def of(cls, lexers: dict, terminals: dict) -> StateLexers:
        """The lazy form of a built state -> lexer table, every scanner built; `terminals`
        (by name) are stored once, outside the lexers' bytes."""
        index_of: dict = {}
        blobs: list = []
        for lexer in lexers.values():
            if id(lexer) not in index_of:
                lexer.scanner  # noqa: B018 - builds and keeps the scanner
                index_of[id(lexer)] = len(blobs)
                handle = io.BytesIO()
                _Pickler(handle, protocol=pickle.HIGHEST_PROTOCOL, shared=terminals).dump(lexer)
                blobs.append(handle.getvalue())
        return cls({state: index_of[id(lexer)] for state, lexer in lexers.items()}, blobs,
                   terminals)

    def __missing__(self, state):
        index = self.kinds[state]
        lexer = self.loaded.get(index)
        if lexer is None:
            lexer = _Unpickler(io.BytesIO(self.blobs[index]), {}, self.terminals).load()
            self.loaded[index] = lexer
        self[state] = lexer
        return lexer

    def __reduce__(self):
        return StateLexers, (self.kinds, self.blobs, self.terminals)


class _Pickler(pickle.Pickler):
    """Modules by name, compiled regexes as their opcodes, `shared` terminals by name."""

    def __init__(self, handle, protocol: int, shared: dict | None = None) -> None:
        super().__init__(handle, protocol=protocol)
        self.shared = shared or {}

    def persistent_id(self, obj):
        if obj is re:
            return ("module",)
        if isinstance(obj, re.Pattern):
            return ("regex", obj.pattern, *_opcodes(obj.pattern, obj.flags))
        if isinstance(obj, lark_standalone.TerminalDef) and self.shared.get(obj.name) is obj:
            return ("terminal", obj.name)
        return None


class _Unpickler(pickle.Unpickler):
    """Only lark's runtime classes, the given ones, and functools.partial."""

    def __init__(self, handle, allowed: dict, shared: dict | None = None) -> None:
        super().__init__(handle)
        self.allowed = allowed
        self.shared = shared or {}

    def find_class(self, module: str, name: str):
        found = vars(lark_standalone).get(name) if module == _RUNTIME else None
        if isinstance(found, type):
            return found
        if (module, name) == ("functools", "partial"):
            return partial
        if (module, name) == (__name__, "StateLexers"):
            return StateLexers
        if (module, name) in self.allowed:
            return self.allowed[module, name]
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a parser")

    def persistent_load(self, pid):
        if pid == ("module",):
            return re
        if pid[0] == "terminal":
            return self.shared[pid[1]]
        if pid[0] == "regex":
            pattern, flags, code, groups, groupindex, indexgroup = pid[1:]
            return _sre.compile(pattern, flags, array("I", code).tolist(), groups, groupindex,
                                indexgroup)
        raise pickle.UnpicklingError("unknown reference")


def _opcodes(pattern: str, flags: int) -> tuple:
    """What re._compiler.compile hands _sre.compile after the pattern itself (the code as
    bytes of unsigned ints, which load far faster than a list)."""
    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    indexgroup = [None] * parsed.state.groups
    for name, index in parsed.state.groupdict.items():
        indexgroup[index] = name
    return (flags | parsed.state.flags, array("I", code).tobytes(), parsed.state.groups - 1,
            dict(parsed.state.groupdict), tuple(indexgroup))
