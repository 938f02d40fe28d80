"""Pointwise results are laid out in memory as torch lays them out: hypothesis draws operands of
mixed layouts (permuted, transposed, strided slices, broadcast) and a binary op, and the program's
`is_contiguous()`, `reshape` label and `view` error must be torch's."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import output_mismatch
from op_runner import gradcli_outcome, torch_outcome

torch = pytest.importorskip("torch")

BINARY = ("a + b", "a * b", "b - a", "torch.maximum(a, b)", "torch.where(a > b, a, b)",
          "torch.atan2(a, b)", "a / b")


@st.composite
def operand(draw, shape: tuple) -> str:
    """Source of a float64 tensor of `shape` whose memory order is drawn (requires grad)."""
    order = draw(st.permutations(range(len(shape))))
    stored = [shape[d] for d in order]
    sliced = draw(st.booleans()) and len(shape) > 0
    if sliced:
        stored[-1] *= 2
    numel = 1
    for size in stored:
        numel *= size
    source = (f"torch.arange({numel}., dtype=torch.float64).add(1.5).reshape({tuple(stored)})"
              ".requires_grad_()")
    if sliced:
        source += "[..., ::2]"
    inverse = sorted(range(len(order)), key=order.__getitem__)
    return f"{source}.permute({tuple(inverse)})" if len(shape) > 1 else source


@st.composite
def layout_program(draw) -> str:
    shape = tuple(draw(st.lists(st.sampled_from((2, 3, 4)), min_size=2, max_size=4)))
    drop = draw(st.integers(0, len(shape) - 1))
    first, second = (shape, shape[drop:]) if draw(st.booleans()) else (shape[drop:], shape)
    lines = ["import torch", f"a = {draw(operand(first))}", f"b = {draw(operand(second))}",
             f"r = {draw(st.sampled_from(BINARY))}",
             "print(r.is_contiguous(), r.reshape(-1).grad_fn.name(), r.exp().is_contiguous())",
             "r.view(-1)"]
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None, derandomize=True)
@given(layout_program())
def test_pointwise_layout_matches_torch(program):
    expected_out, expected_error = torch_outcome(program)
    actual_out, actual_error = gradcli_outcome(program)
    assert output_mismatch(actual_out, expected_out) is None, program
    assert actual_error == expected_error, program
