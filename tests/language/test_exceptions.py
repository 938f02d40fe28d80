"""try/except/else/finally, raise and exception objects behave as in Python, and torch's errors are
caught with torch 2.13's types and messages: the snippets in tests/cases/exceptions.cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("exceptions")
