"""The examples of torch 2.13's docstrings that earlier rounds did not run: torch.signal.windows,
torch.nn.grad's convolution gradients, the module containers' and transforms' code blocks, and
the classes Python's iterator builtins are."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("api_docs_round6")
