"""Module hooks (forward, pre, full backward), editing containers and their tables, ModuleDict,
ParameterList and ParameterDict, and
optimizers derived from torch.optim.Optimizer, against torch."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("module_hooks")
