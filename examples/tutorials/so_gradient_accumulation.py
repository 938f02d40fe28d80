# From: PyTorch forums "Why do we need to set the gradients manually to zero in pytorch?" (discuss.pytorch.org/t/4903) and the Stack Overflow answer on optimizer.zero_grad (stackoverflow.com/questions/48001598); gradient accumulation over mini-batches.
import torch

torch.manual_seed(0)

w = torch.tensor([1.0, -1.0], requires_grad=True)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])

for i in range(3):
    loss = (x @ w).pow(2).sum()
    loss.backward()
    print(i, w.grad)  # grows each time: nothing zeroes it

w.grad.zero_()

# Accumulate gradients over 4 small batches, then take one step
model = torch.nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(8, 3)
target = torch.randn(8, 1)
accumulation_steps = 4

optimizer.zero_grad()
for i in range(8):
    output = model(data[i:i + 1])
    loss = torch.nn.functional.mse_loss(output, target[i:i + 1]) / accumulation_steps
    loss.backward()
    if (i + 1) % accumulation_steps == 0:
        print('step', i, model.weight.grad, model.bias.grad)
        optimizer.step()
        optimizer.zero_grad()

print(model.weight, model.bias)
