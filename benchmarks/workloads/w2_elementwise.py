# W2: big elementwise forward and backward, float32, three times (input from torch.linspace).
import torch

n = 10_000_000
for _ in range(3):
    x = torch.linspace(-3, 3, n, requires_grad=True)
    y = (torch.sin(x) * x + x.exp() * 0.5).sum()
    y.backward()
print(f"{x.grad[:3].tolist()}")
