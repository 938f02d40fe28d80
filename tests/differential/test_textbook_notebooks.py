"""Whole scripts from the most-copied teaching notebooks, cell after cell with each cell's shown
value printed: learnpytorch.io's Zero to Mastery 00-03 (hand-made data in place of sklearn and
downloads), Dive into Deep Learning's PyTorch chapters (preliminaries, linear and softmax
regression, MLPs, weight decay, dropout, the builders' guide), fast.ai's matmul and broadcasting
chapter and the CS231n / CS224n PyTorch tutorials."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("textbook_notebooks")
