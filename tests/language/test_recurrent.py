"""nn.RNN, nn.LSTM, nn.GRU and their cells against torch: parameters, outputs, labels,
gradients, errors and a small training loop."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("recurrent")
