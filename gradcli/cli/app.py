"""The `gradcli` command: thin typer commands over Session, with one exit-code table."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from gradcli.cli import derivative_work as work, limits
from gradcli.cli.parsing import Command, Group, StatementCommand
from gradcli.cli.runner import (EXIT_OK, EXIT_TROUBLE, read_program, run_source,
                                without_command)

EXIT_CODES_HELP = (
    "Exit codes: 0 success; 1 the answer is no (run/eval: the program raised an error, as python "
    "exits 1; check: a gradient mismatch); 2 trouble (syntax or usage error; for grad, check, "
    "jacobian and hessian also an error evaluating the expression).")

app = typer.Typer(
    name="gradcli", cls=Group, add_completion=False, pretty_exceptions_enable=False,
    no_args_is_help=False, invoke_without_command=True,
    help="PyTorch's autograd in the terminal, without PyTorch.\n\n" + EXIT_CODES_HELP,
    context_settings={"help_option_names": ["-h", "--help"]})


def _read_source(file: str) -> tuple[str, str]:
    program = read_program(file)
    if program is None:
        raise typer.Exit(EXIT_TROUBLE)
    return program


def _print_version(wanted: bool) -> None:
    if wanted:
        from gradcli import __version__
        sys.stdout.write(f"gradcli {__version__}\n")
        raise typer.Exit(EXIT_OK)


@app.callback()
def main_callback(ctx: typer.Context, version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_print_version,
        help="Print gradcli's version and exit.")] = False) -> None:
    """Without a command: the REPL on a terminal, otherwise run standard input as a program."""
    if ctx.invoked_subcommand is None:
        raise typer.Exit(without_command())


# Every command takes these two; parsing.Command applies them around the command, so the
# command's own code never reads them (the REPL's --timeout, per statement, excepted).
Timeout = Annotated[Optional[float], typer.Option("--timeout", **limits.TIMEOUT_OPTION)]
MaxMemory = Annotated[Optional[str], typer.Option("--max-memory", **limits.MAX_MEMORY_OPTION)]
Plots = Annotated[Optional[str], typer.Option(
    "--plots", metavar="DIR", help="Write each matplotlib figure the program shows, saves or "
    "leaves open into DIR as an SVG file (savefig's name, else figure-N.svg).")]


GraphFormat = Annotated[Optional[str], typer.Option(
    "--format", "-f", metavar="FORMAT", help="tree, dot (Graphviz text, torchviz's style), "
    "mermaid (a flowchart Markdown viewers draw), svg or png (drawn by Graphviz's `dot` into "
    "--output). Default: from --output's suffix, else tree on a terminal and dot elsewhere.")]
GraphOutput = Annotated[Optional[str], typer.Option(
    "--output", "-o", metavar="FILE", help="Write the graph to FILE instead of stdout.")]
MaxNodes = Annotated[int, typer.Option(
    "--max-nodes", metavar="N", help="Show at most about N nodes; the rest becomes one node.")]
NoCollapse = Annotated[bool, typer.Option(
    "--no-collapse", help="Draw every repetition of a repeated chain (a loop's steps).")]


@app.command(cls=Command)
def run(file: Annotated[str, typer.Argument(help="Script to run; '-' reads standard input.")],
        plots: Plots = None,
        graph: Annotated[Optional[str], typer.Option(
            "--graph", metavar="NAME", help="At the end, show the backward graph of the tensor "
            "variable NAME (see --format, --output).")] = None,
        fmt: GraphFormat = None, output: GraphOutput = None, max_nodes: MaxNodes = 200,
        no_collapse: NoCollapse = False,
        explain: Annotated[bool, typer.Option(
            "--explain", help="Narrate every backward pass the program makes (backward(), "
            "autograd.grad) on stderr, step by step as `gradcli explain` does; stdout is "
            "unchanged.")] = False,
        explain_to: Annotated[Optional[str], typer.Option(
            "--explain-to", metavar="FILE", help="Write the narration into FILE instead of "
            "stderr (implies --explain).")] = None,
        timeout: Timeout = None, max_memory: MaxMemory = None):
    """Run a script as `python FILE` would, printing what torch prints."""
    source, filename = _read_source(file)
    after = None
    if graph is not None:
        from gradcli.cli.graphs.output import session_graph
        after = session_graph(graph, fmt=fmt, output=output, max_nodes=max_nodes,
                              collapse=not no_collapse)
    if explain_to is not None:
        with open(explain_to, "w", encoding="utf-8") as stream:
            raise typer.Exit(run_source(source, filename, echo=False, plots=plots, after=after,
                                        explain=stream))
    raise typer.Exit(run_source(source, filename, echo=False, plots=plots, after=after,
                                explain=sys.stderr if explain else None))


@app.command("eval", cls=Command)
def eval_command(program: Annotated[str, typer.Argument(
        metavar="PROGRAM", help="Program text; statements separated by ';' or newlines (it "
        "may start with '-': eval '-x'). '-' reads standard input.")],
        plots: Plots = None, timeout: Timeout = None, max_memory: MaxMemory = None):
    """Run program text and echo each expression statement's value, as Python's REPL does."""
    source, filename = (sys.stdin.read(), "<stdin>") if program == "-" else (program, "<eval>")
    raise typer.Exit(run_source(source, filename, echo=True, plots=plots))


@app.command(cls=StatementCommand)
def repl(timeout: Timeout = None, max_memory: MaxMemory = None):
    """Open the interactive session (what `gradcli` alone does on a terminal)."""
    from gradcli.cli.repl.session import start_repl
    raise typer.Exit(start_repl(timeout=timeout))


# ---- derivatives: grad, jacobian, hessian, check ------------------------------------------------

Expr = Annotated[str, typer.Argument(
    metavar="EXPR", help="Expression of the bound names, e.g. 'sin(x) * x**2' (torch's functions "
    "need no `torch.` prefix); it may start with '-' ('-x**2'); '-' reads standard input.")]
Bindings = Annotated[Optional[list[str]], typer.Argument(
    metavar="NAME=VALUE", show_default=False, help="Leaf tensors: a number, a nested list "
    "(both become floating point) or any expression, e.g. x=3 w='[1, 2]' t='torch.ones(3)'.")]
Wrt = Annotated[Optional[str], typer.Option(
    "--wrt", metavar="A,B", help="Inputs that require grad (default: every floating binding).")]
Dtype = Annotated[Optional[str], typer.Option(
    "--dtype", help="Floating dtype for the bindings, e.g. float64 (default: float32).")]
AsJson = Annotated[bool, typer.Option(
    "--json", help="One JSON document on stdout (schemas/gradcli-output.schema.json).")]
Quiet = Annotated[bool, typer.Option(
    "-q", "--quiet", help="Nothing on stdout: the exit code answers (errors still go to stderr).")]


@app.command(cls=Command, epilog=EXIT_CODES_HELP)
def grad(expr: Expr, bindings: Bindings = None, wrt: Wrt = None, dtype: Dtype = None,
         gradient: Annotated[Optional[str], typer.Option(
             help="Backpropagate this tensor from a non-scalar EXPR, as out.backward(VALUE).")]
         = None, as_json: AsJson = False, quiet: Quiet = False,
         timeout: Timeout = None, max_memory: MaxMemory = None):
    """EXPR's value, then NAME.grad for each input, as torch prints them."""
    raise typer.Exit(work.answer("grad", expr, work.grad_work(bindings, wrt, dtype, gradient),
                                 as_json, quiet))


