# From: PyTorch docs, the examples of torch.no_grad, torch.enable_grad, torch.set_grad_enabled and torch.Tensor.requires_grad_ (pytorch.org/docs/stable/generated/torch.no_grad.html and neighbours).
import torch

x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)


@torch.no_grad()
def doubler(x):
    return x * 2


z = doubler(x)
print(z.requires_grad)


@torch.no_grad()
def tripler(x):
    return x * 3


z = tripler(x)
print(z.requires_grad)

# factory function exception
with torch.no_grad():
    a = torch.nn.Parameter(torch.rand(10))
print(a.requires_grad)

x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
print(y.requires_grad)
y.backward()
print(x.grad)


@torch.enable_grad()
def doubler(x):
    return x * 2


with torch.no_grad():
    z = doubler(x)
print(z.requires_grad)

x = torch.tensor([1.], requires_grad=True)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(True)


def preprocess(t):
    return (t - t.mean()) / t.std()


# Let's say we want to preprocess some saved weights and use
# the result as new weights.
saved_weights = [0.1, 0.2, 0.3, 0.25]
loaded_weights = torch.tensor(saved_weights)
weights = preprocess(loaded_weights)  # some function
print(weights)

# Now, start to record operations done to weights
weights.requires_grad_()
out = weights.pow(2).sum()
out.backward()
print(weights.grad)
