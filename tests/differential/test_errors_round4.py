"""A fourth round of the mistakes made in real training scripts, each ending in torch's error or
warning (caught and printed, or uncaught): loss targets of the wrong dtype, shape or range (CTC,
KL divergence, margin and ranking losses among them), module inputs of the wrong shape, data
loading, optimizers and schedulers misused, state_dict loading, saving and loading, autograd
misuse, indexing, and nn.Module's own checks."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("errors_round4")
