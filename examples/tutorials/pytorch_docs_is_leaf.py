# From: PyTorch docs torch.Tensor.is_leaf example (pytorch.org/docs/stable/generated/torch.Tensor.is_leaf.html), run on the CPU: .cuda() and device="cuda" become CPU operations.
import torch

a = torch.rand(10, requires_grad=True)
print(a.is_leaf)
# True
b = torch.rand(10, requires_grad=True).double()
print(b.is_leaf)
# False
# b was created by the operation that cast a cpu Tensor into a double Tensor
c = torch.rand(10, requires_grad=True) + 2
print(c.is_leaf)
# False
# c was created by the addition operation
d = torch.rand(10).double()
print(d.is_leaf)
# True
# d does not require gradients and so has no operation creating it (that is tracked by the autograd engine)
e = torch.rand(10).double().requires_grad_()
print(e.is_leaf)
# True
# e requires gradients and has no operations creating it
f = torch.rand(10, requires_grad=True, dtype=torch.float64)
print(f.is_leaf)
# True
# f requires grad, has no operation creating it

for t in (a, b, c, d, e, f):
    print(t.requires_grad, t.grad_fn)
