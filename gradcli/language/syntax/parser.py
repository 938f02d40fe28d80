"""The LALR parser for grammar/gradcli.lark, with Python-style indentation and positioned errors.

The parser is lark's standalone one, generated from the grammar by grammar/generate_parser.py
(lark's runtime plus the analysed grammar as data): start-up imports neither lark's grammar
compiler nor lark itself, and loads the built parser from parser_cache."""

from __future__ import annotations

import os
from gradcli.engine.records import record

from gradcli.language.syntax import parser_cache
from gradcli.language.syntax.lark_standalone import (GRAMMAR_SHA256, DedentError, Indenter, Lark,
                                                     Lark_StandAlone, Tree, UnexpectedInput,
                                                     UnexpectedToken)
from gradcli.language.syntax.source_scan import Problem, indentation_problem, scan
from gradcli.language.syntax.syntax_errors import describe


class GradIndenter(Indenter):
    NL_type = "_NEWLINE"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@record
class GradSyntaxError(Exception):
    """A syntax error at 1-based `line` and `column`, spanning to `end_column` on that line."""

    message: str
    line: int
    column: int
    end_column: int
    kind: str = "SyntaxError"
    at_end: bool = False  # the parser ran out of input (more lines could complete it)

    def __str__(self) -> str:
        return self.message


def _cache_folder() -> str | None:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "gradcli")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    return folder


_PARSER: Lark | None = None


def parser() -> Lark:
    """The parser, loaded once per process from the cache, else built from the generated
    tables (and cached)."""
    global _PARSER
    if _PARSER is None:
        path = parser_cache.file_for(_cache_folder(), GRAMMAR_SHA256)
        _PARSER = parser_cache.load(path, {(__name__, "GradIndenter"): GradIndenter})
        if _PARSER is None:
            _PARSER = Lark_StandAlone(postlex=GradIndenter())
            parser_cache.save(_PARSER, path)
    return _PARSER


def parse(source: str) -> Tree:
    """Parse a whole program; raise GradSyntaxError with Python's wording where it has one."""
    if "\0" in source:  # Python's tokenizer refuses such a line before parsing anything
        line = source.count("\n", 0, source.index("\0")) + 1
        raise GradSyntaxError("source code cannot contain null bytes", line, 1, 2)
    text = source if source.endswith("\n") else source + "\n"
    first = indentation_problem(source)
    if first is not None and first.message == "unexpected indent":
        raise _error(first)
    too_deep = first if first is not None and first.message.startswith("too many") else None
    try:
        tree = parser().parse(text, start="start")
    except UnexpectedInput as error:
        at_end = isinstance(error, UnexpectedToken) and error.token.type == "$END"
        found = describe(error, text)
        if too_deep is not None and too_deep.line <= found.line:
            raise _error(too_deep) from None
        raise _error(found, at_end) from None
    except DedentError:
        raise _error(indentation_problem(source) or Problem(
            "unindent does not match any outer indentation level", 1, 1, 2,
            "IndentationError")) from None
    if too_deep is not None:
        raise _error(too_deep)
    problem = scan(source).first_problem()  # what the grammar accepts but Python does not
    if problem is not None:
        raise _error(problem)
    return tree


def _error(problem: Problem, at_end: bool = False) -> GradSyntaxError:
    return GradSyntaxError(problem.message, problem.line, problem.column, problem.end_column,
                           problem.kind, at_end)


def parse_expression(source: str) -> Tree:
    """Parse one expression (an f-string field, a CLI binding)."""
    try:
        return parser().parse(source, start="test")
    except UnexpectedInput as error:
        at_end = isinstance(error, UnexpectedToken) and error.token.type == "$END"
        raise _error(describe(error, source), at_end) from None


def is_incomplete(source: str) -> bool:
    """Whether more input could complete `source`: an open bracket, a triple-quoted string or a
    backslash continuation left open, or a block header (`for x in y:`) with no body yet.

    A complete input with a syntax error is not incomplete: running it reports the error.
    """
    found = scan(source)
    if found.open_triple_quote or found.ends_with_backslash:
        return True
    try:
        parse(source)
    except GradSyntaxError as error:
        return error.at_end
    return False
