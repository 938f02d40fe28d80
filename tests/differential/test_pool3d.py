"""3-d pooling: avg_pool3d, max_pool3d and the adaptive 3-d pools, functions and modules, checked
against torch's values, indices, grads, second derivatives and errors."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("pool3d")
