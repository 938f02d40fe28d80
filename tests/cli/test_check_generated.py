"""`gradcli check` never cries wolf and never misses: on 200 generated expressions with their
derivatives worked out symbolically it reports no mismatch, and on 200 deliberately wrong
derivatives it reports a mismatch every time.

The expressions mix the bound inputs x and y (scalars, or vectors of three) with numbers and
tensors made inside EXPR (float32 as written, as `check` makes them float64), through sin, cos,
exp, tanh, sigmoid, powers and the four operations; each is checked over random points drawn
with --range."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from gradcli.cli.app import app

CASES = 200
VECTOR = "[0.25, -0.5, 1.0]"


class Term:
    """An expression with its derivative with respect to each input, as EXPR text."""

    def __init__(self, text: str, d: dict[str, str], uses=frozenset(), tensor=True) -> None:
        self.text, self.d, self.uses, self.tensor = text, d, frozenset(uses), tensor


def zeros(inputs) -> dict[str, str]:
    return {name: f"torch.zeros_like({name})" for name in inputs}


def leaf(rng: random.Random, inputs: tuple[str, ...], vector: bool) -> Term:
    kind = rng.choice(("input", "input", "number", "tensor"))
    if kind == "input":
        name = rng.choice(inputs)
        return Term(name, {n: f"torch.ones_like({n})" if n == name else f"torch.zeros_like({n})"
                           for n in inputs}, {name})
    if kind == "number":
        return Term(repr(rng.choice((0.5, 1.5, 2.0, -0.75, 3.0))), zeros(inputs), tensor=False)
    values = [round(rng.uniform(-2, 2), 2) for _ in range(3 if vector else 1)]
    text = f"torch.tensor({values if vector else values[0]})"
    return Term(text, zeros(inputs))


UNARY = {  # name: (f(u), f'(u))
    "sin": ("torch.sin({u})", "torch.cos({u})"),
    "cos": ("torch.cos({u})", "-torch.sin({u})"),
    "exp": ("torch.exp({u})", "torch.exp({u})"),
    "tanh": ("torch.tanh({u})", "(1 - torch.tanh({u})**2)"),
    "sigmoid": ("torch.sigmoid({u})", "torch.sigmoid({u}) * (1 - torch.sigmoid({u}))"),
    "square": ("({u})**2", "2 * ({u})"),
    "cube": ("({u})**3", "3 * ({u})**2"),
}


def term(rng: random.Random, inputs: tuple[str, ...], vector: bool, depth: int) -> Term:
    if depth == 0 or rng.random() < 0.25:
        return leaf(rng, inputs, vector)
    if rng.random() < 0.4:
        inner = term(rng, inputs, vector, depth - 1)
        if not inner.tensor:  # torch's functions take tensors, not numbers
            inner = Term(f"torch.tensor({inner.text})", inner.d)
        value, slope = UNARY[rng.choice(sorted(UNARY))]
        return Term(value.format(u=inner.text),
                    {n: f"{slope.format(u=inner.text)} * ({inner.d[n]})" for n in inputs},
                    inner.uses)
    a, b = term(rng, inputs, vector, depth - 1), term(rng, inputs, vector, depth - 1)
    op = rng.choice("+-*/")
    u, v, uses, tensor = a.text, b.text, a.uses | b.uses, a.tensor or b.tensor
    if op in "+-":
        slopes = {n: f"({a.d[n]} {op} {b.d[n]})" for n in inputs}
        return Term(f"({u} {op} {v})", slopes, uses, tensor)
    if op == "*":
        slopes = {n: f"({a.d[n]} * {v} + {u} * {b.d[n]})" for n in inputs}
        return Term(f"({u} * {v})", slopes, uses, tensor)
    below = f"(2 + ({v})**2)"  # never zero
    slopes = {n: f"(({a.d[n]}) * {below} - {u} * 2 * ({v}) * ({b.d[n]})) / {below}**2"
              for n in inputs}
    return Term(f"({u} / {below})", slopes, uses, tensor)


def generated(index: int) -> tuple[list[str], dict[str, str]]:
    """The check arguments of case `index` (without --expect) and its right formulas."""
    rng = random.Random(index)
    vector = rng.random() < 0.5
    inputs = ("x", "y") if rng.random() < 0.5 else ("x",)
    body = term(rng, inputs, vector, depth=3)
    while body.uses != set(inputs):  # EXPR depends on every input
        body = term(rng, inputs, vector, depth=3)
    expr = f"({body.text}).sum()" if vector else body.text
    bindings = [f"{n}={VECTOR if vector else 0.5}" for n in inputs]
    ranges = [a for n in inputs for a in ("--range", f"{n}=-1.5:1.5")]
    args = ["check", expr, *bindings, *ranges, "--samples", "5", "--seed", str(index)]
    return args, {n: body.d[n] for n in inputs}


def run_check(args: list[str], formulas: dict[str, str]) -> int:
    expects = [a for n, f in formulas.items() for a in ("--expect", f"{n}: {f}")]
    result = CliRunner().invoke(app, [*args, *expects, "--quiet"])
    assert result.exit_code in (0, 1), (args, result.output)
    return result.exit_code


@pytest.mark.slow
def test_right_derivatives_are_never_reported_as_mismatches():
    cried_wolf = []
    for index in range(CASES):
        args, formulas = generated(index)
        if run_check(args, formulas) != 0:
            cried_wolf.append((args, formulas))
    assert not cried_wolf


@pytest.mark.slow
def test_wrong_derivatives_are_always_reported():
    missed = []
    for index in range(CASES):
        args, formulas = generated(index)
        name = random.Random(-index).choice(sorted(formulas))
        right = formulas[name]  # off by a tenth of 1 + |right| everywhere
        wrong = dict(formulas, **{name: f"{right} + 0.1 * (1 + torch.abs({right}))"})
        if run_check(args, wrong) != 1:
            missed.append((args, wrong))
    assert not missed


def test_generated_cases_mix_inputs_numbers_and_tensors_made_inside_expr():
    cases = [generated(index)[0] for index in range(CASES)]
    exprs = [args[1] for args in cases]
    assert sum("torch.tensor(" in e for e in exprs) > CASES // 4
    assert sum("y" in e for e in exprs) > CASES // 4
    assert sum(VECTOR in " ".join(args) for args in cases) > CASES // 4
