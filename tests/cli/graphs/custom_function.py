# A custom autograd.Function with saved tensors, in the middle of a graph.
import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x ** 2


a = torch.tensor([1.0, -2.0], requires_grad=True)
y = Cube.apply(a * 2).sum()
print(y)
