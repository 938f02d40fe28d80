"""Resource limits: sizes known before any work are refused at once (torch's allocator message
past the machine's memory, gradcli's past --max-memory), and --timeout ends a run with exit 124."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from gradcli.engine import memory

MIB = 1024 * 1024
ALLOCATOR = "DefaultCPUAllocator: can't allocate memory: you tried to allocate"
LIMIT = "exceeds the memory limit of 100 MiB (--max-memory)"

# (command line after `gradcli`, the error line's kind and a part of its text)
MEMORY_CASES = [
    (["eval", "--max-memory", "100M", "torch.randn(10**4, 10**4)"],
     "RuntimeError: gradcli: allocating 381.5 MiB " + LIMIT),
    (["eval", "--max-memory", "100M", "torch.zeros(10**4, 10**4, dtype=torch.float64)"],
     "RuntimeError: gradcli: allocating 762.9 MiB " + LIMIT),
    (["eval", "--max-memory", "100M", "x = [0] * 10**8"],
     "MemoryError: gradcli: allocating 762.9 MiB " + LIMIT),
    (["eval", "--max-memory", "100M", "s = 'ab' * 10**9"],
     "MemoryError: gradcli: allocating 1.9 GiB " + LIMIT),
    (["eval", "torch.randn(10**5, 10**5)"],
     f"RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. {ALLOCATOR} 40000000000 "),
    (["eval", "torch.ones(10**5, 1) + torch.ones(1, 10**5)"], f"RuntimeError: [enforce fail"),
    (["eval", "torch.zeros(2**62)"],
     "RuntimeError: Storage size calculation overflowed with sizes=[4611686018427387904]"),
    (["eval", "x = [0] * 10**12"], "MemoryError"),
    (["grad", "torch.zeros(10**12).sum() * x", "x=1"], f"RuntimeError: [enforce fail"),
    (["grad", "--max-memory", "100M", "x", "x=[0]*10**9"],
     "MemoryError: gradcli: allocating 7.5 GiB " + LIMIT),
]

# Runs one command line and reports its exit code, its stderr and its peak resident memory:
# the only child of a fresh process, so that the children's peak is this command's own.
_MEASURE = """
import json, resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=60)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(json.dumps({"code": done.returncode, "stderr": done.stderr, "peak": peak}))
"""


def measured(command: list[str]) -> dict:
    done = subprocess.run([sys.executable, "-c", _MEASURE, *command], capture_output=True,
                          text=True, timeout=120, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("args, wanted", MEMORY_CASES, ids=[" ".join(a) for a, _ in MEMORY_CASES])
def test_an_impossible_allocation_fails_at_once_with_its_message(gradcli_exe, args, wanted):
    result = measured([gradcli_exe, *args])
    assert result["code"] in (1, 2)  # run/eval: the program failed; grad: trouble
    assert wanted in result["stderr"].splitlines()[-1]
    assert "Traceback" not in result["stderr"]
    assert result["peak"] < 100 * MIB


@pytest.mark.parametrize("program", ["torch.randn(10**4, 10**4)", "x = [0] * 10**8"])
def test_the_check_comes_before_any_work(program):
    from gradcli.language.session import Session
    session, saved = Session(write=lambda text: None), memory.LIMIT.bytes
    memory.LIMIT.bytes = 100 * MIB
    try:
        start = time.perf_counter()
        outcome = session.run(program)
        elapsed = time.perf_counter() - start
    finally:
        memory.LIMIT.bytes = saved
    assert "--max-memory" in outcome.error.message
    assert elapsed < 1.0


def test_within_the_limit_a_program_runs(run_gradcli):
    done = run_gradcli(["eval", "--max-memory", "100M", "torch.zeros(1000, 1000).sum()"])
    assert (done.returncode, done.stdout) == (0, "tensor(0.)\n")


def test_a_failed_allocation_can_be_caught_as_python_catches_it(run_gradcli):
    program = ("try:\n    x = [0] * 10**8\nexcept MemoryError as e:\n    print('caught')\n"
               "try:\n    torch.ones(10**6)\nexcept RuntimeError as e:\n    print(str(e)[:7])\n")
    done = run_gradcli(["run", "--max-memory", "1M", "-"], stdin=program)
    assert (done.returncode, done.stdout) == (0, "caught\ngradcli\n")


@pytest.mark.parametrize("text, size", [("512", 512), ("100M", 100 * MIB), ("2g", 2 * 1024**3),
                                        ("1.5GiB", 3 * 1024**3 // 2), ("64KB", 65536)])
def test_sizes_read_as_powers_of_1024(text, size):
    assert memory.parse_size(text) == size


@pytest.mark.parametrize("option, value", [("--max-memory", "lots"), ("--max-memory", "-1G"),
                                           ("--timeout", "0"), ("--timeout", "nan")])
def test_bad_limits_are_usage_errors(run_gradcli, option, value):
    done = run_gradcli(["eval", option, value, "1"])
    assert done.returncode == 2
    assert f"Invalid value for '{option}'" in done.stderr


@pytest.mark.parametrize("args", [["eval", "--timeout", "5", "print(1)\nwhile True: pass"],
                                  ["run", "--timeout", "5", "-"],
                                  ["grad", "--timeout", "5", "x * sum(range(10**12))", "x=1"]])
def test_timeout_ends_an_endless_loop_with_124(run_gradcli, args):
    stdin = "print(1)\nwhile True:\n    pass\n" if args[-1] == "-" else None
    done = run_gradcli(args, stdin=stdin)
    assert done.returncode == 124
    assert done.stderr.endswith("gradcli: timed out after 5 s (--timeout)\n")
    assert "Traceback" not in done.stderr
    if args[0] != "grad":
        assert done.stdout == "1\n"  # what was printed before the time ran out


def test_a_program_within_its_time_is_unaffected(run_gradcli):
    done = run_gradcli(["eval", "--timeout", "30", "x = torch.tensor(2.); x * 3"])
    assert (done.returncode, done.stdout, done.stderr) == (0, "tensor(6.)\n", "")


def test_the_repl_times_out_a_statement_rolls_it_back_and_goes_on(gradcli_exe):
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(gradcli_exe, ["repl", "--timeout", "5"], encoding="utf-8",
                          timeout=60, env=dict(os.environ, TERM="dumb", NO_COLOR="1"))
    child.expect(">>> ")
    child.sendline("x = 1")
    child.expect(">>> ")
    child.sendline("while True: x = 2")
    child.sendline("")
    child.expect("timed out after 5 s")
    child.expect(">>> ")
    child.sendline("print(x + 40)")
    child.expect("41")
    child.sendeof()
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("program", ["torch.zeros([1] * 65)", "torch.ones(1).reshape([1] * 65)",
                                     "torch.zeros([1] * 64).unsqueeze(0)",
                                     "torch.tensor(nest)"])
def test_more_dimensions_than_numpy_holds_are_refused_by_name(program):
    """torch allows more than 64 dimensions; NumPy, which holds gradcli's tensors, does not:
    gradcli says so instead of passing NumPy's words on."""
    from gradcli.language.session import Session
    setup = "nest = 1\nfor _ in range(65):\n    nest = [nest]\n"
    outcome = Session(write=lambda text: None).run(setup + program)
    assert (outcome.error.kind, outcome.error.message) == (
        "RuntimeError", f"{memory.too_many_dimensions(65)}")
