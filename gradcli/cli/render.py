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
    from gradcli.language.runtime.exceptions import shown_kind
    from gradcli.language.suggestions import did_you_mean
    kind = shown_kind(error.kind)
    message = error.message + did_you_mean(getattr(error, "looked_up", None))
    out.append(f"{kind}: {message}" if message else kind)
    if error.kind == "ModuleNotFoundError":
        from gradcli.language.namespaces.torch_table import MODULES
        offered = sorted({name.split(".")[0] for name in MODULES})
        out.append(f"note: gradcli offers these modules: {', '.join(offered)}")
    out.extend(note_lines(getattr(error, "notes", ())))
    return "\n".join(out) + "\n"


def note_lines(notes) -> list[str]:
    """The other lines an error involves, after its message (as Python prints exception notes):
    `FILE:LINE:COL: note: text`, the source line and a caret under the expression."""
    out = []
    for text, origin in notes:
        out.append(f"{origin.where}: note: {text}")
        out.extend(caret_lines(origin.source, origin.line, origin.column, origin.end_line,
                               origin.end_column))
    return out


def warning_notes() -> str:
    """The note lines of the warning being reported (for a warning sink), each ending a line."""
    from gradcli.engine.state import STATE
    return "".join(line + "\n" for line in note_lines(STATE.warning_notes))


def _message_index(lines: list[str], error) -> int:
    """Which of the report's lines is the `Kind: message` one (notes follow it)."""
    notes = getattr(error, "notes", ())
    extra = sum(1 + len(caret_lines(o.source, o.line, o.column, o.end_line, o.end_column))
                for _, o in notes)
    return len(lines) - 1 - extra


def _span(error):
    if hasattr(error, "span"):
        s = error.span
        return None if s is None else (s.line, s.column, s.end_line, s.end_column)
    return (error.line, error.column, error.line, error.end_column)


def report_error(error, source: str, filename: str) -> None:
    """Write the report to stderr, in colour only on a terminal without NO_COLOR."""
    text = format_error(error, source, filename)
    if use_colour(sys.stderr):
        from rich.console import Console
        from rich.text import Text
        console = Console(stderr=True, highlight=False, soft_wrap=True)
        lines = text.rstrip("\n").split("\n")
        message = _message_index(lines, error)
        for index, line in enumerate(lines):
            if index == message:
                style = "bold red"
            elif index > message:
                style = "cyan" if ": note: " in line or "^" in line else "dim"
            else:
                style = "bold red" if "^" in line else "dim"
            console.print(Text(line, style=style))
        return
    sys.stderr.write(text)


def use_colour(stream) -> bool:
    """Colour only on a terminal, and never with NO_COLOR set."""
    return stream.isatty() and not os.environ.get("NO_COLOR")
