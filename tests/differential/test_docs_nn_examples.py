"""The examples in the docstrings of torch.nn, torch.nn.functional, torch.linalg, torch.special,
torch.autograd and Tensor methods, with the edges of the functions they needed, checked against
torch's output, draws, reprs and errors."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("docs_nn_examples")
