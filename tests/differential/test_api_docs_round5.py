"""Round five of the examples of torch's own docstrings, harvested from the installed torch for
the functions and modules the earlier rounds left out (3-D pooling, padding and convolution
modules, nn.init, nn.utils' packing, pruning, norms, parametrizations and parameter vectors,
Module members, forward AD, torch.linalg's complex and factorisation examples, torch.func,
schedulers, swa_utils, torch.utils.data), each printing its results, and cases checking the
fixes they led to: complex Cholesky, SVD, eigh, pinv, solve, inverse and norms; cholesky_solve,
linalg.eig/eigvals, ldl_factor/ldl_solve, geqrf and householder_product; lstsq's rank shape;
functional_call's tied weights; enforce_grad_layout_policy, allow_mutation_on_saved_tensors and
gradient edges; NegativeBinomial and OneHotCategoricalStraightThrough; untyped storages;
parametrizations.orthogonal: tests/cases/api_docs_round5.cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("api_docs_round5")
