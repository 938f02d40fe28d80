"""`gradcli plot`: f and its derivatives by autograd over a range, with a hand-derived
derivative (--expect) on top and its mismatches marked; drawn as text or into an SVG file."""

from __future__ import annotations

import shutil
import sys
from gradcli.engine.records import field, record

import numpy as np

from gradcli.cli.bindings import Problem, Source, UsageError, torch_error
from gradcli.cli.canvas import Canvas, number_text, view_limits
from gradcli.cli.derivatives import Comparison, Tolerances, _evaluate, _expected
from gradcli.engine import dtypes, grad_api
from gradcli.engine.functions import F
from gradcli.engine.errors import TorchError
from gradcli.engine.tensor import Tensor

# name, marker, terminal colour, SVG colour
STYLES = {"f": ("*", "blue", "#1f77b4"), "f'": ("+", "red", "#d62728"),
          "f''": ("o", "green", "#2ca02c"), "expected": (".", "yellow", "#ff7f0e")}
MISMATCH = ("X", "mismatch", "#000000")
TOLERANCES = Tolerances(1e-6, 1e-5, 1e-3)  # check's defaults


@record
class PlotAnswer:
    name: str
    xs: np.ndarray
    curves: dict[str, np.ndarray]  # "f", "f'", "f''", "expected"
    expression: str
    expect: str | None = None
    mismatches: list[Comparison] = field(default_factory=list)

    @property
    def status(self) -> str:
        return "mismatch" if self.mismatches else "ok"


def compute(problem: Problem, name: str, low: float, high: float, points: int, order: int,
            expect: Source | None) -> PlotAnswer:
    if order not in (1, 2):
        raise UsageError("--order: expected 1 or 2")
    if name not in problem.inputs:
        raise UsageError(f"--range: '{name}' is not an input being differentiated")
    formula = problem.scope.compile(expect) if expect is not None else None
    xs = np.linspace(low, high, points)
    curves = {key: np.full(points, np.nan) for key in ("f", "f'", "f''")[:order + 1]}
    if formula is not None:
        curves["expected"] = np.full(points, np.nan)
    answer = PlotAnswer(name, xs, curves, problem.source.text,
                        expect.text if expect is not None else None)
    base = problem.values[name]
    for index, x in enumerate(xs):
        leaf = Tensor(np.full(base.shape, x, dtype=np.float64), dtypes.float64,
                      requires_grad=True)
        values = {**problem.values, name: leaf}
        try:
            out = _evaluate(problem, values)
            out = out if out.numel() == 1 else F.sum(out)
            curves["f"][index] = float(out.data)
            first = _derivative(out, leaf, create_graph=order > 1)
            curves["f'"][index] = _number(first)
            if order > 1:
                curves["f''"][index] = _number(_derivative(first, leaf, False))
        except TorchError as error:
            raise torch_error(error) from None
        if formula is not None:
            reference = float(np.sum(_expected(formula, values, leaf, name, expect)))
            curves["expected"][index] = reference
            row = Comparison(index, name, (), curves["f'"][index], "expected", reference,
                             TOLERANCES)
            if not row.ok:
                answer.mismatches.append(row)
    return answer


def _derivative(out, leaf: Tensor, create_graph: bool):
    if out is None or not isinstance(out, Tensor) or not out.requires_grad:
        return None
    (grad,) = grad_api.grad([out], [leaf], create_graph=create_graph, allow_unused=True)
    if grad is not None and grad.numel() != 1:
        from gradcli.engine.functions import F
        grad = F.sum(grad)
    return grad


def _number(grad) -> float:
    return 0.0 if grad is None else float(np.sum(grad.data))


# ---- text ---------------------------------------------------------------------------------------

def legend(answer: PlotAnswer) -> str:
    names = {"f": f"f({answer.name})", "f'": "f' (autograd)", "f''": "f'' (autograd)",
             "expected": "--expect"}
    parts = [f"{STYLES[key][0]} {names[key]}" for key in answer.curves]
    if answer.mismatches:
        parts.append(f"{MISMATCH[0]} mismatch")
    return "   ".join(parts)


