"""Running a program for `run`/`eval`: output to stdout, one error report to stderr, an exit code."""

from __future__ import annotations

import gc
import sys
from contextlib import contextmanager

from gradcli.cli.limits import TimedOut

EXIT_OK, EXIT_NO, EXIT_TROUBLE, EXIT_INTERRUPTED = 0, 1, 2, 130
_SYNTAX_KINDS = ("SyntaxError", "IndentationError")


def run_source(source: str, filename: str, *, echo: bool, plots: str | None = None,
               after=None, explain=None) -> int:
    """Run a program, stream its output to stdout, report an error on stderr; the exit code.
    The figures it made are written into `plots` (a directory), or counted in a note.
    `after(session)`, when given, runs at the end of a program that did not fail; a non-zero
    code it returns is the exit code. With `explain` (a text stream), every backward pass is
    narrated there as it finishes."""
    with _collector_paused():  # start-up only makes objects that live on: none to collect
        from gradcli.cli.figures import FigureOutput
        from gradcli.engine.state import STATE
        from gradcli.language.session import Session
        from gradcli.language.syntax.parser import parser
        parser()
        out = sys.stdout
        session = Session(write=out.write)
    session.runtime.filename = filename
    STATE.flags["sys.argv"] = [filename]  # sys.argv: the script's name, no arguments
    figures = FigureOutput(plots)
    figures.attach(session.figures)
    path = filename
    if not filename.startswith("<"):  # a script knows its absolute path, as in Python, and its
        import os                     # warnings name it by that path
        path = os.path.abspath(filename)
        session.globals.vars["__file__"] = path
        session.runtime.lines_known = True
    STATE.warning_sink = _warning_writer(session.runtime, source, path)
    if explain is not None:
        from gradcli.cli.explain import Narrator, tensor_names
        STATE.backward_observer = Narrator(
            session.printer, lambda: tensor_names(session.globals.vars), explain)
    try:
        outcome = session.run(source, echo=echo)
    except TimedOut:
        raise
    except KeyboardInterrupt:
        return interrupted()
    out.flush()
    try:
        if outcome.ok:
            return (after(session) or EXIT_OK) if after is not None else EXIT_OK
        if outcome.error.kind == "SystemExit":  # exit(): Python's exit status, no report
            return _exit_status(outcome.error)
        from gradcli.cli.render import report_error
        report_error(outcome.error, source, filename)
        return EXIT_TROUBLE if outcome.error.kind in _SYNTAX_KINDS else EXIT_NO
    finally:
        STATE.backward_observer = None
        figures.finish(session.figures)


@contextmanager
def _collector_paused():
    """Python's cyclic garbage collector off for a while (it stays off if it was off); what was
    made meanwhile is moved out of its reach (gc.freeze), so no later collection walks it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def interrupted() -> int:
    """After Ctrl-C: what was printed so far, then `KeyboardInterrupt` as Python reports it
    (without the traceback); the exit code of a process ended by SIGINT."""
    sys.stdout.flush()
    sys.stderr.write("KeyboardInterrupt\n")
    return EXIT_INTERRUPTED


def _exit_status(error) -> int:
    """exit()/quit(): no code is 0, an int is itself, anything else is printed and gives 1."""
    code = error.value_args[0] if error.value_args else None
    if code is None:
        return EXIT_OK
    if isinstance(code, int) and not isinstance(code, bool):
        return code & 0xFF
    sys.stderr.write(f"{error.message}\n")
    return EXIT_NO


def _warning_writer(runtime, source: str, filename: str):
    """Warnings as Python shows them: `file:line: Category: message`, then the line's source
    when the program is a real file; once per line and text unless a filter says otherwise."""
    from gradcli.cli.render import warning_notes
    from gradcli.engine.state import STATE
    lines = source.splitlines() if not filename.startswith("<") else []
    shown: set = set()

    def write(category: str, message: str) -> None:
        line = runtime.line
        key = STATE.once_key(category, message, line)
        if key in shown:
            return
        if key is not None:
            shown.add(key)
        text = f"{filename}:{line}: {category}: {message}\n"
        if 0 < line <= len(lines) and lines[line - 1].strip():
            text += f"  {lines[line - 1].strip()}\n"
        sys.stderr.write(text + warning_notes())
    return write


def read_program(file: str) -> tuple[str, str] | None:
    """The text and display name of FILE ('-' is standard input), decoded as Python decodes a
    script; None, the reason written to stderr, if it cannot be read or decoded."""
    from gradcli.cli.source_files import SourceDecodeError, decode

    if file == "-":
        data, path = _stdin_bytes(), "<stdin>"
    else:
        try:
            with open(file, "rb") as handle:
                data = handle.read()
        except OSError as error:
            sys.stderr.write(f"gradcli: cannot open '{file}': {error.strerror}\n")
            return None
        import os
        path = os.path.abspath(file)
    try:
        return decode(data, path), "<stdin>" if file == "-" else file
    except SourceDecodeError as error:
        sys.stderr.write(f"SyntaxError: {error}\n")
        return None


def _stdin_bytes() -> bytes:
    """Standard input's bytes (its text, encoded back, where it has no byte stream)."""
    stream = getattr(sys.stdin, "buffer", None)
    return stream.read() if stream is not None else sys.stdin.read().encode("utf-8")


def without_command() -> int:
    """`gradcli` alone: the REPL on a terminal, otherwise standard input run as a program."""
    if sys.stdin.isatty():
        from gradcli.cli.repl.session import start_repl
        return start_repl()
    program = read_program("-")
    return EXIT_TROUBLE if program is None else run_source(*program, echo=False)
