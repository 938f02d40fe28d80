"""torch.autograd.functional in gradcli against real torch: values, structure, grad_fn, errors."""

from __future__ import annotations

import pytest

from test_language import assert_same  # its directory is on sys.path under pytest

torch = pytest.importorskip("torch")

HEADER = """
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
x = torch.tensor([0.5, -1.0, 2.0])
y = torch.tensor([1.5, 0.25, -0.5])
A = torch.tensor([[1.0, -2.0], [0.5, 3.0]])
B = torch.tensor([[2.0, 0.5], [-1.0, 1.0]])
v3 = torch.tensor([1.0, -1.0, 2.0])
def square(t):
    return t ** 2 * 3
def smooth(t):
    return t.exp() * t.sin()
def total(t):
    return (t ** 3).sum()
def mean_sq(t):
    return (t * t).mean()
def pair(a, b):
    return a * b, (a + b).sum()
def dot(a, b):
    return (a * b).sum()
def matmul(a, b):
    return a @ b
def bilinear(a, b):
    return (a @ b @ a).sum()
def mv(a, b):
    return a @ b
"""

CALLS = [
    "jacobian(square, x)", "jacobian(smooth, A)", "jacobian(total, x)", "jacobian(mean_sq, A)",
    "jacobian(pair, (x, y))", "jacobian(dot, (x, y))", "jacobian(matmul, (A, B))",
    "jacobian(mv, (A, y[:2]))", "jacobian(square, (x,))", "jacobian(square, x, create_graph=True)",
    "jacobian(matmul, (A, B), create_graph=True)", "jacobian(square, x, vectorize=True)",
    "jacobian(lambda t: torch.ones(2), x)", "jacobian(lambda a, b: a * 2, (x, y))",
    "hessian(total, x)", "hessian(mean_sq, A)", "hessian(dot, (x, y))", "hessian(bilinear, (A, B))",
    "hessian(total, x, create_graph=True)", "hessian(lambda t: (t.exp() * t).sum(), A)",
    "hessian(total, (x,))", "hessian(lambda t: (t * 2).sum(), x)",
    "vjp(square, x, v3)", "vjp(total, x)", "vjp(pair, (x, y), (v3, torch.tensor(2.0)))",
    "vjp(matmul, (A, B), torch.ones(2, 2))", "vjp(square, x, v3, create_graph=True)",
    "jvp(square, x, v3)", "jvp(pair, (x, y), (v3, v3))", "jvp(matmul, (A, B), (B, A))",
    "jvp(smooth, x, v3, create_graph=True)",
    "hvp(total, x, v3)", "hvp(dot, (x, y), (v3, v3))", "hvp(bilinear, (A, B), (B, A))",
    "vhp(total, x, v3)", "vhp(mean_sq, A, B)", "vhp(dot, (x, y), (v3, v3), create_graph=True)",
    "hvp(lambda t: (t * 2).sum(), x, v3)", "vjp(lambda t: t.sum() * 0 + 1.0, x)",
    "jacobian(torch.exp, x)",
]

ERRORS = [
    "hessian(square, x)", "hessian(pair, (x, y))", "jacobian(square, [x, y])",
    "jacobian(pair, (x, 2))", "vjp(square, x)", "vjp(square, x, torch.ones(2))",
    "vjp(pair, (x, y), (v3,))", "jvp(square, x)", "jvp(pair, (x, y), v3)",
    "jacobian(lambda t: torch.ones(2), x, strict=True)",
    "jacobian(lambda a, b: a * 2, (x, y), strict=True)",
    "jacobian(square, x, strict=True, vectorize=True)",
    "jacobian(square, x, strategy='forward-mode')",
    "jacobian(square, x, strategy='forward-mode', create_graph=True, vectorize=True)",
    "jacobian(square, x, strategy='sideways')", "hvp(square, x, v3)", "vhp(total, x)",
    "hessian(lambda t: (t * 2).sum(), x, strict=True)", "vjp(lambda t: x * 2, x, v3, strict=True)",
    "jacobian(square, 3)", "jacobian(lambda t: 3, x)",
]


@pytest.mark.parametrize("call", CALLS)
def test_matches_torch(call, normalize_addresses):
    assert_same(HEADER + f"print({call})\n", normalize_addresses)


@pytest.mark.parametrize("call", ERRORS)
def test_error_matches_torch(call, normalize_addresses):
    assert_same(HEADER + f"print({call})\n", normalize_addresses)


def test_grad_fn_of_results_with_create_graph(normalize_addresses):
    program = HEADER + """
j = jacobian(square, x.requires_grad_(), create_graph=True)
print(j.grad_fn.name(), j.requires_grad)
h = hessian(total, x, create_graph=True)
h.sum().backward()
print(x.grad)
out, g = vjp(square, x, v3, create_graph=True)
print(out.grad_fn is not None, g.grad_fn is not None)
"""
    assert_same(program, normalize_addresses)