def text_lines(answer: PlotAnswer, width: int, height: int, colour: bool) -> list[str]:
    canvas = Canvas(width, height, (float(answer.xs[0]), float(answer.xs[-1])),
                    view_limits(list(answer.curves.values())))
    canvas.hline(0.0)
    for key in ("f''", "f'", "f"):
        if key in answer.curves:
            char, tint, _ = STYLES[key]
            canvas.curve(answer.curves[key], char, tint)
    if "expected" in answer.curves:
        char, tint, _ = STYLES["expected"]
        canvas.curve(answer.curves["expected"], char, tint, over=False)
    for row in answer.mismatches:
        r = canvas.row(row.analytic)
        if r is not None:
            canvas.put(row.point, r, MISMATCH[0], MISMATCH[1])
    title = (f"f({answer.name}) = {answer.expression}   for {answer.name} in "
             f"[{number_text(answer.xs[0])}, {number_text(answer.xs[-1])}]")
    return [title, legend(answer), *canvas.lines(colour), *verdict(answer)]


def verdict(answer: PlotAnswer) -> list[str]:
    if answer.expect is None:
        return []
    count = len(answer.xs)
    if not answer.mismatches:
        return [f"--expect {answer.name}: {answer.expect} matches autograd at all {count} "
                "points"]
    worst = max(answer.mismatches, key=lambda row: row.excess)
    x = number_text(answer.xs[worst.point])
    return [f"--expect {answer.name}: {answer.expect} MISMATCH at {len(answer.mismatches)} of "
            f"{count} points; worst at {answer.name}={x}: autograd "
            f"{number_text(worst.analytic)}, expected {number_text(worst.reference)}"]


def terminal_size(width: int | None, height: int | None) -> tuple[int, int]:
    columns = shutil.get_terminal_size((80, 24)).columns
    return (width or max(30, min(120, columns - 12)), height or 18)


# ---- SVG ----------------------------------------------------------------------------------------

def svg_text(answer: PlotAnswer) -> str:
    """The plot through the matplotlib figure writer (figures.py)."""
    from gradcli.cli.figures import svg
    from gradcli.language.namespaces.figure_registry import Figures
    from gradcli.language.namespaces.pyplot import Series
    figure = Figures().new()
    axes = figure.gca()
    names = {"f": f"f({answer.name})", "f'": "f' (autograd)", "f''": "f'' (autograd)",
             "expected": f"expected: {answer.expect}"}
    for key, ys in answer.curves.items():
        axes.add(Series("line", answer.xs, ys, label=names[key], color=STYLES[key][2],
                        linestyle="--" if key == "expected" else "-"))
    if answer.mismatches:
        points = [row.point for row in answer.mismatches]
        axes.add(Series("scatter", answer.xs[points], answer.curves["f'"][points],
                        label="mismatch", color=MISMATCH[2], linestyle="", marker="x"))
    axes.legend = [(s.label, s) for s in axes.series]
    axes.titles["center"] = f"f({answer.name}) = {answer.expression}"
    axes.labels["x"] = answer.name
    axes.grid = True
    return svg(figure)


def write(answer: PlotAnswer, output: str | None, width: int | None, height: int | None,
          quiet: bool) -> None:
    from gradcli.cli.render import use_colour
    if output is not None:
        if not output.lower().endswith(".svg"):
            raise UsageError("--output: only .svg files are written (no PNG without matplotlib)")
        try:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(svg_text(answer))
        except OSError as error:
            raise UsageError(f"cannot write '{output}': {error.strerror}") from None
        if not quiet:
            sys.stdout.write("\n".join([f"Wrote {output}", *verdict(answer)]) + "\n")
        return
    if not quiet:
        w, h = terminal_size(width, height)
        sys.stdout.write("\n".join(text_lines(answer, w, h, use_colour(sys.stdout))) + "\n")
