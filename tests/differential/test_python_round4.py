"""The plain Python real training scripts lean on, round four: pytorch/examples' AverageMeter and
ProgressMeter, EarlyStopping, seed_everything, elapsed-time formatting, logging and argparse
setups, config dataclasses and ChainMap overrides, typing introspection (get_origin/get_args),
super().__str__ in exception classes, generators' names, match dispatch, star-unpacking,
format-spec metric tables and the collections/itertools/functools helpers around them."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("python_round4")
