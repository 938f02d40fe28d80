# Functions as tutorials write them: defaults, keyword arguments, closures, lambdas, recursion.
import torch


def poly(x, a=1.0, b=0.0, c=0.0):
    return a * x ** 2 + b * x + c


def make_scaler(k):
    def scale(t):
        return t * k
    return scale


def counter():
    calls = 0

    def tick():
        nonlocal calls
        calls += 1
        return calls
    return tick


def power_tower(x, n):
    return x if n == 1 else x ** power_tower(x, n - 1)


x = torch.tensor(2.0, requires_grad=True)
y = poly(x, b=3.0, c=-1.0)
y.backward()
print(y, x.grad)

double = make_scaler(2)
print(double(torch.tensor([1.0, 2.0])), make_scaler(0.5)(x))

tick = counter()
tick()
tick()
print("ticks:", tick())

z = torch.tensor(1.5, requires_grad=True)
t = power_tower(z, 3)
t.backward()
print(t, z.grad)

square = lambda v: v * v
print([square(v) for v in [1, 2, 3]], square(torch.tensor([1.5, -2.0])))
losses = [abs(v - 2) for v in (0.5, 3.0, 1.75)]
print(min(losses), max(losses), sum(losses) / len(losses))
