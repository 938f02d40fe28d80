"""The examples of torch's docstrings harvested from the installed torch for the families the
earlier rounds left out (torch.optim's schedulers, torch.distributions, torch.autograd's
functional and graph APIs, torch.utils.data), each run as a script seeded with
torch.manual_seed(0), and the fixes they led to (InverseGamma, FisherSnedecor, Kumaraswamy,
GeneralizedPareto, LogisticNormal, transforms' ==, as_strided_scatter, thread_safe_generator):
tests/cases/api_docs_round4.cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("api_docs_round4")
