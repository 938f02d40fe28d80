"""Elementwise kernels' last bits: fused multiply-adds and the vector/scalar split of exp."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("kernel_bits")
