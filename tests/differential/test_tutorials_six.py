"""Snippets from LLMs-from-scratch (attention, GPT blocks, sampling, its PyTorch appendix), nanoGPT's
model, and d2l's optimization, modern CNN, attention, recurrent and anchor-box chapters."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("tutorials_six")
