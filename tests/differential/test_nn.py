"""torch.nn modules and parameters, and torch.optim's SGD and Adam, print, train and fail exactly as
torch 2.13 does: the snippets in tests/cases/nn.cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("nn")
