"""Shape functions (reshape, view, squeeze, transpose, expand, cat, split, unbind...) print,
differentiate and fail exactly as torch 2.13 does: the snippets in tests/cases/shapes.cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("shapes")
