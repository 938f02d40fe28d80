# From: d2l.ai "Dive into Deep Learning", section 5.4 Numerical Stability and Initialization (d2l.ai); plot replaced by printed values, seeded.
import torch

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(x))

print('sigmoid at x = -8, 0, 8:', y[0].item(), y[80].item(), y[-1].item())
print('gradient at x = -8, 0, 8:', x.grad[0].item(), x.grad[80].item(), x.grad[-1].item())

torch.manual_seed(0)
M = torch.normal(0, 1, size=(4,4))
print('a single matrix \n',M)
for i in range(100):
    M = M @ torch.normal(0, 1, size=(4, 4))

print('after multiplying 100 matrices\n', M)
