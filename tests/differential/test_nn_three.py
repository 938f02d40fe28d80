"""torch.nn, third group: gumbel_softmax, adaptive max pooling and unpooling, circular padding,
local response norm, rrelu and multi margin loss, checked against torch's values, grads, draws,
reprs and errors."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("nn_three")
