"""torch.utils.data: datasets, DataLoader batches and shuffles, random_split, against torch."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("data_loading")
