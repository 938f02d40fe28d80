"""What plt.hist returns for its bars: a BarContainer (a tuple of Rectangle patches) whose
rectangles a program reads and recolours, printed as matplotlib prints them."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.language.runtime.objects import TableInstance, TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import type_name


class Rectangle(TableInstance):
    """One bar: its corner, width and height; its style setters are kept, never drawn."""

    __slots__ = ("x", "y", "width", "height", "attrs")

    def __init__(self, x: float, y: float, width: float, height: float):
        self.x, self.y, self.width, self.height = x, y, width, height
        self.attrs: dict = {}

    @property
    def language_type(self) -> PyType:
        return RECTANGLE_TYPE

    def repr(self, printer) -> str:
        return f"<matplotlib.patches.Rectangle object at 0x{id(self):x}>"

    def str(self, printer) -> str:
        return (f"Rectangle(xy=({self.x:g}, {self.y:g}), width={self.width:g}, "
                f"height={self.height:g}, angle=0)")


def _setter(name: str):
    return entry(name, lambda patch, *args, **kwargs: None, "self, *args, **kwargs")


Rectangle.METHODS = table(
    entry("get_x", lambda r: r.x, "self"), entry("get_y", lambda r: r.y, "self"),
    entry("get_width", lambda r: r.width, "self"), entry("get_height", lambda r: r.height, "self"),
    entry("get_xy", lambda r: (r.x, r.y), "self"),
    *(_setter(name) for name in ("set_facecolor", "set_edgecolor", "set_color", "set_alpha",
                                 "set_hatch", "set_linewidth", "set_fill", "set_label")))
RECTANGLE_TYPE = PyType("matplotlib.patches.Rectangle", (Rectangle,))


class BarContainer(TableObject):
    """A tuple of the bars' rectangles: indexed, sliced (a plain tuple) and walked as one."""

    __slots__ = ("patches",)
    is_sequence = True

    def __init__(self, patches: tuple):
        self.patches = patches

    @property
    def language_type(self) -> PyType:
        return BAR_CONTAINER_TYPE

    def item(self, key):
        if not isinstance(key, (int, slice)):
            raise errors.type_error(f"tuple indices must be integers or slices, not "
                                    f"{type_name(key)}")
        try:
            return self.patches[key]
        except IndexError:
            raise errors.index_error("tuple index out of range") from None

    def length(self) -> int:
        return len(self.patches)

    def members(self):
        return iter(self.patches)

    def attribute(self, name: str):
        if name == "patches":
            return list(self.patches)
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"<BarContainer object of {len(self.patches)} artists>"


BAR_CONTAINER_TYPE = PyType("matplotlib.container.BarContainer", (BarContainer,))


def bars(edges, heights) -> BarContainer:
    """A histogram's bars: one rectangle per bin, from the bin's left edge up to its count."""
    return BarContainer(tuple(Rectangle(np.float64(left), np.float64(0.0),
                                        np.float64(right - left), np.float64(height))
                              for left, right, height in zip(edges[:-1], edges[1:], heights)))
