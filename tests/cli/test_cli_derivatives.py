"""gradcli grad/jacobian/hessian/check via the console script: torch's answers, schema, exits."""

from __future__ import annotations

import builtins
import json
import math
import os
import subprocess
from pathlib import Path

import jsonschema
import numpy as np
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((REPO_ROOT / "schemas" / "gradcli-output.schema.json").read_text("utf-8"))
SHELL_EXAMPLES = REPO_ROOT / "examples" / "shell"


@pytest.fixture
def gradcli(run_gradcli):
    """run_gradcli, also asserting that nothing coloured reaches a pipe."""
    def run(*args, stdin=None):
        done = run_gradcli(list(args), stdin=stdin)
        assert "\x1b[" not in done.stdout + done.stderr
        return done
    return run


def validated(done) -> dict:
    """The --json document on stdout, validated against schemas/gradcli-output.schema.json."""
    document = json.loads(done.stdout)
    jsonschema.validate(document, SCHEMA, cls=jsonschema.Draft202012Validator)
    return document


# ---- the oracle: the same computation in torch ---------------------------------------------------

def torch_names(torch) -> dict:
    """What EXPR sees in gradcli: torch's functions by bare name (torch's over F's) unless Python
    has a builtin of that name, F, and torch."""
    functional = torch.nn.functional
    names = {n: getattr(functional, n) for n in dir(functional) if not n.startswith("_")}
    names.update({n: getattr(torch, n) for n in dir(torch) if not n.startswith("_")})
    names = {n: f for n, f in names.items() if n not in dir(builtins)}
    return names | {"torch": torch, "F": functional}


def torch_leaves(torch, names, bindings: dict, wrt=None, dtype=None) -> tuple[dict, list]:
    """The bindings as gradcli makes them: numbers and lists become floating tensors."""
    leaves = {}
    for name, text in bindings.items():
        value = eval(text, names | leaves)  # the oracle, over this file's own strings
        if isinstance(value, torch.Tensor):
            value = value.detach().clone()
            leaves[name] = value.to(dtype) if dtype and value.is_floating_point() else value
        else:
            leaves[name] = torch.tensor(value, dtype=dtype or torch.get_default_dtype())
    inputs = wrt or [n for n, t in leaves.items() if t.is_floating_point()]
    return leaves, inputs


def torch_grad(expr, bindings, wrt=None, dtype=None, gradient=None) -> str:
    torch = pytest.importorskip("torch")
    names = torch_names(torch)
    leaves, inputs = torch_leaves(torch, names, bindings, wrt, dtype)
    for name in inputs:
        leaves[name].requires_grad_()
    out = eval(expr, names | leaves)
    lines = [str(out)]
    out.backward(None if gradient is None else torch.tensor(eval(gradient, names), dtype=out.dtype))
    return "\n".join(lines + [f"{n}.grad = {leaves[n].grad!s}" for n in inputs]) + "\n"


def torch_matrix(kind, expr, bindings, wrt=None) -> str:
    torch = pytest.importorskip("torch")
    names = torch_names(torch)
    leaves, inputs = torch_leaves(torch, names, bindings, wrt)

    def function(*xs):
        return eval(expr, names | leaves | dict(zip(inputs, xs)))
    compute = getattr(torch.autograd.functional, kind)
    if len(inputs) == 1:
        return f"{compute(function, leaves[inputs[0]])!s}\n"
    result = compute(function, tuple(leaves[n] for n in inputs))
    if kind == "jacobian":
        lines = [f"jacobian[{n}] = {t!s}" for n, t in zip(inputs, result)]
    else:
        lines = [f"hessian[{a}][{b}] = {t!s}" for a, row in zip(inputs, result)
                 for b, t in zip(inputs, row)]
    return "\n".join(lines) + "\n"


# ---- the examples -----------------------------------------------------------------------

def test_grad_of_a_power_prints_value_and_grads_as_torch(gradcli):
    done = gradcli("grad", "x**y", "x=3", "y=4")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == torch_grad("x**y", {"x": "3", "y": "4"})