@app.command("graph", cls=Command, epilog=EXIT_CODES_HELP)
def graph_command(expr: Expr, bindings: Bindings = None, wrt: Wrt = None, dtype: Dtype = None,
                  fmt: GraphFormat = None, output: GraphOutput = None,
                  max_nodes: MaxNodes = 200, no_collapse: NoCollapse = False,
                  backward: Annotated[bool, typer.Option(
                      "--backward", help="Run EXPR.backward(retain_graph=True) first, so the "
                      "leaves show their .grad.")] = False,
                  timeout: Timeout = None, max_memory: MaxMemory = None):
    """The backward graph of EXPR over its NAME=VALUE leaves: a tree, DOT, Mermaid, SVG or PNG."""
    from gradcli.cli.graphs.output import expression_graph
    raise typer.Exit(expression_graph(
        expr, lambda source: work.problem(source, bindings, wrt, dtype), fmt=fmt, output=output,
        max_nodes=max_nodes, collapse=not no_collapse, backward=backward))


@app.command(cls=Command, epilog=EXIT_CODES_HELP)
def plot(expr: Expr, bindings: Bindings = None,
         range_: Annotated[str, typer.Option(
             "--range", metavar="NAME=LO:HI", help="The input plotted along x and its range.")]
         = ...,
         order: Annotated[int, typer.Option(
             help="1: f and f'; 2: also f''.")] = 1,
         expect: Annotated[Optional[str], typer.Option(
             metavar="'NAME: EXPR'", help="A hand-derived f' drawn on top; points where it "
             "differs from autograd are marked X and the exit code is 1.")] = None,
         output: Annotated[Optional[str], typer.Option(
             "--output", "-o", metavar="FILE.svg", help="Write an SVG picture instead.")] = None,
         points: Annotated[Optional[int], typer.Option(
             help="Sample points (default: one per column, 400 for --output).")] = None,
         width: Annotated[Optional[int], typer.Option(help="Columns of the text plot.")] = None,
         height: Annotated[Optional[int], typer.Option(help="Rows of the text plot.")] = None,
         quiet: Quiet = False, timeout: Timeout = None, max_memory: MaxMemory = None):
    """f = EXPR and its derivative(s) by autograd (float64) over --range, in the terminal as
    text or into an SVG file; --expect overlays a hand-derived derivative. Exit 1 on a mismatch."""
    from gradcli.cli import bindings as binding_args, function_plot
    from gradcli.cli.answers import _report
    from gradcli.cli.bindings import ExpressionError, UsageError, torch_error
    from gradcli.engine import dtypes
    from gradcli.engine.errors import TorchError
    try:
        source = binding_args.read_expression(expr)
        name, low, high = binding_args.parse_range(range_)
        formula = None
        if expect is not None:
            expect_name, text = binding_args.split_pair(expect, ":", "--expect 'NAME: EXPR'")
            if expect_name != name:
                raise UsageError(f"--expect: '{expect_name}' is not the plotted input '{name}'")
            formula = binding_args.Source(text, f"<--expect {name}>")
        problem = binding_args.build_problem(source, bindings or [], wrt=name,
                                             dtype=dtypes.float64, extra={name: 0.0})
        count = points or (400 if output else function_plot.terminal_size(width, height)[0])
        if count < 2:
            raise UsageError("--points: expected at least 2")
        answer = function_plot.compute(problem, name, low, high, count, order, formula)
        function_plot.write(answer, output, width or (count if not output else None), height,
                            quiet)
    except (UsageError, ExpressionError, TorchError) as error:
        _report("plot", torch_error(error) if isinstance(error, TorchError) else error)
        raise typer.Exit(EXIT_TROUBLE)
    raise typer.Exit(work.STATUS_EXIT[answer.status])


