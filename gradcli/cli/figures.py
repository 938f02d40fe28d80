"""What becomes of the figures a program makes with matplotlib.pyplot, for `run` and `eval`.

Without --plots, one note on stderr says how many figures were not shown. With --plots DIR, a
figure is written into DIR as an SVG file when the program shows it (figure-N.svg, N counting the
figures the program made) or saves it (the base name of savefig's path, with .svg), and at the
end of the program when it is still open and was never written. Nothing is written outside DIR.
The drawing is plain: the axes box with a few ticks, polylines for plot, circles for scatter,
bars for hist, cells for imshow, titles, labels, texts and a legend.
"""

from __future__ import annotations

import math
import os
import re
import sys

import numpy as np

FONT = "font-family='DejaVu Sans, Arial, sans-serif'"
MAX_IMAGE_CELLS = 100  # an image is drawn with at most this many cells a side
# Colour maps for imshow and scatter(c=...): anchor colours, interpolated.
VIRIDIS = ((68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37))
GREYS = ((0, 0, 0), (255, 255, 255))
_GREY_MAPS = {"gray": GREYS, "grey": GREYS, "Greys_r": GREYS, "binary_r": GREYS,
              "Greys": GREYS[::-1], "binary": GREYS[::-1], "gray_r": GREYS[::-1]}
_DASHES = {"--": "6,3", ":": "1.5,3", "-.": "6,3,1.5,3", "dashed": "6,3", "dotted": "1.5,3",
           "dashdot": "6,3,1.5,3"}


class FigureOutput:
    """Hears of the program's show() and savefig() (as its Figures' listener) and writes the
    figures into `directory`, or only counts them when there is none."""

    def __init__(self, directory: str | None):
        if directory:
            from pathlib import Path  # only for programs whose figures are written
            self.directory = Path(directory)
        else:
            self.directory = None
        self.seen: set[int] = set()  # serials of the figures shown, saved or written
        self.files: list[str] = []
        self.failed = False

    def attach(self, figures) -> None:
        figures.listener = self.take

    def take(self, figure, name: str | None) -> None:
        self.seen.add(figure.serial)
        if self.directory is None or self.failed:
            return
        path = self.directory / file_name(name, figure.serial)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            path.write_text(svg(figure), encoding="utf-8")
        except OSError as error:
            self.failed = True
            sys.stderr.write(f"gradcli: cannot write {path}: {error.strerror}\n")
            return
        if path.name not in self.files:
            self.files.append(path.name)

    def finish(self, figures) -> None:
        """At the end of the program: write the open figures never written, then one line on
        stderr about what became of them."""
        for figure in list(figures.open.values()):
            if figure.serial not in self.seen:
                self.take(figure, None)
        count = len(self.seen)
        if not count or self.failed:
            return
        if self.directory is None:
            sys.stderr.write(f"gradcli: {_plural(count, 'figure')} not shown "
                             "(use --plots DIR to save them)\n")
        else:
            sys.stderr.write(f"gradcli: {_plural(len(self.files), 'plot')} written to "
                             f"{self.directory}: {', '.join(self.files)}\n")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def file_name(name: str | None, serial: int) -> str:
    """The file a figure goes to: savefig's base name (safe characters only) with .svg, else
    figure-N.svg."""
    stem = os.path.splitext(os.path.basename(name.replace("\\", "/")))[0] if name else ""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", stem).lstrip(".")
    return f"{stem or f'figure-{serial}'}.svg"


# ---- drawing ------------------------------------------------------------------------------------

def svg(figure) -> str:
    """A figure as a standalone SVG document."""
    width, height = figure.pixels
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width:g}' height='{height:g}' "
             f"viewBox='0 0 {width:g} {height:g}'>",
             f"<rect width='{width:g}' height='{height:g}' fill='white'/>"]
    if figure.suptitle:
        parts.append(_text(width / 2, 0.02 * height + 14, figure.suptitle, size=16))
    for number, axes in enumerate(figure.axes):
        parts.extend(_axes(axes, number, width, height))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "'": "&#39;", '"': "&quot;"})


def escape(text: str) -> str:
    """Text as SVG (XML) content or a quoted attribute value."""
    return text.translate(_ESCAPES)


