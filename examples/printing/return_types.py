# Reductions with a dim return torch.return_types named tuples; their fields unpack and index.
import torch

x = torch.tensor([[1., 5., 2.], [4., 0., 3.]], requires_grad=True)
result = x.max(dim=1)
print(result)
print(result.values, result.indices)
values, indices = torch.min(x, 0)
print(values, indices)
print(torch.max(x, 1)[0])
