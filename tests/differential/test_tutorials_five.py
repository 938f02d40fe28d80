"""Snippets from PyTorch's tutorials and recipes (the NLP series, forward AD, per-sample gradients,
Jacobians and Hessians, double backward, state_dict and zeroing gradients), whole or shrunk."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("tutorials_five")
