"""In-place ops, item and slice assignment, CopySlices history, version counters and torch's
in-place errors match torch 2.13: the snippets in tests/cases/inplace.cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("inplace")
