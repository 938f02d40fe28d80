"""User classes derived from str, tuple, int, float and the exception classes, and `__new__`."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("builtin_subclasses")
