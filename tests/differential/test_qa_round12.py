"""Whole scripts as Stack Overflow answers and PyTorch forum threads post them, a twelfth round:
autograd and training mechanics (in-place version counters, saliency and input gradients,
higher-order and batched torch.autograd.grad, hooks on tensors, nodes and modules, gradient
clipping, freezing and parameter groups, weight tying, detach against data against clone,
masking and NaN-safe torch.where, anomaly detection, scatter, gather and index_add gradients)."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_round12")
