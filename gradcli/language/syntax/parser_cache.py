"""The built parser kept across processes.

Building lark's LALR parser from the generated tables (rules, parse table, one lexer per parser
state) and compiling its lexers' regexes (in pure Python: re._parser, re._compiler) take most of
a short program's start-up. The built parser, every lexer's scanner included, is plain data, so
it is pickled into the user's cache directory, in a file named after the grammar's digest, the
interpreter's version and _sre's magic number. Each regex is stored as the opcodes that
re._compiler hands _sre.compile, and loading accepts only lark's runtime classes: a damaged or
foreign file is ignored (and rebuilt), never run. The per-state lexers, two thirds of the file,
the parse table's per-state rows, the rules and the tree builder's per-rule callbacks are each kept as
pickled bytes and read on first use: a short program meets few of the states and rules.
"""

from __future__ import annotations

import io
import os
import pickle
import re
import sys
from functools import partial

import _sre

try:  # CPython 3.11 on; elsewhere the parser is built afresh each time
    from re import _compiler, _parser
except ImportError:
    _compiler = _parser = None

from gradcli.language.syntax import lark_standalone

_RUNTIME = lark_standalone.__name__
LAYOUT = 5  # how the file is laid out: a new layout is a new file name


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
    table = lark.parser.parser.parser.parse_table
    states = table.states
    holders = (lark, lark.parser.parser_conf, lark.parser.parser.parser)  # of the rule callbacks
    callbacks = lark.parser.parser.parser.callbacks
    builder = lark._parse_tree_builder
    for_building = lark.rules, builder.rule_builders, lark.parser.parser_conf.rules
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        lexer.root_lexer.scanner  # noqa: B018 - builds and keeps the scanner
        lexer.lexers = StateLexers.of(lexers, lexer.root_lexer.terminals_by_name)
        rules = _shared_rules(states)
        stored_rules = SharedRules.of(rules)
        table.states = StateRows.of(states, rules, stored_rules)
        _hand_callbacks(holders, RuleCallbacks.of(callbacks, rules, stored_rules))
        # the lists of all rules, which only building the parser reads, are not kept
        lark.rules, builder.rule_builders, lark.parser.parser_conf.rules = [], [], []
        with open(temporary, "wb") as handle:
            _Pickler(handle, protocol=pickle.HIGHEST_PROTOCOL).dump(lark)
        os.replace(temporary, path)
    except Exception:  # noqa: BLE001 - the cache only saves time: never fail a program over it
        try:
            os.unlink(temporary)
        except OSError:
            pass
    finally:
        lexer.lexers, table.states = lexers, states
        _hand_callbacks(holders, callbacks)
        lark.rules, builder.rule_builders, lark.parser.parser_conf.rules = for_building


def _hand_callbacks(holders: tuple, callbacks: dict) -> None:
    """Give the Lark object, its ParserConf and its _Parser `callbacks`, the one dict they share."""
    lark, conf, parser = holders
    lark._callbacks = conf.callbacks = parser.callbacks = callbacks


def _shared_rules(states: dict) -> dict:
    """The rules the parse table reduces by, keyed for storing each once, outside the rows' and
    the callbacks' bytes."""
    rules = {id(arg): arg for row in states.values() for _, arg in row.values()
             if isinstance(arg, lark_standalone.Rule)}
    return {("shared", "rule", i): rule for i, rule in enumerate(rules.values())}


class StateLexers(dict):
    """The contextual lexer's lexer for each parser state, unpickled when the state is first
    met (states with the same terminals share one lexer, and one pickled copy)."""

    def __init__(self, kinds: dict, blobs: list, shared: dict) -> None:
        super().__init__()
        self.kinds = kinds  # parser state -> index into blobs
        self.blobs = blobs
        self.shared = shared
        self.loaded: dict = {}

    @classmethod
    def of(cls, lexers: dict, terminals: dict) -> StateLexers:
        """The lazy form of a built state -> lexer table, every scanner built; `terminals`
        (by name) are stored once, outside the lexers' bytes."""
        shared = {("shared", "terminal", name): t for name, t in terminals.items()}
        index_of: dict = {}
        blobs: list = []
        for lexer in lexers.values():
            if id(lexer) not in index_of:
                lexer.scanner  # noqa: B018 - builds and keeps the scanner
                index_of[id(lexer)] = len(blobs)
                blobs.append(_dumps(lexer, shared))
        return cls({state: index_of[id(lexer)] for state, lexer in lexers.items()}, blobs,
                   shared)

    def __missing__(self, state):
        index = self.kinds[state]
        lexer = self.loaded.get(index)
        if lexer is None:
            lexer = self.loaded[index] = _loads(self.blobs[index], self.shared)
        self[state] = lexer
        return lexer

    def __reduce__(self):
        return StateLexers, (self.kinds, self.blobs, self.shared)


