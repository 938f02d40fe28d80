# From: PyTorch docs "Autograd mechanics", Saved tensors (pytorch.org/docs/stable/notes/autograd.html); seeded, without _raw_saved_self and saved_tensors_hooks.
import torch

torch.manual_seed(0)

x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))  # True
print(x is y.grad_fn._saved_self)  # True

x = torch.randn(5, requires_grad=True)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))  # True
print(y is y.grad_fn._saved_result)  # False

x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_self)
