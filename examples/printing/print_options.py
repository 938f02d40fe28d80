# torch.set_printoptions: precision, sci_mode, threshold and profiles change how tensors print.
import torch

x = torch.tensor([1.123456789, 22.5, 0.000123, 1e5])
print(x)
torch.set_printoptions(precision=2)
print(x)
torch.set_printoptions(sci_mode=False)
print(x)
torch.set_printoptions(profile="default")
print(x)
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.ones(10))
print(torch.zeros(4, 10))
torch.set_printoptions(profile="full")
print(torch.ones(12) / 3)
torch.set_printoptions(linewidth=30)
print(torch.ones(12) / 3)
