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
    kind = shown_kind(error.kind)
    out.append(f"{kind}: {error.message}" if error.message else kind)
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


# ---- check tables -------------------------------------------------------------------------------

FULL_TABLE_ROWS = 20
WORST_SHOWN = 5


def use_colour(stream) -> bool:
    """Colour only on a terminal, and never with NO_COLOR set."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def print_check(answer) -> None:
    """`gradcli check`'s report on stdout: every comparison when one point gives few of them,
    otherwise a summary per reference and the worst points; last, the verdict."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    colour = use_colour(sys.stdout)
    console = Console(file=sys.stdout, highlight=False, soft_wrap=False, width=None if colour
                      else 200, color_system="auto" if colour else None, force_terminal=colour)
    rows, several = answer.rows, len(answer.points) > 1
    if answer.dtype.name != "float64":
        console.print(_precision_note(answer), markup=False)
    if several or len(rows) > FULL_TABLE_ROWS:
        _print_summary(console, answer)
        rows = answer.worst(WORST_SHOWN)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="bold")
    columns = (["point", "at"] if several else []) + [
        "input", "element", "analytic", "vs", "reference", "abs error", "rel error", "ok"]
    for name in columns:
        table.add_column(name, justify="left" if name in ("at", "input", "vs", "ok") else "right")
    for row in rows:
        cells = [row.input, _element(row.element), f"{row.analytic:.8g}", row.against,
                 f"{row.reference:.8g}", f"{row.abs_error:.2e}", f"{row.rel_error:.2e}",
                 "[green]ok[/]" if row.ok else "[bold red]FAIL[/]"]
        if several:
            cells = [str(row.point), _point_text(answer.points[row.point], row)] + cells
        table.add_row(*cells)
    console.print(table)
    failures, total = len(answer.failures), _count(len(answer.rows), "comparison")
    console.print(f"[bold red]MISMATCH[/]: {failures} of {total} out of tolerance" if failures
                  else f"[green]ok[/]: {total} within tolerance")


def _precision_note(answer) -> str:
    """Why a check runs in less than float64, and what that changes."""
    tol, name = answer.tolerances, answer.dtype.name
    step = "eps*max(1,|x|)" if tol.relative else "eps"
    return (f"note: EXPR computes in {name}, not float64; tolerances fitted to {name}: "
            f"step {step}, eps={tol.eps:.3g} atol={tol.atol:.3g} rtol={tol.rtol:.3g}")


def _print_summary(console, answer) -> None:
    tol = answer.tolerances
    console.print(f"{_count(len(answer.points), 'point')}, "
                  f"{_count(len(answer.rows), 'comparison')} in {answer.dtype.name}, "
                  f"eps={tol.eps:g} atol={tol.atol:g} rtol={tol.rtol:g}", markup=False)
    for against in ("numeric", "expected"):
        rows = [r for r in answer.rows if r.against == against]
        if rows:
            bad = sum(not r.ok for r in rows)
            worst_abs = answer.largest(lambda row: row.abs_error, against)
            worst_rel = answer.largest(lambda row: row.rel_error, against)
            console.print(f"analytic vs {against}: max abs error {worst_abs:.2e}, max rel error "
                          f"{worst_rel:.2e}, {bad} of {len(rows)} out of tolerance", markup=False)
    console.print("worst points:" if len(answer.points) > 1 else "worst comparisons:")


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _element(element: tuple) -> str:
    return f"[{', '.join(map(str, element))}]" if element else ""


def _point_text(point: dict, row) -> str:
    """The point's scalar inputs, and the checked element when its input has several."""
    parts = [f"{name}={float(v):.6g}" for name, v in point.items() if v.size == 1]
    if point[row.input].size > 1:
        parts.append(f"{row.input}{_element(row.element)}={point[row.input][row.element]:.6g}")
    return ", ".join(parts)
