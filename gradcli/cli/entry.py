"""The console entry point: a fast path for `run`/`eval`, typer for everything else, no tracebacks."""

from __future__ import annotations

import os
import sys

from gradcli.cli.limits import set_memory_limit
from gradcli.cli.numpy_docs import leave_out_docstrings
from gradcli.cli.runner import (EXIT_NO, EXIT_TROUBLE, interrupted, read_program, run_source,
                                without_command)


def _fast_path(argv: list[str]) -> int | None:
    """`gradcli`, `gradcli repl`, `gradcli run FILE`, `gradcli eval PROGRAM` and the derivative
    commands with only EXPR and NAME=VALUE bindings skip loading typer (about half of
    start-up); anything else, including --help, goes through the typer app."""
    set_memory_limit(None)  # the default share of the machine's memory
    if not argv:
        return without_command()
    if argv == ["repl"]:
        from gradcli.cli.repl.session import start_repl
        return start_repl()
    if len(argv) >= 2 and argv[0] in ("grad", "explain", "jacobian", "hessian", "check") and \
            not any(argument.startswith("-") for argument in argv[1:]):
        from gradcli.cli import derivative_work as work
        return work.answer(argv[0], argv[1], work.PLAIN[argv[0]](argv[2:]))
    if len(argv) != 2 or argv[0] not in ("run", "eval") or argv[1] == "-h" or (
            argv[1].startswith("--")):  # a program may start with '-' (eval '-x'), not '--'
        return None
    if argv[0] == "eval" and argv[1] != "-":
        return run_source(argv[1], "<eval>", echo=True)
    program = read_program(argv[1])
    if program is None:
        return EXIT_TROUBLE
    return run_source(*program, echo=argv[0] == "eval")


def main() -> None:
    """Run the command line; anything unexpected becomes a one-line internal-error message."""
    leave_out_docstrings()
    try:
        code = _fast_path(sys.argv[1:])
        if code is not None:
            _leave(code)
        from gradcli.cli.app import app
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(interrupted())
    except BrokenPipeError:  # the reader went away (`gradcli run f.py | head`): stop quietly,
        _discard_stdout()     # with the status Python's own exit has then
        sys.exit(EXIT_NO)
    except Exception as error:  # a bug in gradcli: say so in one line, never a traceback
        sys.stderr.write(f"gradcli: internal error: {type(error).__name__}: {error}\n")
        sys.exit(EXIT_TROUBLE)


def _leave(code: int) -> None:
    """End the process with `code` once its output is flushed, without taking its objects apart:
    none holds anything outside the process (a program's files are in memory, its figures are
    written), and freeing a graph of a million nodes one object at a time takes seconds."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _discard_stdout() -> None:
    """Point standard output at the null device, so that the flush at exit does not fail too."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
