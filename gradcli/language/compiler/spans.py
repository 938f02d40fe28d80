"""Source spans of parse trees, and the errors raised at them: Python's and torch's errors
become GradRuntimeErrors at the expression's span, bad code a GradSyntaxError."""

from __future__ import annotations

from typing import Callable

from gradcli.language.syntax.lark_standalone import Token, Tree

from gradcli.engine import memory
from gradcli.engine.errors import TorchError
from gradcli.language.runtime.calls import key_text
from gradcli.language.runtime.coercions import truth
from gradcli.language.runtime.frames import Frame, GradRuntimeError, Span
from gradcli.language.syntax.parser import GradSyntaxError

# Python exceptions that numpy or Python raise on bad user input, reported under their own name.
USER_ERRORS = (TorchError, ValueError, IndexError, TypeError, ZeroDivisionError, OverflowError,
               KeyError, MemoryError)
# ... and, as a loop advances, Python's "dictionary changed size during iteration" when the body
# changed the dict or set it walks
ITERATION_ERRORS = (*USER_ERRORS, RuntimeError)


def span_of(node) -> Span | None:
    """Where a token or tree is in the source (None for an empty tree)."""
    if isinstance(node, Token):
        return Span(node.line, node.column, node.end_line or node.line,
                    node.end_column or node.column + len(node))
    meta = node.meta if isinstance(node, Tree) else None
    if meta is None or meta.empty:
        return None
    return Span(meta.line, meta.column, meta.end_line, meta.end_column)


def raise_at(error: Exception, span: Span | None):
    """Re-raise an engine or Python error as a GradRuntimeError at `span`."""
    if isinstance(error, TorchError):
        failure = GradRuntimeError(error.kind, error.message, span, error.value_args)
        failure.notes, failure.looked_up = error.notes, error.looked_up
        raise failure from None
    if isinstance(error, KeyError) and error.args:  # Python shows its one argument's repr
        message = key_text(error.args[0]) if len(error.args) == 1 else str(error)
        raise GradRuntimeError("KeyError", message, span, error.args) from None
    if isinstance(error, MemoryError):
        raise GradRuntimeError(*memory.python_memory_error(error), span) from None
    if isinstance(error, ValueError) and (message := memory.numpy_dimension_error(error)):
        raise GradRuntimeError("RuntimeError", message, span) from None
    raise GradRuntimeError(type(error).__name__, str(error), span) from None


def syntax_error(message: str, node, kind: str = "SyntaxError") -> GradSyntaxError:
    """A GradSyntaxError over `node`'s first line (with its brackets, as Python counts)."""
    span = span_of(node) or Span(1, 1, 1, 2)
    end = span.end_column if span.end_line == span.line else span.column + 1
    column = span.column
    if isinstance(node, Tree) and node.data == "tuple_items":
        column, end = column - 1, end + 1
    return GradSyntaxError(message, span.line, column, max(end, column + 1), kind)


def condition(evaluate: Callable[[Frame], object], span) -> Callable[[Frame], bool]:
    """`evaluate` as a truth value (torch's error for an ambiguous tensor at `span`)."""
    def test(frame):
        value = evaluate(frame)
        if value is True or value is False:
            return value
        try:
            return truth(value)
        except TorchError as error:
            raise_at(error, span)
    return test
