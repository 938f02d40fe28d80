# From: PyTorch docs torch.autograd.grad (create_graph for higher order derivatives) and the forum thread "Higher order derivatives" (discuss.pytorch.org/t/2016), gradient of a gradient.
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3

dy_dx, = torch.autograd.grad(y, x, create_graph=True)
print(dy_dx)  # 3x^2 = 12
d2y_dx2, = torch.autograd.grad(dy_dx, x, create_graph=True)
print(d2y_dx2)  # 6x = 12
d3y_dx3, = torch.autograd.grad(d2y_dx2, x)
print(d3y_dx3)  # 6

x = torch.linspace(-1, 1, 5, requires_grad=True)
y = torch.tanh(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
h, = torch.autograd.grad(g.sum(), x)
print(g)
print(h)

# gradient penalty as in WGAN-GP: the norm of a gradient, backpropagated
w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
inp = torch.tensor([[1.0, 2.0]], requires_grad=True)
out = (inp @ w).pow(2).sum()
grad_inp, = torch.autograd.grad(out, inp, create_graph=True)
penalty = (grad_inp.norm(2, dim=1) - 1).pow(2).mean()
penalty.backward()
print(grad_inp)
print(penalty)
print(w.grad)

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
out = (a * b).sum()
ga, gb = torch.autograd.grad(out, (a, b))
print(ga, gb)
