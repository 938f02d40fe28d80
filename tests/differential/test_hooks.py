"""Tensor.register_hook: hooks see and replace gradients, run in torch's order (retain_grad's
last) and fail with torch's texts: the snippets in tests/cases/hooks.cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("hooks")
