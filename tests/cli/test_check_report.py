"""The plain check report is what rich writes without colour, and rich takes over when a line
would be too wide."""

import io
import sys

import pytest

from gradcli.cli import check_report

COLUMNS = ["input", "element", "analytic", "vs", "reference", "abs error", "rel error", "ok"]
SEVERAL = ["point", "at", *COLUMNS]
ROW = ["x", "[0, 1]", "0.91821682", "numeric", "0.91821682", "1.56e-12", "1.70e-12", "ok"]
FAILED = ["weight", "", "-1.5", "expected", "12.25", "1.38e+01", "1.12e+00", "FAIL"]


def _written(monkeypatch, write, *args) -> str:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    result = write(*args)
    return out.getvalue() if result is not False else None


@pytest.mark.parametrize("notes, columns, rows, verdict", [
    ([], COLUMNS, [(ROW, True)], (0, "1 comparison")),
    (["note: EXPR computes in float32"], COLUMNS, [(ROW, True), (FAILED, False)], (1, "2 comparisons")),
    (["3 points", "worst points:"], SEVERAL, [(["12", "x=0.5, y=2", *ROW], True),
                                             (["3", "x=-1", *FAILED], False)], (1, "6 comparisons")),
    ([], COLUMNS, [], (0, "0 comparisons")),
])
def test_plain_report_is_rich_without_colour(monkeypatch, notes, columns, rows, verdict):
    plain = _written(monkeypatch, check_report._write_plain, notes, columns, rows, verdict)
    rich = _written(monkeypatch, check_report._write_rich, notes, columns, rows, verdict, False)
    assert plain == rich


def test_a_line_too_wide_is_left_to_rich(monkeypatch):
    wide = [["x" * 120, "", "1", "numeric", "1", "0", "0", "ok"]]
    wide[0][1] = "[" + ", ".join(["0"] * 40) + "]"
    assert _written(monkeypatch, check_report._write_plain, [], COLUMNS, [(wide[0], True)],
                    (0, "1 comparison")) is None
