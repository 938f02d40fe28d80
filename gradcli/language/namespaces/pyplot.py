"""`import matplotlib.pyplot as plt`: figures recorded, never drawn, through these tables only.

Tutorials plot their loss curves. gradcli keeps what a program plots in the session's `Figures`
(each figure's axes, each axes' series, titles, labels and limits) and prints nothing, so the
program's stdout stays torch's; the command line decides what becomes of the figures
(gradcli/cli/figures.py hears of `show()` and `savefig()` through `Figures.listener`). Data reach
NumPy as matplotlib hands them to it: a tensor that requires grad is refused with torch's error,
lists (of numbers, of tensors) become arrays. Return values are matplotlib's kinds (`plot` gives
a list of lines, `subplots` gives (fig, ax) or (fig, array of axes)), printed as matplotlib
prints them. Style keywords (color=, linewidth=, marker=, alpha=, figsize=...) are accepted;
colours, labels, line styles and markers are kept for drawing.
"""

from __future__ import annotations

import difflib
import json
import os

import numpy as np

from gradcli.engine import errors
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import pyplot_colorbar
from gradcli.language.namespaces.numpy_warnings import numpy_warnings
from gradcli.language.namespaces.pyplot_colors import COLORS, CYCLE, to_rgba
from gradcli.language.namespaces.pyplot_patches import bars
from gradcli.language.namespaces.pyplot_rc import RcNamespace, figure_size
from gradcli.language.namespaces.pyplot_style import RC, STYLE
from gradcli.language.namespaces.python_logging import library_warning
from gradcli.language.runtime.objects import TableInstance
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.values import Namespace, iterate, type_name

# matplotlib's one-letter colours, as drawn.
_LETTERS = {"b": "#0000ff", "g": "#008000", "r": "#ff0000", "c": "#00bfbf", "m": "#bf00bf",
            "y": "#bfbf00", "k": "#000000", "w": "#ffffff"}
_TAB = dict(zip(("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
                 "tab:pink", "tab:gray", "tab:olive", "tab:cyan"), CYCLE))
_MARKERS = set(".,ov^<>1234sp*hH+xXDd|_P8")
_SCALES = ("linear", "log", "symlog", "logit")
_MARGIN = 0.05
_NO_LEGEND = ("No artists with labels found to put in legend.  Note that artists whose label "
              "start with an underscore are ignored when legend() is called with no argument.")


# ---- what a program plots -----------------------------------------------------------------------

class Series:
    """One plotted thing: a line, a scatter, a histogram's bars or an image.

    line/scatter: `x` and `y` are the points; hist: `x` the bin edges, `y` the counts; image: `y`
    the pixels (2-D, or 3-D with RGB(A) last). Scatter's `values` (c=) are mapped through a
    colour map when drawn.
    """

    def __init__(self, kind: str, x, y, *, label: str = "", color: str = "",
                 linestyle: str = "-", marker: str = "", values=None, cmap: str = ""):
        self.kind, self.x, self.y, self.label = kind, x, y, label
        self.color, self.linestyle, self.marker = color, linestyle, marker
        self.values, self.cmap = values, cmap

    def extent(self, axis: str) -> tuple[float, float, list[float]] | None:
        """(low, high, sticky edges) of the data along "x" or "y"; None when there is none."""
        if self.kind == "image":
            rows, cols = self.y.shape[:2]
            low, high = (-0.5, cols - 0.5) if axis == "x" else (-0.5, rows - 0.5)
            return low, high, [low, high]
        if self.kind == "hist":
            values = self.x if axis == "x" else np.append(self.y, 0.0)
            sticky = [] if axis == "x" else [0.0]
        elif self.kind in ("hline", "vline"):  # across the axes: data along one axis only
            if (axis == "y") != (self.kind == "hline"):
                return None
            value = float((self.y if axis == "y" else self.x)[0])
            return value, value, []
        elif self.kind == "contour":  # filled up to the grid's edges, with no margin
            values = self.x if axis == "x" else self.y
            values = values[np.isfinite(values)]
            low, high = float(values.min()), float(values.max())
            return low, high, [low, high]
        else:
            values = self.x if axis == "x" else self.y
            sticky = []
        values = values[np.isfinite(values)]
        if values.size == 0:
            return None
        return float(values.min()), float(values.max()), sticky


class Artist(TableInstance):
    """What a plotting call returns (a line, a text, a legend...): printed as matplotlib prints
    it; `series` is what it drew, for legend(handles, labels)."""

    __slots__ = ("type", "shown", "text", "series", "attrs", "axes")

    def __init__(self, type_: PyType, shown: str | None = None, text: str | None = None,
                 series: Series | None = None, axes: "Axes | None" = None):
        """`axes`: where a mappable (image, scatter, contours) was drawn, for colorbar()."""
        self.type, self.shown, self.text, self.series = type_, shown, text, series
        self.axes = axes
        self.attrs: dict = {}

    @property
    def language_type(self) -> PyType:
        return self.type

    def repr(self, printer) -> str:
        return self.shown or f"<{self.type.name} object at 0x{id(self):x}>"

    def str(self, printer) -> str:
        return self.text or self.repr(printer)

    def __repr__(self) -> str:  # how NumPy prints an array of them
        return self.repr(None)


LINE = PyType("matplotlib.lines.Line2D", ())
PATHS = PyType("matplotlib.collections.PathCollection", ())
TEXT = PyType("matplotlib.text.Text", ())
LEGEND = PyType("matplotlib.legend.Legend", ())
IMAGE = PyType("matplotlib.image.AxesImage", ())
BARS = PyType("matplotlib.container.BarContainer", ())
COLORBAR = PyType("matplotlib.colorbar.Colorbar", ())
CONTOURS = PyType("matplotlib.contour.QuadContourSet", ())
FILL = PyType("matplotlib.collections.FillBetweenPolyCollection", ())


def _text_artist(ctx, x, y, text: str) -> Artist:
    shown = f"Text({ctx.printer.str(x)}, {ctx.printer.str(y)}, {text!r})"
    return Artist(TEXT, shown)


