"""`gradcli check`'s report on stdout: every comparison when one point gives few of them,
otherwise a summary per reference and the worst points; last, the verdict.

On a terminal rich draws it in colour. Elsewhere (a pipe, a file, NO_COLOR) the same layout is
written as plain text, as rich lays it out 200 columns wide, without loading rich (a third of a
short check's start-up); a report wider than that is left to rich, which wraps it.
"""

from __future__ import annotations

import sys

from gradcli.cli.render import use_colour

FULL_TABLE_ROWS = 20
WORST_SHOWN = 5
PLAIN_WIDTH = 200
RIGHT_ALIGNED = frozenset(("point", "element", "analytic", "reference", "abs error", "rel error"))


def print_check(answer) -> None:
    notes, columns, rows, verdict = _report(answer)
    if use_colour(sys.stdout) or not _write_plain(notes, columns, rows, verdict):
        _write_rich(notes, columns, rows, verdict, use_colour(sys.stdout))


def _report(answer):
    """(lines before the table, column names, rows of cells with their ok flag, the verdict's
    (failures, total))."""
    notes, rows, several = [], answer.rows, len(answer.points) > 1
    if answer.dtype.name != "float64":
        notes.append(_precision_note(answer))
    if several or len(rows) > FULL_TABLE_ROWS:
        notes.extend(_summary(answer))
        rows = answer.worst(WORST_SHOWN)
    columns = (["point", "at"] if several else []) + [
        "input", "element", "analytic", "vs", "reference", "abs error", "rel error", "ok"]
    cells = []
    for row in rows:
        line = [row.input, _element(row.element), f"{row.analytic:.8g}", row.against,
                f"{row.reference:.8g}", f"{row.abs_error:.2e}", f"{row.rel_error:.2e}",
                "ok" if row.ok else "FAIL"]
        if several:
            line = [str(row.point), _point_text(answer.points[row.point], row)] + line
        cells.append((line, row.ok))
    return notes, columns, cells, (len(answer.failures), _count(len(answer.rows), "comparison"))


def _verdict_text(verdict) -> str:
    failures, total = verdict
    return (f"MISMATCH: {failures} of {total} out of tolerance" if failures
            else f"ok: {total} within tolerance")


def _write_plain(notes, columns, rows, verdict) -> bool:
    """Write the report as rich lays it out without colour; False (nothing written) when a line
    would pass PLAIN_WIDTH, where rich wraps."""
    widths = [max([len(name), *(len(line[i]) for line, _ in rows)]) for i, name in
              enumerate(columns)]
    last = len(columns) - 1

    def table_line(cells) -> str:
        # each cell padded by one space on its inner sides, columns parted by one more
        parts = [(cell.rjust if name in RIGHT_ALIGNED else cell.ljust)(width)
                 for name, cell, width in zip(columns, cells, widths)]
        return "   ".join(parts[:last]) + ("   " if last else "") + parts[last]

    header = table_line(columns)
    lines = [*notes, header, "─" * len(header), *(table_line(line) for line, _ in rows),
             _verdict_text(verdict)]
    if any(len(line) > PLAIN_WIDTH for line in lines):
        return False
    sys.stdout.write("".join(line + "\n" for line in lines))
    return True


def _write_rich(notes, columns, rows, verdict, colour: bool) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table
    console = Console(file=sys.stdout, highlight=False, soft_wrap=False, width=None if colour
                      else PLAIN_WIDTH, color_system="auto" if colour else None,
                      force_terminal=colour)
    for note in notes:
        console.print(note, markup=False)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="bold")
    for name in columns:
        table.add_column(name, justify="right" if name in RIGHT_ALIGNED else "left")
    for line, ok in rows:
        table.add_row(*line[:-1], "[green]ok[/]" if ok else "[bold red]FAIL[/]")
    console.print(table)
    failures, total = verdict
    console.print(f"[bold red]MISMATCH[/]: {failures} of {total} out of tolerance" if failures
                  else f"[green]ok[/]: {total} within tolerance")


def _precision_note(answer) -> str:
    """Why a check runs in less than float64, and what that changes."""
    tol, name = answer.tolerances, answer.dtype.name
    step = "eps*max(1,|x|)" if tol.relative else "eps"
    return (f"note: EXPR computes in {name}, not float64; tolerances fitted to {name}: "
            f"step {step}, eps={tol.eps:.3g} atol={tol.atol:.3g} rtol={tol.rtol:.3g}")


def _summary(answer) -> list[str]:
    tol = answer.tolerances
    lines = [f"{_count(len(answer.points), 'point')}, "
             f"{_count(len(answer.rows), 'comparison')} in {answer.dtype.name}, "
             f"eps={tol.eps:g} atol={tol.atol:g} rtol={tol.rtol:g}"]
    for against in ("numeric", "expected"):
        rows = [r for r in answer.rows if r.against == against]
        if rows:
            bad = sum(not r.ok for r in rows)
            worst_abs = answer.largest(lambda row: row.abs_error, against)
            worst_rel = answer.largest(lambda row: row.rel_error, against)
            lines.append(f"analytic vs {against}: max abs error {worst_abs:.2e}, max rel error "
                         f"{worst_rel:.2e}, {bad} of {len(rows)} out of tolerance")
    lines.append("worst points:" if len(answer.points) > 1 else "worst comparisons:")
    return lines


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
