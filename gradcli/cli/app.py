"""The `gradcli` command: thin typer commands over Session, with one exit-code table."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from gradcli.cli.runner import (EXIT_NO, EXIT_OK, EXIT_TROUBLE, read_program, run_source,
                                without_command)

EXIT_CODES_HELP = (
    "Exit codes: 0 success; 1 the answer is no (run/eval: the program raised an error, as python "
    "exits 1; check: a gradient mismatch); 2 trouble (syntax or usage error; for grad, check, "
    "jacobian and hessian also an error evaluating the expression).")

app = typer.Typer(
    name="gradcli", add_completion=False, pretty_exceptions_enable=False,
    no_args_is_help=False, invoke_without_command=True,
    help="PyTorch's autograd in the terminal, without PyTorch.\n\n" + EXIT_CODES_HELP,
    context_settings={"help_option_names": ["-h", "--help"]})


def _read_source(file: str) -> tuple[str, str]:
    program = read_program(file)
    if program is None:
        raise typer.Exit(EXIT_TROUBLE)
    return program


@app.callback()
def main_callback(ctx: typer.Context) -> None:
    """Without a command: the REPL on a terminal, otherwise run standard input as a program."""
    if ctx.invoked_subcommand is None:
        raise typer.Exit(without_command())


Plots = Annotated[Optional[str], typer.Option(
    "--plots", metavar="DIR", help="Write each matplotlib figure the program shows, saves or "
    "leaves open into DIR as an SVG file (savefig's name, else figure-N.svg).")]


@app.command()
def run(file: Annotated[str, typer.Argument(help="Script to run; '-' reads standard input.")],
        plots: Plots = None,
        explain: Annotated[bool, typer.Option(
            "--explain", help="Narrate every backward pass the program makes (backward(), "
            "autograd.grad) on stderr, step by step as `gradcli explain` does; stdout is "
            "unchanged.")] = False,
        explain_to: Annotated[Optional[str], typer.Option(
            "--explain-to", metavar="FILE", help="Write the narration into FILE instead of "
            "stderr (implies --explain).")] = None):
    """Run a script as `python FILE` would, printing what torch prints."""
    source, filename = _read_source(file)
    if explain_to is not None:
        with open(explain_to, "w", encoding="utf-8") as stream:
            raise typer.Exit(run_source(source, filename, echo=False, plots=plots,
                                        explain=stream))
    raise typer.Exit(run_source(source, filename, echo=False, plots=plots,
                                explain=sys.stderr if explain else None))


@app.command("eval")
def eval_command(program: Annotated[str, typer.Argument(
        help="Program text; statements separated by ';' or newlines. '-' reads standard input.")],
        plots: Plots = None):
    """Run program text and echo each expression statement's value, as Python's REPL does."""
    source, filename = (sys.stdin.read(), "<stdin>") if program == "-" else (program, "<eval>")
    raise typer.Exit(run_source(source, filename, echo=True, plots=plots))


@app.command()
def repl():
    """Open the interactive session (what `gradcli` alone does on a terminal)."""
    from gradcli.cli.repl.session import start_repl
    raise typer.Exit(start_repl())


# ---- derivatives: grad, jacobian, hessian, check ------------------------------------------------

_STATUS_EXIT = {"ok": EXIT_OK, "mismatch": EXIT_NO, "error": EXIT_TROUBLE}

Expr = Annotated[str, typer.Argument(
    metavar="EXPR", help="Expression of the bound names, e.g. 'sin(x) * x**2' (torch's functions "
    "need no `torch.` prefix); '-' reads standard input.")]
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


def _answer(command: str, expr: str, work, as_json: bool, quiet: bool) -> None:
    """Run a derivative command's `work(source)` and exit with its status's code."""
    from gradcli.cli.answers import execute
    from gradcli.cli.bindings import read_expression
    source = read_expression(expr)
    status = execute(command, source.text, lambda: work(source), as_json=as_json, quiet=quiet)
    raise typer.Exit(_STATUS_EXIT[status])


def _problem(source, bindings, wrt, dtype):
    from gradcli.cli import bindings as binding_args
    return binding_args.build_problem(source, bindings or [], wrt=wrt,
                                      dtype=binding_args.parse_dtype(dtype))


@app.command(epilog=EXIT_CODES_HELP)
def grad(expr: Expr, bindings: Bindings = None, wrt: Wrt = None, dtype: Dtype = None,
         gradient: Annotated[Optional[str], typer.Option(
             help="Backpropagate this tensor from a non-scalar EXPR, as out.backward(VALUE).")]
         = None, as_json: AsJson = False, quiet: Quiet = False):
    """EXPR's value, then NAME.grad for each input, as torch prints them."""
    from gradcli.cli import derivatives
    from gradcli.cli.bindings import Source
    vector = None if gradient is None else Source(gradient, "<--gradient>")
    _answer("grad", expr, lambda source: derivatives.grad(
        _problem(source, bindings, wrt, dtype), vector), as_json, quiet)