class Axes(TableInstance):
    """One axes: its place in its figure's grid, what was plotted on it and how it is labelled."""

    PROPERTIES = {"figure": lambda axes: axes.figure}

    def __init__(self, figure: "Figure", cell: tuple[int, int, int] | None, label: str = "",
                 box: tuple | None = None):
        """`cell`: (rows, columns, 1-based index) in the figure's grid; `box`: where it is
        instead (left, bottom, width, height), once a colorbar took room from it."""
        self.figure, self.cell, self.label, self.box = figure, cell, label, box
        self.spec_box: tuple | None = None  # its cell's part, once a colorbar split the cell
        self.current_image = None  # what pyplot's imshow, scatter or contour last made here
        self.attrs: dict = {}
        self.clear()

    def clear(self) -> None:
        self.series: list[Series] = []
        self.texts: list[tuple[float, float, str]] = []
        self.titles: dict[str, str] = {}
        self.labels = {"x": "", "y": ""}
        self.legend: list[tuple[str, Series]] | None = None
        self.grid = False
        self.axis_on = True
        self.limits: dict[str, tuple[float, float] | None] = {"x": None, "y": None}
        # the limits last read back: what autoscale(False) keeps, as matplotlib's view does
        self.viewed = {axis: (np.float64(0.0), np.float64(1.0)) for axis in "xy"}
        self.aspect: str | float = "auto"
        # limits an axhline/axvline inside them left as they were, until the next plot
        self.held: dict[str, tuple | None] = {"x": None, "y": None}
        self.scales = {"x": "linear", "y": "linear"}
        self.ticks: dict[str, list[float] | None] = {"x": None, "y": None}  # None: automatic
        self.y_inverted = False
        self.children = 0  # artists added, for matplotlib's `_childN` labels

    @property
    def language_type(self) -> PyType:
        return AXES_TYPE

    def repr(self, printer) -> str:
        fields = [f"label={self.label!r}"] if self.label else []
        fields += [f"title={self.titles}"] if self.titles else []
        fields += [f"{axis}label={text!r}" for axis, text in self.labels.items() if text]
        return "<Axes: " + ", ".join(fields) + ">"

    def str(self, printer) -> str:
        left, bottom, width, height = self.position()
        return f"Axes({left:g},{bottom:g};{width:g}x{height:g})"

    def __repr__(self) -> str:  # how NumPy prints an array of them
        return self.repr(None)

    def position(self) -> tuple[float, float, float, float]:
        """(left, bottom, width, height) in figure fractions, as matplotlib's default subplot
        parameters place the cell, or as a colorbar moved it."""
        return self.box or self.cell_box()

    def cell_box(self) -> tuple[float, float, float, float]:
        """Where its grid cell (or the part of it a colorbar left) puts it."""
        if self.spec_box:
            return self.spec_box
        rows, columns, index = self.cell
        row, column = divmod(index - 1, columns)
        tops, bottoms = _grid_edges(rows, 0.88, -1, 0.88 - 0.11)
        lefts, rights = _grid_edges(columns, 0.125, 1, 0.9 - 0.125)
        return (lefts[column], bottoms[row], rights[column] - lefts[column],
                tops[row] - bottoms[row])

    def add(self, series: Series, count: int = 1) -> Series:
        self.held = {"x": None, "y": None}
        if not series.label:
            series.label = f"_child{self.children}"
        self.series.append(series)
        self.children += count
        return series

    def next_color(self) -> str:
        return CYCLE[sum(1 for s in self.series if s.kind not in ("image", "fill")) % len(CYCLE)]

    def view_limits(self, axis: str) -> tuple:
        """The axis' limits as get_xlim/get_ylim report them: the ones set, else the data's with
        matplotlib's 5% margins (not past a histogram's or an image's edges)."""
        if self.limits[axis] is not None:
            return self.limits[axis]
        if self.held[axis] is not None:
            return self.held[axis]
        extents = [e for e in (s.extent(axis) for s in self.series) if e is not None]
        if not extents:
            return np.float64(0.0), np.float64(1.0)
        log = self.scales[axis] == "log"
        low, high = min(e[0] for e in extents), max(e[1] for e in extents)
        sticky = np.sort([s for e in extents for s in e[2] if s > 0 or not log])
        low, high = _nonsingular(low, high)
        tolerance = 1e-5 * abs(high - low)
        below = sticky[sticky < low + tolerance]
        above = sticky[sticky > high - tolerance]
        if log and low > 0:
            scaled = np.log10([low, high])
            delta = (scaled[1] - scaled[0]) * _MARGIN
            low, high = np.exp(np.array([scaled[0] - delta, scaled[1] + delta]) * np.log(10))
        else:
            delta = (high - low) * _MARGIN
            low, high = low - delta, high + delta
        if below.size:
            low = max(low, below[-1])
        if above.size:
            high = min(high, above[0])
        limits = np.float64(low), np.float64(high)
        return limits[::-1] if axis == "y" and self.y_inverted else limits


def _grid_edges(cells: int, start: float, direction: int, total: float):
    """Where the cells of one grid dimension begin and end, as matplotlib's GridSpec computes
    them (the separation is 0.2 of a cell)."""
    cell = total / (cells + 0.2 * (cells - 1))
    steps = np.cumsum(np.column_stack([[0] + [0.2 * cell] * (cells - 1), [cell] * cells]).flat)
    return (start + direction * steps).reshape((-1, 2)).T


def _nonsingular(low: float, high: float) -> tuple[float, float]:
    """matplotlib's expansion of an empty range (all the data at one value)."""
    if abs(high - low) <= max(abs(low), abs(high)) * 1e-15:
        if high == 0 and low == 0:
            return -_MARGIN, _MARGIN
        return low - _MARGIN * abs(low), high + _MARGIN * abs(high)
    return low, high


class Figure(TableInstance):
    """One figure: its number, its size, its axes (the current one last touched)."""

    PROPERTIES = {"number": lambda figure: figure.number, "axes": lambda figure: list(figure.axes)}

    def __init__(self, figures, number: int, serial: int, size, dpi: float):
        """`figures`: the session's Figures (figure_registry.py), which made this one."""
        self.figures, self.number, self.serial = figures, number, serial
        self.size, self.dpi = size, dpi
        self.axes: list[Axes] = []
        self.current: Axes | None = None
        self.suptitle = ""
        self.attrs: dict = {}

    @property
    def language_type(self) -> PyType:
        return FIGURE_TYPE

    @property
    def pixels(self) -> tuple[float, float]:
        return self.size[0] * self.dpi, self.size[1] * self.dpi

    def repr(self, printer) -> str:
        width, height = self.pixels
        return f"<Figure size {width:g}x{height:g} with {len(self.axes)} Axes>"

    def str(self, printer) -> str:
        width, height = self.pixels
        return f"Figure({width:g}x{height:g})"

    def subplot(self, rows: int, columns: int, index: int, reuse: bool) -> Axes:
        found = next((a for a in self.axes if a.cell == (rows, columns, index)), None)
        if found is None or not reuse:
            found = Axes(self, (rows, columns, index))
            self.axes.append(found)
        self.current = found
        return found

    def gca(self) -> Axes:
        return self.current or self.subplot(1, 1, 1, reuse=True)


# ---- the program's values as matplotlib reads them ----------------------------------------------

def _array(value) -> np.ndarray:
    """np.asarray of a plotted value as matplotlib makes it: tensors through torch's
    `__array__` (refused while they require grad), lists element by element."""
    from gradcli.language.namespaces.numpy_table import array_of  # loaded by the first plot
    if isinstance(value, range):
        value = list(value)
    try:
        array = np.asarray(array_of(value))
        if array.dtype.kind not in "biuf":
            array = array.astype(np.float64)
    except (TypeError, ValueError) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None
    return array


def _floats(value) -> np.ndarray:
    """A plotted value as a float64 copy (the program may change its tensor afterwards)."""
    return np.array(_array(value), dtype=np.float64)


def _number(value) -> float:
    if isinstance(value, Tensor):
        return float(value.data)
    if isinstance(value, (bool, int, float, np.generic)):
        return float(value)
    raise errors.type_error(f"float() argument must be a string or a real number, not "
                            f"'{type_name(value)}'")


