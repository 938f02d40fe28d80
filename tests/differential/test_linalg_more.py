"""More linear algebra and statistics: quantiles, var_mean/std_mean, cov/corrcoef,
scatter_reduce, matrix functions and their gradients, labels and argument errors."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("linalg_more")
