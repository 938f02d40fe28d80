# W5: a deep chain of 100,000 small ops, then one backward through all of it.
import torch

x = torch.tensor(1.0, requires_grad=True)
y = x
for _ in range(100_000):
    y = y * 1.0001 + 0.0001
y.backward()
print(x.grad)
