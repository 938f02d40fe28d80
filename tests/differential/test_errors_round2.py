"""A second round of the errors people hit and post about, each ending in the error or catching
and printing it: mistakes inside user nn.Module forwards and custom autograd Functions (gradient
counts, shapes and types from backward, save_for_backward and mark_dirty misuse), hooks that
return the wrong thing, optimizer and state_dict misuse, views of non-contiguous data,
expand/repeat, gather/scatter/index_select/embedding indices, cat and torch.tensor of mixed or
ragged data, dtype mistakes, in-place changes under autograd, autograd.grad's unused inputs, and
the script's own NameErrors, AttributeErrors and argument-count TypeErrors."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("errors_round2")
