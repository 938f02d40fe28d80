"""Python's `math` and `cmath` modules as tutorials use them (math.pi, math.sqrt, cmath.exp,
...): Python's own functions, with a one-element tensor taken as its number as Python's float()
would take it."""

from __future__ import annotations

import cmath
import math

from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.coercions import tensor_float
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, iterate


def real_number(value):
    return tensor_float(value) if isinstance(value, Tensor) else value


def _function(name: str, spec: str):
    host = vars(math)[name]
    return entry(name, lambda *args: host(*(real_number(a) for a in args)), spec, style="expected",
                 frames=0)


_ONE = ("sqrt", "exp", "expm1", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
        "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "fabs", "floor", "ceil",
        "trunc", "isnan", "isinf", "isfinite", "erf", "erfc", "gamma", "lgamma", "radians",
        "degrees", "factorial", "isqrt", "modf", "frexp", "cbrt", "exp2", "ulp")
_TWO = ("pow", "atan2", "copysign", "fmod", "remainder", "comb", "perm", "ldexp", "dist",
        "nextafter")

MATH = Namespace("math", table(
    *(_function(name, "x, /") for name in _ONE),
    *(_function(name, "x, y, /") for name in _TWO),
    *(_function(name, "*integers") for name in ("gcd", "lcm")),
    entry("log", lambda x, base: math.log(real_number(x)) if base is None else math.log(
        real_number(x), real_number(base)), "x, base=None, /", style="expected", frames=0),
    entry("hypot", lambda *coordinates: math.hypot(*(real_number(c) for c in coordinates)),
          "*coordinates", style="expected", frames=0),
    entry("isclose", lambda a, b, rel_tol, abs_tol: math.isclose(
        real_number(a), real_number(b), rel_tol=rel_tol, abs_tol=abs_tol),
        "a, b, *, rel_tol=1e-09, abs_tol=0.0", style="expected", frames=0),
    entry("fsum", lambda seq: math.fsum(real_number(v) for v in iterate(seq)), "seq, /",
          style="expected", frames=0),
    entry("prod", lambda iterable, start: math.prod((real_number(v) for v in iterate(iterable)),
                                                    start=start),
          "iterable, /, *, start=1", style="expected", frames=0),
) | {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan})

_COMPLEX_ONE = ("sqrt", "exp", "log10", "phase", "polar", "sin", "cos", "tan", "asin", "acos",
                "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "isfinite", "isinf",
                "isnan")


def _complex_function(name: str, spec: str):
    host = vars(cmath)[name]
    return entry(name, lambda *args: host(*(real_number(a) for a in args)), spec, style="expected",
                 frames=0)


CMATH = Namespace("cmath", table(
    *(_complex_function(name, "z, /") for name in _COMPLEX_ONE),
    _complex_function("rect", "r, phi, /"),
    entry("log", lambda x, base: cmath.log(real_number(x)) if base is None else cmath.log(
        real_number(x), real_number(base)), "x, base=None, /", style="expected", frames=0),
    entry("isclose", lambda a, b, rel_tol, abs_tol: cmath.isclose(
        real_number(a), real_number(b), rel_tol=rel_tol, abs_tol=abs_tol),
        "a, b, *, rel_tol=1e-09, abs_tol=0.0", style="expected", frames=0),
) | {name: vars(cmath)[name] for name in ("pi", "e", "tau", "inf", "infj", "nan", "nanj")})
