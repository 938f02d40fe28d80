"""Time 100,000-iteration loops in gradcli's interpreter, and in Python with torch when it imports.

Usage: python benchmarks/interpreter_loop.py [--iterations N] [--repeat R]
Prints the best of R runs per program, in seconds, and microseconds per iteration.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time

PROGRAMS = {
    "tensor arithmetic": """
import torch
x = torch.tensor([1.0, 2.0, 3.0])
w = torch.tensor([0.5, 0.25, 0.125])
for i in range(N):
    x = x * 0.999 + w
print(x)
""",
    "tensor autograd step": """
import torch
w = torch.tensor([0.5, -0.5], requires_grad=True)
x = torch.tensor([1.0, 2.0])
for i in range(N):
    loss = (w * x).sum()
    loss.backward()
print(w.grad)
""",
    "python numbers and calls": """
def step(a, b):
    return a * 0.5 + b
total = 0.0
for i in range(N):
    if i % 2 == 0:
        total = step(total, i)
    else:
        total -= 1
print(total)
""",
}


def run_gradcli(source: str) -> None:
    from gradcli.language.session import Session
    out = io.StringIO()
    outcome = Session(write=out.write).run(source)
    if outcome.error is not None:
        raise RuntimeError(f"{outcome.error.kind}: {outcome.error.message}")


def run_python(source: str) -> None:
    import torch
    torch.set_num_threads(1)  # one core, as gradcli uses
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, "<benchmark>", "exec"), {"__name__": "__main__"})


def torch_available() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def best_time(run, source: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run(source)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    runners = {"gradcli": run_gradcli}
    if torch_available():
        runners["python+torch"] = run_python
    for name, template in PROGRAMS.items():
        source = template.replace("range(N)", f"range({args.iterations})")
        for runner_name, runner in runners.items():
            seconds = best_time(runner, source, args.repeat)
            per_iteration = seconds / args.iterations * 1e6
            print(f"{name:26} {runner_name:13} {seconds:8.3f} s  {per_iteration:7.2f} us/iter")


if __name__ == "__main__":
    main()