@app.command(epilog=EXIT_CODES_HELP)
def explain(expr: Expr, bindings: Bindings = None, wrt: Wrt = None, dtype: Dtype = None,
            gradient: Annotated[Optional[str], typer.Option(
                help="Backpropagate this tensor from a non-scalar EXPR, as out.backward(VALUE).")]
            = None, as_json: AsJson = False, quiet: Quiet = False):
    """grad, narrated: each node of the backward pass in the engine's order, with the gradient it
    got, its rule, the saved values it read, what it sent to each input, and how each .grad
    accumulated (--json: the steps as data, schemas/explain.schema.json)."""
    from gradcli.cli import derivatives
    from gradcli.cli.bindings import Source
    vector = None if gradient is None else Source(gradient, "<--gradient>")
    _answer("explain", expr, lambda source: derivatives.explain(
        _problem(source, bindings, wrt, dtype), vector), as_json, quiet)


@app.command(epilog=EXIT_CODES_HELP)
def jacobian(expr: Expr, bindings: Bindings = None, wrt: Wrt = None, dtype: Dtype = None,
             as_json: AsJson = False, quiet: Quiet = False):
    """d EXPR / d input, as torch.autograd.functional.jacobian computes it."""
    from gradcli.cli import derivatives
    _answer("jacobian", expr, lambda source: derivatives.jacobian(
        _problem(source, bindings, wrt, dtype)), as_json, quiet)


@app.command(epilog=EXIT_CODES_HELP)
def hessian(expr: Expr, bindings: Bindings = None, wrt: Wrt = None, dtype: Dtype = None,
            as_json: AsJson = False, quiet: Quiet = False):
    """Second derivatives of a scalar EXPR, as torch.autograd.functional.hessian computes them."""
    from gradcli.cli import derivatives
    _answer("hessian", expr, lambda source: derivatives.hessian(
        _problem(source, bindings, wrt, dtype)), as_json, quiet)


@app.command(epilog=EXIT_CODES_HELP)
def check(
        expr: Expr, bindings: Bindings = None, wrt: Wrt = None,
        expect: Annotated[Optional[list[str]], typer.Option(
            metavar="'NAME: EXPR'", help="A hand-derived derivative of EXPR with respect to NAME, "
            "compared with autograd at the same points (repeatable).")] = None,
        range_: Annotated[Optional[list[str]], typer.Option(
            "--range", metavar="NAME=LO:HI", help="Draw NAME uniformly from [LO, HI) at each "
            "sample point (repeatable).")] = None,
        samples: Annotated[int, typer.Option(help="How many random points (needs --range).")] = 1,
        seed: Annotated[int, typer.Option(help="Seed of numpy's default_rng for the points.")] = 0,
        eps: Annotated[float, typer.Option(help="Finite-difference step.")] = 1e-6,
        atol: Annotated[float, typer.Option(help="Absolute tolerance.")] = 1e-5,
        rtol: Annotated[float, typer.Option(help="Relative tolerance.")] = 1e-3,
        as_json: AsJson = False, quiet: Quiet = False):
    """Autograd (float64) against central finite differences, and against --expect formulas,
    for every input element; defaults as torch.autograd.gradcheck. Exit 1 on a mismatch."""
    from gradcli.cli import bindings as binding_args, derivatives
    from gradcli.engine import dtypes

    def work(source):
        ranges = [binding_args.parse_range(text) for text in range_ or []]
        formulas = {}
        for text in expect or []:
            name, formula = binding_args.split_pair(text, ":", "--expect 'NAME: EXPR'")
            formulas[name] = binding_args.Source(formula, f"<--expect {name}>")
        problem = binding_args.build_problem(source, bindings or [], wrt=wrt,
                                             dtype=dtypes.float64,
                                             extra={name: 0.0 for name, _, _ in ranges})
        return derivatives.check(problem, derivatives.Tolerances(eps, atol, rtol), formulas,
                                 ranges, samples, seed)
    _answer("check", expr, work, as_json, quiet)
