"""Round five of the examples of torch's own docstrings, harvested from the installed torch for
the functions and modules the earlier rounds left out (3-D pooling, padding and convolution
modules, nn.init, nn.utils' packing, pruning, norms and parameter vectors, Module members,
forward AD, the complex linear algebra of torch.linalg's docstrings, torch.func, the
schedulers, swa_utils, torch.utils.data's samplers), each printing its results, and the fixes
they led to (complex Cholesky, SVD, eigh, pinv, solve, norms; cholesky_solve, linalg.eig and
eigvals; lstsq's rank shape; functional_call's tied weights; enforce_grad_layout_policy;
OneHotCategoricalStraightThrough; Tensor.cfloat/cdouble): tests/cases/api_docs_round5.cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("api_docs_round5")
