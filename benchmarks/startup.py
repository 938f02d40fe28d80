"""Start-up: `gradcli eval` of a one-line gradient, `grad` and `check` against
`python -c 'import numpy'`.

Run: python benchmarks/startup.py [--runs N]. Uses the gradcli and python of the active venv.
The commands run with bytecode caching on (as an installed package has its .pyc files), even
where PYTHONDONTWRITEBYTECODE is set: without it every module is compiled again on each start.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

PROGRAM = "x = torch.tensor(2., requires_grad=True); y = x**2 + 1; y.backward(); x.grad"


ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def median_seconds(commands: list[list[str]], runs: int) -> list[float]:
    """Median wall time of each command, after one warm-up run of each; the commands run in
    turn, so that load from elsewhere on a shared machine falls on all of them alike."""
    times = [[] for _ in commands]
    for _ in range(runs + 1):
        for command, taken in zip(commands, times):
            start = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=ENVIRONMENT)
            taken.append(time.perf_counter() - start)
    return [statistics.median(taken[1:]) for taken in times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    gradcli = shutil.which("gradcli") or os.path.join(os.path.dirname(sys.executable), "gradcli")
    rows = [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("python -c 'import numpy'", [sys.executable, "-c", "import numpy"]),
        ("gradcli eval (issue example)", [gradcli, "eval", PROGRAM]),
        ("gradcli grad 'x**2' x=3", [gradcli, "grad", "x**2", "x=3"]),
        ("gradcli check 'sin(x)*x' x=0.5", [gradcli, "check", "sin(x)*x", "x=0.5"]),
    ]
    results = dict(zip((name for name, _ in rows),
                       median_seconds([command for _, command in rows], args.runs)))
    try:
        results["python -c 'import torch'"], = median_seconds(
            [[sys.executable, "-c", "import torch"]], max(3, args.runs // 3))
    except subprocess.CalledProcessError:
        pass
    numpy_time = results["python -c 'import numpy'"]
    for name, seconds in results.items():
        print(f"{name:32s} {seconds * 1000:8.1f} ms   {seconds / numpy_time:5.2f} x numpy")


if __name__ == "__main__":
    main()
