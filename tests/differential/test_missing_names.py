"""Public torch names real scripts use that gradcli once refused: Sampler subclasses,
ChainDataset, StackDataset, default_convert, nn.Buffer and the deprecated nn.init aliases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("missing_names")
