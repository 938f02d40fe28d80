# retain_grad() on intermediate tensors, after a backward that kept the graph.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.retain_grad()
z = y.exp()
z.retain_grad()
loss = z.sum()
loss.backward(retain_graph=True)
print(x.grad)
