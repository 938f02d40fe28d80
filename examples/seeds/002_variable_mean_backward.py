# Seed 002_00b6464acf309c81 ("Thoughts on the Torch.autograd.backward in Pytorch"), first session:
# y = x + 2, z = 3 * y * y, out = z.mean(), then out.backward().
# The page is a REPL session for obsolete torch; values it only displayed are printed here.
import torch
from torch.autograd import Variable
x = Variable(torch.ones(2, 2), requires_grad=True)
y = x + 2
print(y.grad_fn)
print(y.grad)
z = y * y * 3
print(z.grad_fn)
print(z)
out = z.mean()
print(out.grad_fn)
out.backward()  # out is a scalar, so backward() needs no gradient argument
print(x.grad)
print(out)
