"""`check --jobs`: many points over several processes give exactly one job's output."""

from __future__ import annotations

import pytest

from gradcli.cli import parallel

POINTS = ["--range", "x=-3:3", "--samples", str(2 * parallel.MIN_POINTS_PER_JOB + 7)]


@pytest.mark.parametrize("expr, extra", [
    ("torch.sin(x) * x**2", []),
    ("torch.sin(x) * x**2", ["--json"]),
    ("torch.sin(x) * x**2", ["--expect", "x: torch.cos(x) * x**2"]),  # a wrong derivative
    ("torch.tensor([0.5, 0.25], dtype=torch.float32) * x", []),  # float32 inside EXPR
])
def test_two_jobs_print_what_one_job_prints(run_gradcli, expr, extra):
    one = run_gradcli(["check", expr, *POINTS, *extra, "--jobs", "1"])
    two = run_gradcli(["check", expr, *POINTS, *extra, "--jobs", "2"])
    assert (two.returncode, two.stdout, two.stderr) == (one.returncode, one.stdout, one.stderr)


def test_an_error_at_a_point_is_one_jobs_error(run_gradcli):
    expr = "x if x.item() < 2.9 else torch.ones(2) @ torch.ones(3)"
    one = run_gradcli(["check", expr, *POINTS, "--jobs", "1"])
    two = run_gradcli(["check", expr, *POINTS, "--jobs", "2"])
    assert one.returncode != 0 and "expected tensor [2] and src [3]" in one.stderr
    assert (two.returncode, two.stdout, two.stderr) == (one.returncode, one.stdout, one.stderr)


@pytest.mark.parametrize("jobs", ["0", "-2"])
def test_jobs_must_be_positive(run_gradcli, jobs):
    done = run_gradcli(["check", "x**2", "x=1", "--jobs", jobs])
    assert done.returncode == 2 and "--jobs: give a positive count" in done.stderr


def test_few_points_use_no_pool():
    assert parallel.jobs_for(parallel.MIN_POINTS_PER_JOB - 1, 8) == 1
    assert parallel.jobs_for(10 * parallel.MIN_POINTS_PER_JOB, 2) == 2


def test_results_come_back_in_order():
    assert list(parallel.mapped(lambda i: i * i, 2000, 2)) == [i * i for i in range(2000)]


def test_a_timeout_ends_the_pool_too(run_gradcli):
    import os
    import re
    import subprocess
    expression = f"torch.sin(x) * x**2 + 0 * {os.getpid()}"  # this test's processes alone
    done = run_gradcli(["check", expression, "--range", "x=-3:3", "--samples", "200000",
                        "--jobs", "2", "--timeout", "2"])
    assert done.returncode == 124 and "Traceback" not in done.stderr
    left = subprocess.run(["pgrep", "-f", re.escape(expression)], capture_output=True, text=True)
    assert left.stdout.split() == []  # no worker left behind
