"""torch.compile as a pass-through (functions, decorators, the OptimizedModule wrapper, the
CompiledFunctionBackward label and its argument errors) against torch."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("compile")