def test_grad_of_a_dot_product_with_wrt_as_json(gradcli):
    done = gradcli("grad", "w @ v", "w=[1, 2, 3]", "v=[4., 5, 6]", "--wrt", "w", "--json")
    assert done.returncode == 0, done.stderr
    document = validated(done)
    assert document["status"] == "ok" and list(document["grads"]) == ["w"]
    assert document["value"] == {"shape": [], "dtype": "float32", "values": 32.0,
                                 "grad_fn": "DotBackward0"}
    assert document["grads"]["w"] == {"shape": [3], "dtype": "float32", "values": [4.0, 5.0, 6.0]}
    assert done.stdout.count("\n") == 1


def test_check_at_one_point_passes_with_a_table(gradcli):
    done = gradcli("check", "sin(x) * x**2", "x=1.3")
    assert (done.returncode, done.stderr) == (0, "")
    header, rule, row, verdict = done.stdout.splitlines()
    assert header.split() == ["input", "element", "analytic", "vs", "reference", "abs", "error",
                              "rel", "error", "ok"]
    exact = 2 * 1.3 * math.sin(1.3) + 1.3 ** 2 * math.cos(1.3)
    cells = row.split()
    assert cells[0] == "x" and cells[2] == "numeric" and cells[-1] == "ok"
    assert float(cells[1]) == pytest.approx(exact, rel=1e-7)
    assert verdict == "ok: 1 comparison within tolerance"


def test_check_at_one_point_as_json(gradcli):
    document = validated(gradcli("check", "sin(x) * x**2", "x=1.3", "--json"))
    (row,) = document["rows"]
    exact = 2 * 1.3 * math.sin(1.3) + 1.3 ** 2 * math.cos(1.3)
    assert row["analytic"] == pytest.approx(exact, rel=1e-12)
    assert row["reference"] == pytest.approx(exact, rel=1e-7)
    assert (row["input"], row["element"], row["against"], row["ok"]) == ("x", [], "numeric", True)
    assert document["tolerances"] == {"eps": 1e-6, "atol": 1e-5, "rtol": 1e-3,
                                     "relative_step": False}
    assert (document["samples"], document["seed"], document["dtype"]) == (1, None, "float64")


CHECK_RANGE = ["check", "sin(x) * x**2", "--expect", "x: 2*x*sin(x) + x**2*cos(x)",
               "--range", "x=-3:3", "--samples", "200"]


def test_check_with_a_hand_formula_over_200_random_points(gradcli):
    done = gradcli(*CHECK_RANGE)
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0].startswith("200 points, 400 comparisons in float64, eps=1e-06 atol=1e-05")
    assert lines[1].startswith("analytic vs numeric: max abs error")
    assert lines[2].startswith("analytic vs expected: max abs error")
    assert lines[3] == "worst points:" and lines[-1] == "ok: 400 comparisons within tolerance"


def test_check_points_come_from_numpys_default_rng(gradcli):
    document = validated(gradcli(*CHECK_RANGE, "--seed", "7", "--json"))
    rng = np.random.default_rng(7)
    assert [p["x"] for p in document["points"]] == [
        float(rng.uniform(-3, 3, size=())) for _ in range(200)]
    assert (document["comparisons"], document["failures"], document["seed"]) == (400, 0, 7)


# ---- check computes in float64, or says it does not ---------------------------------------------

def test_check_makes_the_tensors_of_expr_float64(gradcli):
    done = gradcli("check", "torch.tensor([0.5, 0.25]) * x", "x=1", "--json")
    document = validated(done)
    (row,) = document["rows"]
    assert done.returncode == 0 and document["dtype"] == "float64"
    assert row["reference"] == pytest.approx(0.75, rel=1e-9)


def test_check_draws_torchs_float64_values(gradcli):
    torch = pytest.importorskip("torch")
    done = gradcli("check", "(torch.randn(3) * x).sum()", "--range", "x=0:1", "--samples", "5",
                   "--json")
    document = validated(done)
    assert done.returncode == 0 and document["failures"] == 0
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        expected = float(torch.randn(3, generator=torch.Generator()).sum())  # a fresh seed
    finally:
        torch.set_default_dtype(previous)
    assert [row["analytic"] for row in document["rows"]] == [pytest.approx(expected, rel=1e-15)] * 5