def _text(ctx, value) -> str:
    return value if isinstance(value, str) else ctx.printer.str(value)


def _color(value, fallback: str) -> str:
    """A colour as drawn: '#rrggbb' or a CSS name; `fallback` for what is not one."""
    if isinstance(value, str):
        lowered = value.lower()
        if lowered in _LETTERS:
            return _LETTERS[lowered]
        if lowered in _TAB:
            return _TAB[lowered]
        if len(value) == 2 and value[0] == "C" and value[1].isdigit():
            return CYCLE[int(value[1])]
        if lowered.isalpha() or (lowered.startswith("#") and len(lowered) in (4, 7, 9)
                                 and all(c in "0123456789abcdef" for c in lowered[1:])):
            return lowered[:7]
        try:
            grey = int(round(float(value) * 255))
        except ValueError:
            return fallback
        return f"#{grey:02x}{grey:02x}{grey:02x}" if 0 <= grey <= 255 else fallback
    if isinstance(value, (tuple, list)) and len(value) in (3, 4) and all(
            isinstance(v, (int, float)) for v in value):
        return "#" + "".join(f"{int(round(min(max(v, 0.0), 1.0) * 255)):02x}"
                             for v in value[:3])
    return fallback


def _format(fmt: str) -> tuple[str | None, str | None, str | None]:
    """matplotlib's format string ('r--', 'bo', 'k.'): (line style, marker, colour)."""
    style = marker = color = None
    at = 0

    def invalid(why: str):
        return errors.value_error(f"{fmt!r} is not a valid format string ({why})")
    while at < len(fmt):
        pair, char = fmt[at:at + 2], fmt[at]
        if pair in ("--", "-.") or char in "-:":
            if style is not None:
                raise invalid("two linestyle symbols")
            style = pair if pair in ("--", "-.") else char
            at += len(style)
            continue
        if char in _MARKERS:
            if marker is not None:
                raise invalid("two marker symbols")
            marker = char
        elif char in _LETTERS or (char == "C" and fmt[at + 1:at + 2].isdigit()):
            if color is not None:
                raise invalid("two color symbols")
            color = fmt[at:at + 2] if char == "C" else char
            at += len(color) - 1
        else:
            raise invalid(f"unrecognized character {char!r}")
        at += 1
    if style is None:
        style = "" if marker is not None else "-"
    return style, marker, color


def _plot_groups(args) -> list[tuple]:
    """plot's positional arguments in groups: (y), (y, fmt), (x, y) or (x, y, fmt)."""
    groups, rest = [], list(args)
    while rest:
        group, rest = rest[:2], rest[2:]
        if rest and isinstance(rest[0], str):
            group.append(rest.pop(0))
        groups.append(tuple(group))
    return groups


def _columns(data: np.ndarray) -> np.ndarray:
    return data[:, np.newaxis] if data.ndim == 1 else data


def _line_pairs(group: tuple) -> tuple[list[tuple[np.ndarray, np.ndarray]], str]:
    """The (x, y) of each line one group draws (one per column), and its format string."""
    fmt = group[-1] if len(group) > 1 and isinstance(group[-1], str) else ""
    data = group[:-1] if fmt else group
    y = np.atleast_1d(_floats(data[-1]))
    x = np.atleast_1d(_floats(data[0])) if len(data) == 2 else np.arange(
        y.shape[0], dtype=np.float64)
    if x.shape[0] != y.shape[0]:
        raise errors.value_error(f"x and y must have same first dimension, but have shapes "
                                 f"{x.shape} and {y.shape}")
    if x.ndim > 2 or y.ndim > 2:
        raise errors.value_error(f"x and y can be no greater than 2D, but have shapes "
                                 f"{x.shape} and {y.shape}")
    x, y = _columns(x), _columns(y)
    xs, ys = x.shape[1], y.shape[1]
    if xs > 1 and ys > 1 and xs != ys:
        raise errors.value_error(f"x has {xs} columns but y has {ys} columns")
    return [(x[:, j % xs], y[:, j % ys]) for j in range(max(xs, ys))], fmt


# ---- Axes methods (and pyplot's functions on the current axes) ----------------------------------

def _plot(ctx, axes: Axes, *args, **kwargs) -> list:
    lines = []
    for group in _plot_groups(args):
        pairs, fmt = _line_pairs(group)
        style, marker, color = _format(fmt)
        style = kwargs.get("linestyle", kwargs.get("ls", style))
        marker = kwargs.get("marker", marker)
        color = kwargs.get("color", kwargs.get("c", color))
        label = kwargs.get("label")
        for x, y in pairs:
            series = axes.add(Series(
                "line", x, y, label="" if label is None else _text(ctx, label),
                color=_color(color, axes.next_color()),
                linestyle=style if isinstance(style, str) else "-",
                marker=marker if isinstance(marker, str) else ""))
            lines.append(Artist(LINE, text=f"Line2D({series.label})", series=series))
    return lines


def _scatter(ctx, axes: Axes, x, y, s, c, marker, cmap, **kwargs):
    xs, ys = _floats(x).ravel(), _floats(y).ravel()
    if xs.size != ys.size:
        raise errors.value_error("x and y must be the same size")
    values, color = None, kwargs.get("color")
    if isinstance(c, str) or c is None:
        color = c if c is not None else color
    else:
        values = _floats(c).ravel()
        if values.size != xs.size:
            raise errors.value_error(
                f"'c' argument has {values.size} elements, which is inconsistent with 'x' and "
                f"'y' with size {xs.size}.")
    edges = kwargs.get("edgecolors")
    _scatter_marker_warnings(ctx, marker, kwargs.get("edgecolor") if edges is None else edges)
    label = kwargs.get("label")
    series = axes.add(Series("scatter", xs, ys, label="" if label is None else _text(ctx, label),
                             color=_color(color, axes.next_color()), linestyle="",
                             marker=marker if isinstance(marker, str) else "o", values=values,
                             cmap=_cmap_name(cmap)))
    return Artist(PATHS, series=series, axes=axes)


_UNFILLED = set("x+1234|_")  # matplotlib's markers that have no inside


def _scatter_marker_warnings(ctx, marker, edgecolor) -> None:
    """scatter's warnings for a pixel marker and for an edge colour an unfilled marker ignores."""
    if marker == ",":
        STATE.warn("UserWarning", "The pixel maker ',' is not supported on scatter(); using a "
                   "finite-sized square instead, which is not necessarily 1 pixel in size. Use "
                   "the square marker 's' instead to suppress this warning.")
    elif isinstance(marker, str) and marker in _UNFILLED and edgecolor is not None:
        STATE.warn("UserWarning", f"You passed an edgecolor/edgecolors "
                   f"({ctx.printer.repr(edgecolor)}) for an unfilled marker "
                   f"({ctx.printer.repr(marker)}).  Matplotlib is ignoring the edgecolor in "
                   "favor of the facecolor.  This behavior may change in the future.")


