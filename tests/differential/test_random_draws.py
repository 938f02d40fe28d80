"""torch.normal, Tensor.normal_ and Tensor.uniform_ draw torch's values from the seeded generator."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("random_draws")
