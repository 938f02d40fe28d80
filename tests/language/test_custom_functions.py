"""Custom torch.autograd.Function subclasses (ctx, apply, setup_context, double backward)."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("custom_functions")
