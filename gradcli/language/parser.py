"""The LALR parser for grammar/gradcli.lark, with Python-style indentation and positioned errors."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import Indenter

GRAMMAR_NAME = "gradcli.lark"


class GradIndenter(Indenter):
    NL_type = "_NEWLINE"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@dataclass
class GradSyntaxError(Exception):
    """A syntax error at 1-based `line` and `column`, spanning to `end_column` on that line."""

    message: str
    line: int
    column: int
    end_column: int
    kind: str = "SyntaxError"

    def __str__(self) -> str:
        return self.message


def grammar_path() -> Path:
    """The grammar file: shipped inside the package when installed, at the top level in a checkout."""
    packaged = Path(__file__).resolve().parent.parent / "grammar" / GRAMMAR_NAME
    if packaged.exists():
        return packaged
    return Path(__file__).resolve().parents[2] / "grammar" / GRAMMAR_NAME


def _cache_path() -> str | bool:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "gradcli")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return False
    return os.path.join(folder, "grammar.lark.cache")


_PARSER: Lark | None = None


def parser() -> Lark:
    """The parser, built once per process (lark caches the analysed grammar on disk)."""
    global _PARSER
    if _PARSER is None:
        _PARSER = Lark(
            grammar_path().read_text(encoding="utf-8"), parser="lalr", postlex=GradIndenter(),
            propagate_positions=True, maybe_placeholders=True, cache=_cache_path(),
            start=["start", "test"])
    return _PARSER


def parse(source: str) -> Tree:
    """Parse a whole program; raise GradSyntaxError with Python's wording where it has one."""
    text = source if source.endswith("\n") else source + "\n"
    try:
        return parser().parse(text, start="start")
    except UnexpectedInput as error:
        raise describe(error, source) from None
    except RecursionError:
        raise GradSyntaxError("too many nested parentheses", 1, 1, 2) from None


def parse_expression(source: str) -> Tree:
    """Parse one expression (an f-string field, a CLI binding)."""
    try:
        return parser().parse(source, start="test")
    except UnexpectedInput as error:
        raise describe(error, source) from None


def is_incomplete(source: str) -> bool:
    """Whether more input could complete `source` (an open bracket, block or string)."""
    if source.rstrip().endswith((":", "\\")):
        return True
    try:
        parse(source)
    except GradSyntaxError as error:
        return error.message.startswith(("unexpected EOF", "'", "expected an indented")) and (
            error.message != "invalid syntax")
    return False


_CLOSERS = {"LPAR": "(", "LSQB": "[", "LBRACE": "{"}


def describe(error: UnexpectedInput, source: str) -> GradSyntaxError:
    """Turn a lark exception into Python's wording with a position."""
    lines = source.split("\n")
    line = getattr(error, "line", None) or len(lines)
    column = getattr(error, "column", None) or 1
    if line < 1 or line == -1:
        line, column = len(lines), len(lines[-1]) + 1
    width = 1
    if isinstance(error, UnexpectedCharacters):
        return GradSyntaxError("invalid character", line, column, column + 1)
    if isinstance(error, UnexpectedEOF) or (
            isinstance(error, UnexpectedToken) and error.token.type in ("$END", "_DEDENT")
            and error.token.type == "$END"):
        opener = _unclosed_bracket(source)
        if opener:
            char, (o_line, o_col) = opener
            return GradSyntaxError(f"'{char}' was never closed", o_line, o_col, o_col + 1)
        last = max(1, len(lines[-1]) if lines[-1] else len(lines[-2]) if len(lines) > 1 else 1)
        return GradSyntaxError("unexpected EOF while parsing", line, column, column + 1)
    token = error.token
    width = max(1, len(str(token.value))) if token.type not in ("_NEWLINE", "_DEDENT") else 1
    expected = getattr(error, "expected", set()) or getattr(error, "accepts", set())
    if token.type == "_INDENT":
        return GradSyntaxError("unexpected indent", line, column, column + 1,
                               kind="IndentationError")
    if token.type == "_DEDENT" or (token.type == "_NEWLINE" and "_INDENT" in expected):
        return GradSyntaxError("expected an indented block", line, column, column + 1,
                               kind="IndentationError")
    if "COLON" in expected and token.type == "_NEWLINE":
        return GradSyntaxError("expected ':'", line, column, column + 1)
    return GradSyntaxError("invalid syntax", line, column, column + width)


def _unclosed_bracket(source: str):
    """The innermost bracket left open at the end of `source`, with its position."""
    stack = []
    line, col, quote = 1, 0, None
    i = 0
    while i < len(source):
        ch = source[i]
        col += 1
        if quote:
            if ch == "\\":
                i += 1
                col += 1
            elif source.startswith(quote, i):
                i += len(quote) - 1
                col += len(quote) - 1
                quote = None
        elif ch == "#":
            while i < len(source) and source[i] != "\n":
                i += 1
            continue
        elif ch in "'\"":
            quote = source[i:i + 3] if source[i:i + 3] in ("'''", '"""') else ch
            i += len(quote) - 1
            col += len(quote) - 1
        elif ch in "([{":
            stack.append((ch, (line, col)))
        elif ch in ")]}" and stack:
            stack.pop()
        if ch == "\n":
            line, col = line + 1, 0
        i += 1
    return stack[-1] if stack else None
