"""The `gradcli` command: thin typer commands over Session, with one exit-code table."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from gradcli.cli.runner import EXIT_NO, EXIT_OK, EXIT_TROUBLE, read_program, run_source

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
    if ctx.invoked_subcommand is not None:
        return
    if sys.stdin.isatty():
        from gradcli.cli.repl.session import start_repl
        raise typer.Exit(start_repl())
    raise typer.Exit(run_source(sys.stdin.read(), "<stdin>", echo=False))


@app.command()
def run(file: Annotated[str, typer.Argument(help="Script to run; '-' reads standard input.")]):
    """Run a script as `python FILE` would, printing what torch prints."""
    source, filename = _read_source(file)
    raise typer.Exit(run_source(source, filename, echo=False))


@app.command("eval")
def eval_command(program: Annotated[str, typer.Argument(
        help="Program text; statements separated by ';' or newlines. '-' reads standard input.")]):
    """Run program text and echo each expression statement's value, as Python's REPL does."""
    source, filename = (sys.stdin.read(), "<stdin>") if program == "-" else (program, "<eval>")
    raise typer.Exit(run_source(source, filename, echo=True))
