# Printing progress as tutorials do: f-strings with format specs on numbers and 0-d tensors,
# str.format and %-formatting.
import torch

w = torch.tensor([0.5, -1.25], requires_grad=True)
x = torch.tensor([2.0, 1.0])
for epoch in range(3):
    loss = ((w * x).sum() - 1.0) ** 2
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
    w.grad.zero_()
    print(f"epoch {epoch:2d}: loss {loss.item():.4f} = {loss:.6f} | w = {w}")

value = torch.tensor(3.14159)
print(f"{value:8.3f}|{value:<10.2e}|{value!r}|{value = }")
print("{:.3f} and {:>8} and {name}".format(value, "right", name="kw"))
print("%.2f%% done, %d steps, %s" % (99.5, 7, "ok"), "%5.1f" % value)
print(f"{0.000123:.2e} {1234567:,} {0.5:.0%} {255:#x} {-7:+d} {True}")
