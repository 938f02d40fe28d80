"""torch's top-level aten functions beside their functional forms (torch.dropout, torch.selu,
torch.layer_norm, torch.max_pool2d...), the window functions and small torch-level helpers."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("aten_aliases")
