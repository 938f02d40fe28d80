"""torch.distributions: values, gradients, labels, reprs, argument errors and seeded samples."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("distributions")
