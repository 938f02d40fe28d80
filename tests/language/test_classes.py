"""`class` statements, user dunder methods and nn.Module subclasses, against CPython with torch."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("classes")
