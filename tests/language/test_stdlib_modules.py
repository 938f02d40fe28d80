"""Python's modules as training scripts use them: math, random, time, typing, collections,
functools, itertools and operator, each in snippets of its own."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("stdlib_modules")
