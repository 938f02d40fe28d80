"""Autograd and small-training questions as Stack Overflow answers, PyTorch forum threads and
issue reports ask them, a sixth round: what a backward saves (exp's result, pow's input) and
in-place changes after it; retain_grad before an in-place write; iterating a tensor (unbind)
and changing the rows in place; columns of a parameter changed in place; graphs reused across
loop steps (a bigram model, RNN and LSTM hidden states); inference tensors in autograd; loss
target dtypes and shapes; saved tensors after backward; custom Functions returning inputs,
views and non-tensor arguments; full and non-full module backward hooks with in-place
activations; torch.func and autograd.functional jacobians; gradient clipping, accumulation and
learning rates changed mid-training."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_round7")