def _attribute(value: str) -> str:
    return f"'{escape(value)}'"


def _text(x: float, y: float, text: str, *, size: float = 12, anchor: str = "middle",
          rotate: bool = False) -> str:
    turn = f" transform='rotate(-90 {x:.2f} {y:.2f})'" if rotate else ""
    return (f"<text x='{x:.2f}' y='{y:.2f}' font-size='{size:g}' text-anchor='{anchor}' "
            f"{FONT}{turn}>{escape(text)}</text>")


class _Frame:
    """Data coordinates to pixels inside one axes box (log scales taken as log10)."""

    def __init__(self, axes, box: tuple[float, float, float, float]):
        self.box = box
        self.logs = {axis: axes.scales[axis] == "log" for axis in "xy"}
        self.limits = {axis: tuple(self._scaled(axis, np.asarray(v, float))
                                   for v in axes.view_limits(axis)) for axis in "xy"}

    def _scaled(self, axis: str, values):
        if not self.logs[axis]:
            return values
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(values > 0, np.log10(np.where(values > 0, values, 1.0)), np.nan)

    def _fraction(self, axis: str, values):
        low, high = self.limits[axis]
        span = high - low
        return (self._scaled(axis, np.asarray(values, float)) - low) / (span if span else 1.0)

    def x(self, values):
        left, _, width, _ = self.box
        return left + self._fraction("x", values) * width

    def y(self, values):
        _, top, _, height = self.box
        return top + height - self._fraction("y", values) * height


def _axes(axes, number: int, width: float, height: float) -> list[str]:
    left, bottom, w, h = axes.position()
    box = (left * width, (1 - bottom - h) * height, w * width, h * height)
    if any(series.kind == "image" for series in axes.series):
        box = _equal_aspect(axes, box)
    frame = _Frame(axes, box)
    x0, y0, pw, ph = box
    clip = f"clip{number}"
    parts = [f"<clipPath id='{clip}'><rect x='{x0:.2f}' y='{y0:.2f}' width='{pw:.2f}' "
             f"height='{ph:.2f}'/></clipPath>"]
    if axes.axis_on:
        parts.extend(_ticks(axes, frame))
    parts.append(f"<g clip-path='url(#{clip})'>")
    for series in axes.series:
        parts.extend(_SERIES[series.kind](series, frame))
    parts.extend(_text(float(frame.x(x)), float(frame.y(y)), text, anchor="start")
                 for x, y, text in axes.texts)
    parts.append("</g>")
    if axes.axis_on:
        parts.append(f"<rect x='{x0:.2f}' y='{y0:.2f}' width='{pw:.2f}' height='{ph:.2f}' "
                     "fill='none' stroke='black'/>")
        if axes.labels["x"]:
            parts.append(_text(x0 + pw / 2, y0 + ph + 34, axes.labels["x"]))
        if axes.labels["y"]:
            parts.append(_text(x0 - 46, y0 + ph / 2, axes.labels["y"], rotate=True))
    for place, title in axes.titles.items():
        where = {"left": (x0, "start"), "center": (x0 + pw / 2, "middle"),
                 "right": (x0 + pw, "end")}[place]
        parts.append(_text(where[0], y0 - 8, title, size=14, anchor=where[1]))
    if axes.legend:
        parts.extend(_legend(axes.legend, box))
    return parts


def _equal_aspect(axes, box):
    """The box shrunk (about its centre) so that a unit is as long across as down, as imshow
    makes its axes."""
    x0, y0, pw, ph = box
    spans = [abs(float(high) - float(low)) for low, high in (axes.view_limits(a) for a in "xy")]
    if not all(spans) or not all(math.isfinite(s) for s in spans):
        return box
    ratio = spans[1] / spans[0]
    if ph / pw > ratio:
        return x0, y0 + (ph - pw * ratio) / 2, pw, pw * ratio
    return x0 + (pw - ph / ratio) / 2, y0, ph / ratio, ph


