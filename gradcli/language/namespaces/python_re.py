"""Python's `re` module as scripts use it (re.compile, search, match, finditer, sub with a
function, parsing logs and parameter names): Python's own engine behind tables, its patterns and
match objects wrapped so that a program reaches only their listed methods and attributes."""

from __future__ import annotations

import re
import sys

from gradcli.engine import errors
from gradcli.language.namespaces.python_text import checked
from gradcli.language.namespaces.python_warnings import RE_ERROR
from gradcli.language.runtime import protocols
from gradcli.language.runtime.objects import TableIterator, TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, type_name


_POSITIONS = f"string, pos=0, endpos={sys.maxsize}"


def _host(pattern):
    """A pattern argument as Python's re takes it (a compiled Pattern's own)."""
    return pattern.host if isinstance(pattern, Pattern) else pattern


def _matched(found):
    return None if found is None else Match(found)


class _Wrapped(TableObject):
    """A host re object behind a table of methods (name -> (function, signature)) and
    read-only attributes."""

    __slots__ = ("host",)
    ATTRIBUTES: dict = {}  # name -> its getter on the host object

    def __init__(self, host):
        self.host = host

    def __eq__(self, other):  # equal patterns (and matches only to themselves), as Python's
        return type(other) is type(self) and self.host == other.host

    def __hash__(self):
        return hash(self.host)

    @property
    def class_name(self) -> str:
        return self.language_type.name

    def methods(self) -> dict:
        return {}

    def attribute(self, name: str):
        if name in self.ATTRIBUTES:
            value = self.ATTRIBUTES[name](self.host)
            return Pattern(value) if isinstance(value, re.Pattern) else value
        found = self.methods().get(name)
        if found is None:
            raise self.missing(name)
        function, signature = found
        return entry(name, checked(function), signature, context=name in ("sub", "subn"),
                     qualname=f"{self.class_name}.{name}")

    def set_attribute(self, name: str, value) -> None:
        if name in self.ATTRIBUTES or name in self.methods():
            raise errors.TorchError("AttributeError", "readonly attribute")
        raise self.missing(name)

    def repr(self, printer) -> str:
        return repr(self.host)


class Match(_Wrapped):
    """re.Match: groups, spans and the matched text; m[g] as m.group(g)."""

    __slots__ = ()
    subscriptable = True
    ATTRIBUTES = {"string": lambda m: m.string, "re": lambda m: m.re, "pos": lambda m: m.pos,
                  "endpos": lambda m: m.endpos, "lastindex": lambda m: m.lastindex,
                  "lastgroup": lambda m: m.lastgroup}

    @property
    def language_type(self) -> PyType:
        return MATCH_TYPE

    def methods(self) -> dict:
        host = self.host
        return {"group": (host.group, "*args"), "groups": (host.groups, "default=None"),
                "groupdict": (host.groupdict, "default=None"), "span": (host.span, "group=0, /"),
                "start": (host.start, "group=0, /"), "end": (host.end, "group=0, /"),
                "expand": (host.expand, "template, /")}

    def item(self, key):
        return checked(self.host.__getitem__)(key)


class Pattern(_Wrapped):
    """re.Pattern: a compiled pattern's matching methods, as the module's functions."""

    __slots__ = ()
    ATTRIBUTES = {"pattern": lambda p: p.pattern, "flags": lambda p: p.flags,
                  "groups": lambda p: p.groups}

    @property
    def language_type(self) -> PyType:
        return PATTERN_TYPE

    def methods(self) -> dict:
        host = self.host
        return {"search": (lambda *a, **k: _matched(host.search(*a, **k)),
                           _POSITIONS),
                "match": (lambda *a, **k: _matched(host.match(*a, **k)),
                          _POSITIONS),
                "fullmatch": (lambda *a, **k: _matched(host.fullmatch(*a, **k)),
                              _POSITIONS),
                "findall": (host.findall, _POSITIONS),
                "finditer": (lambda *a, **k: Matches(host.finditer(*a, **k)),
                             _POSITIONS),
                "split": (host.split, "string, maxsplit=0"),
                "sub": (lambda ctx, repl, string, count=0: host.sub(
                    _replacement(ctx, repl), string, count), "repl, string, count=0"),
                "subn": (lambda ctx, repl, string, count=0: host.subn(
                    _replacement(ctx, repl), string, count), "repl, string, count=0")}


class Matches(TableIterator):
    """finditer's iterator: one match object a step."""

    __slots__ = ("host",)

    def __init__(self, host):
        self.host = host

    @property
    def language_type(self) -> PyType:
        return MATCHES_TYPE

    def step(self):
        return Match(next(self.host))

    def attribute(self, name: str):
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"<callable_iterator object at 0x{id(self):x}>"


def _replacement(ctx, repl):
    """sub's replacement: a string as Python takes it, or the program's function called with
    each match object (its result must be a string)."""
    if isinstance(repl, (str, bytes)) or not protocols.is_callable(repl):
        return repl

    def replace(found):
        text = ctx.call(repl, [Match(found)], {})
        if not isinstance(text, (str, bytes)):
            raise errors.type_error(
                f"sequence item 0: expected str instance, {type_name(text)} found")
        return text
    return replace


def _compile(pattern, flags=0):
    if isinstance(pattern, Pattern):
        if flags:
            raise errors.value_error("cannot process flags argument with a compiled pattern")
        return pattern
    return Pattern(re.compile(pattern, flags))


def _sub(ctx, pattern, repl, string, count=0, flags=0):
    return re.sub(_host(pattern), _replacement(ctx, repl), string, count=count, flags=flags)


def _subn(ctx, pattern, repl, string, count=0, flags=0):
    return re.subn(_host(pattern), _replacement(ctx, repl), string, count=count, flags=flags)


def _finder(host):
    """re.search, re.match, re.fullmatch: a match object or None."""
    return lambda pattern, string, flags=0: _matched(host(_host(pattern), string, flags))


MATCH_TYPE = PyType("re.Match", (Match,))
PATTERN_TYPE = PyType("re.Pattern", (Pattern,))
MATCHES_TYPE = PyType("callable_iterator", (Matches,))

RE = Namespace("re", table(
    entry("compile", checked(_compile), "pattern, flags=0"),
    entry("search", checked(_finder(re.search)), "pattern, string, flags=0"),
    entry("match", checked(_finder(re.match)), "pattern, string, flags=0"),
    entry("fullmatch", checked(_finder(re.fullmatch)), "pattern, string, flags=0"),
    entry("finditer", checked(lambda pattern, string, flags=0: Matches(
        re.finditer(_host(pattern), string, flags))), "pattern, string, flags=0"),
    entry("sub", checked(_sub), "pattern, repl, string, count=0, flags=0", context=True),
    entry("subn", checked(_subn), "pattern, repl, string, count=0, flags=0", context=True),
    entry("split", checked(lambda pattern, string, maxsplit=0, flags=0: re.split(
        _host(pattern), string, maxsplit=maxsplit, flags=flags)),
        "pattern, string, maxsplit=0, flags=0"),
    entry("findall", checked(lambda pattern, string, flags=0: re.findall(
        _host(pattern), string, flags)), "pattern, string, flags=0"),
    entry("escape", checked(re.escape), "pattern"),
) | {"error": RE_ERROR, "Pattern": PATTERN_TYPE, "Match": MATCH_TYPE} | {
    name: int(vars(re)[name]) for name in ("I", "IGNORECASE", "M", "MULTILINE", "S", "DOTALL",
                                           "A", "ASCII", "X", "VERBOSE")})
