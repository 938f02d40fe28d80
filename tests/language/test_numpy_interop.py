"""Tensor.numpy(), torch.from_numpy and NumPy arrays in programs print and behave as with real
torch and NumPy: the snippets in tests/cases/numpy.cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("numpy")
