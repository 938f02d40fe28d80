"""Beginner blog tutorials' training scripts, in small pieces: f-strings, NumPy interop, data
splitting, gradient clipping, checkpoints."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("blog_tutorials")
