"""Special functions: the gamma family, Bessel, erfc, logcumsumexp and torch.special's names."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("special")
