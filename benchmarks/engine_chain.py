"""Time forward and backward of `y = y * 1.0001 + 0.0001` chains in gradcli's engine, and in torch
when it imports.

Usage: python benchmarks/engine_chain.py [--steps N ...] [--repeat R]
Each step is two ops. Prints the best of R runs: seconds for the forward and the backward pass,
and microseconds per op, with the peak memory growth of the gradcli run.
"""

from __future__ import annotations

import argparse
import resource
import time


def gradcli_chain(steps: int) -> tuple[float, float]:
    import gradcli.engine.ops  # noqa: F401  (loads every op area into F)
    from gradcli.engine import creation, grad_api
    from gradcli.engine.functions import F

    x = creation.tensor(1.0, requires_grad=True)
    start = time.perf_counter()
    y = x
    for _ in range(steps):
        y = F.add(F.mul(y, 1.0001), 0.0001)
    middle = time.perf_counter()
    grad_api.backward(y)
    return middle - start, time.perf_counter() - middle


def torch_chain(steps: int) -> tuple[float, float]:
    import torch

    x = torch.tensor(1.0, requires_grad=True)
    start = time.perf_counter()
    y = x
    for _ in range(steps):
        y = y * 1.0001 + 0.0001
    middle = time.perf_counter()
    y.backward()
    return middle - start, time.perf_counter() - middle


def report(name: str, steps: int, runs: list[tuple[float, float]]) -> None:
    forward, backward = min(r[0] for r in runs), min(r[1] for r in runs)
    ops = 2 * steps
    print(f"{name:8} {ops:>9,} ops  forward {forward:7.2f} s ({forward / ops * 1e6:5.2f} us/op)"
          f"  backward {backward:7.2f} s ({backward / ops * 1e6:5.2f} us/op)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    try:
        import torch  # noqa: F401
        have_torch = True
    except ImportError:
        have_torch = False
    for steps in args.steps:
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        report("gradcli", steps, [gradcli_chain(steps) for _ in range(args.repeat)])
        grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss
        print(f"{'':8} peak memory grew by {grown / 1024:.0f} MiB")
        if have_torch:
            report("torch", steps, [torch_chain(steps) for _ in range(args.repeat)])


if __name__ == "__main__":
    main()