def _ticks(axes, frame: _Frame) -> list[str]:
    """Tick marks with their labels, and grid lines when the axes has its grid on."""
    x0, y0, pw, ph = frame.box
    bottom = y0 + ph
    parts = []
    for axis in "xy":
        chosen = axes.ticks[axis]
        values = _tick_values(axes.view_limits(axis), frame.logs[axis]) if chosen is None \
            else chosen
        for value in values:
            if axis == "x":
                at = float(frame.x(value))
                grid, mark = (at, y0, at, bottom), (at, bottom, at, bottom + 4)
                label = _text(at, bottom + 16, _tick_label(value), size=10)
            else:
                at = float(frame.y(value))
                grid, mark = (x0, at, x0 + pw, at), (x0 - 4, at, x0, at)
                label = _text(x0 - 6, at + 3.5, _tick_label(value), size=10, anchor="end")
            if axes.grid:
                parts.append(_segment(grid, "stroke='#b0b0b0' stroke-width='0.8'"))
            parts += [_segment(mark, "stroke='black'"), label]
    return parts


def _segment(ends, style: str) -> str:
    x1, y1, x2, y2 = ends
    return f"<line x1='{x1:.2f}' y1='{y1:.2f}' x2='{x2:.2f}' y2='{y2:.2f}' {style}/>"


def _tick_values(limits, log: bool) -> list[float]:
    """About six round values inside the limits (powers of ten on a log scale)."""
    low, high = sorted(float(v) for v in limits)
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return []
    if log and low > 0:
        powers = range(math.ceil(math.log10(low)), math.floor(math.log10(high)) + 1)
        if len(powers) >= 2:
            return [10.0 ** p for p in powers]
    raw = (high - low) / 6
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw * 0.999)
    first = math.ceil(low / step)
    return [round(k * step, 12) for k in range(first, math.floor(high / step) + 1)]


def _tick_label(value: float) -> str:
    return f"{0.0 if abs(value) < 1e-12 else value:g}"


def _points(xs, ys) -> str:
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in zip(xs, ys))


def _line(series, frame: _Frame) -> list[str]:
    xs, ys = frame.x(series.x), frame.y(series.y)
    finite = np.isfinite(xs) & np.isfinite(ys)
    parts = []
    if series.linestyle not in ("", "None", "none", " "):
        dash = _DASHES.get(series.linestyle)
        dashes = f" stroke-dasharray='{dash}'" if dash else ""
        # one polyline per run of finite points, as matplotlib breaks a line at NaN
        breaks = np.flatnonzero(np.diff(finite.astype(int))) + 1
        for run in np.split(np.arange(len(xs)), breaks):
            if run.size and finite[run[0]]:
                parts.append(f"<polyline points='{_points(xs[run], ys[run])}' fill='none' "
                             f"stroke={_attribute(series.color)} stroke-width='1.5'{dashes}/>")
    if series.marker:
        parts.extend(_circle(x, y, series.color) for x, y in zip(xs[finite], ys[finite]))
    return parts


def _fill(series, frame: _Frame) -> list[str]:
    """fill_between's region: its closed outline, filled."""
    xs, ys = frame.x(series.x), frame.y(series.y)
    finite = np.isfinite(xs) & np.isfinite(ys)
    return [f"<polygon points='{_points(xs[finite], ys[finite])}' "
            f"fill={_attribute(series.color)} fill-opacity='0.5' stroke='none'/>"]


def _circle(x: float, y: float, color: str) -> str:
    return f"<circle cx='{x:.2f}' cy='{y:.2f}' r='3' fill={_attribute(color)}/>"


def _scatter(series, frame: _Frame) -> list[str]:
    xs, ys = frame.x(series.x), frame.y(series.y)
    colors = ([series.color] * len(xs) if series.values is None
              else _mapped(series.values, series.cmap))
    return [_circle(x, y, color) for x, y, color in zip(xs, ys, colors)
            if math.isfinite(x) and math.isfinite(y)]


def _bars(series, frame: _Frame) -> list[str]:
    edges, base = frame.x(series.x), frame.y(0.0 if not frame.logs["y"] else series.y.min())
    parts = []
    for left, right, top in zip(edges[:-1], edges[1:], frame.y(series.y)):
        low, high = sorted((float(base), float(top)))
        if math.isfinite(low) and math.isfinite(high):
            parts.append(f"<rect x='{min(left, right):.2f}' y='{low:.2f}' "
                         f"width='{abs(right - left):.2f}' height='{high - low:.2f}' "
                         f"fill={_attribute(series.color)} stroke='white' stroke-width='0.5'/>")
    return parts


