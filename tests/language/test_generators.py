"""Generator functions (yield, yield from, send, return values), against CPython with torch."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("generators")
