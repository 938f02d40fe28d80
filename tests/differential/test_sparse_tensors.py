"""Sparse COO tensors as the docs and Q&A answers use them: torch.sparse_coo_tensor (and its
once-only invariant-checks warning), printing with dtype and autograd suffixes, to_dense and
to_sparse, coalesce, indices/values, the sparse-dense product through torch.sparse.mm, torch.mm
and @ with gradients to both operands (float32 bit-exact), sparse sums, addition, scaling and
transposition, sparse gradients accumulated into sparse leaves, and torch's refusals."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("sparse_tensors")
