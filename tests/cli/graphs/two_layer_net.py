# A two-layer net by hand: linear, relu, linear, mean squared error.
import torch

torch.manual_seed(0)
x = torch.randn(5, 3)
target = torch.randn(5, 2)
W1 = torch.randn(3, 4, requires_grad=True)
b1 = torch.zeros(4, requires_grad=True)
W2 = torch.randn(4, 2, requires_grad=True)
b2 = torch.zeros(2, requires_grad=True)
hidden = torch.relu(x @ W1 + b1)
out = hidden @ W2 + b2
loss = ((out - target) ** 2).mean()
print(loss)
