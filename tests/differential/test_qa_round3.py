"""Autograd and tensor questions as Stack Overflow answers and PyTorch forum threads ask them, a
third round: custom Functions' backward returns, saved wrapped numbers, vmap's refusals of
data-dependent Python values, hooks, torch.func, shapes, strides and dtypes."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_round3")
