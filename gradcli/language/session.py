"""A Session runs program text against one environment; the CLI and the REPL both use it."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable

from gradcli.engine import creation
from gradcli.engine.state import STATE
from gradcli.language.interpreter import Compiler
from gradcli.language.parser import GradSyntaxError, parse
from gradcli.language.runtime import (BreakLoop, ContinueLoop, Frame, GradRuntimeError,
                                      ReturnValue, Runtime, Span)
from gradcli.language.torch_table import TORCH
from gradcli.language.values import Printer


@dataclass
class Outcome:
    """How a run ended: `error` is None, a GradSyntaxError or a GradRuntimeError."""

    error: GradSyntaxError | GradRuntimeError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class Session:
    """One program's state: variables, print options, grad mode, default dtype and generator."""

    def __init__(self, write: Callable[[str], None] = sys.stdout.write):
        self.write = write
        self.printer = Printer()
        self.runtime = Runtime(write=self._write, printer=self.printer)
        from gradcli.language import calls
        self.runtime.call = lambda fn, args, kwargs: calls.call(self.runtime, fn, args, kwargs)
        self.globals = Frame(names={"torch": TORCH})
        STATE.reset()
        creation.DEFAULT_GENERATOR.reset()

    def _write(self, text: str) -> None:
        self.write(text)

    def echo(self, value) -> None:
        self.write(self.printer.repr(value) + "\n")

    def run(self, source: str, *, echo: bool = False) -> Outcome:
        """Parse all of `source`, then run it statement by statement.

        A statement that fails leaves the variables as they were before it (in-place changes
        to tensors made before the failure stay, as they would in Python).
        """
        try:
            tree = parse(source)
            compiler = Compiler(self.runtime, echo=self.echo if echo else None)
            statements = [compiler.statement(t) for t in tree.children if t is not None]
        except GradSyntaxError as error:
            return Outcome(error)
        for statement in statements:
            snapshot = dict(self.globals.vars)
            try:
                statement(self.globals)
            except GradRuntimeError as error:
                self._restore(snapshot)
                return Outcome(error)
            except (BreakLoop, ContinueLoop, ReturnValue) as escape:
                self._restore(snapshot)
                word = {BreakLoop: "'break' outside loop", ContinueLoop: "'continue' not properly "
                        "in loop", ReturnValue: "'return' outside function"}[type(escape)]
                return Outcome(GradSyntaxError(word, 1, 1, 2))
            except RecursionError:
                self._restore(snapshot)
                return Outcome(GradRuntimeError(
                    "RecursionError", "maximum recursion depth exceeded", None))
            except KeyboardInterrupt:
                self._restore(snapshot)
                raise
        return Outcome()

    def _restore(self, snapshot: dict) -> None:
        self.globals.vars.clear()
        self.globals.vars.update(snapshot)


__all__ = ["Outcome", "Session", "Span"]
