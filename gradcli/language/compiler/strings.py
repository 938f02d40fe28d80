"""String literals in expressions: adjacent literals joined once, f-strings compiled into closures
that format their fields as Python does."""

from __future__ import annotations

from gradcli.language.compiler.mangling import mangle_tree
from gradcli.language.compiler.spans import USER_ERRORS, raise_at, span_of
from gradcli.language.syntax.literals import string
from gradcli.language.syntax.parser import GradSyntaxError, parse_expression


def compile_string(compiler, tree):
    """Adjacent string literals as one closure; f-string fields are compiled expressions."""
    pieces = []
    for token in tree.children:
        try:
            pieces.append(string(token.value))
        except ValueError as error:  # Python 3.11 reports these just after the literal
            raise GradSyntaxError(str(error), token.end_line, token.end_column,
                                  token.end_column + 1) from None
    if any(isinstance(p, bytes) for p in pieces):
        if not all(isinstance(p, bytes) for p in pieces):
            raise GradSyntaxError("cannot mix bytes and nonbytes literals", tree.meta.line,
                                  tree.meta.column, tree.meta.column + 1)
        data = b"".join(pieces)
        return lambda frame: data
    if all(isinstance(p, str) for p in pieces):
        text = "".join(pieces)
        return lambda frame: text
    parts = []
    for token, piece in zip(tree.children, pieces):
        if isinstance(piece, str):
            parts.append(piece)
        else:
            parts.extend(_field_closure(compiler, p, token, span_of(token)) for p in piece)
    return _joined(parts)


def _joined(parts: list):
    def evaluate(frame):
        return "".join(p if isinstance(p, str) else p(frame) for p in parts)
    return evaluate


def _field_closure(compiler, part, token, span):
    """A closure formatting one f-string field as Python does (conversion, then spec)."""
    if isinstance(part, str):
        return part
    column = token.column + part.offset
    try:  # Python 3.11 parses a field as if parenthesised: `{a, b}` is a tuple
        tree = parse_expression(f"({part.expression})")
    except GradSyntaxError as error:  # placed, as Python 3.11 does, within "(expression)"
        raise GradSyntaxError(f"f-string: {error.message}", token.line, error.column,
                              error.end_column) from None
    if compiler.private_class is not None and "__" in part.expression:
        mangle_tree(tree, compiler.private_class)
    try:
        value = compiler.expression(tree)
    except GradSyntaxError as error:  # the compiler's errors ('yield' outside function)
        raise GradSyntaxError(error.message, token.line, column,
                              column + len(part.expression), error.kind) from None
    spec = _joined([_field_closure(compiler, p, token, span) for p in part.spec])
    printer, conversion, debug = compiler.runtime.printer, part.conversion, part.debug

    def evaluate(frame):
        item = value(frame)
        try:
            return debug + printer.format_field(item, conversion, spec(frame))
        except USER_ERRORS as error:
            raise_at(error, span)
    return evaluate
