"""grad, jacobian and hessian as torch computes them; check: autograd vs numeric and by hand."""

from __future__ import annotations

import math
from gradcli.engine.records import field, record
from typing import Callable

import numpy as np

from gradcli.cli import parallel
from gradcli.cli.bindings import (ExpressionError, Problem, Source, UsageError, as_tensor,
                                  torch_error)
from gradcli.engine import creation, dtypes, grad_api
from gradcli.engine.functions import F
from gradcli.engine.errors import TorchError
from gradcli.engine.state import DEFAULT_SEED, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import functional_autograd
from gradcli.language.runtime.frames import GradRuntimeError
from gradcli.language.runtime.signatures import Builtin, entry
from gradcli.language.runtime.values import type_name

NON_SCALAR_HINT = ("EXPR is not a scalar: `gradcli jacobian` gives its Jacobian, and "
                   "--gradient VALUE backpropagates VALUE as out.backward(VALUE) does")


def output_of(problem: Problem, values: dict | None = None) -> Tensor:
    """EXPR's value, which must be a tensor (out.backward() would fail on anything else)."""
    out = problem.run(values)
    if isinstance(out, Tensor):
        return out
    raise ExpressionError(GradRuntimeError(
        "AttributeError", f"'{type_name(out)}' object has no attribute 'backward'", None),
        problem.source)


def _leaves(problem: Problem, values: dict | None = None) -> list[Tensor]:
    values = problem.values if values is None else values
    return [values[name] for name in problem.inputs]


# ---- grad, jacobian, hessian --------------------------------------------------------------------

@record
class GradAnswer:
    """EXPR's value and each input's .grad after out.backward(gradient)."""

    problem: Problem
    value: Tensor
    grads: dict[str, Tensor | None]
    status: str = "ok"


def grad(problem: Problem, gradient: Source | None = None) -> GradAnswer:
    out = output_of(problem)
    vector = None
    if gradient is not None:
        with grad_mode(False):
            vector = as_tensor(problem.scope.compile(gradient)(problem.values), out.dtype,
                               "--gradient")
    try:
        grad_api.backward(out, vector)
    except TorchError as error:
        scalar = vector is None and out.numel() != 1
        raise torch_error(error, NON_SCALAR_HINT if scalar else None) from None
    return GradAnswer(problem, out, {name: problem.values[name].grad for name in problem.inputs})


@record
class ExplainAnswer(GradAnswer):
    """grad's answer with the narrated backward pass that computed it."""

    narrated: dict | None = None


def explain(problem: Problem, gradient: Source | None = None) -> ExplainAnswer:
    """grad, with the engine's backward observed step by step (gradcli/cli/explain.py)."""
    from gradcli.cli.explain import Narrator, narrating
    names = {id(value): name for name, value in problem.values.items()}
    with narrating(Narrator(problem.scope.printer, names)) as narrator:
        answer = grad(problem, gradient)
    return ExplainAnswer(answer.problem, answer.value, answer.grads,
                         narrated=narrator.finish() or {"origin": None, "steps": []})


@record
class MatrixAnswer:
    """torch.autograd.functional.jacobian or hessian: blocks keyed by (output, input) names."""

    problem: Problem
    kind: str
    blocks: dict[tuple[str, ...], Tensor]
    status: str = "ok"


def _as_function(problem: Problem) -> Builtin:
    """EXPR as a function of its inputs (the other bindings fixed), callable by the language."""
    def function(*inputs):
        return problem.run(problem.values | dict(zip(problem.inputs, inputs)))
    return entry("<EXPR>", function, "*inputs")


def _functional(kind: str, compute, problem: Problem) -> MatrixAnswer:
    """torch.autograd.functional's `compute` (jacobian or hessian) of EXPR over its inputs."""
    try:
        result = compute(problem.scope.session.runtime, _as_function(problem),
                         tuple(_leaves(problem)))
    except TorchError as error:
        raise torch_error(error) from None
    if kind == "jacobian":
        return MatrixAnswer(problem, kind, {(n,): t for n, t in zip(problem.inputs, result)})
    return MatrixAnswer(problem, kind, {(a, b): t for a, row in zip(problem.inputs, result)
                                        for b, t in zip(problem.inputs, row)})


def jacobian(problem: Problem) -> MatrixAnswer:
    return _functional("jacobian", functional_autograd.jacobian, problem)


def hessian(problem: Problem) -> MatrixAnswer:
    return _functional("hessian", functional_autograd.hessian, problem)


# ---- check --------------------------------------------------------------------------------------

# torch.autograd.gradcheck's defaults, meant for float64.
GRADCHECK_EPS, GRADCHECK_ATOL, GRADCHECK_RTOL = 1e-6, 1e-5, 1e-3