@pytest.mark.parametrize("dtype, step", [("float32", 2.0 ** -23), ("float16", 2.0 ** -10)])
def test_check_fits_its_tolerances_to_a_less_precise_expr(gradcli, dtype, step):
    args = ["check", f"(torch.ones(3, dtype=torch.{dtype}) * sin(x) * x**2).sum()",
            "--range", "x=-3:3", "--samples", "50"]
    done = gradcli(*args)
    assert (done.returncode, done.stderr) == (0, "")
    note, summary = done.stdout.splitlines()[:2]
    assert note.startswith(f"note: EXPR computes in {dtype}, not float64; tolerances fitted to "
                           f"{dtype}: step eps*max(1,|x|), eps={step ** (1 / 3):.3g} ")
    assert summary.startswith(f"50 points, 50 comparisons in {dtype}, ")
    document = validated(gradcli(*args, "--json"))
    assert document["dtype"] == dtype and document["tolerances"]["relative_step"] is True
    wrong = gradcli(*args, "--expect", "x: 2*x*cos(x)")
    assert wrong.returncode == 1 and wrong.stdout.splitlines()[-1].startswith("MISMATCH")


def test_check_keeps_tolerances_given_for_a_less_precise_expr(gradcli):
    document = validated(gradcli("check", "x.float()**2", "x=3", "--atol", "0.5", "--json"))
    assert document["dtype"] == "float32"
    assert document["tolerances"]["atol"] == 0.5 and document["tolerances"]["rtol"] > 1e-3


@pytest.mark.parametrize("option, value, wanted", [
    ("--eps", "0", "a positive finite number"), ("--eps", "-1e-6", "a positive finite number"),
    ("--eps", "inf", "a positive finite number"), ("--atol", "nan", "a finite number >= 0"),
    ("--rtol", "-0.1", "a finite number >= 0"), ("--seed", "-1", "a finite number >= 0")])
def test_check_options_out_of_range_are_usage_errors(gradcli, option, value, wanted):
    done = gradcli("check", "x**2", "x=3", option, value)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"gradcli check: {option}: expected {wanted}, got ")


@pytest.mark.parametrize("samples", ["0", "-2"])
def test_check_samples_must_be_positive(gradcli, samples):
    done = gradcli("check", "x**2", "--range", "x=0:1", "--samples", samples)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("gradcli check: --samples: give a positive count")


def test_check_with_zero_tolerances_asks_for_exact_agreement(gradcli):
    args = ["check", "x**2", "x=3", "--atol", "0", "--rtol", "0", "--expect", "x: 2*x"]
    document = validated(gradcli(*args, "--json"))
    verdicts = {row["against"]: row["ok"] for row in document["rows"]}
    assert verdicts == {"expected": True, "numeric": False}


def test_jacobian_of_a_square(gradcli):
    done = gradcli("jacobian", "x**2", "x=[1, 2, 3]")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == torch_matrix("jacobian", "x**2", {"x": "[1, 2, 3]"})


def test_hessian_of_a_cubic_sum(gradcli):
    done = gradcli("hessian", "(x**3).sum()", "x=[1., 2.]")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == torch_matrix("hessian", "(x**3).sum()", {"x": "[1., 2.]"})


def test_expression_from_standard_input(gradcli):
    done = gradcli("grad", "-", "x=2", stdin="x**2 + 1\n")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == torch_grad("x**2 + 1", {"x": "2"})


# ---- bindings -----------------------------------------------------------------------------------

