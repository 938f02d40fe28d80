# Seed 004_c0ba5365fc84543c (notebook on backward and gradient accumulation), cells In [19] and
# In [21]: the second backward() adds its weighted gradient to y_pred.grad.
import torch

y_true = torch.tensor([1.0,2.1,3.0],)
y_pred = torch.tensor([1.30,2.79,4.02],requires_grad=True)
MSE = torch.mean((y_pred - y_true)**2)
MSE.backward()
print(y_pred.grad)

v = torch.tensor([1,10,100],dtype=torch.float32)
SR = (y_pred - y_true)**2
SR.backward(v)

print(y_pred.grad)
