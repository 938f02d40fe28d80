"""Float32 training loops of 500 steps (linear regression with nn.Linear and SGD, a two-layer
nn.Sequential net with SGD and the same net written with tensors) print torch's losses at full
precision every 50 steps."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("training_loops")
