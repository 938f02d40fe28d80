"""Grammar fuzz: programs drawn from the real grammar (grammar/gradcli.lark), each run through
gradcli in-process.

Two drawers share the terminals and the indentation: a seeded random walk over the grammar's
rules (bounded depth, fast: it makes the bulk, 5,000 inputs in CI and 100,000 with
`GRADCLI_FUZZ=long`), and hypothesis's `from_lark` (slow to draw, so a few hundred inputs,
marked slow). The indenter's tokens are drawn as markers and turned into indentation afterwards,
so that the drawn programs mostly parse and reach the compiler and the runtime. Besides whole
programs, both start from class definitions, generator functions (`yield`/`yield from`) and
import statements, so that each is drawn often.

Oracle (see fuzz_running.py): no Python exception escapes Session.run, no input hangs.
"""

from __future__ import annotations

import random
import re
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from fuzz_running import LONG, Tally

GRAMMAR = Path(__file__).resolve().parents[2] / "grammar" / "gradcli.lark"

INPUTS = 100_000 if LONG else 5_000
INDENT, DEDENT = "\x01", "\x02"
# (start rule, share of the inputs): whole programs, and the statements this fuzz must reach.
STARTS = (("start", 0.4), ("classdef", 0.2), ("funcdef", 0.2), ("import_stmt", 0.1),
          ("yield_stmt", 0.1))


def _grammar() -> Lark:
    """The grammar without comments and line continuations among the ignored tokens (a drawn
    comment would swallow the rest of its line)."""
    text = GRAMMAR.read_text(encoding="utf-8")
    text = "\n".join(line for line in text.splitlines() if not (
        line.startswith("%ignore") and ("COMMENT" in line or "\\\\" in line)))
    return Lark(text, parser="lalr", start=[s for s, _ in STARTS])


_NAMES = st.sampled_from(["x", "y", "t", "self", "cls", "f", "g", "C", "torch", "np", "nn",
                          "print", "len", "range", "super", "i", "data", "grad", "__name__",
                          "__init__", "__call__", "__class__", "math", "random", "str",
                          "tuple", "int", "object", "__new__", "dataclasses", "dataclass",
                          "functools", "itertools", "collections", "operator"])
_KEYWORD = re.compile(r"[A-Za-z_]\w*$")


def _explicit(lark: Lark) -> dict:
    """A space after every drawn token (keywords and names never run together); newlines and
    the indenter's tokens as markers."""
    explicit = {"_NEWLINE": st.just("\n"), "_INDENT": st.just(INDENT),
                "_DEDENT": st.just(DEDENT), "NAME": _NAMES.map(lambda n: n + " "),
                "MATCH": st.just("match "),  # a soft keyword: its pattern looks ahead
                "NUMBER": st.sampled_from(["0", "1", "2", "3.5", "1e3", "0x1f", "1j", "10"])
                .map(lambda n: n + " "),
                "STRING": st.sampled_from(["'a'", '"x"', "b'b'", "f'{x}'", "'''q'''", "r'\\d'"])
                .map(lambda n: n + " ")}
    for terminal in lark.terminals:
        if terminal.name in explicit or terminal.name.startswith("__IGNORE"):
            continue
        pattern = terminal.pattern
        if pattern.type == "str":
            explicit[terminal.name] = st.just(pattern.value + " ")
        else:
            explicit[terminal.name] = st.from_regex(pattern.to_regexp(), fullmatch=True).map(
                lambda s: s + " ")
    return explicit


def indent(drawn: str) -> str:
    """The drawn token stream with its indent and dedent markers turned into indentation."""
    out, depth, line_start = [], 0, True
    for char in drawn:
        if char == INDENT:
            depth += 1
        elif char == DEDENT:
            depth = max(depth - 1, 0)
        elif char == "\n":
            out.append("\n")
            line_start = True
        else:
            if line_start:
                if char in " \t\f":
                    continue
                out.append("    " * depth)
                line_start = False
            out.append(char)
    text = "".join(out)
    return text if text.endswith("\n") else text + "\n"


_LARK = _grammar()
_EXPLICIT = _explicit(_LARK)


def programs(start: str):
    return from_lark(_LARK, start=start, explicit=_EXPLICIT).map(indent)


def _samples(strategy, count: int = 12) -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sorted({strategy.example() for _ in range(count)})


class Walker:
    """A random walk over the grammar's rules: below MAX_DEPTH any expansion, past it the
    expansion that ends soonest."""

    MAX_DEPTH = 12

    def __init__(self, lark: Lark, explicit: dict):
        terminals, rules, _ = lark.grammar.compile([s for s, _ in STARTS], ())
        self.rules: dict[str, list] = {}
        for rule in rules:
            self.rules.setdefault(rule.origin.name, []).append(rule.expansion)
        self.tokens = {name: _samples(strategy) for name, strategy in explicit.items()}
        self.height = self._heights()

    def _heights(self) -> dict:
        """How deep each rule must go at least before it ends in terminals."""
        height = {name: 0 for name in self.tokens}
        changed = True
        while changed:
            changed = False
            for name, expansions in self.rules.items():
                best = min((1 + max((height.get(s.name, 10**6) for s in e), default=0)
                            for e in expansions), default=10**6)
                if best < height.get(name, 10**6):
                    height[name], changed = best, True
        return height

    def walk(self, rng: random.Random, start: str) -> str:
        out: list[str] = []
        self._walk(rng, start, 0, out)
        return indent("".join(out))

    def _walk(self, rng: random.Random, name: str, depth: int, out: list) -> None:
        if name in self.tokens:
            out.append(rng.choice(self.tokens[name]))
            return
        expansions = self.rules[name]
        if depth >= self.MAX_DEPTH:
            shallow = min(self._cost(e) for e in expansions)
            expansions = [e for e in expansions if self._cost(e) == shallow]
        for symbol in rng.choice(expansions):
            self._walk(rng, symbol.name, depth + 1, out)

    def _cost(self, expansion) -> int:
        return max((self.height.get(s.name, 10**6) for s in expansion), default=0)


_WALKER = Walker(_LARK, _EXPLICIT)


@pytest.mark.parametrize("start,share", STARTS)
def test_walked_programs_never_end_in_an_internal_error(start, share):
    rng, tally = random.Random(f"{start}-17"), Tally(limit=0.5)
    for _ in range(int(INPUTS * share)):
        tally.run(_WALKER.walk(rng, start))
    assert not tally.internal, tally.report()
    if start in ("start", "classdef", "funcdef"):  # some programs run to their end
        assert tally.ok > 0, tally.report()


_SETTINGS = dict(deadline=None, database=None, derandomize=True,
                 suppress_health_check=list(HealthCheck))


@pytest.mark.slow
@pytest.mark.parametrize("start,share", STARTS)
def test_drawn_programs_never_end_in_an_internal_error(start, share):
    tally = Tally(limit=0.5)

    @settings(max_examples=int((INPUTS // 20) * share), **_SETTINGS)
    @given(programs(start))
    def run(source):
        tally.run(source)

    run()
    assert not tally.internal, tally.report()


def test_walked_programs_reach_classes_generators_and_imports():
    """The fuzz is worth its time only if its programs parse: most walked class definitions,
    generator functions and imports must get past the parser."""
    from gradcli.language.syntax.parser import GradSyntaxError, parse

    parsed = {}
    for start, _ in STARTS[1:]:
        rng, count = random.Random(start), 0
        for _ in range(200):
            try:
                parse(_WALKER.walk(rng, start))
                count += 1
            except GradSyntaxError:
                pass
        parsed[start] = count / 200
    assert all(share > 0.5 for share in parsed.values()), parsed
