# Seed 004_c0ba5365fc84543c (notebook on backward and gradient accumulation), cells In [1]-In [12].
# Cell values the notebook only displayed are printed.
import torch
torch.manual_seed(0)  # not in the notebook: makes the random tensors reproducible

x = torch.randn(3)
print(x)

# The requires_grad=True creates a computational graph
x =torch.randn(3,requires_grad=True)
print(x)

y = x+2
print(y)

z = y*y
print(z.grad_fn)

loss = z.mean()
loss.backward() # dz/dx
print(x.grad)
