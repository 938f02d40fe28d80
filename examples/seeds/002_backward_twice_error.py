# Seed 002_00b6464acf309c81 ("Thoughts on the Torch.autograd.backward in Pytorch"), second session:
# the page calls y.backward(gradient) twice on the same graph, which obsolete torch allowed;
# modern torch frees the graph after the first call, so the second call is an error.
import torch
from torch.autograd import Variable
x = Variable(torch.tensor([2., 2., 2.]), requires_grad=True)
y = x * 2
y.backward(torch.tensor([0.1, 1.0, 10.0]))
print(x.grad)
y.backward(torch.tensor([0.1, 1.0, 10.0]))
print(x.grad)
