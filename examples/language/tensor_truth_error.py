# Branching on a tensor with several elements is ambiguous, as torch says.
import torch

x = torch.tensor([1.0, -1.0], requires_grad=True)
if x.sum() == 0:
    print("sums to zero")
if x > 0:
    print("positive")
