"""Run-time structures shared by the interpreter and the builtins: frames, functions, signals."""

from __future__ import annotations

from gradcli.engine.records import field, record
from typing import Callable

from gradcli.engine import errors
from gradcli.language.runtime.wording import counted, missing_arguments

# Python's limit on nested calls (sys.getrecursionlimit()); the top level counts as one.
RECURSION_LIMIT = 1000


@record(frozen=True)
class Span:
    """Where a piece of source starts and ends (1-based lines and columns, end exclusive)."""

    line: int
    column: int
    end_line: int
    end_column: int


class Origin:
    """Where an operation was written: the file, the span, and the program text it is in. Made
    once when the expression is compiled; the engine keeps it on the nodes it builds."""

    __slots__ = ("filename", "line", "column", "end_line", "end_column", "source")

    def __init__(self, filename: str, span: Span, source: str):
        self.filename, self.source = filename, source
        self.line, self.column = span.line, span.column
        self.end_line, self.end_column = span.end_line, span.end_column

    @property
    def line_text(self) -> str:
        lines = self.source.split("\n")
        return lines[self.line - 1] if 0 < self.line <= len(lines) else ""

    @property
    def text(self) -> str:
        """The expression's source (its first line only, when it spans several)."""
        line = self.line_text
        end = self.end_column if self.end_line == self.line else len(line) + 1
        return line[self.column - 1:end - 1]

    @property
    def where(self) -> str:
        return f"{self.filename}:{self.line}:{self.column}"

    def __repr__(self) -> str:
        return f"Origin({self.where}: {self.text})"


class GradRuntimeError(Exception):
    """An error raised while running, with the span of the innermost expression being evaluated.

    `value` is the exception value a program raised or an `except` clause bound (made on first
    need), `value_args` its args when they are not just the message (a KeyError's key).
    """

    def __init__(self, kind: str, message: str, span: Span | None, value_args: tuple | None = None):
        super().__init__(message)
        self.kind, self.message, self.span = kind, message, span
        self.value_args, self.value = value_args, None
        self.notes: tuple = ()  # (text, Origin) pairs naming the other lines involved
        # What a NameError or an AttributeError failed to find, for Python's "Did you mean"
        # (language/suggestions.py) and the exception's `name` and `obj`: ("attribute", the
        # object, the name) or ("name", the name, the local names, the top-level frame)
        self.looked_up: tuple | None = None


class Frame:
    """A scope's names, inside the frame of the scope that encloses it (`root` is the top level)."""

    __slots__ = ("vars", "parent", "root")

    def __init__(self, parent: "Frame | None" = None, names: dict | None = None):
        self.vars = names if names is not None else {}
        self.parent = parent
        self.root = self if parent is None else parent.root

    def lookup(self, name: str):
        """The value bound to `name` here or in an enclosing frame; KeyError if none."""
        frame = self
        while frame is not None:
            found = frame.vars.get(name, frame)
            if found is not frame:
                return found
            frame = frame.parent
        raise KeyError(name)

    def up(self, hops: int) -> "Frame":
        frame = self
        for _ in range(hops):
            frame = frame.parent
        return frame


class Signal:
    """How a statement ends other than by falling through: `break` or `continue`."""

    __slots__ = ("word",)

    def __init__(self, word: str):
        self.word = word


BREAK, CONTINUE = Signal("break"), Signal("continue")


