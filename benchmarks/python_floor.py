"""The least a Python autograd over NumPy can do for W4's and W5's loops, against torch.

Usage: python benchmarks/python_floor.py [--repeat R]
(it also times benchmarks/interpreted_floor.py: the same loops interpreted from the workload files)
The engine below keeps only what any such engine needs: a tensor record, a node per op with its
vector-Jacobian closure, a backward in topological order and gradient accumulation. It has no
argument checks, no dtype promotion, no version counters, no hooks and no interpreter. Its time
against torch's bounds from below what a Python implementation with torch's semantics can
reach on these loops. Loops are timed in-process (best of R runs); the whole-process ratio adds
each side's import (NumPy's, torch's), as benchmarks/run compares whole scripts.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import time

import numpy as np


class Value:
    __slots__ = ("array", "node", "grad", "leaf")

    def __init__(self, array, node=None, leaf=False):
        self.array, self.node, self.grad, self.leaf = array, node, None, leaf


class Node:
    __slots__ = ("inputs", "vjp")

    def __init__(self, inputs, vjp):
        self.inputs, self.vjp = inputs, vjp


def mul(x: Value, s) -> Value:
    return Value(np.multiply(x.array, s), Node((x,), lambda g: (np.multiply(g, s),)))


def add(x: Value, s) -> Value:
    return Value(np.add(x.array, s), Node((x,), lambda g: (g,)))


def square(x: Value) -> Value:
    a = x.array
    return Value(np.multiply(a, a), Node((x,), lambda g: (np.multiply(g, np.multiply(a, 2)),)))


def total(x: Value) -> Value:
    shape = x.array.shape
    return Value(np.sum(x.array), Node((x,), lambda g: (np.broadcast_to(g, shape),)))


def backward(root: Value) -> None:
    """Topological order without recursion, then one pass accumulating into leaves."""
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        value, expanded = stack.pop()
        if expanded:
            order.append(value)
        elif id(value) not in seen:
            seen.add(id(value))
            stack.append((value, True))
            if value.node is not None:
                stack.extend((i, False) for i in value.node.inputs)
    grads = {id(root): np.ones_like(root.array)}
    for value in reversed(order):
        grad = grads.pop(id(value))
        if value.node is None:
            if value.leaf:
                value.grad = grad if value.grad is None else np.add(value.grad, grad)
            continue
        value.node.vjp, vjp = None, value.node.vjp  # saved values freed as it goes
        for i, g in zip(value.node.inputs, vjp(grad)):
            key = id(i)
            grads[key] = g if key not in grads else np.add(grads[key], g)


def floor_w4(steps: int) -> float:
    three, one = np.float32(3), np.float32(1)
    start = time.perf_counter()
    w = Value(np.array(1.0, dtype=np.float32), leaf=True)
    v = Value(np.ones(4, dtype=np.float32), leaf=True)
    for step in range(steps):
        backward(square(add(mul(w, three), one)))
        backward(total(mul(v, three)))
        if step % 10 == 0:
            w.grad, v.grad = np.zeros_like(w.array), np.zeros_like(v.array)
    return time.perf_counter() - start


def floor_w5(steps: int) -> float:
    factor, shift = np.float32(1.0001), np.float32(0.0001)
    start = time.perf_counter()
    x = Value(np.array(1.0, dtype=np.float32), leaf=True)
    y = x
    for _ in range(steps):
        y = add(mul(y, factor), shift)
    backward(y)
    return time.perf_counter() - start


def torch_w4(steps: int) -> float:
    import torch

    start = time.perf_counter()
    w = torch.tensor(1.0, requires_grad=True)
    v = torch.ones(4, requires_grad=True)
    for step in range(steps):
        ((w * 3 + 1) ** 2).backward()
        (v * 3).sum().backward()
        if step % 10 == 0:
            w.grad.zero_()
            v.grad.zero_()
    return time.perf_counter() - start


def torch_w5(steps: int) -> float:
    import torch

    start = time.perf_counter()
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(steps):
        y = y * 1.0001 + 0.0001
    y.backward()
    return time.perf_counter() - start


def import_seconds(module: str, repeat: int) -> float:
    """The best wall time of a fresh interpreter importing `module`, less a bare interpreter's."""
    def best(code: str) -> float:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            times.append(time.perf_counter() - start)
        return min(times)
    return best(f"import {module}") - best("pass")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from interpreted_floor import interpreted

    with_torch = importlib.util.find_spec("torch") is not None
    numpy_import = import_seconds("numpy", args.repeat)
    torch_import = import_seconds("torch", args.repeat) if with_torch else None
    print("| workload | floor loop s | interpreted s | torch loop s | floor / torch "
          "| interpreted / torch | whole process floor / torch | whole interpreted / torch |\n"
          "|---|---|---|---|---|---|---|---|")
    for name, script, steps, floor, reference in (
            ("W4 small-op loop", "w4_small_ops.py", 50_000, floor_w4, torch_w4),
            ("W5 deep chain", "w5_deep_chain.py", 100_000, floor_w5, torch_w5)):
        floor_time = min(floor(steps) for _ in range(args.repeat))
        run_time = min(interpreted(script, steps) for _ in range(args.repeat))
        if not with_torch:
            print(f"| {name} | {floor_time:.3f} | {run_time:.3f} | - | - | - | - | - |")
            continue
        torch_time = min(reference(steps) for _ in range(args.repeat))
        whole = torch_time + torch_import
        print(f"| {name} | {floor_time:.3f} | {run_time:.3f} | {torch_time:.3f} "
              f"| {floor_time / torch_time:.2f}x | {run_time / torch_time:.2f}x "
              f"| {(floor_time + numpy_import) / whole:.2f}x "
              f"| {(run_time + numpy_import) / whole:.2f}x |")
    print(f"\nimport: numpy {numpy_import:.3f} s"
          + (f", torch {torch_import:.3f} s" if with_torch else ""))


if __name__ == "__main__":
    main()
