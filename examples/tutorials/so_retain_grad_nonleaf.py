# From: StackOverflow-style questions on .grad of non-leaf tensors, retain_grad, backward twice and requires_grad_ on non-leaves, written as users paste them.
import torch
a = torch.tensor([2.0, 3.0], requires_grad=True)
b = a * 2
b.retain_grad()
c = b.pow(2).sum()
c.backward()
print(f"a.grad = {a.grad}")
print(f"b.grad = {b.grad}")
print(f"b.is_leaf={b.is_leaf}, a.is_leaf={a.is_leaf}")
d = a + 1
e = d.sum()
e.backward()
print(a.grad)
try:
    e.backward()
except RuntimeError as err:
    print("RuntimeError:", err)
x = torch.tensor(1.0, requires_grad=True)
y = x ** 3
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
x.grad.zero_()
print(x.grad)
x.grad = None
print(x.grad)
w = torch.randn(3, 3)
w2 = w * 2
try:
    w2.backward()
except RuntimeError as err:
    print(type(err).__name__, err)
q = torch.randn(3, requires_grad=True) * 2
try:
    q.requires_grad_(False)
except RuntimeError as err:
    print(err)
print(q.requires_grad)
