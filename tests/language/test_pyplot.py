"""matplotlib.pyplot as tutorials use it: nothing on stdout, matplotlib's return values, and
torch's error for a tensor that requires grad (live comparison needs matplotlib installed)."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("pyplot", needs=("matplotlib",))
