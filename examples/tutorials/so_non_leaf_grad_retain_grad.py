# From: Stack Overflow "Why does autograd not produce gradient for intermediate variables?" (stackoverflow.com/questions/45988168), .grad of a non-leaf tensor, retain_grad and register_hook.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y.pow(2).sum()
z.backward()
print(x.grad)
print(y.grad)  # None: y is not a leaf
print(x.is_leaf, y.is_leaf, z.is_leaf)

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.retain_grad()
z = y.pow(2).sum()
z.backward()
print(y.grad)

grads = {}


def save_grad(name):
    def hook(grad):
        grads[name] = grad
    return hook


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = 3 * x
z = y * y
y.register_hook(save_grad('y'))
z.register_hook(save_grad('z'))
z.sum().backward()
print(grads['y'])
print(grads['z'])
