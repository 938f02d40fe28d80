"""Linear algebra and the elementwise functions beside it, against goldens recorded from torch."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("linalg")