@record(frozen=True)
class Tolerances:
    """Finite-difference step and allclose tolerances; `relative` steps are eps * max(1, |x|)."""

    eps: float
    atol: float
    rtol: float
    relative: bool = False

    @classmethod
    def fitted(cls, dtype: dtypes.DType, eps: float | None = None, atol: float | None = None,
               rtol: float | None = None) -> "Tolerances":
        """The given values, the others fitted to `dtype`: gradcheck's defaults for float64;
        for less precise dtypes (where gradcheck only warns that it will likely fail) a step of
        the cube root of the dtype's epsilon, relative to |x|, which balances truncation against
        rounding, and tolerances of a few times what that balance leaves."""
        if dtype is dtypes.float64:
            fit = cls(GRADCHECK_EPS, GRADCHECK_ATOL, GRADCHECK_RTOL)
        else:
            step = float(np.finfo(dtype.np).eps) ** (1 / 3)
            fit = cls(step, LOW_PRECISION_TOLERANCE * step, LOW_PRECISION_TOLERANCE * step, True)
        return cls(fit.eps if eps is None else eps, fit.atol if atol is None else atol,
                   fit.rtol if rtol is None else rtol, fit.relative)

    def step(self, x: float) -> float:
        return self.eps * max(1.0, abs(x)) if self.relative else self.eps


LOW_PRECISION_TOLERANCE = 2.0


@record(frozen=True)
class Comparison:
    """One input element at one point: autograd's value against a numeric or expected one."""

    point: int
    input: str
    element: tuple[int, ...]
    analytic: float
    against: str
    reference: float
    tolerances: Tolerances

    @property
    def abs_error(self) -> float:
        return abs(self.analytic - self.reference)

    @property
    def rel_error(self) -> float:
        if self.reference != 0:
            return self.abs_error / abs(self.reference)
        return 0.0 if self.abs_error == 0 else math.inf

    @property
    def excess(self) -> float:
        """abs error over what allclose allows: above 1 is a mismatch (NaN counts as infinite)."""
        allowed = self.tolerances.atol + self.tolerances.rtol * abs(self.reference)
        if self.abs_error == 0:
            return 0.0
        ratio = self.abs_error / allowed if allowed else math.inf
        return math.inf if math.isnan(ratio) else ratio

    @property
    def ok(self) -> bool:
        return self.excess <= 1


@record
class CheckAnswer:
    """Every comparison at every point, and the points themselves (name -> values). `dtype` is
    the least precise floating dtype EXPR computed in (float64 unless a float32 or float16 tensor
    entered it) and `tolerances` those fitted to it."""

    problem: Problem
    tolerances: Tolerances
    samples: int
    seed: int | None
    dtype: dtypes.DType = dtypes.float64
    points: list[dict[str, np.ndarray]] = field(default_factory=list)
    rows: list[Comparison] = field(default_factory=list)

    @property
    def failures(self) -> list[Comparison]:
        return [row for row in self.rows if not row.ok]

    @property
    def status(self) -> str:
        return "mismatch" if self.failures else "ok"

    def largest(self, error: Callable[["Comparison"], float], against: str | None = None) -> float:
        """The largest `error(row)` (e.g. Comparison.abs_error) of the rows against `against`
        (all rows when None); NaN if any is NaN."""
        values = [error(r) for r in self.rows if against in (None, r.against)]
        return math.nan if any(math.isnan(v) for v in values) else max(values, default=0.0)

    def worst(self, count: int) -> list[Comparison]:
        return sorted(self.rows, key=lambda row: row.excess, reverse=True)[:count]


def check(problem: Problem, given: dict[str, float | None], expects: dict[str, Source],
          ranges: list[tuple[str, float, float]], samples: int, seed: int,
          jobs: int = 1) -> CheckAnswer:
    """Compare autograd with finite differences (and `expects`) at the bound point, or at
    `samples` points drawn uniformly from `ranges` with numpy's default_rng(seed), over up to
    `jobs` processes. `given` holds the eps, atol and rtol the user chose (None: fitted to the
    precision EXPR computes in)."""
    for name in expects:
        if name not in problem.inputs:
            raise UsageError(f"--expect: '{name}' is not an input being differentiated")
    if samples < 1 or (samples > 1 and not ranges):
        raise UsageError("--samples: give a positive count, and --range for more than one point")
    formulas = {name: problem.scope.compile(source) for name, source in expects.items()}
    answer = CheckAnswer(problem, Tolerances.fitted(dtypes.float64, **given), samples,
                         seed if ranges else None)
    rng = np.random.default_rng(seed) if ranges else None  # numpy.random only when drawing
    points = []
    for _ in range(samples):
        values = dict(problem.values)
        for name, low, high in ranges:
            data = rng.uniform(low, high, size=problem.values[name].shape)
            values[name] = Tensor(data, dtypes.float64, requires_grad=name in problem.inputs)
        points.append(values)
        answer.points.append({name: v.data for name, v in values.items()})

    def checked(index: int) -> tuple[list[Comparison], str]:
        rows, dtype = _check_point(problem, points[index], index, formulas, expects, given)
        return rows, dtype.name

    for rows, dtype_name in parallel.mapped(checked, samples, jobs):
        answer.rows.extend(rows)
        dtype = dtypes.BY_NAME[dtype_name]
        if _precision(dtype) < _precision(answer.dtype):
            answer.dtype, answer.tolerances = dtype, Tolerances.fitted(dtype, **given)
    return answer