def _contour(filled: bool):
    """contour / contourf of Z, or of X, Y, Z (a grid, or its coordinate vectors): the grid's
    points kept, each with its value, drawn as the colour map colours it."""
    def contour(ctx, axes: Axes, *args, **kwargs):
        if len(args) not in (1, 2, 3, 4):
            raise errors.type_error(f"Too many positional arguments: {len(args)}")
        z = _floats(args[2] if len(args) >= 3 else args[0])
        if z.ndim != 2:
            raise errors.type_error(f"Input z must be 2D, not {z.ndim}D")
        if len(args) >= 3:
            x, y = _floats(args[0]), _floats(args[1])
            if x.ndim == 1 and y.ndim == 1:
                x, y = np.meshgrid(x, y)
            if x.shape != z.shape or y.shape != z.shape:
                raise errors.type_error(f"Shapes of x {x.shape} and z {z.shape} do not match")
        else:
            y, x = np.indices(z.shape, dtype=np.float64)
        axes.add(Series("contour", x.ravel(), y.ravel(), linestyle="", marker="s" if filled
                        else ".", values=z.ravel(), cmap=_cmap_name(kwargs.get("cmap"))))
        return Artist(CONTOURS, axes=axes)
    return contour


class Colormap(Artist):
    """A matplotlib colour map (plt.cm.RdYlBu, plt.get_cmap('viridis')): known by its name; one
    a program lists (ListedColormap(colors)) also has its colours, and maps values to them."""

    __slots__ = ("name", "colors", "listed")

    PROPERTIES = {"name": lambda cmap: cmap.name,
                  "N": lambda cmap: 256 if cmap.listed is None else len(cmap.listed),
                  "colors": lambda cmap: cmap.colors}

    def __init__(self, type_: PyType, name: str, colors=None, listed=None):
        super().__init__(type_)
        self.name, self.colors, self.listed = name, colors, listed

    def forward(self):
        return None if self.listed is None else BoundMethod(self, _COLORMAP_CALL)


def _listed_colormap(ctx, colors, name="unnamed", N=None, *, bad=None, under=None, over=None):
    """matplotlib.colors.ListedColormap: the colours, read (as matplotlib reads them) when
    the map is first used."""
    return Colormap(_CMAP_TYPES["ListedColormap"], name, colors, list(iterate(colors)))


def _map_colors(ctx, cmap: Colormap, X, alpha=None, bytes=False):
    """Colormap.__call__: a float in [0, 1] (or an int index) to its colour's RGBA; values
    below, above or NaN take the under, over and bad colours; a scalar gives a tuple."""
    values = np.array(_array(X), copy=True)
    lut = np.array([to_rgba(ctx, color) for color in cmap.listed], dtype=np.float64)
    n = len(lut)  # then the under, over and bad colours: the first, the last, transparent black
    table = np.vstack([lut, lut[:1], lut[-1:], np.zeros((1, 4))])
    bad = np.isnan(values) if values.dtype.kind == "f" else np.zeros(values.shape, bool)
    if values.dtype.kind == "f":
        values = np.array(values * n)
        values[values == n] = n - 1
    under, over = values < 0, values >= n
    with np.errstate(invalid="ignore"):
        index = np.where(bad, 0, values).astype(int)
    index[under], index[over], index[bad] = n, n + 1, n + 2
    rgba = table.take(index, axis=0, mode="clip")
    if alpha is not None:
        rgba[..., -1] = np.clip(_number(alpha), 0, 1)
    if bytes:
        rgba = (rgba * 255).astype(np.uint8)
    return tuple(rgba) if values.ndim == 0 else rgba


# matplotlib's colour maps by name (each also reversed, `_r`), and which kind each one is
_LISTED = ("magma inferno plasma viridis cividis twilight twilight_shifted turbo berlin managua "
           "vanimo Accent okabe_ito Dark2 Paired Pastel1 Pastel2 Set1 Set2 Set3 tab10 tab20 "
           "tab20b tab20c").split()
_SEGMENTED = ("Blues BrBG BuGn BuPu CMRmap GnBu Greens Greys OrRd Oranges PRGn PiYG PuBu PuBuGn "
              "PuOr PuRd Purples RdBu RdGy RdPu RdYlBu RdYlGn Reds Spectral Wistia YlGn YlGnBu "
              "YlOrBr YlOrRd afmhot autumn binary bone brg bwr cool coolwarm copper cubehelix flag "
              "gist_earth gist_gray gist_heat gist_ncar gist_rainbow gist_stern gist_yarg gnuplot "
              "gnuplot2 gray hot hsv jet nipy_spectral ocean pink prism rainbow seismic spring "
              "summer terrain winter grey gist_grey gist_yerg Grays").split()
_CMAP_NAMES = [name for base in (*_LISTED, *_SEGMENTED) for name in (base, base + "_r")]
_COLORMAP_CALL = entry("__call__", _map_colors, "self, X, alpha=None, bytes=False",
                       context=True, qualname="Colormap.__call__")
_CMAP_TYPES = {"ListedColormap": PyType("matplotlib.colors.ListedColormap", (Colormap,), entry(
                   "ListedColormap", _listed_colormap, "colors, name='unnamed', N=None, *, "
                   "bad=None, under=None, over=None", context=True, frames=0)),
               "LinearSegmentedColormap": PyType("matplotlib.colors.LinearSegmentedColormap",
                                                 (Colormap,))}


with open(os.path.join(os.path.dirname(__file__), "listed_colormaps.json"),
          encoding="utf-8") as _handle:  # recorded by tests/golden/record_matplotlib_tables.py
    _SMALL_LISTED = {name: tuple(map(tuple, rows)) for name, rows in json.load(_handle).items()}


def _colormap(name: str) -> Colormap:
    """A named map; the small listed ones (tab10, Set1...) with their colours, as maps to call
    (their reversed forms list the colours backwards, in a list as matplotlib's reversed())."""
    base = name[:-2] if name.endswith("_r") else name
    kind = "ListedColormap" if base in _LISTED else "LinearSegmentedColormap"
    colors = _SMALL_LISTED.get(base)
    if colors is not None and name != base:
        colors = list(reversed(colors))
    return Colormap(_CMAP_TYPES[kind], name, colors, None if colors is None else list(colors))


def _cmap_name(cmap) -> str:
    """A cmap= argument (a colour map or its name) as the name the drawing reads."""
    if isinstance(cmap, Colormap):
        return cmap.name
    return cmap if isinstance(cmap, str) else ""


def _get_cmap(name=None, lut=None):
    if name is None:
        name = "viridis"
    if isinstance(name, Colormap):
        return name
    if name not in _CMAP_NAMES:
        raise errors.value_error(_not_one_of("name", name, _CMAP_NAMES))
    return _colormap(name)


def _not_one_of(what: str, value, values) -> str:
    """matplotlib's message for a value not among the accepted strings, with its suggestions."""
    if not isinstance(value, str):
        return f"{value!r} is not a valid value for {what}. Supported values are " + \
            ", ".join(map(repr, sorted(values)))
    best = difflib.get_close_matches(value, values, cutoff=0.5)
    hint = "" if not best else f" Did you mean: {best[0]!r}?" if len(best) == 1 else \
        f" Did you mean one of: {', '.join(map(repr, best))}?"
    return f"{value!r} is not a valid value for {what}.{hint}"


CM = Namespace("matplotlib.cm", {name: _colormap(name) for name in _CMAP_NAMES})


