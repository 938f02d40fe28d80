"""Code written from scratch as popular courses and books teach it (Karpathy's micrograd and
makemore, d2l.ai's chapters without the d2l package, fast.ai's foundations): whole scripts, and
the cases of what they exercised."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("scratch_tutorials")
