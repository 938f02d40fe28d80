"""Python's dataclasses over the program's classes: fields, defaults and factories, frozen,
order, inheritance, asdict/astuple/replace/fields."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("dataclasses")
