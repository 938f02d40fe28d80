"""Sample programs for every row of the op table: the op-table tests (labels, gradients, higher
order, retain_graph) are generated from CASES, and a row without cases fails those tests."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

SHAPES_UNARY = ((), (3,), (2, 3))
SHAPE_PAIRS = (((), ()), ((3,), (3,)), ((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1), (1, 3)),
               ((), (2, 3)))

# name -> how to draw one value (kept away from kinks, poles and ties of the ops that use it)
DOMAINS = {
    "any": lambda r: r.choice((-1, 1)) * r.uniform(0.2, 2.0),
    "pos": lambda r: r.uniform(0.5, 2.0),
    "unit": lambda r: r.uniform(0.15, 0.85),
    "signed_unit": lambda r: r.choice((-1, 1)) * r.uniform(0.1, 0.8),
    "small": lambda r: r.choice((-1, 1)) * r.uniform(0.1, 1.0),
    "noint": lambda r: r.randint(-2, 2) + r.choice((0.15, 0.3, 0.65, 0.8)) + r.uniform(0, 0.05),
}


@dataclass(frozen=True)
class Case:
    """`y = expr` after tensors for `inputs` (name, shape, domain) that require grad and the
    plain statements of `setup`; `grad=False` when backward must fail (as torch's does)."""

    expr: str
    inputs: tuple
    setup: tuple = ()
    dtype: str = "float64"
    grad: bool = True
    tolerance: float = 1e-6
    values_seed: int = 0
    extra: dict = field(default_factory=dict)

    def values(self) -> dict:
        """name -> nested list of floats (deterministic per case)."""
        rng = random.Random(f"{self.expr}|{self.inputs}|{self.values_seed}")
        return {name: _nested(rng, shape, DOMAINS[domain]) for name, shape, domain in self.inputs}

    def source(self, dtype: str | None = None) -> str:
        """The program that defines the inputs and y, in torch syntax."""
        dtype = dtype or self.dtype
        lines = ["import torch", "import torch.nn.functional as F"]
        for name, value in self.values().items():
            lines.append(f"{name} = torch.tensor({value!r}, dtype=torch.{dtype}, "
                         "requires_grad=True)")
        lines += list(self.setup)
        lines.append(f"y = {self.expr}")
        return "\n".join(lines) + "\n"

    @property
    def names(self) -> tuple:
        return tuple(name for name, _, _ in self.inputs)


def _nested(rng, shape, draw):
    if not shape:
        return round(draw(rng), 4)
    return [_nested(rng, shape[1:], draw) for _ in range(shape[0])]


def unary(expr: str, domain: str = "any", shapes=SHAPES_UNARY, **options) -> list:
    return [Case(expr, (("a", shape, domain),), **options) for shape in shapes]


def binary(expr: str, da: str = "any", db: str = "any", pairs=SHAPE_PAIRS, **options) -> list:
    return [Case(expr, (("a", sa, da), ("b", sb, db)), **options) for sa, sb in pairs]


def case(expr: str, *inputs, **options) -> Case:
    return Case(expr, tuple(inputs), **options)


def grad_of(expr: str, wrt: str = "a") -> str:
    """The first derivative of `expr` with a grad_output `v` that requires grad, kept in the graph:
    it reaches the backward rows (tanh_backward, mse_loss_backward...)."""
    return f"torch.autograd.grad({expr}, {wrt}, v, create_graph=True)[0]"


def backward_case(expr: str, shape, out_shape, domain: str = "any", **options) -> Case:
    return Case(grad_of(expr), (("a", shape, domain), ("v", out_shape, "any")), **options)
