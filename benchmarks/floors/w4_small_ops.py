# NumPy by hand: W4's loop with hand-written derivatives.
import numpy as np

w, wg = np.float32(1.0), np.float32(0)
v, vg = np.ones(4, dtype=np.float32), np.zeros(4, dtype=np.float32)
for step in range(50_000):
    inner = w * np.float32(3) + np.float32(1)
    out = inner ** 2
    wg = wg + np.float32(2) * inner * np.float32(3)
    vout = (v * np.float32(3)).sum()
    vg = vg + np.float32(3)
    if step % 10 == 0:
        wg, vg = np.float32(0), np.zeros(4, dtype=np.float32)
print(wg, vg)
