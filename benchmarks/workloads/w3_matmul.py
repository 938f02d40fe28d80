# W3: tanh(A @ W).sum() forward and backward, 2048x2048 float32 (inputs from torch.arange).
import torch

n = 2048
A = (torch.arange(n * n, dtype=torch.float32).reshape(n, n) % 7) / 7
W = ((torch.arange(n * n, dtype=torch.float32).reshape(n, n) % 5) / 50).requires_grad_()
y = torch.tanh(A @ W).sum()
y.backward()
print(W.grad.shape)
