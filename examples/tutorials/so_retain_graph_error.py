# From: Stack Overflow "Pytorch - RuntimeError: Trying to backward through the graph a second time" (stackoverflow.com/questions/48274929), the minimal reproduction and the retain_graph fix; ends with torch's error.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
z = y.sum()

z.backward(retain_graph=True)
print(x.grad)
z.backward()
print(x.grad)  # gradients accumulate: 4x

w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w * w).sum()
loss.backward()
print(w.grad)
loss.backward()  # the saved tensors were freed by the first call
