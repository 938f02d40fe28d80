"""Snippets from PyTorch's tutorials (the basics, NLP, introyt and autograd ones): what each exercised, trimmed."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("tutorials_three")
