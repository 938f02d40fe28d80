"""Round fifteen of answers about autograd and training: in-place ops on leaves and on saved tensors
(the exact errors), requires_grad on slices and non-leaves, detach_ on views, integer tensors, grads of
max/min/median/maximum/abs/sqrt/where/topk/sort/prod at ties and zeros, no_grad vs inference_mode vs
set_grad_enabled, backward with gradient arguments and retained graphs, accumulation across calls,
zero_grad(set_to_none), parameter groups, state_dict round trips, nested module reprs, losses with
reduction options, and print options across dtypes. Sources: PyTorch forum threads, Stack Overflow
answers, pytorch/pytorch issues and PRs, documentation pages and blog notebooks named per case."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_round15")
