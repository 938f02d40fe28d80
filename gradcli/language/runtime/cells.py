"""A function's __closure__: one cell per free variable (the enclosing functions' names its code
reads, sorted as co_freevars are), each reading the variable as it is now."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType

_MISSING = object()
CELL_TYPE = PyType("cell", ())


class Cell(TableObject):
    """A closure cell over the frame that holds its variable."""

    __slots__ = ("frame", "name")
    language_type = CELL_TYPE

    def __init__(self, frame, name: str):
        self.frame, self.name = frame, name

    def contents(self):
        return self.frame.vars.get(self.name, _MISSING)

    def attribute(self, name: str):
        if name != "cell_contents":
            raise self.missing(name)
        value = self.contents()
        if value is _MISSING:
            raise errors.value_error("Cell is empty")
        return value

    def set_attribute(self, name: str, value) -> None:
        if name != "cell_contents":
            raise self.missing(name)
        self.frame.vars[self.name] = value

    def repr(self, printer) -> str:
        from gradcli.language.runtime.values import type_name
        value = self.contents()
        shown = "empty" if value is _MISSING else \
            f"{type_name(value)} object at 0x{id(value):x}"
        return f"<cell at 0x{id(self):x}: {shown}>"


def closure(function) -> tuple | None:
    """function.__closure__: its cells, or None when its code reads no enclosing names."""
    if not function.freevars:
        return None
    return tuple(Cell(function.closure.up(hops - 1), name) for name, hops in function.freevars)
