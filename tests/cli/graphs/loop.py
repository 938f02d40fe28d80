# A recurrent loop: the repeated chain of steps is collapsed into one node with a count.
import torch

w = torch.tensor(0.5, requires_grad=True)
h = torch.tensor(1.0, requires_grad=True)
for step in range(50):
    h = torch.tanh(h * w) + 1
print(h)
