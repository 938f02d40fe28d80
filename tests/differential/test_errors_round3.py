"""A third round of the errors people post about, each ending in the error or catching and
printing it: MultiheadAttention, Transformer, normalization, embedding, recurrent and
convolution layers given inputs of the wrong shape or dtype, the losses' target shapes, dtypes
and size-mismatch warnings, views of non-contiguous tensors, out-of-range indices, cat/stack,
matmul/bmm/einsum shapes, in-place changes under autograd, backward twice, numpy()/item()/bool()
misuse, optimizers given the wrong parameters, load_state_dict's multi-line reports,
DataLoader collation of ragged or None samples, misspelled keywords, integer tensors where floats
are needed, CUDA on a CPU-only build, autograd.grad misuse and nn.Module definition mistakes."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("errors_round3")