@pytest.mark.parametrize("args, expr, bindings, options", [
    (["x * y", "x=[1., 2.]", "y=3", "--dtype", "float64"], "x * y", {"x": "[1., 2.]", "y": "3"},
     {"dtype": "float64", "gradient": "[1., 1.]"}),
    (["(x * t).sum()", "t=torch.ones(3)", "x=2"], "(x * t).sum()",
     {"t": "torch.ones(3)", "x": "2"}, {}),
    (["(x * t).sum()", "t=torch.linspace(0, 1, 5)", "x=2"], "(x * t).sum()",
     {"t": "torch.linspace(0, 1, 5)", "x": "2"}, {}),
    (["y * 2", "x=1", "y=2 * x"], "y * 2", {"x": "1", "y": "2 * x"}, {}),
    (["x**2", "x=1", "y=5"], "x**2", {"x": "1", "y": "5"}, {}),
    (["exp(x).sum()", "x=[[0., 1.], [2., 3.]]"], "exp(x).sum()", {"x": "[[0., 1.], [2., 3.]]"},
     {}),
    (["sum(x) + abs(x).max()", "x=[1., -2.]"], "sum(x) + abs(x).max()", {"x": "[1., -2.]"}, {}),
    (["(lambda t: F.softplus(t) * y)(x)", "x=1", "y=2"], "(lambda t: F.softplus(t) * y)(x)",
     {"x": "1", "y": "2"}, {}),
])
def test_bindings_and_options_match_torch(gradcli, args, expr, bindings, options):
    torch = pytest.importorskip("torch")
    extra = ["--gradient", options["gradient"]] if "gradient" in options else []
    done = gradcli("grad", *args, *extra)
    assert (done.returncode, done.stderr) == (0, "")
    dtype = getattr(torch, options["dtype"]) if "dtype" in options else None
    assert done.stdout == torch_grad(expr, bindings, dtype=dtype,
                                     gradient=options.get("gradient"))


@pytest.mark.parametrize("kind, expr", [("jacobian", "x * y"), ("hessian", "(x * y**2).sum()")])
def test_several_inputs_print_one_block_per_input_pair(gradcli, kind, expr):
    done = gradcli(kind, expr, "x=[1., 2.]", "y=3")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == torch_matrix(kind, expr, {"x": "[1., 2.]", "y": "3"})
    document = validated(gradcli(kind, expr, "x=[1., 2.]", "y=3", "--json"))
    assert list(document[kind]) == ["x", "y"]


def test_a_non_scalar_grad_is_torchs_error_with_a_hint(gradcli):
    done = gradcli("grad", "x**2", "x=[1., 2.]")
    assert done.returncode == 2 and done.stdout == ""
    error, hint = done.stderr.splitlines()
    assert error == "RuntimeError: grad can be implicitly created only for scalar outputs"
    assert hint.startswith("hint: ") and "gradcli jacobian" in hint and "--gradient" in hint


def test_an_integer_input_cannot_require_grad(gradcli):
    done = gradcli("grad", "x * n", "x=1", "n=torch.tensor(3)", "--wrt", "x,n")
    assert done.returncode == 2
    assert done.stderr.startswith("RuntimeError: only Tensors of floating point")


def test_quiet_prints_nothing(gradcli):
    for args in (["grad", "x**2", "x=3"], ["check", "x**2", "x=3"], CHECK_RANGE):
        done = gradcli(*args, "-q")
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


# ---- check on classic functions -----------------------------------------------------------------

VECTOR, MATRIX = "[0., 0., 0.]", "[[0., 0., 0.], [0., 0., 0.]]"
CLASSICS = {  # name: (EXPR, bindings, ranges, right formulas, a wrong formula)
    "sigmoid": ("sigmoid(x)", [], ["x=-4:4"], ["x: sigmoid(x) * (1 - sigmoid(x))"],
                "x: sigmoid(x) * (1 + sigmoid(x))"),
    "tanh": ("tanh(x)", [], ["x=-3:3"], ["x: 1 - tanh(x)**2"], "x: 1 - tanh(x)"),
    "softplus": ("softplus(x)", [], ["x=-4:4"], ["x: sigmoid(x)"], "x: exp(x)"),
    "logsumexp": ("logsumexp(x, 0)", [f"x={VECTOR}"], ["x=-3:3"], ["x: exp(x) / exp(x).sum()"],
                  "x: exp(x)"),
    "x**x": ("x**x", [], ["x=0.1:3"], ["x: x**x * (log(x) + 1)"], "x: x * x**(x - 1)"),
    "sin(x)*x**2": ("sin(x) * x**2", [], ["x=-3:3"], ["x: 2*x*sin(x) + x**2*cos(x)"],
                    "x: 2*x*cos(x)"),
    "1/x": ("1 / x", [], ["x=0.5:4"], ["x: -1 / x**2"], "x: -1 / x"),
    "sqrt": ("sqrt(x)", [], ["x=0.1:4"], ["x: 0.5 / sqrt(x)"], "x: 1 / sqrt(x)"),
    "norm": ("norm(x)", [f"x={VECTOR}"], ["x=-3:3"], ["x: x / norm(x)"], "x: x"),
    "matmul": ("(A @ x).sum()", [f"A={MATRIX}", f"x={VECTOR}"], ["A=-2:2", "x=-2:2"],
               ["x: A.sum(0)", "A: ones(2, 1) * x"], "x: A[0]"),
}


