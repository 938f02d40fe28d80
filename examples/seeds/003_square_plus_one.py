# Seed 003_0f7873f805a5cc18 ("How to compute gradients in PyTorch?"), Example 1
# (the "Steps" section shows the same program in pieces).

# import torch library
import torch

# create tensors with requires_grad = true
x = torch.tensor(2.0, requires_grad = True)

# print the tensor
print("x:", x)

# define a function y for the tensor, x
y = x**2 + 1
print("y:", y)

# Compute gradients using backward function for y
y.backward()

# Access the gradients using x.grad
dx = x.grad
print("x.grad :", dx)
