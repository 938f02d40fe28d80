"""The main CLI paths through the installed console script: eval, run, errors and exit codes."""

import re

import pytest

from snippets import without_notes

ISSUE_EXAMPLES = [
    "x = torch.tensor(2., requires_grad=True); y = x**2 + 1; y.backward(); x.grad",
    "let x = 2.0 requires_grad; (x**2 + 1).backward(); x.grad",
]


@pytest.mark.parametrize("program", ISSUE_EXAMPLES)
def test_eval_prints_the_gradient(run_gradcli, program):
    result = run_gradcli(["eval", program])
    assert (result.returncode, result.stdout, result.stderr) == (0, "tensor(4.)\n", "")


def test_eval_echoes_expression_values_but_not_none(run_gradcli):
    result = run_gradcli(["eval", "x = torch.ones(2, requires_grad=True); x; None; x.sum()"])
    assert result.stdout == (
        "tensor([1., 1.], requires_grad=True)\ntensor(2., grad_fn=<SumBackward0>)\n")


def test_run_reads_standard_input(run_gradcli):
    result = run_gradcli(["run", "-"], stdin="print(torch.tensor([1, 2]) * 2)\n1 + 1\n")
    assert (result.returncode, result.stdout) == (0, "tensor([2, 4])\n")


def test_syntax_error_exits_2_with_position_and_caret(run_gradcli):
    result = run_gradcli(["eval", "x = 1\ny = (x +\nprint(y)"])
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0] == "<eval>:2:5"
    assert lines[1].endswith("| y = (x +")
    assert lines[2].endswith("|     ^")
    assert lines[-1] == "SyntaxError: '(' was never closed"
    assert "Traceback" not in result.stderr


def test_nothing_runs_before_a_syntax_error_is_reported(run_gradcli):
    result = run_gradcli(["run", "-"], stdin="print('first')\nx = = 2\n")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1] == "SyntaxError: invalid syntax"


def test_runtime_error_exits_1_after_earlier_output(run_gradcli):
    program = "x = torch.tensor([1., 2.], requires_grad=True)\nprint('before')\ny = x * 2\ny.backward()\n"
    result = run_gradcli(["run", "-"], stdin=program)
    assert result.returncode == 1
    assert result.stdout == "before\n"
    lines = result.stderr.splitlines()
    assert lines[0] == "<stdin>:4:1"
    assert lines[1].endswith("| y.backward()")
    assert lines[2].endswith("| ^~~~~~~~~~~~")
    assert lines[-1] == "RuntimeError: grad can be implicitly created only for scalar outputs"
    assert "Traceback" not in result.stderr


def test_caret_marks_the_innermost_failing_expression(run_gradcli):
    result = run_gradcli(["eval", "a = torch.ones(3); b = torch.ones(2); c = 1 + (a + b)"])
    lines = result.stderr.splitlines()
    assert lines[2].endswith("| " + " " * 47 + "^~~~~")
    assert lines[-1] == ("RuntimeError: The size of tensor a (3) must match the size of tensor b "
                         "(2) at non-singleton dimension 0")


def test_usage_error_exits_2(run_gradcli):
    assert run_gradcli(["no-such-command"]).returncode == 2
    assert run_gradcli(["run"]).returncode == 2


def test_missing_file_exits_2_without_traceback(run_gradcli):
    result = run_gradcli(["run", "/nonexistent/script.py"])
    assert result.returncode == 2
    assert "cannot open" in result.stderr and "Traceback" not in result.stderr


def test_unknown_name_is_a_name_error(run_gradcli):
    result = run_gradcli(["eval", "y = undefined_thing + 1"])
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == "NameError: name 'undefined_thing' is not defined"


def test_module_entry_point(gradcli_exe):
    import subprocess
    import sys
    result = subprocess.run([sys.executable, "-m", "gradcli", "eval", "torch.ones(2).sum()"],
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout) == (0, "tensor(2.)\n")


