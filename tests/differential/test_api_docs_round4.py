"""The examples of torch's docstrings harvested from the installed torch for the families the
earlier rounds left out (torch.optim's schedulers, torch.distributions, torch.masked,
torch.autograd's functional and graph APIs, torch.func, torch.utils.data), each run as a script
seeded with torch.manual_seed(0), and the fixes they led to (InverseGamma, FisherSnedecor,
Kumaraswamy, GeneralizedPareto, LogisticNormal, VonMises, LKJCholesky, transforms' ==,
torch.masked, fractional max pooling, as_strided_scatter, rearrange, the __torch_function__
helpers, namedtuples in default_collate): tests/cases/api_docs_round4.cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("api_docs_round4")
