"""The figures one session's program makes with matplotlib.pyplot (pyplot.py draws them): kept
apart so that a session starts without loading pyplot."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from gradcli.language.namespaces.pyplot import Figure


class Figures:
    """One session's pyplot: every figure made (in order), the open ones by number (the current
    one last), and `listener(figure, name)`, which the command line may set to hear of show()
    (name None) and savefig(name)."""

    def __init__(self):
        self.made: list[Figure] = []
        self.open: dict[int, Figure] = {}
        self.listener: Callable[[Figure, str | None], None] | None = None

    def current(self) -> Figure:
        if not self.open:
            return self.new()
        return next(reversed(self.open.values()))

    def activate(self, figure: Figure) -> Figure:
        self.open.pop(figure.number, None)
        self.open[figure.number] = figure
        return figure

    def new(self, number: int | None = None, size=None, dpi: float | None = None) -> Figure:
        """A new figure, current from now on (pyplot's figsize and dpi unless given)."""
        from gradcli.language.namespaces.pyplot import Figure
        from gradcli.language.namespaces.pyplot_rc import figure_dpi, figure_size
        if number is None:
            number = max(self.open, default=0) + 1
        figure = Figure(self, number, len(self.made) + 1, figure_size() if size is None else size,
                        figure_dpi() if dpi is None else dpi)
        self.made.append(figure)
        return self.activate(figure)

    def close(self, figure: Figure) -> None:
        if self.open.get(figure.number) is figure:
            del self.open[figure.number]

    def tell(self, figure: Figure, name: str | None) -> None:
        if self.listener is not None:
            self.listener(figure, name)