def test_a_reader_that_goes_away_stops_the_program_quietly(gradcli_exe):
    """`gradcli run f.py | head -1`: exit 1 as Python's own does, but no traceback or internal
    error."""
    import subprocess

    process = subprocess.Popen([gradcli_exe, "eval", "for i in range(10**6): print(i)"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout.readline() == b"0\n"
    process.stdout.close()
    assert process.wait(timeout=60) == 1
    assert process.stderr.read() == b""


def test_warnings_name_the_file_and_line_as_python_does(run_gradcli, tmp_path):
    """Once per line, as Python's default filter shows them; compared with Python running the
    same file under torch (when installed), without torch's '(Triggered internally at ...)'."""
    script = tmp_path / "warns.py"
    script.write_text("import torch\nx = torch.tensor(1., requires_grad=True)\ny = x * 2\n"
                      "for i in range(2):\n    print(y.grad, float(y))\n")
    result = run_gradcli(["run", str(script)])
    assert result.returncode == 0
    assert result.stdout == "None 2.0\nNone 2.0\n"
    report = without_notes(result.stderr)  # the note naming line 3 is checked in test_error_notes
    assert f"{script}:3:5: note: computed here by MulBackward0" in result.stderr
    lines = report.splitlines()
    assert lines[0].startswith(f"{script}:5: UserWarning: The .grad attribute of a Tensor that "
                               "is not a leaf Tensor is being accessed.")
    assert lines[1] == "  print(y.grad, float(y))"
    assert lines[2] == (f"{script}:5: UserWarning: Converting a tensor with requires_grad=True "
                        "to a scalar may lead to unexpected behavior.")
    assert lines[3:] == ["Consider using tensor.detach() first. (Triggered internally at /__w/"
                         "pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods."
                         "cpp:822.)", "  print(y.grad, float(y))"]
    torch_run = _python_with_torch(script)
    if torch_run is not None:
        suffix = re.compile(r" \(Triggered internally at [^)]*\.\)")
        assert suffix.sub("", torch_run.stderr) == suffix.sub("", report)


def _python_with_torch(script):
    """The same script run by this Python with real torch, or None without torch."""
    import importlib.util
    import subprocess
    import sys
    if importlib.util.find_spec("torch") is None:
        return None
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)


# ---- tensors too large to make ------------------------------------------------------------------

HUGE = ["torch.zeros(2**62)", "torch.ones(2**62, 4)", "torch.empty(2**32, 2**32, 2**32)",
        "torch.randn(2**62)", "torch.rand(2**61, dtype=torch.float64)",
        "torch.full((2**62,), 1.0)", "torch.zeros(0, 2**62, 2**62)", "torch.zeros(10**12)",
        "torch.ones(10**12, dtype=torch.bool)", "torch.empty(3, 10**12)", "torch.randn(10**12)",
        "torch.full((10**12,), 2)", "torch.randint(3, (10**12,))", "torch.arange(10**12)",
        "torch.eye(10**7)", "torch.eye(2**62)", "torch.linspace(0, 1, 2**62)",
        "torch.zeros(2**63)", "torch.zeros(-1)", "torch.ones(2, -1)", "torch.zeros(0, 3).shape"]


def test_huge_tensors_fail_with_torchs_text(run_gradcli, tmp_path):
    """Sizes past what 64 bits can count, and sizes past the machine's memory, fail as torch
    fails before it allocates (first line of the message: torch adds a C++ backtrace to some)."""
    script = tmp_path / "huge.py"
    script.write_text("import torch\nfor make in [" + ", ".join(f"lambda: {e}" for e in HUGE)
                      + "]:\n    try:\n        print(make())\n    except Exception as error:\n"
                      "        print(type(error).__name__, str(error).split(\"\\n\")[0])\n")
    result = run_gradcli(["run", str(script)])
    assert (result.returncode, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert lines[0] == ("RuntimeError Storage size calculation overflowed with "
                        "sizes=[4611686018427387904]")
    assert lines[6] == "RuntimeError Stride calculation overflowed"
    assert lines[7] == ("RuntimeError [enforce fail at alloc_cpu.cpp:127] err == 0. "
                        "DefaultCPUAllocator: can't allocate memory: you tried to allocate "
                        "4000000000000 bytes. Error code 12 (Cannot allocate memory)")
    torch_run = _python_with_torch(script)
    if torch_run is not None:
        assert torch_run.stdout.replace('long long"', "long long") == result.stdout.replace(
            'long long"', "long long")


@pytest.mark.parametrize("args, message", [
    (["grad", "torch.zeros(10**12).sum()", "x=1"], "RuntimeError: [enforce fail at "
     "alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to "
     "allocate 4000000000000 bytes. Error code 12 (Cannot allocate memory)"),
    (["grad", "x", "x=[0]*10**10"], "MemoryError"),
    (["check", "x * len([0]*10**10)", "x=1"], "MemoryError"),
])
def test_derivative_commands_report_memory_errors_as_errors_of_expr(run_gradcli, args, message):
    """As `gradcli run` reports them (grad's exit code for an error in EXPR is 2)."""
    result = run_gradcli(args)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1] == message
    assert "internal error" not in result.stderr


def test_run_reports_a_memory_error_as_python_does_at_its_place(run_gradcli):
    result = run_gradcli(["eval", "[0]*10**10"])
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == ["<eval>:1:1", "   1 | [0]*10**10",
                                          "     | ^~~~~~~~~~", "MemoryError"]


@pytest.mark.parametrize("program, last_line", [
    ("torch.linalg.inv(torch.zeros(2, 2))",
     "torch._C._LinAlgError: linalg.inv: The diagonal element 1 is zero, the inversion could not "
     "be completed because the input matrix is singular."),
    ("import numpy as np; np.linalg.inv(np.zeros((2, 2)))",
     "numpy.linalg.LinAlgError: Singular matrix"),
    ("class MyError(Exception): pass\nraise MyError('boom')", "MyError: boom"),
])
def test_an_uncaught_module_exception_is_named_as_pythons_traceback_names_it(
        run_gradcli, program, last_line):
    result = run_gradcli(["eval", program])
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == last_line


# ---- version, help, and programs that start with '-' -------------------------------------------

def test_version_prints_the_package_version(run_gradcli):
    import gradcli
    result = run_gradcli(["--version"])
    assert (result.returncode, result.stdout, result.stderr) == (
        0, f"gradcli {gradcli.__version__}\n", "")


@pytest.mark.parametrize("args", [["--help"], ["eval", "-h"], ["check", "--help"]])
def test_help_shows_flags_without_a_type(run_gradcli, args):
    result = run_gradcli(args)
    assert result.returncode == 0
    assert "<bool>" not in result.stdout
    rows = [" ".join(line.strip("│ ").split()) for line in result.stdout.splitlines()]
    assert "--help -h Show this message and exit." in rows


@pytest.mark.parametrize("program, output", [
    ("-1", "-1\n"), ("-torch.ones(2).sum()", "tensor(-2.)\n"), ("-(2 ** 3)", "-8\n")])
def test_eval_takes_a_program_starting_with_a_dash(run_gradcli, program, output):
    result = run_gradcli(["eval", program])
    assert (result.returncode, result.stdout, result.stderr) == (0, output, "")


def test_eval_of_a_negated_string_is_pythons_type_error(run_gradcli):
    result = run_gradcli(["eval", '-"a"'])
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines()[-1] == "TypeError: bad operand type for unary -: 'str'"


@pytest.mark.parametrize("args", [
    ["grad", "-x**2", "x=3", "--wrt", "x"], ["grad", "--wrt", "x", "-x**2", "x=3"],
    ["grad", "--", "-x**2", "x=3"], ["grad", "-q", "-x**2", "x=3"]])
def test_derivative_commands_take_an_expression_starting_with_a_dash(run_gradcli, args):
    result = run_gradcli(args)
    assert (result.returncode, result.stderr) == (0, "")
    shown = "tensor(-9., grad_fn=<NegBackward0>)\nx.grad = tensor(-6.)\n"
    assert result.stdout == ("" if "-q" in args else shown)


def test_check_takes_an_expression_starting_with_a_dash(run_gradcli):
    result = run_gradcli(["check", "-x**2", "x=1", "--expect", "x: -2*x"])
    assert (result.returncode, result.stderr) == (0, "")


@pytest.mark.parametrize("args, unknown", [(["grad", "-x", "x=3", "--wrtt", "x"], "--wrtt"),
                                           (["grad", "x", "x=3", "-y"], "-y")])
def test_unknown_options_are_still_usage_errors(run_gradcli, args, unknown):
    result = run_gradcli(args)
    assert (result.returncode, result.stdout) == (2, "")
    assert f"No such option: {unknown}" in result.stderr
