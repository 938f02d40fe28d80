"""Python's small standard modules (time, typing, collections, functools, itertools, random)."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("python_modules")
