"""Autograd questions as Stack Overflow answers and PyTorch forum threads ask them, a fifth round:
torch.autograd.grad's grad_outputs, allow_unused, materialize_grads and batched grads; second
backwards; tensors changed in place after being saved (indices and masks too); .data against
.detach(); tensor and module hooks that change gradients; nan gradients through where and
masked_fill; gradients at ties and at zero (relu, clamp, abs, max, sort, topk, median, norm);
integer and complex tensors; grad modes and inference tensors; higher-order gradients;
autograd.functional; gradcheck; frozen parameters, summed losses and gradient accumulation."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_round5")