class Return:
    """A `return` statement's value, passed up through the enclosing blocks."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


@record(eq=False)
class UserFunction:
    """A `def` or `lambda`: parameters, defaults evaluated at definition, a body, its scope.

    `body(frame)` runs the function in a new frame and returns its result.
    """

    name: str
    qualname: str
    params: tuple[str, ...]
    defaults: dict
    body: Callable
    closure: "Frame"
    star: str | None = None
    star_star: str | None = None
    kwonly: tuple[str, ...] = ()
    generator: bool = False  # calling it makes a generator; the body runs as it is consumed
    posonly: int = 0  # the leading parameters that only positional arguments fill
    attrs: dict = field(default_factory=dict)  # attributes the program set (`f.calls = 0`)
    doc: object = None  # the docstring
    annotations: dict = field(default_factory=dict)  # __annotations__, evaluated by the def
    freevars: tuple = ()  # (name, hops) of the enclosing names its code reads, sorted by name

    def bind(self, args, kwargs: dict) -> dict:
        """The new frame's names, or TypeError with Python's wording."""
        params, title = self.params, self.qualname
        bound = dict(zip(params, args))
        if self.star is not None:
            bound[self.star] = tuple(args[len(params):])
        extra, positional_only = {}, params[:self.posonly]
        if positional_only and self.star_star is None and any(
                k in positional_only for k in kwargs):
            named = ", ".join(f"'{k}'" for k in kwargs if k in positional_only)
            raise errors.type_error(f"{title}() got some positional-only arguments passed as "
                                    f"keyword arguments: {named}")
        for key, value in kwargs.items():
            if key in positional_only:
                extra[key] = value
                continue
            if key not in params and key not in self.kwonly:
                if self.star_star is None:
                    raise errors.type_error(
                        f"{title}() got an unexpected keyword argument '{key}'")
                extra[key] = value
            elif key in bound:
                raise errors.type_error(f"{title}() got multiple values for argument '{key}'")
            else:
                bound[key] = value
        if len(args) > len(params) and self.star is None:  # after the keywords, as CPython
            raise errors.type_error(self._too_many(args, kwargs))
        # keyword-only arguments in `bound` would hide a missing positional one from the count
        if self.kwonly or len(bound) < len(params) + (self.star is not None):
            missing = [p for p in params if p not in bound and p not in self.defaults]
            if missing:
                raise errors.type_error(missing_arguments(title, missing))
            for p in params:
                if p not in bound:
                    bound[p] = self.defaults[p]
        if self.kwonly:
            missing = [p for p in self.kwonly if p not in bound and p not in self.defaults]
            if missing:
                raise errors.type_error(
                    missing_arguments(title, missing, "required keyword-only argument"))
            for p in self.kwonly:
                bound.setdefault(p, self.defaults.get(p))
        if self.star_star is not None:
            bound[self.star_star] = extra
        return bound

    def _too_many(self, args, kwargs: dict) -> str:
        """CPython's text for more positional arguments than parameters."""
        params = self.params
        positional_defaults = sum(1 for p in params if p in self.defaults)
        required = len(params) - positional_defaults
        takes = (f"from {required} to {len(params)} positional arguments"
                 if positional_defaults else counted(len(params), "positional argument"))
        keyword_only = sum(1 for k in kwargs if k in self.kwonly)
        if keyword_only:
            given = (f"{counted(len(args), 'positional argument')} (and "
                     f"{counted(keyword_only, 'keyword-only argument')}) were")
        else:
            given = "1 was" if len(args) == 1 else f"{len(args)} were"
        return f"{self.qualname}() takes {takes} but {given} given"


@record
class BoundMethod:
    """A table method bound to its receiver (`x.backward`)."""

    receiver: object
    builtin: object


@record
class ContextManager:
    """What `with` accepts: torch.no_grad() and friends."""

    enter: Callable
    exit: Callable
    label: str = "object"
    # A user's __exit__ told of an error leaving the block: whether it swallows the error.
    exit_with_error: Callable | None = None
    shown: str | None = None  # its repr, where not `<label object at 0x...>`


@record
class Runtime:
    """What builtins that need the interpreter get: output, printing and a way to call functions.

    `depth` counts the active calls, the top level being 1, as Python counts frames; `handling`
    holds the errors whose `except` blocks are running (a bare `raise` re-raises the last).
    """

    write: Callable[[str], None]
    printer: object
    call: Callable = None
    depth: int = 1
    recursion_limit: int = RECURSION_LIMIT
    handling: list = field(default_factory=list)
    line: int = 0  # the line of the statement running, where a warning is reported
    filename: str = "<eval>"  # the program being compiled, for the origins of its operations
    source: str = ""
    figures: object = None  # the session's matplotlib.pyplot state (namespaces/pyplot.Figures)
    saved: dict = field(default_factory=dict)  # torch.save's files, kept in memory for the run
    future: dict = field(default_factory=dict)  # torch.__future__'s switches, by name
    # The user functions running, outermost first: (name, origin of the call), for tracebacks
    calls: list = field(default_factory=list)
    # The same calls' (function, Frame), and the program's top-level Frame: inspect's frames
    frames: list = field(default_factory=list)
    globals: Frame | None = None
    lines_known: bool = False  # Python would show the program's lines in a traceback (a file)
    # contextlib.redirect_stdout's targets, innermost last: where print() sends its pieces
    stdout_targets: list = field(default_factory=list)

    def check_frame(self) -> None:
        """Python's RecursionError for a function (or comprehension) entered at the limit."""
        if self.depth >= self.recursion_limit:
            raise errors.TorchError("RecursionError", "maximum recursion depth exceeded")

    def check_native_call(self, frames: int = 1,
                          while_doing: str = "calling a Python object") -> None:
        """Python's RecursionError for a builtin (or a tensor operator) that goes `frames`
        deep, called at the depth limit."""
        if self.depth + frames > self.recursion_limit:
            raise errors.TorchError("RecursionError",
                                    f"maximum recursion depth exceeded while {while_doing}")

    def traceback(self, innermost: Origin | None) -> str:
        """The running calls as Python's traceback.format_stack() renders them, the innermost
        frame at `innermost` (the operation running now)."""
        names = ["<module>"] + [name for name, _ in self.calls]
        origins = [origin for _, origin in self.calls] + [innermost]
        lines = []
        for name, origin in zip(names, origins):
            if origin is None:
                continue
            path = origin.filename
            if not path.startswith("<"):
                from os.path import abspath  # a script's frames name it by its absolute path
                path = abspath(path)
            lines.append(f'  File "{path}", line {origin.line}, in {name}\n')
            text = origin.line_text.strip()
            if self.lines_known and text:
                lines.append(f"    {text}\n")
        return "".join(lines)