def check_args(name: str, formulas: list[str]) -> list[str]:
    expr, bindings, ranges, _, _ = CLASSICS[name]
    return (["check", expr, *bindings, "--samples", "200"]
            + [a for r in ranges for a in ("--range", r)]
            + [a for f in formulas for a in ("--expect", f)])


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CLASSICS))
def test_check_passes_a_right_derivative_at_200_points(gradcli, name):
    done = gradcli(*check_args(name, CLASSICS[name][3]), "--json")
    assert done.returncode == 0, done.stderr
    document = validated(done)
    elements = sum(np.size(v) for v in document["points"][0].values())
    assert len(document["points"]) == 200 and document["status"] == "ok"
    assert document["comparisons"] == 200 * elements * 2 and document["failures"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CLASSICS))
def test_check_catches_a_wrong_derivative_and_shows_the_worst_points(gradcli, name):
    done = gradcli(*check_args(name, [CLASSICS[name][4]]))
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    worst = lines.index("worst points:")
    assert lines[worst + 1].split()[:2] == ["point", "at"]
    assert lines[worst + 3].split()[-1] == "FAIL" and "expected" in lines[worst + 3]
    assert lines[-1].startswith("MISMATCH: ")


# ---- --json for every command and for errors ----------------------------------------------------

@pytest.mark.parametrize("args, status", [
    (["grad", "x**y", "x=3", "y=4"], "ok"),
    (["grad", "x + y", "x=3", "y=[1., 2.]", "--gradient", "[1., 1.]"], "ok"),
    (["grad", "x / y", "x=1", "y=0"], "ok"),
    (["jacobian", "x**2", "x=[1, 2, 3]"], "ok"),
    (["hessian", "(x**3).sum()", "x=[1., 2.]"], "ok"),
    (["check", "sin(x) * x**2", "x=1.3"], "ok"),
    (["check", "x**2", "x=[1., 2.]", "--expect", "x: 3*x"], "mismatch"),
    (["check", "sqrt(x)", "x=-1"], "mismatch"),
    (["grad", "x**", "x=3"], "error"),
    (["grad", "x**z", "x=3"], "error"),
    (["grad", "x**2", "x=[1., 2.]"], "error"),
    (["jacobian", "x**2", "x=[1,"], "error"),
    (["hessian", "x**2", "x=[1., 2.]"], "error"),
    (["check", "x**2", "x=3", "--expect", "y: 2*y"], "error"),
    (["check", "x**2", "x=3", "--range", "x=3:1"], "error"),
    (["jacobian", "x**2", "3=x"], "error"),
])
def test_json_output_validates_against_the_schema(gradcli, args, status):
    done = gradcli(*args, "--json")
    document = validated(done)
    assert document["status"] == status and document["command"] == args[0]
    assert done.returncode == {"ok": 0, "mismatch": 1, "error": 2}[status]


def test_json_error_carries_type_message_and_position(gradcli):
    document = validated(gradcli("grad", "x**z", "x=3", "--json"))
    assert document["error"] == {"type": "NameError", "message": "name 'z' is not defined",
                                 "source": "<expr>", "line": 1, "column": 4, "hint": None}


# ---- the exit-code table ------------------------------------------------------------------------

