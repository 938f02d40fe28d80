"""Arranging: tril/triu, their indices, meshgrid, stacks and atleast_nd against torch."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("arrange")
