"""Tensor factories and dtype conversions against live torch: printed results and errors, and
arange/linspace values bit for bit (torch's fused multiply-add kernels)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.engine import creation, dtypes
from op_runner import gradcli_outcome, torch_outcome

torch = pytest.importorskip("torch")

PROGRAMS = [
    "torch.tensor([[1, 2], [3, 4]])", "torch.tensor([1.5, 2], dtype=torch.float64)",
    "torch.tensor(True)", "torch.tensor([])", "torch.tensor([[1, 2], [3]])",
    "torch.tensor([1, 2], requires_grad=True)", "torch.tensor(2**70)",
    "torch.as_tensor([1, 2.5])", "torch.ones(2, 3)", "torch.zeros((2,), dtype=torch.int32)",
    "torch.full((2, 2), 7)", "torch.full((2,), 1.5, dtype=torch.float64)",
    "torch.full((2,), True)", "torch.ones_like(torch.ones(2, dtype=torch.int64))",
    "torch.zeros_like(torch.ones(2), dtype=torch.float64)", "torch.full_like(torch.ones(3), 2)",
    "torch.ones_like(torch.ones(2), requires_grad=True)", "torch.eye(3)", "torch.eye(2, 3)",
    "torch.eye(2, dtype=torch.int64)", "torch.eye(-1)", "torch.arange(5)",
    "torch.arange(1, 4, 0.5)", "torch.arange(0, 1, 0.1)", "torch.arange(5, 0)",
    "torch.arange(0, 5, 0)", "torch.arange(10, dtype=torch.float32, requires_grad=True)",
    "torch.linspace(0, 1, 5)", "torch.linspace(-1, 1, 20)", "torch.linspace(0, 10, 5, dtype=torch.int64)",
    "torch.linspace(0, 1, -1)", "torch.ones(2, -1)", "torch.zeros(-1)", "torch.ones(2.5)",
    "torch.ones(2, dtype=torch.int64, requires_grad=True)", "torch.get_default_dtype()",
    "torch.ones(2).double()", "torch.ones(2, requires_grad=True).double()",
    "torch.ones(2, requires_grad=True).long()", "torch.tensor([1.7, -2.2]).int()",
    "torch.tensor([0., 2.]).bool()", "torch.tensor([1, 2]).float()", "torch.ones(2).half()",
    "torch.ones(2).to(torch.float64)", "torch.ones(2).to(torch.ones(1, dtype=torch.int64))",
    "torch.ones(2).to('cpu')", "torch.ones(2).type()", "torch.ones(2).type(torch.int64)",
    "torch.ones(2).type('torch.DoubleTensor')", "torch.tensor([1, 2]) * 2.5",
    "torch.tensor([1, 2], dtype=torch.int32) + torch.tensor(3)",
    "torch.tensor([1, 2], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8)",
    "torch.tensor([True]) + 1", "torch.ones(2, dtype=torch.float64) * torch.tensor(2.)",
    "torch.ones(2) * torch.tensor(2., dtype=torch.float64)",
    "torch.ones(2) * torch.tensor([2.], dtype=torch.float64)",
]
SEEDED = [
    "torch.rand(2, 3)", "torch.randn(4, dtype=torch.float64)", "torch.randint(0, 10, (5,))",
    "torch.randint(10, (2, 2))", "torch.randperm(6)", "torch.rand_like(torch.ones(3))",
    "torch.randn_like(torch.ones(2, 2), dtype=torch.float64)", "torch.rand(2, dtype=torch.int64)",
    "torch.randint(3, 2, (2,))",
]


def _same(program: str) -> None:
    expected = torch_outcome(program)
    torch.set_default_dtype(torch.float32)
    assert gradcli_outcome(program) == expected, program


@pytest.mark.parametrize("expr", PROGRAMS)
def test_factory_matches_torch(expr):
    _same(f"import torch\nprint({expr})\n")


@pytest.mark.parametrize("expr", SEEDED)
def test_seeded_factory_matches_torch(expr):
    _same(f"import torch\ntorch.manual_seed(3)\nprint({expr})\nprint({expr})\n")


def test_default_dtype_matches_torch():
    _same("import torch\ntorch.set_default_dtype(torch.float64)\nprint(torch.tensor([1.5]))\n"
          "print(torch.ones(2), torch.arange(0.5, 2), torch.get_default_dtype())\n"
          "torch.set_default_dtype(torch.int64)\n")


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_linspace_is_bit_exact(dtype):
    for steps in [*range(70), 100, 1001, 4097]:
        for start, end in ((0, 1), (-1, 1), (0.1, 7.3), (-3.7, 2.2), (5, -5)):
            ours = creation.linspace(start, end, steps, dtype=dtypes.BY_NAME[dtype]).data
            theirs = torch.linspace(start, end, steps, dtype=getattr(torch, dtype)).numpy()
            assert np.array_equal(ours, theirs), (start, end, steps)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_arange_is_bit_exact(dtype):
    for args in ((0, 1, 0.1), (0, 1, 0.3), (1, 2.5, 0.5), (-3, 7, 0.7), (0, 100, 0.37),
                 (0.5, 40.1, 0.13), (10, -3, -0.6), (0, 5, 0.001)):
        ours = creation.arange(*args, dtype=dtypes.BY_NAME[dtype]).data
        assert np.array_equal(ours, torch.arange(*args, dtype=getattr(torch, dtype)).numpy()), args


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_long_arange_is_bit_exact(dtype):
    """Past 32,768 values each of torch's threads counts its own registers from its chunk's
    start; integer and dyadic ranges take the exact shortcut."""
    tiny = 4.172325134277344e-07
    for args in ((-7.6875, -7.6875 + tiny * 44442, tiny), (0, 7, 0.0001), (3, -40, -0.00071),
                 (0, 70000), (-5, 5, 2 ** -12), (1e8, 1e8 + 40000), (0.5, 2 ** 25, 512.5)):
        ours = creation.arange(*args, dtype=dtypes.BY_NAME[dtype]).data
        assert np.array_equal(ours, torch.arange(*args, dtype=getattr(torch, dtype)).numpy()), args

