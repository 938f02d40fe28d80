# From: Stack Overflow "Pytorch, what are the gradient arguments" (stackoverflow.com/questions/43451125), backward on a non-scalar output with a gradient argument.
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x * x
try:
    y.backward()
except RuntimeError as e:
    print(e)

y.backward(torch.ones_like(y))
print(x.grad)  # dy/dx = 2x

x.grad.zero_()
z = 2 * x * x
z.backward(torch.tensor([[1.0, 0.1], [0.01, 0.001]]))
print(x.grad)  # 4x weighted by the gradient argument

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
gradient = torch.tensor([0.1, 1.0, 0.0001])
y.backward(gradient)
print(x.grad)

x.grad = None
y = x ** 2
torch.autograd.backward(y.sum(), inputs=[x])
print(x.grad)
