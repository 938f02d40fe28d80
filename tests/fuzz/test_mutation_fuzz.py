"""Mutation fuzz: character, token and line edits of every example program (examples/**/*.py)
and every snippet of tests/cases/*.cases, each run through gradcli in-process.

Oracle (see fuzz_running.py): no Python exception escapes Session.run, no input hangs.
CI runs 5,000 inputs (about a minute); `GRADCLI_FUZZ=long` runs the long profile of 100,000.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from fuzz_running import LONG, Tally
from snippets import PRELUDE, load_cases

ROOT = Path(__file__).resolve().parents[2]
INPUTS = 100_000 if LONG else 5_000
TOKEN = re.compile(r"""[A-Za-z_]\w*|\d[\w.]*|'[^'\n]*'|"[^"\n]*"|\*\*|//|==|!=|<=|>=|:=|->|\S""")
# Characters an edit inserts: Python's punctuation, quotes, brackets, digits, space, newline.
CHARACTERS = "()[]{}:;,.=+-*/%@<>!&|^~'\"#\\ \n\t0123456789abcdefxyz_"
# Tokens an edit may insert besides those of the corpus: keywords and odd values.
EXTRA_TOKENS = ("class", "def", "yield", "yield from", "lambda", "import", "from", "return",
                "async", "await", "global", "nonlocal", "del", "with", "try", "except",
                "finally", "raise", "assert", "not", "is", "in", "None", "...", "1e308",
                "10**9", "-1", "0", "''", "b''", "1j", "__class__", "__init__", "super()",
                "self", "torch", "np", "*", "**", "=", ":=", "@", "\\")


def corpus() -> list[str]:
    """Every example program and every snippet (with the snippets' `import torch` line)."""
    sources = [p.read_text(encoding="utf-8")
               for p in sorted((ROOT / "examples").glob("**/*.py"))]
    for cases in sorted((ROOT / "tests" / "cases").glob("*.cases")):
        sources += [PRELUDE + s for s in load_cases(cases.stem).values()]
    return sources


def _edit_characters(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(text) + 1)
        kind = rng.random()
        if kind < 0.35 and text:  # delete a run
            text = text[:at] + text[at + rng.randint(1, 4):]
        elif kind < 0.7:  # insert
            text = text[:at] + rng.choice(CHARACTERS) + text[at:]
        elif text:  # replace
            at = min(at, len(text) - 1)
            text = text[:at] + rng.choice(CHARACTERS) + text[at + 1:]
    return text


def _edit_tokens(rng: random.Random, text: str, pool: list[str]) -> str:
    spans = [m.span() for m in TOKEN.finditer(text)]
    if not spans:
        return text
    for _ in range(rng.randint(1, 3)):
        start, end = rng.choice(spans)
        kind = rng.random()
        if kind < 0.3:
            replacement = ""
        elif kind < 0.8:
            replacement = rng.choice(pool)
        else:
            other = rng.choice(spans)
            replacement = text[other[0]:other[1]]
        if kind > 0.9:  # duplicate instead of replacing
            replacement = text[start:end] + " " + replacement
        text = text[:start] + replacement + text[end:]
        spans = [m.span() for m in TOKEN.finditer(text)] or [(0, 0)]
    return text


def _edit_lines(rng: random.Random, text: str, lines_pool: list[str]) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 2)):
        at = rng.randrange(len(lines))
        kind = rng.random()
        if kind < 0.25:
            del lines[at]
        elif kind < 0.45:
            lines.insert(at, lines[rng.randrange(len(lines))] if lines else "")
        elif kind < 0.6 and len(lines) > 1:
            other = rng.randrange(len(lines))
            lines[at], lines[other] = lines[other], lines[at]
        elif kind < 0.8:  # indent or dedent
            lines[at] = ("    " + lines[at]) if rng.random() < 0.5 else lines[at][4:]
        else:  # a line of another program
            lines.insert(at, rng.choice(lines_pool))
        if not lines:
            lines = [""]
    return "\n".join(lines)


def mutants(count: int, seed: int):
    """`count` mutated programs, deterministic for a seed, cycling through the corpus so that
    every example and snippet is edited."""
    rng = random.Random(seed)
    sources = corpus()
    pool = sorted({t for s in sources for t in TOKEN.findall(s)}) + list(EXTRA_TOKENS)
    lines_pool = [line for s in sources for line in s.split("\n") if line.strip()]
    order = list(range(len(sources)))
    for number in range(count):
        if number % len(order) == 0:
            rng.shuffle(order)
        text = sources[order[number % len(order)]]
        edit = number % 3
        if edit == 0:
            yield _edit_characters(rng, text)
        elif edit == 1:
            yield _edit_tokens(rng, text, pool)
        else:
            yield _edit_lines(rng, text, lines_pool)


def test_corpus_covers_examples_and_snippets():
    sources = corpus()
    assert len(sources) > 500
    assert any("class " in s for s in sources) and any("yield" in s for s in sources)


def test_mutants_never_end_in_an_internal_error():
    tally = Tally()
    for source in mutants(INPUTS, seed=2024):
        tally.run(source)
    assert not tally.internal, tally.report()
    assert len(tally.timeouts) < INPUTS // 100, tally.report()
