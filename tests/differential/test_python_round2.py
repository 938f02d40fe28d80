"""Ordinary Python around torch, as pasted scripts write it: string formatting (f-string specs,
%-formatting, str.format), str/list/dict/set/tuple methods, slicing, comprehensions, generators,
unpacking, closures, decorators, classes and their dunders, dataclasses, enums, exceptions and
their uncaught endings, match, walrus, sorted/min/max with keys, number edge cases, the standard
modules scripts import, and tensors met in those idioms (format specs, containers, dict keys,
len/iter/bool/int/float)."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("python_round2")