def _evaluate(problem: Problem, values: dict) -> Tensor:
    """EXPR at `values`, with the generator as torch.Generator() starts (so random draws
    repeat, in every run)."""
    creation.DEFAULT_GENERATOR.reset(DEFAULT_SEED)
    return output_of(problem, values)


def _precision(dtype: dtypes.DType) -> int:
    return np.finfo(dtype.np).precision


def lowest_precision(out: Tensor) -> dtypes.DType:
    """The least precise floating dtype among `out` and the outputs of every node of its graph:
    what the differentiated computation was carried out in."""
    names, seen, stack = {out.dtype.name}, set(), [out.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.update(name for _, name in getattr(node, "_output_meta", ()))
        stack.extend(child for child, _ in node.next_edges)
    floating = [dtypes.BY_NAME[name] for name in names if dtypes.BY_NAME[name].is_floating_point]
    return min(floating, key=_precision, default=dtypes.float64)


def _check_point(problem, values, index, formulas, expects, given
                 ) -> tuple[list[Comparison], dtypes.DType]:
    """The comparisons at one point, with tolerances fitted to the precision EXPR computed in
    there, and that precision."""
    leaves = _leaves(problem, values)
    out = _evaluate(problem, values)
    out = out if out.numel() == 1 else F.sum(out)
    dtype = lowest_precision(out)
    tolerances = Tolerances.fitted(dtype, **given)
    try:
        analytic = (grad_api.grad([out], leaves, allow_unused=True) if out.requires_grad
                    else [None] * len(leaves))
    except TorchError as error:
        raise torch_error(error) from None
    rows = []
    for name, leaf, g in zip(problem.inputs, leaves, analytic):
        exact = np.zeros(leaf.shape) if g is None else g.data.astype(np.float64)
        references = {"numeric": _central_differences(problem, values, name, tolerances)}
        if name in formulas:
            references["expected"] = _expected(formulas[name], values, leaf, name, expects[name])
        for element in np.ndindex(leaf.shape):
            rows.extend(Comparison(index, name, element, float(exact[element]), against,
                                   float(reference[element]), tolerances)
                        for against, reference in references.items())
    return rows, dtype


def _central_differences(problem: Problem, values: dict, name: str,
                         tolerances: Tolerances) -> np.ndarray:
    """(f(x + h) - f(x - h)) / (2 h) per element of `name`, f being the sum of EXPR's elements;
    the elements' differences are summed in float64, so a large sum loses no precision."""
    base = values[name]
    slopes = np.zeros(base.shape)
    with grad_mode(False):
        for element in np.ndindex(base.shape):
            step = tolerances.step(float(base.data[element]))
            ends = []
            for signed in (step, -step):
                data = base.data.copy()
                data[element] += signed
                out = _evaluate(problem, {**values, name: Tensor(data, base.dtype)})
                ends.append(np.asarray(out.data, dtype=np.float64))
            plus, minus = ends
            change = (np.sum(plus - minus) if plus.shape == minus.shape
                      else np.sum(plus) - np.sum(minus))
            slopes[element] = change / (2 * step)
    return slopes


def _expected(formula, values: dict, leaf: Tensor, name: str, source: Source) -> np.ndarray:
    """The hand-derived derivative of `name` at `values`, broadcast to the input's shape."""
    with grad_mode(False):
        value = formula(values)
    if isinstance(value, Tensor):
        data = value.data.astype(np.float64)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        data = np.float64(value)
    else:
        raise ExpressionError(GradRuntimeError(
            "TypeError", f"--expect {name}: expected a number or a tensor, got {type_name(value)}",
            None), source)
    try:
        return np.broadcast_to(data, leaf.shape)
    except ValueError:
        raise ExpressionError(GradRuntimeError(
            "ValueError", f"--expect {name}: the formula has shape {list(data.shape)} but {name} "
            f"has shape {list(leaf.shape)}", None), source) from None