def _reference_line(kind: str):
    """axhline / axvline: a line across the axes at one data value (its span in axes
    fractions), coloured from the cycle as any line is."""
    def line(ctx, axes: Axes, at=0, low=0, high=1, **kwargs):
        value, span = np.array([_number(at)] * 2), np.array([_number(low), _number(high)])
        x, y = (span, value) if kind == "hline" else (value, span)
        axis = "y" if kind == "hline" else "x"
        current = axes.view_limits(axis)
        label = kwargs.get("label")
        series = axes.add(Series(
            kind, x, y, label="" if label is None else _text(ctx, label),
            color=_color(kwargs.get("color", kwargs.get("c")), axes.next_color()),
            linestyle=kwargs.get("linestyle", kwargs.get("ls", "-"))))
        if min(current) <= value[0] <= max(current):  # matplotlib rescales only to take it in
            axes.held[axis] = current
        return Artist(LINE, text=f"Line2D({series.label})", series=series)
    return line


def _fill_between(ctx, axes: Axes, x, y1, y2=0, where=None, interpolate=False, step=None,
                  **kwargs) -> Artist:
    """fill_between: the region between two curves, kept as its closed outline; coloured from
    the patches' own colour cycle, as matplotlib's fills are."""
    xs = _floats(x)
    low, high = (np.broadcast_to(_floats(y), xs.shape) for y in (y1, y2))
    label = kwargs.get("label")
    fills = sum(1 for each in axes.series if each.kind == "fill")
    axes.add(Series("fill", np.concatenate([xs, xs[::-1]]), np.concatenate([low, high[::-1]]),
                    label="" if label is None else _text(ctx, label),
                    color=_color(kwargs.get("color", kwargs.get("facecolor")),
                                 CYCLE[fills % len(CYCLE)])))
    return Artist(FILL)


def _datasets(value) -> list[np.ndarray]:
    """hist's x: one data set, or one per column of a 2-D array (matplotlib's _reshape_2D)."""
    data = _array(value)
    if data.ndim >= 2:
        return [column for column in data.reshape(data.shape[0], -1).T]
    return [np.atleast_1d(data)]


def _histograms(datasets, weights, bins, bin_range, density: bool):
    """The counts of each data set and their common bin edges, as matplotlib's hist asks NumPy
    for them (the range is the data's, NaN left out)."""
    options = {"density": True} if density else {}
    try:
        if bin_range is None:
            low, high = np.inf, -np.inf
            for data in datasets:
                if len(data):
                    low, high = min(low, np.nanmin(data)), max(high, np.nanmax(data))
            if low <= high:
                bin_range = (low, high)
        if len(datasets) > 1 and any(len(d) for d in datasets):
            joined = None if weights[0] is None else np.concatenate(weights)
            bins = np.histogram_bin_edges(np.concatenate(datasets), bins, bin_range, joined)
        else:
            options["range"] = bin_range
        tops = []
        for data, weight in zip(datasets, weights):
            counts, bins = np.histogram(data, bins, weights=weight, **options)
            tops.append(counts)
    except (TypeError, ValueError) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None
    return tops, bins


def _hist(ctx, axes: Axes, x, bins, range, density, weights, cumulative, bottom, histtype,
          align, orientation, rwidth, log, color, label, stacked, **kwargs):
    datasets = _datasets(x)
    weights = [None] * len(datasets) if weights is None else _datasets(weights)
    if len(weights) != len(datasets) or any(
            w is not None and len(w) != len(d) for d, w in zip(datasets, weights)):
        raise errors.value_error("weights should have the same shape as x")
    if bins is None:
        bins = 10
    elif not isinstance(bins, (int, str)):
        bins = _array(bins)
    with numpy_warnings():
        tops, bins = _histograms(datasets, weights, bins, range, density and not stacked)
    tops, bins = np.array(tops, float), np.array(bins, float)
    if stacked:
        tops = tops.cumsum(axis=0)
        if density:
            tops = tops / np.diff(bins) / tops[-1].sum()
    if cumulative:
        order = slice(None, None, -1) if cumulative < 0 else slice(None)
        tops = (tops * np.diff(bins) if density else tops)[:, order].cumsum(axis=1)[:, order]
    if log:
        axes.scales["y"] = "log"
    labels = [label] if label is None or isinstance(label, str) else list(label)
    for number, counts in enumerate(tops):
        given = labels[number] if number < len(labels) else None
        axes.add(Series("hist", bins, counts, label="" if given is None else _text(ctx, given),
                        color=_color(color, axes.next_color())), count=len(counts))
    if len(tops) == 1:
        return tops[0], bins, bars(bins, tops[0])
    return tops, bins, Artist(BARS, f"<a list of {len(tops)} BarContainer objects>")


def _imshow(ctx, axes: Axes, X, cmap, **kwargs):
    data = _image_array(ctx, _array(X))
    axes.add(Series("image", np.zeros(0), data, cmap=cmap if isinstance(cmap, str) else ""))
    axes.y_inverted = True
    return Artist(IMAGE, text=f"AxesImage(shape={data.shape})", axes=axes)


def _image_array(ctx, image: np.ndarray) -> np.ndarray:
    """An image as matplotlib's imshow takes it: (M, N, 1) read as (M, N); RGB(A) values
    outside [0..1] (floats) or [0..255] (integers) clipped, with matplotlib.image's logged
    warning; as floats."""
    if image.ndim == 3 and image.shape[-1] == 1:
        image = image[..., 0]
    if not (image.ndim == 2 or (image.ndim == 3 and image.shape[-1] in (3, 4))):
        raise errors.type_error(f"Invalid shape {image.shape} for image data")
    if image.ndim == 3:
        high = 255 if image.dtype.kind in "iu" else 1
        if image.min() < 0 or high < image.max():
            library_warning(ctx, "matplotlib.image", "Clipping input data to the valid range "
                            "for imshow with RGB data ([0..1] for floats or [0..255] for "
                            f"integers). Got range [{str(image.min())}..{str(image.max())}].")
            image = np.clip(image, 0, high)
    return np.array(image, dtype=np.float64)


def _get_label(axis: str):
    def get_label(ctx, axes: Axes):
        return axes.labels[axis]
    return get_label


def _get_title(ctx, axes: Axes, loc="center"):
    if loc not in _TITLE_X:
        raise errors.value_error(f"{loc!r} is not a valid value for loc; supported values are "
                                 "'left', 'center', 'right'")
    return axes.titles.get(loc, "")


def _set_label(axis: str):
    def set_label(ctx, axes: Axes, label, *args, **kwargs):
        axes.labels[axis] = _text(ctx, label)
        return _text_artist(ctx, *((0.5, 0) if axis == "x" else (0, 0.5)), axes.labels[axis])
    return set_label


_TITLE_X = {"left": 0.0, "center": 0.5, "right": 1.0}


def _set_title(ctx, axes: Axes, label, fontdict, loc, *args, **kwargs):
    place = "center" if loc is None else loc
    if place not in _TITLE_X:
        raise errors.value_error(f"{place!r} is not a valid value for loc; supported values are "
                                 "'left', 'center', 'right'")
    axes.titles[place] = _text(ctx, label)
    return _text_artist(ctx, _TITLE_X[place], 1.0, axes.titles[place])


