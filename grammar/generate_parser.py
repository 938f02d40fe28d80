"""Writes gradcli/language/syntax/lark_standalone.py and lark_tables.py: lark's standalone LALR
parser for grammar/gradcli.lark (lark's runtime, and the analysed grammar as data), which gradcli
imports instead of lark itself, so that start-up does not import lark's grammar compiler. The
tables are a module of their own, read only when the parser cache is cold: building their
literals cost more than the rest of the runtime. Run it after changing the grammar:
python grammar/generate_parser.py
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
SYNTAX = Path(__file__).resolve().parents[1] / "gradcli" / "language" / "syntax"
RUNTIME = SYNTAX / "lark_standalone.py"
TABLES = SYNTAX / "lark_tables.py"
TABLES_BEGIN = "import pickle, zlib, base64\n"  # the standalone text's data part starts here
TABLES_END = "Shift = 0\n"
# edits to lark's standalone runtime, for start-up: lark's logger, which it sets to CRITICAL,
# becomes a silent stand-in (importing logging cost more than a tenth of the runtime's import)
RUNTIME_EDITS = (
    ("import logging\n", ""),
    ('logger: logging.Logger = logging.getLogger("lark")\n'
     "logger.addHandler(logging.StreamHandler())\n",
     "class _QuietLogger:\n    def _ignore(self, *args, **kwargs):\n        pass\n\n"
     "    debug = info = warning = error = exception = _ignore\n\n\nlogger = _QuietLogger()\n"),
    ("logger.setLevel(logging.CRITICAL)\n", ""),
    # and its one dataclass is a record, so that `dataclasses` (and its compiling) is not loaded
    ("from dataclasses import dataclass\n",
     "from gradcli.engine.records import record as dataclass\n"),
    # and `copy`, which only copying a parser state or a lexer configuration needs, loads then
    ("\nfrom copy import deepcopy\n",
     "\ndef deepcopy(value, memo=None):\n    import copy\n    return copy.deepcopy(value, memo)\n"),
    ("\nfrom copy import copy\n",
     "\ndef copy(value):\n    import copy as copying\n    return copying.copy(value)\n"),
)
# and its annotations stay unevaluated strings: evaluating its typing subscripts at each `def`
# cost a quarter of the runtime's import
RUNTIME_HEAD = "from __future__ import annotations\n"
# parts of it left out, each from its first line to the line that follows it: lark's
# Transformer, Visitor and Interpreter classes and v_args, which gradcli's parser never uses
RUNTIME_CUTS = (("from inspect import getmembers, getmro\n", "TOKEN_DEFAULT_PRIORITY = 0\n"),)
# the options gradcli's parser needs (lexer callbacks and the indenter are given at run time)
OPTIONS = dict(parser="lalr", lexer="contextual", propagate_positions=True,
               maybe_placeholders=True, start=["start", "test"])


def grammar_digest() -> str:
    return hashlib.sha256(GRAMMAR.read_bytes()).hexdigest()


def generated_texts() -> tuple[str, str]:
    """The runtime module's text, ending with the grammar's digest, and the tables module's."""
    lark = Lark(GRAMMAR.read_text(encoding="utf-8"), **OPTIONS)
    out = io.StringIO()
    gen_standalone(lark, out=out)
    runtime, rest = out.getvalue().split(TABLES_BEGIN)
    for old, new in RUNTIME_EDITS:
        assert old in runtime, old
        runtime = runtime.replace(old, new)
    for first, following in RUNTIME_CUTS:
        head, found, after = runtime.partition(first)
        assert found and following in after, first
        runtime = head + following + after.split(following, 1)[1]
    tables, tail = rest.split(TABLES_END)
    tail = TABLES_END + tail.replace(
        "  return Lark._load_from_dict(DATA, MEMO, **kwargs)",
        "  from gradcli.language.syntax.lark_tables import DATA, MEMO\n"
        "  return Lark._load_from_dict(DATA, MEMO, **kwargs)")
    return (RUNTIME_HEAD + runtime + "import pickle\n" + tail + f'GRAMMAR_SHA256 = "{grammar_digest()}"\n',
            '"The analysed grammar, as lark\'s standalone generator wrote it."\n' + tables)


def main() -> None:
    for target, text in zip((RUNTIME, TABLES), generated_texts()):
        target.write_text(text, encoding="utf-8")
        sys.stdout.write(f"wrote {target}\n")


if __name__ == "__main__":
    main()
