# Seed 004_c0ba5365fc84543c (notebook on backward and gradient accumulation), cell In [34].
import torch

x = torch.tensor([2.,3.,4.],requires_grad=True)
y = x**2
equal_gradients = torch.tensor([1.,1.,1.],dtype=torch.float32)
y.backward(equal_gradients)
print("Equal gradients",x.grad)
