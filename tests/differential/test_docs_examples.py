"""The examples in the docstrings of torch's top-level functions, with their edge cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("docs_examples")
