"""torch.distributions beyond the first families: Cauchy, Geometric, the transforms and the
families built on them, and the Tensor draws they use."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("distributions_more")
