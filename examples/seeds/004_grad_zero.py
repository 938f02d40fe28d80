# Seed 004_c0ba5365fc84543c (notebook on backward and gradient accumulation), cell In [48]:
# zeroing the gradient after each step stops the accumulation.
import torch

weights = torch.ones(4,requires_grad=True)

for epoch in range(3):
    model_output = (weights*3).sum()
    model_output.backward()
    print(weights.grad)
    weights.grad.zero_() #resets the weights fo the next iteration
