"""torch.testing: assert_close's passes and messages (tensors, scalars, containers, msg),
assert_allclose, and make_tensor's seeded draws and argument errors."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("testing_module")
