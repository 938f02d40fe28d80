"""Error reports for the terminal: position, source line, a caret under the culprit, the message."""

from __future__ import annotations

import os
import sys


def caret_lines(source: str, line: int, column: int, end_line: int, end_column: int) -> list[str]:
    """The numbered source line and a `^~~~` marker under columns [column, end_column)."""
    lines = source.split("\n")
    if not 1 <= line <= len(lines):
        return []
    text = lines[line - 1].expandtabs(1)
    stop = end_column if end_line == line else len(text) + 1
    width = max(1, min(stop, len(text) + 1) - column)
    gutter = f"{line:>4} | "
    return [gutter + text, " " * (len(gutter) - 2) + "| " + " " * (column - 1) + "^" + "~" * (width - 1)]


def format_error(error, source: str, filename: str) -> str:
    """The whole report as plain text, last line `Kind: message` as Python prints it."""
    span = _span(error)
    out = []
    if span is not None:
        out.append(f"{filename}:{span[0]}:{span[1]}")
        out.extend(caret_lines(source, *span))
    out.append(f"{error.kind}: {error.message}" if error.message else error.kind)
    return "\n".join(out) + "\n"


def _span(error):
    if hasattr(error, "span"):
        s = error.span
        return None if s is None else (s.line, s.column, s.end_line, s.end_column)
    return (error.line, error.column, error.line, error.end_column)


def report_error(error, source: str, filename: str) -> None:
    """Write the report to stderr, in colour only on a terminal without NO_COLOR."""
    text = format_error(error, source, filename)
    if sys.stderr.isatty() and not os.environ.get("NO_COLOR"):
        from rich.console import Console
        from rich.text import Text
        console = Console(stderr=True, highlight=False, soft_wrap=True)
        *context, last = text.rstrip("\n").split("\n")
        for line in context:
            console.print(Text(line, style="bold red" if "^" in line else "dim"))
        console.print(Text(last, style="bold red"))
        return
    sys.stderr.write(text)
