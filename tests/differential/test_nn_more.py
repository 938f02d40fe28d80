"""More torch.nn and torch.optim: RMSNorm, LazyLinear, spectral_norm, Rprop, ASGD and the rest
of the group's layers, checked against torch's values, reprs, draws and errors."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("nn_more")
