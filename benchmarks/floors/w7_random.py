# NumPy by hand: ten million normal and uniform values.
import numpy as np

rng = np.random.default_rng(0)
a = rng.standard_normal(10_000_000, dtype=np.float32)
b = rng.random(10_000_000, dtype=np.float32)
print(a[:2].tolist(), b[:2].tolist())
