"""Programs' classes derived from torch.Tensor, as torch's extending notes and answers write
them: instances made by as_subclass, the class called, __new__ and _make_subclass; results of
torch functions, methods, operators, indexing and getters made instances of the class (aliases,
AliasBackward0); a class's own methods, dunders and __torch_function__ (super() reaching
torch.Tensor's); and torch's errors when handlers decline."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("tensor_subclasses")
