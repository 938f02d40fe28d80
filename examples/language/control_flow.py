# d2l.ai's "Computing the Gradient of Python Control Flow", with elif, break, continue and else.
import torch


def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


a = torch.tensor(0.75, requires_grad=True)
d = f(a)
d.backward()
print(d, a.grad, a.grad == d / a)

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
for step in range(10):
    if step % 2:
        continue
    elif step > 6:
        break
    y = (x * step).sum()
    print(step, y)
else:
    print("not reached")

n = 0
while n < 3:
    n += 1
else:
    print("while finished with n =", n)

sign = "positive" if x.sum() > 0 else "negative"
print(sign, not x.requires_grad, x.sum() > 0 and x.sum() < 10)
print(1 < 2 <= 2 < 3, 0 < x.sum().item() < 1)