class SharedRules(dict):
    """The grammar's rules by key, each unpickled when a parse table row or a callback first
    names it (so that rows and callbacks share one copy of it)."""

    def __init__(self, blobs: dict) -> None:
        super().__init__()
        self.blobs = blobs

    @classmethod
    def of(cls, rules: dict) -> SharedRules:
        return cls({key: _dumps(rule, {}) for key, rule in rules.items()})

    def __missing__(self, key):
        rule = self[key] = _loads(self.blobs[key], {})
        return rule

    def __reduce__(self):
        return SharedRules, (self.blobs,)


class StateRows(dict):
    """The LALR parse table's row (token -> action) of each parser state, unpickled when the
    state is first met: a short program meets few of them."""

    def __init__(self, blobs: dict, shared: SharedRules) -> None:
        super().__init__()
        self.blobs, self.shared = blobs, shared

    @classmethod
    def of(cls, states: dict, rules: dict, stored_rules: SharedRules) -> StateRows:
        return cls({state: _dumps(row, rules) for state, row in states.items()}, stored_rules)

    def __missing__(self, state):
        row = self[state] = _loads(self.blobs[state], self.shared)
        return row

    def __reduce__(self):
        return StateRows, (self.blobs, self.shared)


class RuleCallbacks(dict):
    """The parse tree builder's callback for each rule, unpickled when the parser first reduces
    by the rule; kept by the rule's origin and expansion (what makes two rules equal)."""

    def __init__(self, blobs: dict, shared: SharedRules) -> None:
        super().__init__()
        self.blobs, self.shared = blobs, shared

    @classmethod
    def of(cls, callbacks: dict, rules: dict, stored_rules: SharedRules) -> RuleCallbacks:
        return cls({_rule_key(rule): _dumps(callback, rules)
                    for rule, callback in callbacks.items()}, stored_rules)

    def __missing__(self, rule):
        callback = self[rule] = _loads(self.blobs[_rule_key(rule)], self.shared)
        return callback

    def __contains__(self, key) -> bool:
        return isinstance(key, lark_standalone.Rule) and _rule_key(key) in self.blobs

    def __bool__(self) -> bool:
        return bool(self.blobs)

    def __reduce__(self):
        return RuleCallbacks, (self.blobs, self.shared)


def _rule_key(rule) -> tuple:
    return rule.origin.name, tuple(symbol.name for symbol in rule.expansion)


def _dumps(obj, shared: dict) -> bytes:
    handle = io.BytesIO()
    _Pickler(handle, protocol=pickle.HIGHEST_PROTOCOL, shared=shared).dump(obj)
    return handle.getvalue()


def _loads(blob: bytes, shared: dict):
    return _Unpickler(io.BytesIO(blob), {}, shared).load()


class _Pickler(pickle.Pickler):
    """Modules by name, compiled regexes as their opcodes, and `shared` objects (stored once,
    elsewhere) by their keys."""

    def __init__(self, handle, protocol: int, shared: dict | None = None) -> None:
        super().__init__(handle, protocol=protocol)
        self.keys = {id(obj): key for key, obj in (shared or {}).items()}

    def persistent_id(self, obj):
        if obj is re:
            return ("module",)
        if isinstance(obj, re.Pattern):
            return ("regex", obj.pattern, *_opcodes(obj.pattern, obj.flags))
        return self.keys.get(id(obj))


class _Unpickler(pickle.Unpickler):
    """Only lark's runtime classes, the given ones, and functools.partial."""

    def __init__(self, handle, allowed: dict, shared: dict | None = None) -> None:
        super().__init__(handle)
        self.allowed = allowed
        self.shared = {} if shared is None else shared

    def find_class(self, module: str, name: str):
        found = vars(lark_standalone).get(name) if module == _RUNTIME else None
        if isinstance(found, type):
            return found
        if (module, name) == ("functools", "partial"):
            return partial
        if module == __name__ and name in _LAZY_TABLES:
            return _LAZY_TABLES[name]
        if (module, name) in self.allowed:
            return self.allowed[module, name]
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a parser")

    def persistent_load(self, pid):
        if pid == ("module",):
            return re
        if pid[0] == "shared":
            return self.shared[pid]
        if pid[0] == "regex":
            pattern, flags, code, groups, groupindex, indexgroup = pid[1:]
            return _sre.compile(pattern, flags, memoryview(code).cast("I").tolist(), groups,
                                groupindex, indexgroup)
        raise pickle.UnpicklingError("unknown reference")


def _opcodes(pattern: str, flags: int) -> tuple:
    """What re._compiler.compile hands _sre.compile after the pattern itself (the code as
    bytes of unsigned ints, which load far faster than a list)."""
    from array import array  # only when the cache is written
    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    indexgroup = [None] * parsed.state.groups
    for name, index in parsed.state.groupdict.items():
        indexgroup[index] = name
    return (flags | parsed.state.flags, array("I", code).tobytes(), parsed.state.groups - 1,
            dict(parsed.state.groupdict), tuple(indexgroup))


_LAZY_TABLES = {"StateLexers": StateLexers, "StateRows": StateRows, "RuleCallbacks": RuleCallbacks,
                "SharedRules": SharedRules}
