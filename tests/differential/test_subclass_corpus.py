"""Real code deriving from torch.Tensor or using __torch_function__: pytorch's test_overrides.py
(DiagonalTensor, SubTensor, SubDiagonalTensor, the Wrapper of einsum's test, indexing with
tensor-likes), metadata-carrying tensors (MetadataTensor, a Frame, units, torchvision's
TVTensor with DisableTorchFunctionSubclass), Stack Overflow's extra-attribute subclasses,
classes derived from nn.Parameter, and TorchFunctionModes that log, count or replace calls."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("subclass_corpus")
