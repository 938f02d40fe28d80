# NumPy by hand: W6's SGD with the gradient of the mean squared error.
import numpy as np

rng = np.random.default_rng(0)
X = rng.standard_normal((256, 8), dtype=np.float32)
true_w = rng.standard_normal((8, 1), dtype=np.float32)
Y = X @ true_w + np.float32(0.1)
w, b = np.zeros((8, 1), dtype=np.float32), np.zeros(1, dtype=np.float32)
for step in range(1000):
    r = X @ w + b - Y
    loss = (r * r).mean()
    g = np.float32(2) * r / r.size
    w -= np.float32(0.05) * (X.T @ g)
    b -= np.float32(0.05) * g.sum()
    if step % 100 == 0:
        print(step, float(loss))