COMMAND_CASES = {
    "grad": ["grad", "x**2", "x=3"],
    "jacobian": ["jacobian", "x**2", "x=[1., 2.]"],
    "hessian": ["hessian", "(x**2).sum()", "x=[1., 2.]"],
    "check": ["check", "x**2", "x=3"],
}
TROUBLE = [  # every command meets every kind of trouble once: (command, EXPR and bindings)
    ("grad", ["x +* 2", "x=3"]),
    ("jacobian", ["x=[1., 2.]", "x=3"]),
    ("hessian", ["x +* 2", "x=[1, 2]"]),
    ("check", ["x**2", "x=]"]),
    ("jacobian", ["(x + torch.ones(3)).sum()", "x=[1., 2.]"]),
    ("hessian", ["(x @ x)", "x=[[1., 2.]]"]),
    ("check", ["log(x)[5]", "x=[1., 2.]"]),
    ("grad", ["x**2", "x=1", "--samples", "3"]),
    ("check", ["x**2", "x=3", "--samples", "3"]),
    ("hessian", ["x**2", "x", "x=3"]),
    ("jacobian", ["x**2", "x=3", "--wrt", "y"]),
    ("grad", ["x**2", "x=3", "--dtype", "int64"]),
]


@pytest.mark.parametrize("command, args", TROUBLE, ids=[
    f"{command}-{kind}" for (command, _), kind in zip(TROUBLE, ["syntax"] * 4 + ["runtime"] * 3
                                                       + ["usage"] * 5)])
def test_exit_code_two_for_trouble(gradcli, command, args):
    done = gradcli(command, *args)
    assert done.returncode == 2 and done.stdout == "" and done.stderr


@pytest.mark.parametrize("command", list(COMMAND_CASES))
def test_exit_code_for_success(gradcli, command):
    done = gradcli(*COMMAND_CASES[command])
    assert done.returncode == 0 and done.stderr == ""


def test_exit_code_for_a_mismatch(gradcli):
    assert gradcli("check", "x**2", "x=3", "--expect", "x: x").returncode == 1


def test_run_keeps_one_for_a_runtime_error(gradcli):
    assert gradcli("eval", "torch.ones(2) + torch.ones(3)").returncode == 1
    assert gradcli("eval", "x +* 2").returncode == 2


@pytest.mark.parametrize("args", [["--help"], ["check", "--help"]])
def test_help_documents_the_exit_codes(gradcli, args):
    done = gradcli(*args)
    assert done.returncode == 0
    text = " ".join(done.stdout.replace("│", " ").split())
    assert "Exit codes: 0 success; 1 the answer is no" in text and "2 trouble" in text


# ---- colour -------------------------------------------------------------------------------------

@pytest.mark.parametrize("no_color, coloured", [(None, True), ("1", False)])
def test_colour_only_on_a_terminal_without_no_color(gradcli_exe, no_color, coloured):
    pexpect = pytest.importorskip("pexpect")
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["TERM"] = "xterm-256color"
    if no_color:
        env["NO_COLOR"] = no_color
    child = pexpect.spawn(gradcli_exe, ["check", "x**2", "x=3", "--expect", "x: x"], env=env,
                          encoding="utf-8", timeout=60)
    output = child.read()
    child.close()
    assert child.exitstatus == 1 and "MISMATCH" in output
    assert ("\x1b[" in output) == coloured


# ---- shell examples -----------------------------------------------------------------------------

def run_script(gradcli_exe, name, *args):
    env = dict(os.environ, PATH=f"{Path(gradcli_exe).parent}{os.pathsep}{os.environ['PATH']}")
    return subprocess.run(["bash", str(SHELL_EXAMPLES / name), *args], capture_output=True,
                          text=True, env=env, timeout=300)


@pytest.mark.slow
def test_shell_activations_pass(gradcli_exe):
    done = run_script(gradcli_exe, "check_activations.sh")
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()] == ["ok"] * 6


@pytest.mark.slow
def test_shell_activations_fail_loudly_on_a_wrong_derivative(gradcli_exe):
    done = run_script(gradcli_exe, "check_activations.sh", "tanh(x)|1 - tanh(x)**2",
                      "tanh(x)|1 - tanh(x)", "sigmoid(x)|sigmoid(x)")
    assert done.returncode == 1
    assert done.stdout == "ok    d/dx tanh(x) = 1 - tanh(x)**2\n"
    assert "FAIL  d/dx tanh(x) = 1 - tanh(x)" in done.stderr and "worst points:" in done.stderr


