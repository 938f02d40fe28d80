"""Which format a graph is shown in, and where it goes: stdout, a text file, or an SVG/PNG file
drawn by Graphviz's `dot`. Shared by `gradcli graph`, `gradcli run --graph` and `%graph`."""

from __future__ import annotations

import sys
from pathlib import Path

from gradcli.cli.graphs import dot as dot_format
from gradcli.cli.graphs.walk import DEFAULT_MAX_NODES, build

FORMATS = ("tree", "dot", "mermaid", "svg", "png")
SUFFIXES = {".svg": "svg", ".png": "png", ".dot": "dot", ".gv": "dot", ".mmd": "mermaid",
            ".txt": "tree"}


class GraphError(Exception):
    """A usage problem or a failure to draw (exit 2)."""


def choose_format(fmt: str | None, output: str | None, stream=None) -> str:
    """--format, else the --output file's suffix, else tree on a terminal and dot elsewhere."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise GraphError(f"--format: expected one of {', '.join(FORMATS)}, got '{fmt}'")
        if fmt in dot_format.DRAWN_FORMATS and not output:
            raise GraphError(f"--format {fmt} needs --output FILE")
        return fmt
    if output:
        return SUFFIXES.get(Path(output).suffix.lower(), "dot")
    stream = stream or sys.stdout
    return "tree" if stream.isatty() else "dot"


def show(tensor, name: str, variables: dict, printer, *, fmt: str | None = None,
         output: str | None = None, max_nodes: int = DEFAULT_MAX_NODES,
         collapse: bool = True) -> None:
    """Write `name`'s graph in `fmt` to stdout or to `output`; GraphError on trouble."""
    if max_nodes < 1:
        raise GraphError("--max-nodes: expected a positive count")
    fmt = choose_format(fmt, output)
    if fmt == "tree":
        text = tree_text(tensor, name, variables, printer, max_nodes, output is None)
    else:
        graph = build(tensor, name, variables, printer, max_nodes=max_nodes, collapse=collapse)
        if fmt == "mermaid":
            from gradcli.cli.graphs.mermaid import to_mermaid
            text = to_mermaid(graph)
        else:
            text = dot_format.to_dot(graph)
        if fmt in dot_format.DRAWN_FORMATS:
            try:
                dot_format.draw(text, fmt, output)
            except (dot_format.MissingDot, dot_format.DotFailed) as error:
                raise GraphError(str(error)) from None
            return
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise GraphError(f"cannot write '{output}': {error.strerror}") from None


def tree_text(tensor, name: str, variables: dict, printer, max_nodes: int, colour: bool) -> str:
    """The rich tree (tree.py), in colour only on a terminal."""
    import io
    from rich.console import Console
    from gradcli.cli.graphs.tree import GraphView
    from gradcli.cli.render import use_colour
    tree = GraphView(variables, printer, max_nodes).tree(name, tensor)
    if colour and use_colour(sys.stdout):
        Console(file=sys.stdout, highlight=False).print(tree)
        return ""
    buffer = io.StringIO()
    Console(file=buffer, highlight=False, color_system=None, width=100).print(tree)
    return buffer.getvalue()


def _report(command: str, message: str) -> int:
    sys.stdout.flush()
    sys.stderr.write(f"gradcli {command}: {message}\n")
    return 2


def session_graph(name: str, **options):
    """For `run --graph NAME`: shows NAME's graph from the finished session; an exit code."""
    def after(session) -> int:
        from gradcli.engine.tensor import Tensor
        variables = dict(session.globals.vars)
        value = variables.get(name)
        if not isinstance(value, Tensor):
            return _report("run", f"--graph: no tensor variable named '{name}'" if value is None
                           else f"--graph: '{name}' is not a tensor")
        try:
            show(value, name, variables, session.printer, **options)
        except GraphError as error:
            return _report("run", str(error))
        return 0
    return after


def expression_graph(expr: str, problem_of, *, backward: bool, **options) -> int:
    """`gradcli graph EXPR NAME=VALUE...`: the exit code (2 on any trouble)."""
    from gradcli.cli.answers import _report as report_error
    from gradcli.cli.bindings import ExpressionError, UsageError, read_expression, torch_error
    from gradcli.cli.derivatives import output_of
    from gradcli.engine import grad_api
    from gradcli.engine.errors import TorchError
    try:
        source = read_expression(expr)
        problem = problem_of(source)
        out = output_of(problem)
        if backward:
            try:
                grad_api.backward(out, None, retain_graph=True)
            except TorchError as error:
                raise torch_error(error) from None
    except (UsageError, ExpressionError, TorchError) as error:
        report_error("graph", torch_error(error) if isinstance(error, TorchError) else error)
        return 2
    name = source.text if len(source.text) <= 40 else "out"
    try:
        show(out, name, problem.values, problem.scope.printer, **options)
    except GraphError as error:
        return _report("graph", str(error))
    return 0


def parse_options(words: list[str]) -> tuple[str | None, dict]:
    """%graph's words: NAME and --format/-f, --output/-o, --max-nodes N, --no-collapse."""
    name, options = None, {}
    flags = {"--format": "fmt", "-f": "fmt", "--output": "output", "-o": "output",
             "--max-nodes": "max_nodes"}
    words = list(words)
    while words:
        word = words.pop(0)
        key, _, inline = word.partition("=")
        if key in flags:
            if not inline and not words:
                raise GraphError(f"{key} needs a value")
            value = inline or words.pop(0)
            if flags[key] == "max_nodes":
                try:
                    value = int(value)
                except ValueError:
                    raise GraphError(f"--max-nodes: expected a count, got '{value}'") from None
            options[flags[key]] = value
        elif word == "--no-collapse":
            options["collapse"] = False
        elif word.startswith("-") or name is not None:
            raise GraphError(f"%graph: unexpected '{word}'")
        else:
            name = word
    return name, options
