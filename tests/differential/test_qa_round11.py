"""Whole scripts as Stack Overflow answers, PyTorch forum threads and GitHub issues post them, an
eleventh round: tensor manipulation without loops (bucketize, searchsorted, unique with counts and
inverse, topk, kthvalue, stable sorts, masked_select, nonzero, roll, unfold, fold, as_strided,
tril_indices, meshgrid, einsum, repeat against expand, split and tensor_split), dtypes and
precision (float16, bfloat16, rounding modes, promotion, integer overflow, finfo and iinfo),
printing options, NumPy interop, gradients at ties and kinks, and model inspection."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_round11")