@pytest.mark.slow
def test_shell_newton_converges_on_sqrt2(gradcli_exe):
    done = run_script(gradcli_exe, "newton_sqrt2.sh")
    assert done.returncode == 0, done.stderr
    iterates = [float(line.split(" = ")[1]) for line in done.stdout.splitlines()]
    assert iterates[:3] == pytest.approx([1.5, 17 / 12, 577 / 408], rel=1e-15)
    assert len(iterates) == 6 and iterates[-1] == pytest.approx(math.sqrt(2), abs=1e-15)


@pytest.mark.slow
def test_shell_gate_passes_its_file(gradcli_exe):
    done = run_script(gradcli_exe, "gate_derivatives.sh")
    assert done.returncode == 0, done.stdout + done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()] == ["right"] * 5


@pytest.mark.slow
@pytest.mark.parametrize("lines, code, verdicts", [
    (["x**3 ; x: 3*x**2 ; x=-2:2", "x**3 ; x: 3*x ; x=-2:2"], 1, ["right", "WRONG"]),
    (["x**3 ; x: 3*x ; x=-2:2", "x**3 ; x: 3*x** ; x=-2:2"], 2, ["WRONG", "BROKEN"]),
])
def test_shell_gate_answers_as_grep(gradcli_exe, tmp_path, lines, code, verdicts):
    listing = tmp_path / "derivatives.txt"
    listing.write_text("\n".join(lines) + "\n")
    done = run_script(gradcli_exe, "gate_derivatives.sh", str(listing))
    assert done.returncode == code
    assert [line.split()[0] for line in done.stdout.splitlines()] == verdicts


# ---- Ctrl-C -------------------------------------------------------------------------------------

LONG = "sum([x for i in range(10**8)])"


@pytest.mark.parametrize("args", [["grad", LONG, "x=1"], ["jacobian", LONG, "x=1"],
                                  ["check", LONG, "x=1"], ["eval", LONG.replace("x ", "1 ")]],
                         ids=["grad", "jacobian", "check", "eval"])
def test_ctrl_c_reports_keyboard_interrupt_and_exits_130(gradcli_exe, args):
    import signal
    # Ctrl-C's default meaning for the child, even under a runner started in the background
    # (which ignores SIGINT, and children inherit that)
    child = subprocess.Popen([gradcli_exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                         signal.SIG_DFL))
    _wait_for_cpu_seconds(child.pid, 1.5)  # past start-up (about half that), into the loop
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert (child.returncode, out, err) == (130, "", "KeyboardInterrupt\n")


def _wait_for_cpu_seconds(pid: int, seconds: float, limit: float = 60) -> None:
    """Until process `pid` has used `seconds` of CPU (however loaded the machine), or without
    /proc for `seconds` of wall time."""
    import time
    stat, deadline = Path(f"/proc/{pid}/stat"), time.monotonic() + limit
    if not stat.exists():
        time.sleep(seconds)
        return
    while time.monotonic() < deadline:
        fields = stat.read_text().rpartition(")")[2].split()
        if (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") >= seconds:
            return
        time.sleep(0.05)


FAST_PATH_COMMANDS = [
    ["grad", "sin(x) * y", "x=0.5", "y=[1, 2]"],
    ["explain", "x * y", "x=2", "y=3"],
    ["jacobian", "x ** 2", "x=[1, 2]"],
    ["hessian", "(x ** 3).sum()", "x=[1, 2]"],
    ["check", "sin(x) * x", "x=0.5"],
    ["grad", "x +", "x=1"],  # a syntax error in EXPR
    ["check", "y * 2", "x=1"],  # an unbound name
]


@pytest.mark.parametrize("args", FAST_PATH_COMMANDS, ids=lambda a: " ".join(a))
def test_commands_without_options_answer_as_through_typer(run_gradcli, args):
    """Only EXPR and bindings: the entry answers without typer, exactly as the typer app does
    (an option that changes nothing, --dtype float32 or --samples 1, sends the same command
    through typer)."""
    fast = run_gradcli(args)
    through_typer = run_gradcli([*args, "--dtype", "float32"] if args[0] != "check" else
                                [*args, "--samples", "1"])
    assert (fast.returncode, fast.stdout, fast.stderr) == (
        through_typer.returncode, through_typer.stdout, through_typer.stderr)