def _image(series, frame: _Frame) -> list[str]:
    pixels = series.y
    stride = max(1, math.ceil(max(pixels.shape[:2]) / MAX_IMAGE_CELLS))
    pixels = pixels[::stride, ::stride]
    if pixels.ndim == 3:
        scale = 255.0 if np.nanmax(pixels) > 1 else 1.0
        colors = [_hex(tuple(np.clip(p[:3] / scale, 0, 1) * 255)) for p in pixels.reshape(
            -1, pixels.shape[2])]
    else:
        colors = _mapped(pixels.ravel(), series.cmap)
    rows, columns = pixels.shape[:2]
    parts = []
    for index, color in enumerate(colors):
        row, column = divmod(index, columns)
        xs = frame.x([column * stride - 0.5, (column + 1) * stride - 0.5])
        ys = frame.y([row * stride - 0.5, (row + 1) * stride - 0.5])
        parts.append(f"<rect x='{min(xs):.2f}' y='{min(ys):.2f}' width='{abs(xs[1] - xs[0]):.2f}' "
                     f"height='{abs(ys[1] - ys[0]):.2f}' fill='{color}'/>")
    return parts


def _mapped(values, cmap: str) -> list[str]:
    """Colours for values through a colour map (viridis unless a grey one is named), the
    values spread from their minimum to their maximum."""
    anchors = _GREY_MAPS.get(cmap, VIRIDIS)
    values = np.asarray(values, float)
    finite = values[np.isfinite(values)]
    low, high = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
    spread = (values - low) / (high - low) if high > low else np.zeros_like(values)
    return [_hex(_between(anchors, s)) if math.isfinite(s) else "none" for s in spread]


def _between(anchors, fraction: float) -> tuple:
    place = min(max(fraction, 0.0), 1.0) * (len(anchors) - 1)
    index = min(int(place), len(anchors) - 2)
    share = place - index
    return tuple(a + (b - a) * share for a, b in zip(anchors[index], anchors[index + 1]))


def _hex(rgb) -> str:
    return "#" + "".join(f"{int(round(c)):02x}" for c in rgb)


def _legend(entries, box) -> list[str]:
    x0, y0, pw, _ = box
    width = 40 + 7 * max(len(label) for label, _ in entries)
    left, top = x0 + pw - width - 8, y0 + 8
    parts = [f"<rect x='{left:.2f}' y='{top:.2f}' width='{width:.2f}' "
             f"height='{8 + 18 * len(entries)}' fill='white' fill-opacity='0.8' "
             "stroke='#cccccc'/>"]
    for number, (label, series) in enumerate(entries):
        y = top + 13 + 18 * number
        if series.kind == "line" and series.linestyle:
            parts.append(_segment((left + 6, y, left + 26, y),
                                  f"stroke={_attribute(series.color)} stroke-width='1.5'"))
        else:
            parts.append(_circle(left + 16, y, series.color or "#1f77b4"))
        parts.append(_text(left + 32, y + 4, label, size=11, anchor="start"))
    return parts


def _reference(series, frame: _Frame) -> list[str]:
    """axhline / axvline: the span is in fractions of the axes box, the value in data."""
    left, top, width, height = frame.box
    if series.kind == "hline":
        xs, ys = left + series.x * width, frame.y(series.y)
    else:
        xs, ys = frame.x(series.x), top + height - series.y * height
    if not (np.isfinite(xs).all() and np.isfinite(ys).all()):
        return []
    dash = _DASHES.get(series.linestyle)
    dashes = f" stroke-dasharray='{dash}'" if dash else ""
    return [f"<polyline points='{_points(xs, ys)}' fill='none' "
            f"stroke={_attribute(series.color)} stroke-width='1.5'{dashes}/>"]


_SERIES = {"line": _line, "scatter": _scatter, "hist": _bars, "image": _image,
           "contour": _scatter, "hline": _reference, "vline": _reference, "fill": _fill}
