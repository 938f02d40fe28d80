"""torch.nn.utils.parametrize (the Parametrizations Tutorial's examples, registering, chaining,
caching and removing parametrizations, their errors) against torch."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("parametrize")
