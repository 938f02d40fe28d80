"""Model and training questions as Stack Overflow answers and PyTorch forum threads ask them:
module registration and reprs, state_dict loading, layer and loss errors, optimizers, lr
schedulers, data loading, evaluation, saving, initialisation and printing."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_training")
