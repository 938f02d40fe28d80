"""Complex tensors, further: torch.fft's transforms, frequencies and shifts, their gradients and
errors."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("complex_more")
