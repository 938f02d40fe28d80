"""Sorting: sort, topk, kthvalue, median, mode and unique against torch."""


test_matches_golden, test_matches_live_torch = case_tests("sorting")
