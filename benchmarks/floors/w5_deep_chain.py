# NumPy by hand: W5's chain with its derivative carried along.
import numpy as np

y, dy = np.float32(1.0), np.float32(1.0)
for _ in range(100_000):
    y = y * np.float32(1.0001) + np.float32(0.0001)
    dy = dy * np.float32(1.0001)
print(dy)
