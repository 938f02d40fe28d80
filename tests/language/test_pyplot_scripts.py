"""matplotlib.pyplot in short training scripts: curves of a function and its gradient, a fit
over NumPy data, subplots of training curves."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("pyplot_scripts", needs=("matplotlib",))
