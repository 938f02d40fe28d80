"""Tensor queries and pointwise rows: clamp_min/max, fmod, nan_to_num, masked/take/scatter, strides, new_*."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("tensor_queries")
