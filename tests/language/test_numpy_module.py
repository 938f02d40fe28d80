"""`import numpy as np` and module-level names, against CPython with NumPy and torch."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("numpy_module")
