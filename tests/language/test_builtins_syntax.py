"""Python builtins and syntax real scripts use (sorted, map, keyword-only parameters, shifts...)."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("builtins_syntax")
