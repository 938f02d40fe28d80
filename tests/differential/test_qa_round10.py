"""Whole scripts as Stack Overflow answers and PyTorch forum threads post them, a tenth round:
gradients of the less common pointwise, reduction and linear-algebra functions (logsumexp, atan2
at the origin, cummax, lerp, addcmul, trace, det, hypot, vector_norm's orders, logaddexp, xlogy,
erfinv, lgamma, prod with zeros, amax's ties, softplus, the hard activations at their corners,
trapezoid, diff, cross, kron, triu, roll, nan_to_num, remainder, sinc), NumPy tables of
derivatives and grad_outputs of the wrong dtype."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_round10")
