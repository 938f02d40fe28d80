# NumPy by hand: W2's forward and backward.
import numpy as np

n = 10_000_000
for _ in range(3):
    x = np.linspace(-3, 3, n, dtype=np.float32)
    s, e = np.sin(x), np.exp(x)
    y = (s * x + e * np.float32(0.5)).sum()
    grad = np.cos(x) * x + s + e * np.float32(0.5)
print(grad[:3].tolist())
