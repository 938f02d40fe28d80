"""Whole scripts as Stack Overflow answers and PyTorch forum threads post them, a ninth round:
retain_graph and create_graph, grad_outputs, allow_unused with materialize_grads, detach against
.data, in-place errors with their version numbers (in-place views such as unsqueeze_ named as
torch names them), requires_grad_ on integer, bool and complex tensors, tensor and module hooks,
no_grad, inference_mode (mode=False turning grad mode on) and set_grad_enabled, custom
autograd.Functions (save_for_backward, mark_dirty, mark_non_differentiable,
set_materialize_grads, setup_context, once_differentiable); shape and dtype errors of Linear,
Conv, LSTM/GRU, the losses and BatchNorm with a batch of one; training loops printing
loss.item(); gather, scatter_add and scatter_reduce (its max/min aliases), index_select,
masked_fill, where, topk, argmax, unique, cumsum, searchsorted; seeded draws; NumPy interop;
parameter counts, state_dicts, frozen layers, param groups, initialisation, gradient clipping
and float16 linear layers; global module hooks, masks that do not fit, str.format's attribute
and item fields, devices this CPU-only torch lacks (mps, xpu), a tensor's special methods called
by name, nn.RNNBase in init functions, DataLoader's pin_memory warning and samplers, Adafactor,
Module.compile and torch.autograd.graph.increment_version."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_round9")