@app.command(cls=Command, epilog=EXIT_CODES_HELP)
def explain(expr: Expr, bindings: Bindings = None, wrt: Wrt = None, dtype: Dtype = None,
            gradient: Annotated[Optional[str], typer.Option(
                help="Backpropagate this tensor from a non-scalar EXPR, as out.backward(VALUE).")]
            = None, as_json: AsJson = False, quiet: Quiet = False,
            timeout: Timeout = None, max_memory: MaxMemory = None):
    """grad, narrated: each node of the backward pass in the engine's order, with the gradient it
    got, its rule, the saved values it read, what it sent to each input, and how each .grad
    accumulated (--json: the steps as data, schemas/explain.schema.json)."""
    raise typer.Exit(work.answer("explain", expr, work.explain_work(bindings, wrt, dtype, gradient),
                                 as_json, quiet))


@app.command(cls=Command, epilog=EXIT_CODES_HELP)
def jacobian(expr: Expr, bindings: Bindings = None, wrt: Wrt = None, dtype: Dtype = None,
             as_json: AsJson = False, quiet: Quiet = False,
             timeout: Timeout = None, max_memory: MaxMemory = None):
    """d EXPR / d input, as torch.autograd.functional.jacobian computes it."""
    raise typer.Exit(work.answer("jacobian", expr, work.jacobian_work(bindings, wrt, dtype),
                                 as_json, quiet))


