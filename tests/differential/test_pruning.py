"""torch.nn.utils.prune: the pruning tutorial, masks, hooks, iterative pruning, subclasses and errors."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("pruning")
