"""Snippets from PyTorch's tutorials and recipes (blitz, former torchies, saving and loading,
devices): what each exercised, trimmed."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("tutorials_four")
