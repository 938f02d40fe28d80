# Seed 004_c0ba5365fc84543c (notebook on backward and gradient accumulation), cells In [35] and
# In [37].
import torch

x = torch.tensor([2.,3.,4.],requires_grad=True)
y = x**2
gradients = torch.tensor([1.,.1,.01],dtype=torch.float32)

y.backward(gradients)
print("Weighted Gradients",x.grad)

x.requires_grad_(False)
print(x)
