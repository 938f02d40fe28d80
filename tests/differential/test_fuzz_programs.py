"""Differential fuzzing: hypothesis builds random programs of 1-6 ops over the op table (random
shapes with broadcasting, dtypes and values; backward with and without `gradient`; autograd.grad
with create_graph) and each runs in gradcli and in torch. Printed output must agree exactly except
for numbers, which agree within float tolerance; errors agree in type and text.

GRADCLI_FUZZ_PROGRAMS sets how many programs run (default 2000, always the same ones);
GRADCLI_FUZZ_SEED draws a different set (for longer local runs)."""

from __future__ import annotations

import os
import warnings

import pytest
from hypothesis import HealthCheck, assume, given, seed, settings, strategies as st

from conftest import output_mismatch, reset_torch_globals
import fuzz_classes
from fuzz_ops import ERRORS, OPERATIONS, finite_and_bounded, well_conditioned
from op_runner import gradcli_outcome, torch_outcome

torch = pytest.importorskip("torch")

PROGRAMS = int(os.environ.get("GRADCLI_FUZZ_PROGRAMS", "2000"))
SEED = os.environ.get("GRADCLI_FUZZ_SEED")
SHAPES = ((), (3,), (2, 3), (3, 2), (2, 1), (1, 3), (4,), (2, 2, 3), (3, 3))
DOMAINS = {"any": (-2.0, 2.0), "unit": (0.05, 0.95), "pos": (0.3, 2.0)}