def _legend(ctx, axes: Axes, *args, **kwargs):
    labels, handles = kwargs.get("labels"), kwargs.get("handles")
    if len(args) == 1:
        labels = args[0]
    elif len(args) >= 2:
        handles, labels = args[0], args[1]
    if handles is not None:
        drawn = [h.series for h in handles if isinstance(h, Artist) and h.series is not None]
    else:
        drawn = list(axes.series)
    if labels is None:
        entries = [(s.label, s) for s in drawn if not s.label.startswith("_")]
        if not entries and handles is None:
            STATE.warn("UserWarning", _NO_LEGEND)
    else:
        entries = [(_text(ctx, label), s) for label, s in zip(labels, drawn)]
    axes.legend = entries
    return Artist(LEGEND, text="Legend")


def _grid(ctx, axes: Axes, visible, which, axis, **kwargs):
    axes.grid = (not axes.grid if not kwargs else True) if visible is None else bool(visible)


def _limits_of(axis: str):
    def get_limits(ctx, axes: Axes):  # reading one axis's limits brings both up to date
        axes.viewed.update({each: axes.view_limits(each) for each in "xy"})
        return axes.viewed[axis]
    return get_limits


def _autoscale(ctx, axes: Axes, enable=True, axis="both", tight=None):
    """autoscale: off keeps the limits last read back (matplotlib autoscales them lazily), on
    follows the data again."""
    if enable is None:
        return
    for each in ("x", "y") if axis == "both" else (axis,):
        if each in ("x", "y"):
            axes.limits[each] = None if enable else (axes.limits[each] or axes.viewed[each])


def _set_aspect(ctx, axes: Axes, aspect, adjustable=None, anchor=None, share=False):
    if isinstance(aspect, str) and aspect in ("auto", "equal"):
        axes.aspect = "auto" if aspect == "auto" else 1.0
        return
    try:
        value = float(aspect) if isinstance(aspect, str) else _number(aspect)
    except ValueError:
        raise errors.value_error(f"could not convert string to float: {aspect!r}") from None
    if not (np.isfinite(value) and value > 0):
        raise errors.value_error("aspect must be finite and positive ")
    axes.aspect = value


def _set_limits(axis: str):
    """set_xlim / set_ylim: (low, high), a pair as the first argument, or one end by name."""
    low_name, high_name = ("left", "right") if axis == "x" else ("bottom", "top")

    def set_limits(ctx, axes: Axes, low=None, high=None, **kwargs):
        low = kwargs.get(low_name, kwargs.get(f"{axis}min", low))
        high = kwargs.get(high_name, kwargs.get(f"{axis}max", high))
        if isinstance(low, (tuple, list)) and high is None:
            low, high = low
        current = axes.view_limits(axis)
        chosen = (float(current[0]) if low is None else _number(low),
                  float(current[1]) if high is None else _number(high))
        axes.limits[axis] = tuple(np.float64(v) for v in chosen)  # as get_xlim reads them back
        axes.viewed[axis] = axes.limits[axis]
        return chosen
    return set_limits


def _set_scale(axis: str):
    def set_scale(ctx, axes: Axes, value, **kwargs):
        if value not in _SCALES:
            raise errors.value_error(f"{value!r} is not a valid value for scale.")
        axes.scales[axis] = value
    return set_scale


def _set_ticks(axis: str):
    """set_xticks / plt.xticks: where the ticks go ([] hides them); labels are not kept."""
    def set_ticks(ctx, axes: Axes, ticks=None, labels=None, **kwargs):
        if ticks is not None:
            axes.ticks[axis] = _floats(ticks).ravel().tolist()
    return set_ticks


_AXIS_WORDS = ("on", "off", "equal", "scaled", "tight", "auto", "image", "square")


def _axis(ctx, axes: Axes, arg=None, **kwargs):
    if isinstance(arg, bool):
        axes.axis_on = arg
    elif isinstance(arg, str):
        arg = arg.lower()  # axis("Off") as axis("off")
        if arg not in _AXIS_WORDS:
            raise errors.value_error(f"Unrecognized string {arg!r} to axis; try 'on' or 'off'")
        axes.axis_on = arg != "off" and (arg == "on" or axes.axis_on)
    elif arg is not None:
        limits = list(arg) if isinstance(arg, (list, tuple)) else _floats(arg).tolist()
        if len(limits) != 4:
            raise errors.type_error("The first argument to axis() must be an iterable of the "
                                    "form [xmin, xmax, ymin, ymax]")
        axes.limits["x"] = tuple(np.float64(_number(v)) for v in limits[:2])
        axes.limits["y"] = tuple(np.float64(_number(v)) for v in limits[2:])
    for axis in "xy":
        low, high = kwargs.get(f"{axis}min"), kwargs.get(f"{axis}max")
        if low is not None or high is not None:
            _set_limits(axis)(ctx, axes, low, high)
    return (*axes.view_limits("x"), *axes.view_limits("y"))


def _text_at(ctx, axes: Axes, x, y, s, fontdict=None, **kwargs):
    text = _text(ctx, s)
    axes.texts.append((_number(x), _number(y), text))
    axes.children += 1
    return _text_artist(ctx, x, y, text)


def _log_plot(*axes_scaled: str):
    """semilogx, semilogy and loglog: plot, with those axes on a log scale."""
    def plot(ctx, axes: Axes, *args, **kwargs):
        for axis in axes_scaled:
            axes.scales[axis] = "log"
        return _plot(ctx, axes, *args, **kwargs)
    return plot


def _nothing(*args, **kwargs) -> None:
    """Calls that change only how a figure would look on screen."""


def _cla(ctx, axes: Axes):
    axes.clear()


