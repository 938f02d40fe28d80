# From: d2l.ai "Dive into Deep Learning", section 5.1 Multilayer Perceptrons, activation functions and their gradients (d2l.ai/chapter_multilayer-perceptrons/mlp.html); the plots replaced by printing every 20th value.
import torch

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.relu(x)
print('relu', y[::20])

y.backward(torch.ones_like(x), retain_graph=True)
print('grad of relu', x.grad[::20])

y = torch.sigmoid(x)
print('sigmoid', y[::20])

# Clear out previous gradients
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
print('grad of sigmoid', x.grad[::20])

y = torch.tanh(x)
print('tanh', y[::20])

# Clear out previous gradients
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
print('grad of tanh', x.grad[::20])
