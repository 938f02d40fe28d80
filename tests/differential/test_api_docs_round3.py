"""The examples of torch's docstrings harvested from the installed torch (torch, Tensor,
nn.functional, nn modules, nn.init, nn.utils, linalg, special, fft, autograd, Generator),
each run as a script seeded with torch.manual_seed(0), and the fixes they led to (complex
draws and products, int methods, input, EmbeddingBag.from_pretrained, isreal, empty_strided,
softshrink's zero signs): tests/cases/api_docs_round3.cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("api_docs_round3")
