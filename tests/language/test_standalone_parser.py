"""The generated parser (gradcli/language/syntax/lark_standalone.py) is current: made from
today's grammar/gradcli.lark, and parsing as lark itself parses that grammar."""

from __future__ import annotations

import hashlib
from pathlib import Path

from lark import Lark

from gradcli.language.syntax import lark_standalone
from gradcli.language.syntax.parser import GradIndenter, parser

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR = ROOT / "grammar" / "gradcli.lark"


def test_the_generated_parser_was_made_from_the_current_grammar():
    assert lark_standalone.GRAMMAR_SHA256 == hashlib.sha256(GRAMMAR.read_bytes()).hexdigest(), (
        "grammar/gradcli.lark changed: run python grammar/generate_parser.py")


def _programs():
    for folder in ("examples", "benchmarks/workloads"):
        yield from sorted((ROOT / folder).rglob("*.py"))


def test_it_parses_every_example_as_lark_does():
    reference = Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", postlex=GradIndenter(),
                     propagate_positions=True, maybe_placeholders=True, start=["start", "test"])
    programs = list(_programs())
    assert len(programs) > 20
    for path in programs:
        text = path.read_text(encoding="utf-8")
        text = text if text.endswith("\n") else text + "\n"
        assert parser().parse(text, start="start") == reference.parse(text, start="start"), path