# (name, function, signature after `self`, pyplot's name for it or None).
_ON_AXES = (
    ("plot", _plot, "*args, **kwargs", "plot"),
    ("scatter", _scatter, "x, y, s=None, c=None, marker=None, cmap=None, **kwargs", "scatter"),
    ("hist", _hist, "x, bins=None, range=None, density=False, weights=None, cumulative=False, "
     "bottom=None, histtype='bar', align='mid', orientation='vertical', rwidth=None, log=False, "
     "color=None, label=None, stacked=False, **kwargs", "hist"),
    ("imshow", _imshow, "X, cmap=None, **kwargs", "imshow"),
    ("contour", _contour(False), "*args, **kwargs", "contour"),
    ("axhline", _reference_line("hline"), "y=0, xmin=0, xmax=1, **kwargs", "axhline"),
    ("fill_between", _fill_between, "x, y1, y2=0, where=None, interpolate=False, step=None, "
     "**kwargs", "fill_between"),
    ("axvline", _reference_line("vline"), "x=0, ymin=0, ymax=1, **kwargs", "axvline"),
    ("get_xlabel", _get_label("x"), "", None),
    ("get_ylabel", _get_label("y"), "", None),
    ("get_title", _get_title, "loc='center'", None),
    ("get_xscale", lambda ctx, axes: axes.scales["x"], "", None),
    ("get_yscale", lambda ctx, axes: axes.scales["y"], "", None),
    ("contourf", _contour(True), "*args, **kwargs", "contourf"),
    ("set_xlabel", _set_label("x"), "xlabel, *args, **kwargs", "xlabel"),
    ("set_ylabel", _set_label("y"), "ylabel, *args, **kwargs", "ylabel"),
    ("set_title", _set_title, "label, fontdict=None, loc=None, *args, **kwargs", "title"),
    ("legend", _legend, "*args, **kwargs", "legend"),
    ("grid", _grid, "visible=None, which='major', axis='both', **kwargs", "grid"),
    ("axis", _axis, "arg=None, /, **kwargs", "axis"),
    ("text", _text_at, "x, y, s, fontdict=None, **kwargs", "text"),
    ("set_xlim", _set_limits("x"), "left=None, right=None, **kwargs", None),
    ("set_ylim", _set_limits("y"), "bottom=None, top=None, **kwargs", None),
    ("get_xlim", _limits_of("x"), "", None),
    ("autoscale", _autoscale, "enable=True, axis='both', tight=None", "autoscale"),
    ("set_aspect", _set_aspect, "aspect, adjustable=None, anchor=None, share=False", None),
    ("get_aspect", lambda ctx, axes: axes.aspect, "", None),
    ("get_ylim", _limits_of("y"), "", None),
    ("set_xscale", _set_scale("x"), "value, **kwargs", "xscale"),
    ("set_yscale", _set_scale("y"), "value, **kwargs", "yscale"),
    ("semilogx", _log_plot("x"), "*args, **kwargs", "semilogx"),
    ("semilogy", _log_plot("y"), "*args, **kwargs", "semilogy"),
    ("loglog", _log_plot("x", "y"), "*args, **kwargs", "loglog"),
    ("cla", _cla, "", "cla"),
    ("set_xticks", _set_ticks("x"), "ticks=None, labels=None, **kwargs", "xticks"),
    ("set_yticks", _set_ticks("y"), "ticks=None, labels=None, **kwargs", "yticks"),
)

AXES_METHODS = table(*(entry(name, fn, "self" + (", " + spec if spec else ""), context=True,
                             qualname=f"Axes.{name}") for name, fn, spec, _ in _ON_AXES))
AXES_TYPE = PyType("matplotlib.axes._axes.Axes", (Axes,))
Axes.METHODS = AXES_METHODS


_MAPPABLES = ("imshow", "scatter", "contour", "contourf")  # pyplot makes them the current image


def _on_current_axes(name: str, fn, spec: str):
    """pyplot's function `name`: `fn` on the current figure's current axes."""
    def on_current(ctx, *args, **kwargs):
        axes = ctx.figures.current().gca()
        made = fn(ctx, axes, *args, **kwargs)
        if name in _MAPPABLES:
            axes.current_image = made
        return made
    return entry(name, on_current, spec, context=True)


def _limits(axis: str):
    """plt.xlim / plt.ylim: the limits without arguments, else set_xlim's."""
    def limits(ctx, *args, **kwargs):
        axes = ctx.figures.current().gca()
        if not args and not kwargs:
            return axes.view_limits(axis)
        return _set_limits(axis)(ctx, axes, *args, **kwargs)
    return entry(f"{axis}lim", limits, "*args, **kwargs", context=True)


# ---- figures ------------------------------------------------------------------------------------

def _grid_shape(ctx, args) -> tuple[int, int, int]:
    """subplot's (rows, columns, index) from (r, c, i), a three-digit number, or nothing."""
    if not args:
        return 1, 1, 1
    if len(args) == 1:
        number = args[0]
        if not isinstance(number, int) or not 100 <= number <= 999:
            raise errors.value_error("Single argument to subplot must be a three-digit integer, "
                                     f"not {ctx.printer.repr(number)}")
        args = tuple(int(digit) for digit in str(number))
    if len(args) != 3:
        raise errors.type_error(f"subplot() takes 1 or 3 positional arguments but {len(args)} "
                                "were given")
    rows, columns, index = args
    for value, what in ((rows, "rows"), (columns, "columns")):
        if not isinstance(value, int) or value <= 0:
            raise errors.value_error(f"Number of {what} must be a positive integer, not "
                                     f"{ctx.printer.repr(value)}")
    if not isinstance(index, int) or not 1 <= index <= rows * columns:
        raise errors.value_error(f"num must be an integer with 1 <= num <= {rows * columns}, "
                                 f"not {ctx.printer.repr(index)}")
    return rows, columns, index


def _figure(ctx, num=None, figsize=None, dpi=None, **kwargs) -> Figure:
    figures = ctx.figures
    if isinstance(num, Figure):
        return figures.activate(num)
    if isinstance(num, int) and num in figures.open:
        return figures.activate(figures.open[num])
    size = figure_size() if figsize is None else tuple(_number(v) for v in figsize)
    return figures.new(num if isinstance(num, int) else None, size,
                       None if dpi is None else _number(dpi))


def _subplots(ctx, nrows=1, ncols=1, *, sharex=False, sharey=False, squeeze=True, **fig_kw):
    options = {k: fig_kw[k] for k in ("num", "figsize", "dpi") if k in fig_kw}
    figure = _figure(ctx, **options)  # made before the grid is checked, as matplotlib does
    _grid_shape(ctx, (nrows, ncols, 1))
    grid = np.empty((nrows, ncols), dtype=object)
    for index in range(nrows * ncols):
        grid.flat[index] = figure.subplot(nrows, ncols, index + 1, reuse=False)
    if squeeze:
        grid = grid.item() if grid.size == 1 else grid.squeeze()
    return figure, grid


def _subplot(ctx, *args, **kwargs) -> Axes:
    return ctx.figures.current().subplot(*_grid_shape(ctx, args), reuse=True)


def _add_subplot(ctx, figure: Figure, *args, **kwargs) -> Axes:
    return figure.subplot(*_grid_shape(ctx, args), reuse=False)


def _suptitle(ctx, figure: Figure, t, **kwargs):
    figure.suptitle = _text(ctx, t)
    return _text_artist(ctx, 0.5, 0.98, figure.suptitle)


def _savefig(ctx, figure: Figure, fname, *args, **kwargs) -> None:
    figure.figures.tell(figure, fname if isinstance(fname, str) else None)


def _show(ctx, *args, **kwargs) -> None:
    """Every open figure is shown, then closed, as when the windows of a desktop's show() are
    closed."""
    figures = ctx.figures
    for figure in sorted(figures.open.values(), key=lambda f: f.serial):
        figures.tell(figure, None)
    figures.open.clear()


def _close(ctx, fig=None) -> None:
    figures = ctx.figures
    if fig is None:
        if figures.open:
            figures.close(figures.current())
    elif isinstance(fig, str) and fig == "all":
        figures.open.clear()
    elif isinstance(fig, Figure):
        figures.close(fig)
    elif isinstance(fig, int) and not isinstance(fig, bool):
        if fig in figures.open:
            figures.close(figures.open[fig])
    elif not isinstance(fig, str):
        raise errors.type_error("'fig' must be an instance of matplotlib.figure.Figure, int, "
                                f"str or None, not a {type_name(fig)}")


