# From: karpathy/micrograd test/test_engine.py, the torch half of test_sanity_check and test_more_ops (github.com/karpathy/micrograd).
import torch


def test_sanity_check():
    x = torch.Tensor([-4.0]).double()
    x.requires_grad = True
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    xpt, ypt = x, y
    print(ypt.data.item(), xpt.grad.item())


def test_more_ops():
    a = torch.Tensor([-4.0]).double()
    b = torch.Tensor([2.0]).double()
    a.requires_grad = True
    b.requires_grad = True
    c = a + b
    d = a * b + b**3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g = g + 10.0 / f
    g.backward()
    apt, bpt, gpt = a, b, g
    print(gpt.data.item(), apt.grad.item(), bpt.grad.item())


test_sanity_check()
test_more_ops()
