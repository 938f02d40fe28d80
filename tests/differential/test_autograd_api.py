"""torch.autograd.grad, backward and the tensor's autograd attributes (grad, data, requires_grad,
retain_grad, detach, grad modes) match torch 2.13: the snippets in tests/cases/autograd_api.cases."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("autograd_api")
