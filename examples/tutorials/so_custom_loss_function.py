# From: Stack Overflow "PyTorch custom loss function" (stackoverflow.com/questions/53980031), a loss written as a plain function and as an nn.Module; seeded.
import torch
import torch.nn as nn

torch.manual_seed(0)


def my_loss(output, target):
    loss = torch.mean((output - target)**2)
    return loss


model = nn.Linear(2, 2)
x = torch.randn(1, 2)
target = torch.randn(1, 2)
output = model(x)
loss = my_loss(output, target)
loss.backward()
print(model.weight.grad)


class MyHingeLoss(nn.Module):
    def __init__(self):
        super(MyHingeLoss, self).__init__()

    def forward(self, output, target):
        hinge_loss = 1 - torch.mul(output, target)
        hinge_loss[hinge_loss < 0] = 0
        return hinge_loss.mean()


criterion = MyHingeLoss()
model.zero_grad()
output = model(x)
loss = criterion(output, torch.tensor([[1.0, -1.0]]))
print(loss)
loss.backward()
print(model.weight.grad, model.bias.grad)
