"""torch.jit.script and trace run eagerly behind torch's wrappers: reprs, shared parameters,
training flags of their own, export/ignore, and save/load."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("jit")
