"""The examples of torch's own docstrings for indexing, scattering, sorting, splitting,
stacking, products, reductions, pointwise, creation and linalg functions and Tensor methods,
pasted as scripts (seeded where they draw): tests/cases/api_docs_round2.cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("api_docs_round2")
