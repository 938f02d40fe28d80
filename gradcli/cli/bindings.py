"""Derivative commands' arguments: EXPR and NAME=VALUE leaves via the language, --wrt, ranges."""

from __future__ import annotations

import gc
import keyword
import math
import sys
from collections.abc import Mapping
from gradcli.engine.records import field, record
from typing import Callable

from gradcli.engine import creation, dtypes, grad_api
from gradcli.engine.errors import TorchError
from gradcli.engine.state import STATE, default_dtype, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.builtins import PY_BUILTINS
from gradcli.language.compiler.interpreter import Compiler
from gradcli.language.syntax.parser import GradSyntaxError, parse_expression
from gradcli.language.runtime.frames import Frame, GradRuntimeError
from gradcli.language.session import Session
from gradcli.language.runtime.signatures import Builtin
from gradcli.language.namespaces.torch_table import MODULES

# Namespaces whose functions EXPR may call without a prefix; earlier ones win a clash, and Python's
# builtins (sum, abs, max, ...) win over both, as in a Python program.
BARE_FUNCTION_MODULES = ("torch", "torch.nn.functional")
FUNCTIONAL_ALIAS = "F"  # torch.nn.functional, as `import torch.nn.functional as F` names it


class UsageError(Exception):
    """A malformed command line (exit 2), reported as `gradcli COMMAND: message`."""


@record(frozen=True)
class Source:
    """A piece of text the user gave, and the name it goes by in error reports."""

    text: str
    filename: str


class ExpressionError(Exception):
    """A syntax or runtime error in one of the user's expressions, with that expression's source."""

    def __init__(self, error: GradSyntaxError | GradRuntimeError, source: Source | None,
                 hint: str | None = None):
        super().__init__(error.message)
        self.error, self.source, self.hint = error, source, hint


def torch_error(error: TorchError, hint: str | None = None) -> ExpressionError:
    """An engine error raised outside any expression (backward, grad), without a position."""
    return ExpressionError(GradRuntimeError(error.kind, error.message, None), None, hint)


class BareFunctions(Mapping):
    """torch's functions under their bare names (sin -> torch.sin), and F, for EXPR and VALUEs;
    each name is looked up in the module tables when used, so only the areas it needs load."""

    def __getitem__(self, name: str):
        if name == FUNCTIONAL_ALIAS and "torch.nn.functional" in MODULES:
            return MODULES["torch.nn.functional"]
        if name not in PY_BUILTINS:
            for module in BARE_FUNCTION_MODULES:
                namespace = MODULES.get(module)
                value = namespace.table.get(name) if namespace is not None else None
                if isinstance(value, Builtin):
                    return value
        raise KeyError(name)

    def __iter__(self):
        names = {FUNCTIONAL_ALIAS} if "torch.nn.functional" in MODULES else set()
        for module in BARE_FUNCTION_MODULES:
            namespace = MODULES.get(module)
            if namespace is not None:
                names.update(name for name in namespace.table if name in self)
        return iter(sorted(names))

    def __len__(self) -> int:
        return sum(1 for _ in self)


class Scope:
    """A Session plus a frame of bare torch functions; compiles the user's expressions over it.
    With `dtype`, every expression evaluates as if torch.set_default_dtype(dtype) were in effect
    (the default is restored after each evaluation)."""

    def __init__(self, dtype: dtypes.DType | None = None) -> None:
        self.session = Session(write=sys.stderr.write)
        gc.freeze()  # the loaded tables live on: no collection needs to walk them again
        self.default_dtype = dtype
        self.functions = Frame(self.session.globals, BareFunctions())
        self.compiler = Compiler(self.session.runtime)

    def compile(self, source: Source) -> Callable[[dict], object]:
        """`source` as a function of the bound values; raises ExpressionError."""
        runtime = self.session.runtime
        runtime.filename, runtime.source = source.filename, source.text  # the ops' origins
        try:
            closure = self.compiler.expression(parse_expression(source.text))
        except GradSyntaxError as error:
            raise ExpressionError(error, source) from None

        def evaluate(values: dict):
            try:
                with default_dtype(self.default_dtype or STATE.default_dtype):
                    return closure(Frame(self.functions, dict(values)))
            except GradRuntimeError as error:
                raise ExpressionError(error, source) from None
            except RecursionError:
                raise ExpressionError(GradRuntimeError(
                    "RecursionError", "maximum recursion depth exceeded", None), source) from None
        return evaluate

    @property
    def printer(self):
        return self.session.printer


def identifier(name: str, what: str) -> str:
    """`name` if it can name a binding, else a UsageError mentioning `what`."""
    name = name.strip()
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("__"):
        raise UsageError(f"{what}: '{name}' is not a valid name")
    return name


