"""The plain Python around the torch code in scripts people paste (pytorch/examples' main(),
tutorials, answers): argparse, sys, os.path, printing to streams, in snippets of their own."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("python_scripts")
