"""torch.nn's lazy modules (uninitialized parameters until the first call, then the non-lazy
class) and the CTC loss (values, gradients, reductions and length errors)."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("lazy_and_ctc")
