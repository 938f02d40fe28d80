# Seed 004_c0ba5365fc84543c (notebook on backward and gradient accumulation), cells In [39] and
# In [42]: detach() and torch.no_grad().
import torch

t = torch.tensor([1,2,3],requires_grad=True,dtype=torch.float32)
print(t)
t0 = t.detach()
print(t0)

y = t+2
print(y)

with torch.no_grad():
    y = t+2
    print(y)
