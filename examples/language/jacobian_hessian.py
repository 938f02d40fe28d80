# torch.autograd.functional on user functions: jacobian, hessian and the products.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def exp_reducer(x):
    return x.exp().sum(dim=1)


def adder(x, y):
    return 2 * x + 3 * y


def pow_reducer(x):
    return x.pow(3).sum()


inputs = torch.tensor([[0.5, 1.0], [1.5, -0.5]])
print(jacobian(exp_reducer, inputs))
print(jacobian(exp_reducer, inputs, create_graph=True))
print(jacobian(adder, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))))
print(hessian(pow_reducer, torch.tensor([1.0, -2.0, 0.5])))
v = torch.ones(2)
print(vjp(exp_reducer, inputs, v))
print(jvp(exp_reducer, inputs, torch.ones(2, 2)))
print(hvp(pow_reducer, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0])))
print(vhp(pow_reducer, torch.tensor([1.0, 2.0]), torch.tensor([0.0, 1.0])))
