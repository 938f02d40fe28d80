"""Examples from the docstrings of torch's functions, Tensor methods, nn.functional, nn.init and
the distributions, with their autograd variants: tests/cases/api_docs_examples.cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("api_docs_examples")
