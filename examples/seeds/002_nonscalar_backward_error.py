# Seed 002_00b6464acf309c81 ("Thoughts on the Torch.autograd.backward in Pytorch"), second session:
# backward() on a non-scalar output without a gradient argument is an error.
import torch
from torch.autograd import Variable
x = Variable(torch.tensor([2., 2., 2.]), requires_grad=True)
y = x * 2
print(y)
y.backward()
