"""A character canvas for plots in the terminal: one sample per column, one marker character
per series (so the plot reads without colour), colours on a terminal."""

from __future__ import annotations

import math

import numpy as np

ANSI = {"blue": "34", "red": "31", "green": "32", "yellow": "33", "mismatch": "1;31",
        "axis": "2"}


def number_text(value: float) -> str:
    return f"{value:.4g}"


class Canvas:
    """`width` columns by `height` rows showing x in `xlim` and y in `ylim`."""

    def __init__(self, width: int, height: int, xlim: tuple[float, float],
                 ylim: tuple[float, float]):
        self.width, self.height, self.xlim, self.ylim = width, height, xlim, ylim
        self.cells: list[list[tuple[str, str] | None]] = [[None] * width
                                                          for _ in range(height)]

    def row(self, y: float) -> int | None:
        """The row of `y` (0 at the top), None outside the view or not finite."""
        low, high = self.ylim
        if not math.isfinite(y) or not low <= y <= high:
            return None
        return min(self.height - 1, int((high - y) / (high - low) * self.height))

    def column(self, x: float) -> int:
        low, high = self.xlim
        return min(self.width - 1, max(0, int((x - low) / (high - low) * self.width)))

    def put(self, column: int, row: int, char: str, colour: str, over: bool = True) -> None:
        if over or self.cells[row][column] is None:
            self.cells[row][column] = (char, colour)

    def curve(self, ys, char: str, colour: str, over: bool = True) -> None:
        """One value per column, joined vertically to the previous column's value."""
        previous = None
        for column, y in enumerate(ys):
            row = self.row(float(y))
            if row is None:
                previous = None
                continue
            rows = [row] if previous is None else range(
                min(row, previous + (1 if previous < row else 0)),
                max(row, previous - (1 if previous > row else 0)) + 1)
            for r in rows:
                self.put(column, r, char, colour, over)
            previous = row

    def hline(self, y: float, char: str = "-") -> None:
        row = self.row(y)
        if row is not None:
            for column in range(self.width):
                self.put(column, row, char, "axis", over=False)

    def lines(self, colour: bool) -> list[str]:
        """The framed plot: y labels on the left, x labels under it."""
        low, high = self.ylim
        labels = {0: number_text(high), self.height - 1: number_text(low)}
        zero = self.row(0.0)
        if zero is not None and zero not in labels:
            labels[zero] = "0"
        gutter = max(len(t) for t in labels.values())
        out = []
        for r, cells in enumerate(self.cells):
            text = "".join(" " if c is None else _paint(c[0], c[1], colour) for c in cells)
            out.append(f"{labels.get(r, ''):>{gutter}} |{text}")
        out.append(" " * gutter + " +" + "-" * self.width)
        left, right = number_text(self.xlim[0]), number_text(self.xlim[1])
        middle = number_text((self.xlim[0] + self.xlim[1]) / 2)
        axis = [" "] * (self.width + 2)
        for text, place in ((left, 0), (middle, (self.width - len(middle)) // 2 + 1),
                            (right, self.width + 2 - len(right))):
            axis[place:place + len(text)] = list(text)
        out.append(" " * (gutter + 1) + "".join(axis).rstrip())
        return out


def _paint(char: str, colour: str, on: bool) -> str:
    if not on or colour not in ANSI:
        return char
    return f"\x1b[{ANSI[colour]}m{char}\x1b[0m"


def view_limits(series: list[np.ndarray]) -> tuple[float, float]:
    """The finite values' range with a 5% margin (a point becomes a small interval)."""
    finite = np.concatenate([s[np.isfinite(s)] for s in series]) if series else np.array([])
    if finite.size == 0:
        return -1.0, 1.0
    low, high = float(finite.min()), float(finite.max())
    if high - low <= 1e-12 * max(1.0, abs(low), abs(high)):
        pad = max(1.0, abs(low)) * 0.05
        return low - pad, high + pad
    margin = (high - low) * 0.05
    return low - margin, high + margin
