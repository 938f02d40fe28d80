# Seed 001_020a62d3d9668c4c ("Introduction to PyTorch Backward"), "Forward and Backward pass".
import torch
A = torch.tensor(2.0, requires_grad = True)
B = A * 4
B.backward()
print(A.grad.data)
