"""Tensor questions as Stack Overflow answers and PyTorch forum threads ask them, a fourth round:
printing options and edge values, dtype promotion, indexing and assignment (list indices read
as tuples, values torch refuses to assign, the layout of fancy-indexing results), views and
shapes, einsum, train/eval, parameter groups, schedulers, initialisation, state dicts, NumPy
sharing, item/tolist and seeding."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_round4")