@app.command(cls=Command, epilog=EXIT_CODES_HELP)
def hessian(expr: Expr, bindings: Bindings = None, wrt: Wrt = None, dtype: Dtype = None,
            as_json: AsJson = False, quiet: Quiet = False,
            timeout: Timeout = None, max_memory: MaxMemory = None):
    """Second derivatives of a scalar EXPR, as torch.autograd.functional.hessian computes them."""
    raise typer.Exit(work.answer("hessian", expr, work.hessian_work(bindings, wrt, dtype),
                                 as_json, quiet))


@app.command(cls=Command, epilog=EXIT_CODES_HELP)
def check(
        expr: Expr, bindings: Bindings = None, wrt: Wrt = None,
        expect: Annotated[Optional[list[str]], typer.Option(
            metavar="'NAME: EXPR'", help="A hand-derived derivative of EXPR with respect to NAME, "
            "compared with autograd at the same points (repeatable).")] = None,
        range_: Annotated[Optional[list[str]], typer.Option(
            "--range", metavar="NAME=LO:HI", help="Draw NAME uniformly from [LO, HI) at each "
            "sample point (repeatable).")] = None,
        samples: Annotated[int, typer.Option(
            help="How many random points (needs --range).")] = work.CHECK_SAMPLES,
        seed: Annotated[int, typer.Option(
            help="Seed of numpy's default_rng for the points.")] = work.CHECK_SEED,
        eps: Annotated[Optional[float], typer.Option(
            help="Finite-difference step, > 0 (default 1e-6 in float64).")] = None,
        atol: Annotated[Optional[float], typer.Option(
            help="Absolute tolerance, >= 0 (default 1e-5 in float64).")] = None,
        rtol: Annotated[Optional[float], typer.Option(
            help="Relative tolerance, >= 0 (default 1e-3 in float64).")] = None,
        jobs: Annotated[Optional[int], typer.Option(
            help="Processes for many --samples points (default: the CPU count; results are "
            "the same as with 1, which uses no other process).")] = None,
        as_json: AsJson = False, quiet: Quiet = False,
        timeout: Timeout = None, max_memory: MaxMemory = None):
    """Autograd against finite differences and --expect formulas; exit 1 on a mismatch.

    Compares every input element in float64: inputs, and the tensors EXPR makes, are float64,
    as after torch.set_default_dtype(torch.float64); the defaults are torch.autograd.gradcheck's.
    Should EXPR compute in float32 or float16 (an explicit dtype=), the report says so and the
    defaults fit that precision: a step of cbrt(machine epsilon) * max(1, |x|), atol = rtol =
    twice cbrt(machine epsilon)."""
    raise typer.Exit(work.answer("check", expr, work.check_work(
        bindings, wrt, expect, range_, samples, seed, eps, atol, rtol, jobs), as_json, quiet))
