# Builtins and types as Python prints them, next to tensors.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
print(isinstance(x, torch.Tensor), isinstance(3, int), isinstance(2.5, (int, float)))
print(type(x), type(x.shape), type(x.dtype), type(y.grad_fn), type(3), type("s"), type(None))
print(len(x), abs(-2), round(2.675, 2), min(3, 1, 2), max([0.5, 1.5]), sum([1, 2, 3]))
print(float(y[1]), int(torch.tensor(7.9)), bool(torch.tensor(0.0)), str(x.grad))
print(list(range(2, 10, 3)), tuple(zip("ab", [1, 2])), list(enumerate(["w", "b"], 1)))
print(sum(v.item() for v in y), max(y), any(v > 5 for v in y), all([]))
