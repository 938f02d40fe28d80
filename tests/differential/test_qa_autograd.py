"""Autograd questions as Stack Overflow answers and PyTorch forum threads ask them: errors, grads, hooks, custom
Functions, torch.func, optimizers and NumPy interop."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_autograd")
