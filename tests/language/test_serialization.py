"""torch.save and torch.load within one run (kept in memory), against torch."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("serialization")
