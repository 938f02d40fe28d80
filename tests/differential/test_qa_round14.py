"""A fourteenth round of Stack Overflow, PyTorch-forum and blog questions on autograd and training:
.grad None on non-leaf tensors and retain_grad, backward twice and retain_graph, detach against
.data and numpy() on tensors that require grad, in-place changes of saved results, tensor and
grad_fn pre-hooks, custom Functions returning wrong gradient shapes, zero_grad and accumulation,
gradient clipping by norm and value, Jacobians and Hessians, dtype and shape mismatch errors,
.item()/.tolist() precision and set_printoptions."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_round14")
