# Seed 004_c0ba5365fc84543c (notebook on backward and gradient accumulation), cell In [45]:
# gradients add up across backward() calls.
import torch

weights = torch.ones(4,requires_grad=True)

for epoch in range(3):
    model_output = (weights*3).sum()
    model_output.backward()
    print(weights.grad)