_NO_MAPPABLE = ("No mappable was found to use for colorbar creation. First define a mappable "
                "such as an image (with imshow) or a contour set (with contourf).")


def _colorbar(ctx, figure: Figure, mappable, cax=None, ax=None, use_gridspec=True,
              location=None, orientation=None, fraction=0.15, shrink=1.0, pad=None,
              anchor=None, **kwargs) -> Artist:
    """Figure.colorbar: unless `cax` is given, a new axes labelled '<colorbar>' taking room
    from `ax` (the mappable's axes by default), the current axes left as it was."""
    bar = Artist(COLORBAR)
    if cax is None:
        if ax is None:
            ax = getattr(mappable, "axes", None)
        if ax is None:
            raise errors.value_error(
                "Unable to determine Axes to steal space for Colorbar. Either provide the *cax* "
                "argument to use as the Axes for the Colorbar, provide the *ax* argument to "
                "steal space from it, or add *mappable* to an Axes.")
        location = location or ("bottom" if orientation == "horizontal" else "right")
        default_anchor, default_pad = pyplot_colorbar.SETTINGS[location]
        sizes = (location, _number(fraction), _number(shrink),
                 default_pad if pad is None else _number(pad),
                 default_anchor if anchor is None else tuple(_number(v) for v in anchor))
        if use_gridspec and isinstance(ax, Axes) and (ax.cell or ax.spec_box):
            ax.spec_box, box = pyplot_colorbar.make_axes_gridspec(ax.cell_box(), *sizes)
            ax.box, spec_box = None, box
        else:
            parents = list(ax.flat) if isinstance(ax, np.ndarray) else (
                [ax] if isinstance(ax, Axes) else list(ax))
            moved, box = pyplot_colorbar.make_axes([a.position() for a in parents], *sizes)
            for parent, place in zip(parents, moved):
                parent.box = place
            spec_box = None
        cax = Axes(figure, None, "<colorbar>", None if spec_box else box)
        cax.spec_box = spec_box
        figure.axes.append(cax)
    bar.attrs["ax"] = cax
    return bar


def _pyplot_colorbar(ctx, mappable=None, cax=None, ax=None, **kwargs) -> Artist:
    """plt.colorbar: of the current image (pyplot's last imshow, scatter or contour) unless
    given a mappable."""
    figure = ctx.figures.current()
    if mappable is None:
        axes = [figure.current] + figure.axes[::-1] if figure.current else []
        mappable = next((a.current_image for a in axes if a.current_image is not None), None)
        if mappable is None:
            raise errors.runtime(_NO_MAPPABLE)
    return _colorbar(ctx, figure, mappable, cax, ax, **kwargs)


FIGURE_METHODS = table(
    entry("colorbar", _colorbar, "self, mappable, cax=None, ax=None, use_gridspec=True, "
          "location=None, orientation=None, fraction=0.15, shrink=1.0, pad=None, anchor=None, "
          "**kwargs", context=True, qualname="FigureBase.colorbar"),
    entry("add_subplot", _add_subplot, "self, *args, **kwargs", context=True),
    entry("suptitle", _suptitle, "self, t, **kwargs", context=True),
    entry("savefig", _savefig, "self, fname, *args, **kwargs", context=True),
    entry("gca", lambda figure: figure.gca(), "self"),
    entry("get_size_inches", lambda figure: np.array(figure.size, dtype=float), "self"),
    entry("get_dpi", lambda figure: figure.dpi, "self"),
    entry("tight_layout", _nothing, "self, **kwargs"),
    entry("subplots_adjust", _nothing, "self, *args, **kwargs"),
    entry("clf", lambda figure: _clf_figure(figure), "self"),
)
FIGURE_TYPE = PyType("matplotlib.figure.Figure", (Figure,))
Figure.METHODS = FIGURE_METHODS


def _clf_figure(figure: Figure) -> None:
    figure.axes, figure.current, figure.suptitle = [], None, ""


def _on_current_figure(name: str, method: str):
    """pyplot's function `name`: the current figure's `method`."""
    builtin = FIGURE_METHODS[method]
    return entry(name, lambda ctx, *args, **kwargs: builtin.fn(
        ctx, ctx.figures.current(), *args, **kwargs), "*args, **kwargs", context=True)


PYPLOT = RcNamespace("matplotlib.pyplot", table(
    *(_on_current_axes(plt_name, fn, spec) for _, fn, spec, plt_name in _ON_AXES if plt_name),
    _limits("x"), _limits("y"),
    entry("figure", _figure, "num=None, figsize=None, dpi=None, **kwargs", context=True),
    entry("subplots", _subplots, "nrows=1, ncols=1, *, sharex=False, sharey=False, "
          "squeeze=True, **fig_kw", context=True),
    entry("subplot", _subplot, "*args, **kwargs", context=True),
    _on_current_figure("suptitle", "suptitle"),
    _on_current_figure("savefig", "savefig"),
    entry("show", _show, "*args, **kwargs", context=True),
    entry("close", _close, "fig=None", context=True),
    entry("clf", lambda ctx: _clf_figure(ctx.figures.current()), "", context=True),
    entry("gcf", lambda ctx: ctx.figures.current(), "", context=True),
    entry("colorbar", _pyplot_colorbar, "mappable=None, cax=None, ax=None, **kwargs",
          context=True),
    entry("gca", lambda ctx: ctx.figures.current().gca(), "", context=True),
    entry("get_fignums", lambda ctx: sorted(ctx.figures.open), "", context=True),
    entry("tight_layout", _nothing, "**kwargs"),
    entry("subplots_adjust", _nothing, "*args, **kwargs"),
    entry("pause", _nothing, "interval"),
    entry("ion", _nothing, ""),
    entry("ioff", _nothing, ""),
    entry("get_cmap", _get_cmap, "name=None, lut=None"),
    RC,
) | {"Figure": FIGURE_TYPE, "Axes": AXES_TYPE, "cm": CM, "style": STYLE})


def _ticker(name: str):
    """A matplotlib.ticker locator or formatter: made and kept, since axes are never drawn."""
    made = PyType(f"matplotlib.ticker.{name}", ())
    return entry(name, lambda *args, **kwargs: Artist(made), "*args, **kwargs")


TICKER = Namespace("matplotlib.ticker", table(*(_ticker(name) for name in (
    "MultipleLocator", "MaxNLocator", "AutoMinorLocator", "FixedLocator", "NullLocator",
    "LinearLocator", "FuncFormatter", "FormatStrFormatter", "StrMethodFormatter",
    "PercentFormatter", "NullFormatter", "ScalarFormatter"))))

COLORS_MODULE = Namespace("matplotlib.colors", COLORS.table | _CMAP_TYPES)
MATPLOTLIB = RcNamespace("matplotlib", table(
    entry("use", _nothing, "backend, *, force=True"),
    RC,
) | {"pyplot": PYPLOT, "ticker": TICKER, "cm": CM, "colors": COLORS_MODULE,
    "style": STYLE})

MODULES = {"matplotlib": MATPLOTLIB, "matplotlib.pyplot": PYPLOT, "matplotlib.ticker": TICKER,
           "matplotlib.cm": CM, "matplotlib.colors": COLORS_MODULE, "matplotlib.style": STYLE}
