"""Modules and training utilities against torch: conv, pooling, dropout, batch and group norm,
glu, pad modes, gradient clipping, OneCycleLR and samplers."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("modules_breadth")
