"""Complex tensors: dtypes and promotion, creation, printing, parts and conj, arithmetic and
autograd's conjugate Wirtinger gradients, and torch's refusals of complex inputs."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("complex_numbers")
