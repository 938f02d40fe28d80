"""More special functions: the regularized incomplete gamma functions and torch.special's
names for them."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("special_more")
