"""Run-time structures shared by the interpreter and the builtins: frames, functions, control flow."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from gradcli.engine import errors


@dataclass(frozen=True)
class Span:
    """Where a piece of source starts and ends (1-based lines and columns, end exclusive)."""

    line: int
    column: int
    end_line: int
    end_column: int


class GradRuntimeError(Exception):
    """An error raised while running, with the span of the innermost expression being evaluated."""

    def __init__(self, kind: str, message: str, span: Span | None):
        super().__init__(message)
        self.kind, self.message, self.span = kind, message, span


class Frame:
    """A scope: its own names, then the enclosing scope's (lexical, as Python closures)."""

    __slots__ = ("vars", "parent")

    def __init__(self, parent: "Frame | None" = None, names: dict | None = None):
        self.vars = names if names is not None else {}
        self.parent = parent

    def lookup(self, name: str):
        frame = self
        while frame is not None:
            if name in frame.vars:
                return frame.vars[name]
            frame = frame.parent
        raise KeyError(name)


class BreakLoop(Exception):
    pass


class ContinueLoop(Exception):
    pass


class ReturnValue(Exception):
    def __init__(self, value):
        self.value = value


@dataclass
class UserFunction:
    """A `def` or `lambda`: parameters with defaults evaluated at definition, a body, its scope."""

    name: str
    params: tuple[str, ...]
    defaults: dict
    body: Callable
    closure: Frame
    is_lambda: bool = False

    def bind(self, args: list, kwargs: dict) -> dict:
        if len(args) > len(self.params):
            raise errors.type_error(
                f"{self.name}() takes {len(self.params)} positional argument"
                f"{'s' if len(self.params) != 1 else ''} but {len(args)} were given")
        bound = dict(zip(self.params, args))
        for key, value in kwargs.items():
            if key not in self.params:
                raise errors.type_error(f"{self.name}() got an unexpected keyword argument '{key}'")
            if key in bound:
                raise errors.type_error(f"{self.name}() got multiple values for argument '{key}'")
            bound[key] = value
        missing = [p for p in self.params if p not in bound and p not in self.defaults]
        if missing:
            names = " and ".join(f"'{m}'" for m in missing)
            raise errors.type_error(
                f"{self.name}() missing {len(missing)} required positional argument"
                f"{'s' if len(missing) != 1 else ''}: {names}")
        return {p: bound[p] if p in bound else self.defaults[p] for p in self.params}


@dataclass
class BoundMethod:
    """A table method bound to its receiver (`x.backward`)."""

    receiver: object
    builtin: object


@dataclass
class ContextManager:
    """What `with` accepts: torch.no_grad() and friends."""

    enter: Callable
    exit: Callable
    label: str = "object"


@dataclass
class Runtime:
    """What builtins that need the interpreter get: output, printing and a way to call functions."""

    write: Callable[[str], None]
    printer: object
    call: Callable = None
    depth: int = 0
    limits: dict = field(default_factory=lambda: {"recursion": 1000})
