# W8: torch.tensor of a nested list of ten million numbers.
import torch

row = [float(i % 97) for i in range(1000)]
rows = [row[:] for _ in range(10_000)]
t = torch.tensor(rows)
print(t.shape, t.sum().item())
