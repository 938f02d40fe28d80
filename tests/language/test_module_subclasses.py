"""Classes derived from torch.nn's module classes (nn.Linear, nn.Sequential, nn.LSTM, the
losses...): construction through the base's __init__, forward, repr, members and errors."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("module_subclasses")
