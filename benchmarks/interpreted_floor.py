"""W4's and W5's scripts run by the least an interpreter of them can do, on python_floor's engine.

`python benchmarks/python_floor.py` times it beside the floor engine's loops and torch's.
gradcli may not hand a user's code to Python's compiler, so it interprets: each syntax node
becomes a closure, as in gradcli's own compiler. This script does the same with nothing else:
Python's `ast` parses the workload file, each node a closure (names in a dict, no spans, no
errors, no scopes), and the tensor operations run on benchmarks/python_floor.py's engine (no
dtypes, no checks, no version counters). Its time against torch's bounds from below what an
interpreter with torch's semantics can reach.
"""

from __future__ import annotations

import ast
import operator
from pathlib import Path
import time

import numpy as np

import python_floor as engine

WORKLOADS = Path(__file__).resolve().parent / "workloads"
NUMBER_OPS = {ast.Add: operator.add, ast.Mult: operator.mul, ast.Mod: operator.mod,
              ast.Pow: operator.pow, ast.Eq: operator.eq}


def tensor_op(op: type, x, y):
    """A tensor operator on the floor engine (the workloads' operands: a tensor and a number)."""
    if op is ast.Pow:
        return engine.square(x)
    return (engine.mul if op is ast.Mult else engine.add)(x, np.float32(y))


class GradOf:
    """`leaf.grad`, as far as the workloads use it (`.zero_()`)."""

    __slots__ = ("leaf",)

    def __init__(self, leaf):
        self.leaf = leaf


def zero_(grad: GradOf):
    grad.leaf.grad = np.zeros_like(grad.leaf.array)
    return grad


METHODS = {"backward": lambda value: engine.backward(value), "sum": engine.total, "zero_": zero_}


def leaf(array, requires_grad=False):
    return engine.Value(np.asarray(array, dtype=np.float32), leaf=requires_grad)


TORCH = {"tensor": leaf, "ones": lambda n, requires_grad=False: leaf(np.ones(n), requires_grad)}


class Compiler:
    """Closures `names -> value` for expressions, `names -> None` for statements."""

    def expression(self, node):
        return getattr(self, "e_" + type(node).__name__)(node)

    def statement(self, node):
        return getattr(self, "s_" + type(node).__name__)(node)

    def block(self, nodes):
        statements = [self.statement(n) for n in nodes]

        def run(names):
            for statement in statements:
                statement(names)
        return run

    def e_Constant(self, node):
        value = node.value
        return lambda names: value

    def e_Name(self, node):
        name = node.id
        return lambda names: names[name]

    def e_BinOp(self, node):
        a, b, op = self.expression(node.left), self.expression(node.right), type(node.op)
        number = NUMBER_OPS[op]

        def evaluate(names):
            x, y = a(names), b(names)
            if type(x) is engine.Value:
                return tensor_op(op, x, y)
            return number(x, y)
        return evaluate

    def e_Compare(self, node):
        a, b = self.expression(node.left), self.expression(node.comparators[0])
        compare = NUMBER_OPS[type(node.ops[0])]
        return lambda names: compare(a(names), b(names))

    def e_Attribute(self, node):
        target, name = self.expression(node.value), node.attr
        if name == "grad":
            return lambda names: GradOf(target(names))
        if name in METHODS:
            method = METHODS[name]
            return lambda names: (lambda: method(target(names)))
        return lambda names: TORCH[name]

    def e_Call(self, node):
        function = self.expression(node.func)
        args = [self.expression(a) for a in node.args]
        keywords = {k.arg: self.expression(k.value) for k in node.keywords}
        return lambda names: function(names)(*[a(names) for a in args],
                                             **{k: v(names) for k, v in keywords.items()})

    def s_Import(self, node):
        return lambda names: names.__setitem__("torch", None)

    def s_Assign(self, node):
        name, value = node.targets[0].id, self.expression(node.value)
        return lambda names: names.__setitem__(name, value(names))

    def s_Expr(self, node):
        value = self.expression(node.value)
        return lambda names: value(names)

    def s_If(self, node):
        test, body = self.expression(node.test), self.block(node.body)

        def run(names):
            if test(names):
                body(names)
        return run

    def s_For(self, node):
        name, count, body = node.target.id, self.expression(node.iter.args[0]), self.block(node.body)

        def run(names):
            for i in range(count(names)):
                names[name] = i
                body(names)
        return run


def interpreted(script: str, steps: int) -> float:
    """Seconds to run the workload script with its loop shortened to `steps`."""
    tree = ast.parse((WORKLOADS / script).read_text())
    body = [n for n in tree.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)
                                          and getattr(n.value.func, "id", None) == "print")]
    for node in body:
        if isinstance(node, ast.For):
            node.iter.args[0] = ast.Constant(steps)
    start = time.perf_counter()
    Compiler().block(body)({})
    return time.perf_counter() - start