def split_pair(text: str, separator: str, form: str) -> tuple[str, str]:
    """'NAME<sep>REST' -> (NAME, REST), or a UsageError quoting the expected `form`."""
    name, found, rest = text.partition(separator)
    if not found or not rest.strip():
        raise UsageError(f"expected {form}, got '{text}'")
    return identifier(name, form), rest.strip()


def parse_dtype(name: str | None) -> dtypes.DType | None:
    """--dtype float64 (or torch.float64): a floating dtype, or None for the default."""
    if name is None:
        return None
    dtype = dtypes.BY_NAME.get(name.removeprefix("torch."))
    if dtype is None or not dtype.is_floating_point:
        raise UsageError(f"--dtype: expected a floating dtype such as float64, got '{name}'")
    return dtype


def bounded(option: str, value: float | None, *, zero: bool = False) -> float | None:
    """An option's number, which must be finite and positive (or zero, with `zero`); None when
    the option was not given."""
    if value is not None and not (0 <= value if zero else 0 < value) or value == math.inf:
        wanted = "a finite number >= 0" if zero else "a positive finite number"
        raise UsageError(f"{option}: expected {wanted}, got {value:g}")
    return value


def parse_range(text: str) -> tuple[str, float, float]:
    """--range NAME=LO:HI."""
    name, bounds = split_pair(text, "=", "--range NAME=LO:HI")
    low, colon, high = bounds.partition(":")
    try:
        lo, hi = float(low), float(high)
    except ValueError:
        raise UsageError(f"--range: expected numbers LO:HI, got '{bounds}'") from None
    if not colon or not lo < hi:
        raise UsageError(f"--range: expected LO:HI with LO < HI, got '{bounds}'")
    return name, lo, hi


@record
class Problem:
    """EXPR compiled over its bindings: the leaves by name and the names that require grad."""

    scope: Scope
    source: Source
    evaluate: Callable[[dict], object]
    values: dict[str, Tensor | object] = field(default_factory=dict)
    inputs: list[str] = field(default_factory=list)

    def run(self, values: dict | None = None):
        return self.evaluate(self.values if values is None else values)


def as_tensor(value, dtype: dtypes.DType | None, what: str) -> Tensor:
    """A new leaf from a binding's value: numbers and lists become floating tensors."""
    if isinstance(value, Tensor):
        data = value.data.copy()
        if dtype is not None and value.dtype.is_floating_point:
            return Tensor(data.astype(dtype.np), dtype)
        return Tensor(data, value.dtype)
    if isinstance(value, (int, float, list, tuple)) and not isinstance(value, bool):
        try:
            return creation.tensor(value, dtype or STATE.default_dtype)
        except TorchError as error:
            raise torch_error(error) from None
    raise UsageError(f"{what}: expected a number, a list of numbers or a tensor, got "
                     f"{type(value).__name__}")


def build_problem(expr: Source, bindings: list[str], *, wrt: str | None = None,
                  dtype: dtypes.DType | None = None, extra: dict | None = None,
                  default: dtypes.DType | None = None) -> Problem:
    """Compile EXPR, bind every NAME=VALUE in order (a VALUE sees the earlier names), add `extra`
    leaves (name -> value) not bound yet, and make the --wrt names (default: floating ones)
    require grad. With `default`, EXPR and the VALUEs evaluate with it as the default dtype."""
    scope = Scope(default)
    problem = Problem(scope, expr, scope.compile(expr))
    with grad_mode(False):
        for text in bindings:
            name, value_text = split_pair(text, "=", "NAME=VALUE")
            if name in problem.values:
                raise UsageError(f"'{name}' is bound twice")
            value = scope.compile(Source(value_text, f"<{name}=>"))(problem.values)
            problem.values[name] = as_tensor(value, dtype, name)
        for name, value in (extra or {}).items():
            problem.values.setdefault(name, as_tensor(value, dtype, name))
    problem.inputs = choose_inputs(problem.values, wrt)
    for name in problem.inputs:
        try:
            grad_api.requires_grad_(problem.values[name])
        except TorchError as error:
            raise torch_error(error) from None
    return problem


def choose_inputs(values: dict, wrt: str | None) -> list[str]:
    """The names to differentiate with respect to: --wrt a,b, or every floating binding."""
    if wrt is None:
        names = [n for n, v in values.items() if v.dtype.is_floating_point]
    else:
        names = [identifier(n, "--wrt") for n in wrt.split(",") if n.strip()]
        unknown = [n for n in names if n not in values]
        if unknown:
            raise UsageError(f"--wrt: no binding named '{unknown[0]}'")
    if not names:
        raise UsageError("nothing to differentiate: bind a floating-point input as NAME=VALUE")
    return list(dict.fromkeys(names))


def read_expression(text: str) -> Source:
    """EXPR from the command line, or from standard input when it is '-'."""
    if text == "-":
        return Source(sys.stdin.read().strip(), "<stdin>")
    return Source(text, "<expr>")
