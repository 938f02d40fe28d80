"""Where matplotlib puts a colorbar's axes and how it moves the axes it takes the room from:
`make_axes` (a list of axes: boxes in figure fractions) and `make_axes_gridspec` (one subplot:
its cell split as a sub-gridspec), before any drawing applies aspect ratios. Boxes are
(left, bottom, width, height)."""

from __future__ import annotations

# location -> (anchor of the colorbar, pad), as colorbar._normalize_location_orientation has them
SETTINGS = {"left": ((1.0, 0.5), 0.10), "right": ((0.0, 0.5), 0.05),
            "top": ((0.5, 0.0), 0.05), "bottom": ((0.5, 1.0), 0.15)}


def _union(boxes) -> tuple:
    left = min(b[0] for b in boxes)
    bottom = min(b[1] for b in boxes)
    right = max(b[0] + b[2] for b in boxes)
    top = max(b[1] + b[3] for b in boxes)
    return left, bottom, right - left, top - bottom


def _anchored(size: tuple, anchor: tuple, container: tuple) -> tuple:
    """A box of `size` (width, height) placed at `anchor` inside `container` (Bbox.anchored)."""
    left, bottom, width, height = container
    return (left + anchor[0] * (width - size[0]), bottom + anchor[1] * (height - size[1]), *size)


def make_axes(parents: list, location: str, fraction: float, shrink: float, pad: float,
              anchor: tuple) -> tuple[list, tuple]:
    """The parents' new boxes and the colorbar's box, from the parents' boxes."""
    left, bottom, width, height = whole = _union(parents)
    if location in ("left", "right"):
        main_width = width * (1 - fraction - pad)
        main_left = left + width * (fraction + pad) if location == "left" else left
        bar_left = left if location == "left" else left + width * (1 - fraction)
        bar = (bar_left, bottom, width * fraction, height)
        main = (main_left, bottom, main_width, height)
        size = (bar[2], bar[3] * shrink)
    else:
        main_height = height * (1 - fraction - pad)
        main_bottom = bottom + height * (fraction + pad) if location == "bottom" else bottom
        bar_bottom = bottom if location == "bottom" else bottom + height * (1 - fraction)
        bar = (left, bar_bottom, width, height * fraction)
        main = (left, main_bottom, width, main_height)
        size = (bar[2] * shrink, bar[3])
    moved = [(main[0] + (b[0] - whole[0]) * main[2] / whole[2],
              main[1] + (b[1] - whole[1]) * main[3] / whole[3],
              b[2] * main[2] / whole[2], b[3] * main[3] / whole[3]) for b in parents]
    return moved, _anchored(size, anchor, bar)


def _split(total: float, ratios: list, space: float) -> list[tuple[float, float]]:
    """(offset, length) of each cell of a gridspec dimension `total` long: cells in `ratios`,
    `space` times the mean cell between them (GridSpecBase.get_grid_positions)."""
    n = len(ratios)
    cell = total / (n + space * (n - 1))
    gap = space * cell
    lengths = [cell * n * r / sum(ratios) for r in ratios]
    cells, at = [], 0.0
    for length in lengths:
        cells.append((at, length))
        at += length + gap
    return cells


def make_axes_gridspec(parent: tuple, location: str, fraction: float, shrink: float,
                       pad: float, anchor: tuple) -> tuple[tuple, tuple]:
    """The parent's new cell and the colorbar's cell, from the parent's cell: a 3x2 (2x3)
    sub-gridspec whose middle row (column) holds the shrunk colorbar."""
    left, bottom, width, height = parent
    space = 2 * pad / (1 - pad)
    if location in ("left", "right"):
        across = [fraction, 1 - fraction - pad] if location == "left" else [
            1 - fraction - pad, fraction]
        columns = _split(width, across, space)
        along = [(1 - anchor[1]) * (1 - shrink), shrink, anchor[1] * (1 - shrink)]
        rows = _split(height, along, 0.0)  # listed top to bottom
        main_col, bar_col = (columns[1], columns[0]) if location == "left" else columns
        row = rows[1]
        bar = (left + bar_col[0], bottom + height - row[0] - row[1], bar_col[1], row[1])
        return (left + main_col[0], bottom, main_col[1], height), bar
    across = [fraction, 1 - fraction - pad] if location == "top" else [
        1 - fraction - pad, fraction]
    rows = _split(height, across, space)  # listed top to bottom
    columns = _split(width, [anchor[0] * (1 - shrink), shrink, (1 - anchor[0]) * (1 - shrink)],
                     0.0)
    main_row, bar_row = (rows[1], rows[0]) if location == "top" else rows
    column = columns[1]
    bar = (left + column[0], bottom + height - bar_row[0] - bar_row[1], column[1], bar_row[1])
    return (left, bottom + height - main_row[0] - main_row[1], width, main_row[1]), bar
