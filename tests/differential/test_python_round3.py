"""The Python that real torch scripts are written in, beyond the tensor calls: argparse with
parse_args([...]), logging, typing (TypedDict, Protocol, TypeVar, cast), dataclasses, enum,
abc, properties, dunder methods, decorators, closures, generators, match statements, f-string
specs, collections, itertools, functools, json, copy, contextlib and exceptions, each mixed
with tensors as training scripts mix them, with Python's own messages for their mistakes."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("python_round3")
