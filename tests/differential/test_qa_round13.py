"""A thirteenth round of Stack Overflow, PyTorch-forum and blog questions on autograd and training:
which in-place changes autograd refuses or tolerates (a leaf, its views, out=, index_copy_, a
saved output), graphs reused across loop iterations and backward twice, implicit gradients of
non-scalar outputs, max/topk/sort gradients, NaN gradients from atan2, arccosh, log, sqrt and
softplus with torch.where and clamp workarounds, weight sharing and tying, model and
ParameterDict copies, integer tensors and requires_grad, freezing layers, parameter hooks,
custom Function mistakes, straight-through estimators and higher-order gradients."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_round13")
