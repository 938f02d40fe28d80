# From: StackOverflow-style questions on detach, .data, gradient accumulation across backward calls, grad modes, inference_mode and create_graph.
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.detach()
y[0] = 100
print(x)
z = x.data
z[1] = 50
print(x)
w = torch.tensor([1., 2.], requires_grad=True)
for i in range(3):
    loss = (w * (i + 1)).sum()
    loss.backward()
    print(i, w.grad)
a = torch.tensor(2.0, requires_grad=True)
b = a ** 2
c = b.detach() * a
c.backward()
print(a.grad)
a.grad = None
with torch.enable_grad():
    out = a * 3
print(out.requires_grad)
with torch.no_grad():
    out = a * 3
    with torch.enable_grad():
        out2 = a * 3
print(out.requires_grad, out2.requires_grad)
torch.set_grad_enabled(False)
print((a * 2).requires_grad)
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
@torch.no_grad()
def infer(t):
    return t * 2
print(infer(a).requires_grad)
with torch.inference_mode():
    r = a * 2
print(r.requires_grad)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.requires_grad_(True)
print(y.requires_grad)
try:
    x.requires_grad_(False)
    print(x.requires_grad)
except RuntimeError as e:
    print(e)
l = torch.tensor([1.0], requires_grad=True)
m = l.expand(3)
print(m, m.grad_fn)
n = l.repeat(3)
n.sum().backward()
print(l.grad)
p = torch.randn(2, 2, requires_grad=True)
q = p.t()
print(q.grad_fn, q.is_leaf, p.is_leaf)
print(torch.ones(2, requires_grad=True).sum().grad_fn.next_functions)
u = torch.tensor([3.], requires_grad=True)
v = u * u
v.backward(create_graph=True)
print(u.grad, u.grad.grad_fn)
g = u.grad.clone()
u.grad = None
g.backward()
print(u.grad)