class ProgramBuilder:
    """Grows one program statement by statement, running each in torch (and in float64 as a
    conditioning check) so that only well-conditioned, well-defined statements are kept."""

    def __init__(self, draw):
        self.draw = draw
        self.lines = ["import torch", "import torch.nn.functional as F"]
        self.ns: dict = {}
        self.shadow: dict = {}
        for namespace in (self.ns, self.shadow):
            exec("import torch\nimport torch.nn.functional as F", namespace)
        self.tensors: list[str] = []
        self.leaves: list[str] = []
        self.count = 0

    # ---- drawing helpers ----
    def choose(self, options):
        return self.draw(st.sampled_from(list(options)))

    def dim(self, ndim: int) -> int:
        return self.draw(st.integers(-max(ndim, 1), max(ndim, 1) - 1))

    def value(self, name: str):
        return self.ns[name].detach()

    def operand(self) -> str:
        return self.choose(self.tensors)

    def partner(self, name: str) -> str:
        shape = tuple(self.ns[name].shape)
        fitting = [t for t in self.tensors if _broadcasts(shape, tuple(self.ns[t].shape))]
        if fitting and self.draw(st.booleans()):
            return self.choose(fitting)
        return self.leaf(self.choose(_broadcast_partners(shape)))

    def _name(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    # ---- statements ----
    def _run(self, line: str, shadow_line: str | None = None) -> None:
        exec(line, self.ns)
        exec(shadow_line or line, self.shadow)
        self.lines.append(line)

    def leaf(self, shape, domain: str = "any", requires_grad: bool = True, dtype=None) -> str:
        name = self._name("x")
        low, high = DOMAINS[domain]
        values = self.draw(_nested(shape, low, high))
        dtype = dtype or self.choose(("float32", "float32", "float64"))
        grad = ", requires_grad=True" if requires_grad else ""
        suffix = "" if dtype == "float32" else f", dtype=torch.{dtype}"
        self._run(f"{name} = torch.tensor({values!r}{suffix}{grad})",
                  f"{name} = torch.tensor({values!r}, dtype=torch.float64{grad})")
        self.tensors.append(name)
        if requires_grad:
            self.leaves.append(name)
        return name

    def int_leaf(self, shape, high: int) -> str:
        name = self._name("t")
        values = self.draw(_nested(shape, 0, high - 1, integers=True))
        self._run(f"{name} = torch.tensor({values!r})")
        return name

    def statement(self, expr: str, printed: bool) -> str | None:
        name = self._name("h")
        try:
            exec(f"{name} = {expr}", self.ns)
            exec(f"{name} = {expr}", self.shadow)
        except Exception:
            return None
        value, reference = self.ns[name], self.shadow[name]
        if not isinstance(value, torch.Tensor):
            self.lines.append(f"print({expr})")
            return None
        if not value.is_floating_point():
            self.lines.append(f"print({expr})")
            return None
        if (not 0 < value.numel() <= 36 or not finite_and_bounded(value)
                or not well_conditioned(value, reference, 5e-5)):
            return None
        self.lines.append(f"{name} = {expr}")
        self.tensors.append(name)
        if printed:
            self.lines.append(f"print({name})")
        return name

    def wrapped(self, expr: str) -> str:
        """Now and then, the expression computed by a custom Function or an nn.Module subclass
        (defined just before its use)."""
        kind = self.draw(st.integers(0, 7))
        if kind > 1 or not fuzz_classes.operands(expr):
            return expr
        if kind == 0:
            lines, call = fuzz_classes.custom_function(self._name("Fn"), expr)
            parameters = []
        else:
            try:
                value = eval(expr, self.ns)
            except Exception:
                return expr
            linear = (isinstance(value, torch.Tensor) and value.is_floating_point()
                      and value.ndim >= 1 and 1 <= value.shape[-1] <= 4
                      and self.draw(st.booleans()))
            lines, call, parameters = fuzz_classes.module(
                self._name("Block"), self._name("m"), expr,
                value.shape[-1] if linear else None, self.choose((0.5, -1.5, 2.0)))
        source = "\n".join(line for line in lines if not line.startswith("print("))
        exec(source, self.ns)
        exec(source, self.shadow)
        self.lines += lines
        self.leaves += parameters
        return call

    # ---- the whole program ----
    def build(self) -> str:
        for _ in range(self.draw(st.integers(1, 3))):
            self.leaf(self.choose(SHAPES), self.choose(("any", "any", "pos")))
        last = None
        steps = self.draw(st.integers(1, 6))
        for _ in range(steps * 3):
            if steps == 0:
                break
            expr = self.choose(OPERATIONS)(self)
            if expr is None:
                continue
            expr = self.wrapped(expr)
            result = self.statement(expr, self.draw(st.booleans()))
            if result is not None:
                last, steps = result, steps - 1
        if self.draw(st.integers(0, 19)) == 0:
            return self._with_error()
        assume(last is not None)
        self.lines.append(f"print({last})")
        self._ending(last)
        return "\n".join(self.lines) + "\n"

    def _with_error(self) -> str:
        self.lines.append(self.choose(ERRORS).format(x=self.operand()))
        return "\n".join(self.lines) + "\n"

    def _ending(self, y: str) -> None:
        value = self.ns[y]
        kind = self.choose(("sum", "gradient", "grad", "grad"))
        if kind == "sum":
            reduce = self.choose(("sum", "mean"))
            self._finish(f"{y}.{reduce}().backward()")
        elif kind == "gradient":
            gradient = self.draw(_nested(tuple(value.shape), -1.0, 1.0))
            dtype = "" if value.dtype == torch.float32 else f", dtype=torch.{str(value.dtype)[6:]}"
            self._finish(f"{y}.backward(torch.tensor({gradient!r}{dtype}))")
        else:
            self._grad_ending(y)
        for leaf in self.leaves:
            self.lines.append(f"print({leaf}.grad)")

    def _finish(self, line: str) -> None:
        try:
            exec(line, self.ns)
            exec(line, self.shadow)
        except Exception:
            pass
        self.lines.append(line)
        for leaf in self.leaves:
            grad, reference = eval(leaf, self.ns).grad, eval(leaf, self.shadow).grad
            if grad is not None and reference is not None:
                assume(well_conditioned(grad, reference, 5e-5))

    def _grad_ending(self, y: str) -> None:
        leaves = ", ".join(self.leaves)
        self._finish(f"g = torch.autograd.grad({y}.sum(), [{leaves}], create_graph=True, "
                     "allow_unused=True)")
        self.lines.append("print(g)")
        if "g" not in self.ns:
            return
        self._assume_conditioned("g")
        terms = [f"g[{i}].sum()" for i, g in enumerate(self.ns["g"])
                 if g is not None and g.requires_grad]
        if terms:
            second = " + ".join(terms)
            self._finish(f"g2 = torch.autograd.grad({second}, [{leaves}], allow_unused=True)")
            self.lines.append("print(g2)")
            if "g2" in self.ns:
                self._assume_conditioned("g2")

    def _assume_conditioned(self, name: str) -> None:
        """autograd.grad's results agree with the float64 run (printed, they must match)."""
        for grad, reference in zip(self.ns[name], self.shadow[name]):
            if grad is not None and reference is not None:
                assume(well_conditioned(grad, reference, 5e-5))


def _broadcasts(a: tuple, b: tuple) -> bool:
    for x, y in zip(reversed(a), reversed(b)):
        if x != y and x != 1 and y != 1:
            return False
    return True


def _broadcast_partners(shape: tuple) -> list:
    options = [shape, shape[1:], ()]
    if shape:
        options.append((1,) * (len(shape) - 1) + (shape[-1],))
        options.append(shape[:-1] + (1,))
    if len(shape) <= 1:
        options.append((2,) + shape)
    return options


def _nested(shape: tuple, low, high, integers: bool = False):
    if integers:
        element = st.integers(int(low), int(high))
    else:
        element = st.floats(low, high).map(lambda v: round(v, 2)).filter(lambda v: abs(v) > 0.05)
    strategy = element
    for size in reversed(shape):
        strategy = st.lists(strategy, min_size=size, max_size=size)
    return strategy


@st.composite
def programs(draw) -> str:
    reset_torch_globals(torch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ProgramBuilder(draw).build()


@pytest.mark.slow  # long: CI runs it; `-m 'not slow'` leaves it out
@seed(int(SEED or 0))
@settings(max_examples=PROGRAMS, deadline=None, derandomize=SEED is None, database=None,
          suppress_health_check=list(HealthCheck))
@given(programs())
def test_random_program_matches_torch(program):
    reset_torch_globals(torch)
    expected_out, expected_error = torch_outcome(program)
    actual_out, actual_error = gradcli_outcome(program)
    mismatch = output_mismatch(actual_out, expected_out, rtol=2e-4, atol=1e-5,
                               cancellation=True)
    assert mismatch is None, f"{program}\n{mismatch}"
    assert actual_error == expected_error, program
