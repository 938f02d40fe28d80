"""The examples of PyTorch's documentation notes (autograd mechanics, extending, broadcasting,
numerical accuracy, randomness, serialization, modules, gradcheck) and of the docstrings of
torch.autograd, torch.func, torch.nn.utils and the LR schedulers, checked against torch's output,
reprs, errors and warnings."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("docs_notes")
