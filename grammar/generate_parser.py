"""Writes gradcli/language/syntax/lark_standalone.py: lark's standalone LALR parser for
grammar/gradcli.lark (lark's runtime with the analysed grammar as data), which gradcli imports
instead of lark itself, so that start-up neither imports lark's grammar compiler nor loads a
cache. Run it after changing the grammar: python grammar/generate_parser.py
(tests/language/test_standalone_parser.py checks that the committed file is current: the module
ends with the SHA-256 of the grammar it was made from, since lark numbers the parser states
differently from one run to the next)."""

from __future__ import annotations

import hashlib
import io
import sys
from pathlib import Path

from lark.tools.standalone import gen_standalone
from lark import Lark

GRAMMAR = Path(__file__).resolve().parent / "gradcli.lark"
TARGET = Path(__file__).resolve().parents[1] / "gradcli" / "language" / "syntax" / \
    "lark_standalone.py"
# the options gradcli's parser needs (lexer callbacks and the indenter are given at run time)
OPTIONS = dict(parser="lalr", lexer="contextual", propagate_positions=True,
               maybe_placeholders=True, start=["start", "test"])


def grammar_digest() -> str:
    return hashlib.sha256(GRAMMAR.read_bytes()).hexdigest()


def generated_text() -> str:
    """The standalone module's text for the current grammar, with the grammar's digest."""
    lark = Lark(GRAMMAR.read_text(encoding="utf-8"), **OPTIONS)
    out = io.StringIO()
    gen_standalone(lark, out=out)
    return out.getvalue() + f'GRAMMAR_SHA256 = "{grammar_digest()}"\n'



def main() -> None:
    TARGET.write_text(generated_text(), encoding="utf-8")
    sys.stdout.write(f"wrote {TARGET}\n")


if __name__ == "__main__":
    main()
