"""The name tables' mechanism (signatures and argument binding) and Python's builtin functions."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from gradcli.engine import errors
from gradcli.engine.tensor import Tensor
from gradcli.language import literals

_REQUIRED = object()


@dataclass(frozen=True)
class Param:
    name: str
    default: object = _REQUIRED
    var_positional: bool = False
    keyword_only: bool = False


def parse_signature(spec: str) -> tuple[Param, ...]:
    """'x, dim=None, *, keepdim=False' -> Params (defaults are Python literals or names below)."""
    params, keyword_only = [], False
    for part in filter(None, (p.strip() for p in spec.split(","))):
        if part == "*":
            keyword_only = True
        elif part.startswith("*"):
            params.append(Param(part[1:], var_positional=True))
            keyword_only = True
        elif "=" in part:
            name, default = (s.strip() for s in part.split("=", 1))
            params.append(Param(name, _default(default), keyword_only=keyword_only))
        else:
            params.append(Param(part, keyword_only=keyword_only))
    return tuple(params)


_NAMED_DEFAULTS = {"None": None, "True": True, "False": False, "()": ()}


def _default(text: str):
    """A default written in a table's signature: None, True, False, (), a number or a string."""
    if text in _NAMED_DEFAULTS:
        return _NAMED_DEFAULTS[text]
    if text[0] in "'\"":
        return literals.string(text)
    return literals.number(text)


@dataclass(frozen=True)
class Builtin:
    """A callable reachable from the language: `fn` is called with bound arguments by name.

    With `needs_context`, `fn` receives the interpreter's runtime first (print, jacobian...).
    """

    name: str
    fn: Callable
    params: tuple[Param, ...]
    needs_context: bool = False
    qualname: str = ""

    def bind(self, args: list, kwargs: dict) -> dict:
        """Map call arguments to parameter names, with Python's TypeError texts."""
        bound, rest = {}, list(args)
        title = self.qualname or self.name
        for param in self.params:
            if param.var_positional:
                bound[param.name] = tuple(rest)
                rest = []
            elif rest and not param.keyword_only:
                bound[param.name] = rest.pop(0)
        if rest:
            positional = sum(1 for p in self.params if not p.keyword_only and not p.var_positional)
            raise errors.type_error(
                f"{title}() takes {positional} positional argument{'s' if positional != 1 else ''}"
                f" but {positional + len(rest)} were given")
        names = {p.name for p in self.params if not p.var_positional}
        for key, value in kwargs.items():
            if key not in names:
                raise errors.type_error(f"{title}() got an unexpected keyword argument '{key}'")
            if key in bound:
                raise errors.type_error(f"{title}() got multiple values for argument '{key}'")
            bound[key] = value
        for param in self.params:
            if param.name not in bound:
                if param.default is _REQUIRED:
                    raise errors.type_error(
                        f"{title}() missing 1 required positional argument: '{param.name}'")
                bound[param.name] = param.default
        return bound


def entry(name: str, fn: Callable, spec: str = "", *, context: bool = False,
          qualname: str = "") -> Builtin:
    return Builtin(name, fn, parse_signature(spec), context, qualname)


def table(*entries: Builtin) -> dict[str, Builtin]:
    return {e.name: e for e in entries}


# ---- Python's builtins --------------------------------------------------------------------------

def truth(value) -> bool:
    """Python truthiness, with torch's error for a tensor of several elements."""
    if isinstance(value, Tensor):
        if value.numel() != 1:
            raise errors.runtime("Boolean value of Tensor with more than one value is ambiguous")
        return bool(value.data.reshape(()).item())
    return bool(value)


def _number(value, convert, name):
    if isinstance(value, Tensor):
        if value.numel() != 1:
            raise errors.runtime("only one element tensors can be converted to Python scalars")
        return convert(value.data.reshape(()).item())
    try:
        return convert(value)
    except (TypeError, ValueError) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None


def _print(ctx, *values, sep=None, end=None, file=None, flush=False):
    ctx.write((" " if sep is None else sep).join(ctx.printer.str(v) for v in values)
              + ("\n" if end is None else end))


def _len(obj):
    if isinstance(obj, Tensor):
        if obj.ndim == 0:
            raise errors.type_error("len() of a 0-d tensor")
        return obj.shape[0]
    return len(obj)


def _range(*args):
    ints = [_index(a) for a in args]
    if not 1 <= len(ints) <= 3:
        raise errors.type_error(f"range expected at most 3 arguments, got {len(ints)}")
    return range(*ints)


def _index(value) -> int:
    if isinstance(value, Tensor) and value.numel() == 1 and not value.dtype.is_floating_point:
        return int(value.data.reshape(()).item())
    if isinstance(value, int):
        return value
    raise errors.type_error(f"'{type(value).__name__}' object cannot be interpreted as an integer")


def _round(number, ndigits):
    if isinstance(number, Tensor):
        number = _number(number, float, "round")
    return round(number) if ndigits is None else round(number, ndigits)


def _abs(value):
    if isinstance(value, Tensor):
        from gradcli.engine import functional as F
        return F.abs(value)
    return abs(value)


PY_BUILTINS = table(
    entry("print", _print, "*values, sep=None, end=None, file=None, flush=False", context=True),
    entry("range", _range, "*args"),
    entry("len", _len, "obj"),
    entry("abs", _abs, "x"),
    entry("float", lambda x: _number(x, float, "float"), "x=0.0"),
    entry("int", lambda x: _number(x, int, "int"), "x=0"),
    entry("bool", truth, "x=False"),
    entry("round", _round, "number, ndigits=None"),
    entry("list", lambda iterable: list(iterable), "iterable=()"),
    entry("tuple", lambda iterable: tuple(iterable), "iterable=()"),
    entry("enumerate", lambda iterable, start: list(enumerate(iterable, start)),
          "iterable, start=0"),
    entry("zip", lambda *iterables: list(zip(*iterables)), "*iterables"),
    entry("sum", lambda iterable, start: _py_sum(iterable, start), "iterable, start=0"),
    entry("min", lambda *args: _extreme(min, args), "*args"),
    entry("max", lambda *args: _extreme(max, args), "*args"),
)

MATH = table(*(entry(fn.__name__, fn, "x") for fn in (
    math.exp, math.log, math.sin, math.cos, math.tan, math.sqrt, math.tanh, math.atan,
    math.floor, math.ceil, math.fabs)))
MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan, "tau": math.tau}


def _py_sum(iterable, start):
    from gradcli.language import operators
    total = start
    for item in iterable:
        total = operators.binary("+", total, item)
    return total


def _extreme(pick, args):
    items = list(args[0]) if len(args) == 1 else list(args)
    if not items:
        raise errors.value_error(f"{pick.__name__}() arg is an empty sequence")
    from gradcli.language import operators
    best = items[0]
    for item in items[1:]:
        better = operators.compare("<" if pick is max else ">", best, item)
        if truth(better):
            best = item
    return best
