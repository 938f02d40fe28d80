"""F.scaled_dot_product_attention and nn.MultiheadAttention against torch: values, labels,
gradients and errors."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("attention")
