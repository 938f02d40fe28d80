"""Snippets from PyTorch's intermediate tutorials (character-level RNNs, seq2seq with attention,
text classification, spatial transformers, checkpoints): what each exercised, trimmed."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("intermediate_tutorials")
