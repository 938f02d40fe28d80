"""Scripts after PyTorch's recipes and beginner series (saving whole models, torch.__future__'s
conversion switches, checkpoints, amp on CPU, training loops on synthetic data)."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("recipes_beginners")
