"""More of Python's standard library around the torch code in scripts: dir(), globals() and
locals(), logging, contextlib, abc and enum, in snippets of their own."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("python_stdlib_more")
