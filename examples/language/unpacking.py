# Unpacking results: autograd.grad tuples, enumerate over parameters, zip, nested targets.
import torch

x = torch.tensor(3.0, requires_grad=True)
y = torch.tensor(4.0, requires_grad=True)
z = x ** 2 * y + y ** 3
dx, dy = torch.autograd.grad(z, [x, y])
print(dx, dy)

params = [torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor(0.5, requires_grad=True)]
loss = (params[0] * params[1]).sum()
loss.backward()
for i, w in enumerate(params):
    print(i, w.grad)

for name, (value, grad) in zip(["weight", "bias"], [(p, p.grad) for p in params]):
    print(name, value.shape, grad)

rows = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
first, second = rows
print(first, second)
(a, b), c = (1, 2), 3
print(a + b + c, [row.sum() for row in rows], {k: v for k, v in zip("ab", (1, 2))})
