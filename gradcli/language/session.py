"""A Session runs program text against one environment; the CLI and the REPL both use it."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from gradcli.engine.records import record
from typing import Callable

from gradcli.engine import creation
from gradcli.engine.state import STATE
from gradcli.language.runtime import calls
from gradcli.language.compiler.interpreter import Compiler
from gradcli.language.syntax.parser import GradSyntaxError, parse
from gradcli.language.runtime.frames import RECURSION_LIMIT, Frame, GradRuntimeError, Runtime, Span
from gradcli.language.namespaces import python_random
# Loaded for what it publishes in runtime/protocols.py, Tensor's attributes and methods (as
# torch_table, below, publishes the importable modules and loads builtins, which publishes
# Python's builtin names).
from gradcli.language.namespaces import tensor_table  # noqa: F401
from gradcli.language.namespaces import value_subclasses  # noqa: F401  (class S(str) and __new__)
from gradcli.language.namespaces.figure_registry import Figures
from gradcli.language.namespaces.torch_table import TORCH
from gradcli.language.runtime.values import Printer

# Host frames per language frame, with room to spare (measured: 4 to 8 for recursion through
# calls, comprehensions, builtins with key functions and `with` blocks), so that the language's
# own RecursionError always comes first.
HOST_FRAMES_PER_CALL = 40


@record
class Outcome:
    """How a run ended: `error` is None, a GradSyntaxError or a GradRuntimeError."""

    error: GradSyntaxError | GradRuntimeError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


@contextmanager
def host_recursion_limit(limit: int):
    """Let the host interpreter nest deeper while a program runs; restore it afterwards."""
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


class Session:
    """One program's state: variables, print options, grad mode, default dtype, generator and
    figures."""

    def __init__(self, write: Callable[[str], None] = sys.stdout.write):
        self.write = write
        self.printer = Printer()
        self.figures = Figures()  # what the program plots, for the command line to show
        self.runtime = Runtime(write=self._write, printer=self.printer, figures=self.figures)
        self.runtime.call = lambda fn, args, kwargs: calls.call(self.runtime, fn, args, kwargs)
        self.globals = Frame(names={"torch": TORCH, "__name__": "__main__"})
        self.runtime.globals = self.globals
        STATE.reset()
        STATE.forward_traceback = lambda: self.runtime.traceback(STATE.origin)
        creation.DEFAULT_GENERATOR.reset()
        python_random.reset()
        hooks = sys.modules.get("gradcli.language.namespaces.module_hooks")
        if hooks is not None:  # (never loaded: no program registered a global module hook)
            hooks.reset()

    def _write(self, text: str) -> None:
        self.write(text)

    def echo(self, value) -> None:
        self.write(self.printer.repr(value) + "\n")

    def run(self, source: str, *, echo: bool = False) -> Outcome:
        """Parse and compile all of `source`, then run it statement by statement.

        A statement that fails leaves the variables as they were before it (in-place changes
        to tensors made before the failure stay, as they would in Python). KeyboardInterrupt
        propagates, after the same rollback.
        """
        with host_recursion_limit(HOST_FRAMES_PER_CALL * RECURSION_LIMIT):
            self.runtime.source = source
            try:
                tree = parse(source)
                compiler = Compiler(self.runtime, echo=self.echo if echo else None)
                statements = [(t.meta.line, compiler.statement(t))
                              for t in tree.children if t is not None]
            except GradSyntaxError as error:
                return Outcome(error)
            except RecursionError:
                return Outcome(GradRuntimeError(
                    "RecursionError", "maximum recursion depth exceeded during compilation",
                    None))
            for line, statement in statements:
                self.runtime.line = line
                error = self._run_statement(statement)
                if error is not None:
                    return Outcome(error)
        return Outcome()

    def _run_statement(self, statement) -> GradRuntimeError | None:
        snapshot = dict(self.globals.vars)
        self.runtime.depth = 1
        try:
            statement(self.globals)
            return None
        except GradRuntimeError as error:
            failure = error
        except RecursionError:
            failure = GradRuntimeError("RecursionError", "maximum recursion depth exceeded", None)
        except MemoryError:
            failure = GradRuntimeError("MemoryError", "", None)
        except KeyboardInterrupt:
            self._restore(snapshot)
            raise
        self._restore(snapshot)
        return failure

    def _restore(self, snapshot: dict) -> None:
        self.globals.vars.clear()
        self.globals.vars.update(snapshot)


__all__ = ["Outcome", "Session", "Span"]
