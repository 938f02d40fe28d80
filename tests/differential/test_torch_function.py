"""The __torch_function__ protocol for tensor-like values, as torch's extending notes show it:
torch functions, functions of torch.nn.functional, Tensor methods and operators handing a call to
a user class's handler, the order handlers are tried, what they receive, and torch's errors when
all decline; functools.update_wrapper as the notes' `implements` decorator uses it."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("torch_function")
