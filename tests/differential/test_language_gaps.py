"""Python the pasted scripts use beyond the common core: star imports, a class's own
__getattribute__, deleting a tensor's data, numpy's index tricks."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("language_gaps")
