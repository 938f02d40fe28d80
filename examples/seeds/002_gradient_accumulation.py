# Seed 002_00b6464acf309c81 ("Thoughts on the Torch.autograd.backward in Pytorch"), second session:
# gradients weighted by (0.1, 1, 10) accumulate in x.grad until it is zeroed.
# The page reuses one graph for every backward(), which modern torch refuses (see
# 002_backward_twice_error.py), so y is rebuilt before each call; the page's torch.FloatTensor
# values are written with torch.tensor.
import torch
from torch.autograd import Variable
x = Variable(torch.tensor([2., 2., 2.]), requires_grad=True)
y = x * 2
print(y)
y.backward(torch.tensor([0.1, 1.0, 10.0]))
print(x.grad)  # the gradient is weighted by 0.1, 1 and 10
y = x * 2
y.backward(torch.tensor([0.1, 1.0, 10.0]))
print(x.grad)  # gradients accumulate
print(x.grad.data.zero_())  # clear the accumulated gradient
print(x.grad)
y = x * 2
y.backward(torch.tensor([0.1, 1.0, 10.0]))
print(x.grad)
