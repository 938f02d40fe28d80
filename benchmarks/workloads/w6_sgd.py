# W6: manual SGD on a linear model, 1000 steps, loss printed every 100 steps.
import torch

torch.manual_seed(0)
X = torch.randn(256, 8)
true_w = torch.randn(8, 1)
Y = X @ true_w + 0.1
w = torch.zeros(8, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for step in range(1000):
    loss = ((X @ w + b - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
        b -= 0.05 * b.grad
    w.grad.zero_()
    b.grad.zero_()
    if step % 100 == 0:
        print(step, loss.item())
