# W4: the small-op loop of the gradient-accumulation tutorial, scalar and vector, 50,000 steps.
import torch

w = torch.tensor(1.0, requires_grad=True)
v = torch.ones(4, requires_grad=True)
for step in range(50_000):
    out = (w * 3 + 1) ** 2
    out.backward()
    vout = (v * 3).sum()
    vout.backward()
    if step % 10 == 0:
        w.grad.zero_()
        v.grad.zero_()
print(w.grad, v.grad)
