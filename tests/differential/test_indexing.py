"""Indexing (ints, slices with steps, None, Ellipsis, integer tensors, lists, boolean masks,
index_select, gather) and its errors match torch 2.13: the snippets in tests/cases/indexing.cases,
plus random subscripts run through gradcli and live torch."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from snippets import case_tests, run_gradcli, run_torch

test_matches_golden, test_matches_live_torch = case_tests("indexing")


def _bound(draw, size: int):
    return draw(st.one_of(st.none(), st.integers(-size - 1, size + 1)))


@st.composite
def subscripts(draw, shape: tuple) -> str:
    """Source text of a subscript for a tensor of `shape`: a few items of every kind."""
    items, dim, kinds = [], 0, ["int", "slice", "none", "ellipsis", "list", "mask"]
    for _ in range(draw(st.integers(1, len(shape) + 1))):
        size = shape[dim] if dim < len(shape) else 1
        kind = draw(st.sampled_from(kinds))
        if kind == "int":
            items.append(str(draw(st.integers(-size - 1, size))))
        elif kind == "slice":
            start, stop = _bound(draw, size), _bound(draw, size)
            step = draw(st.sampled_from(["", ":2", ":3"]))
            items.append(f"{'' if start is None else start}:{'' if stop is None else stop}{step}")
        elif kind == "none":
            items.append("None")
            continue
        elif kind == "ellipsis":  # one at most: past a second one torch reads out of bounds
            items.append("...")
            kinds.remove("ellipsis")
        elif kind == "list":
            values = draw(st.lists(st.integers(-size, size - 1), min_size=1, max_size=3))
            items.append(f"torch.tensor({values})")
        else:
            mask = draw(st.lists(st.booleans(), min_size=size, max_size=size))
            items.append(f"torch.tensor({mask})")
        dim += 1
    return ", ".join(items)


def _nested(values: list, shape: tuple) -> list:
    if len(shape) == 1:
        return values
    step = len(values) // shape[0]
    return [_nested(values[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


@st.composite
def indexed_tensors(draw) -> tuple[str, str]:
    """Source creating a leaf `x` of a random shape with distinct values, and a subscript for it."""
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    count = 1
    for size in shape:
        count *= size
    data = _nested([float(i) - count / 2 for i in range(count)], shape)
    return f"x = torch.tensor({data}, requires_grad=True)\n", draw(subscripts(shape))


@st.composite
def reads(draw) -> str:
    setup, key = draw(indexed_tensors())
    return setup + f"y = x[{key}]\nprint(y)\nprint(y.grad_fn)\n(y * y).sum().backward()\n" \
        "print(x.grad)\n"


@st.composite
def assignments(draw) -> str:
    setup, key = draw(indexed_tensors())
    value = draw(st.sampled_from(["7.5", "w", "w * 2", "torch.tensor([w.item()])"]))
    return setup + ("w = torch.tensor(3., requires_grad=True)\n"
                    "b = x * 1\n"
                    f"b[{key}] = {value}\n"
                    "print(b, b._version)\n"
                    "print(b.grad_fn)\n"
                    "(b * b).sum().backward()\n"
                    "print(x.grad, w.grad)\n")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reads())
def test_random_subscripts_match_live_torch(source):
    pytest.importorskip("torch")
    assert run_gradcli(source) == run_torch(source), source


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(assignments())
def test_random_item_assignments_match_live_torch(source):
    pytest.importorskip("torch")
    assert run_gradcli(source) == run_torch(source), source
