"""LU factorisation: linalg.lu_factor(_ex), linalg.lu, lu_unpack, linalg.lu_solve and the
deprecated torch.lu and torch.lu_solve: values, pivots, named tuples, gradients and errors."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("linalg_lu")
