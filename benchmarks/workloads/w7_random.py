# W7: random tensors of ten million values.
import torch

torch.manual_seed(0)
a = torch.randn(10_000_000)
b = torch.rand(10_000_000)
print(a[:2].tolist(), b[:2].tolist())
