"""The cost of torch's last bits: a 1e7 float32 sum in torch's order against NumPy's own sum,
the fused multiply-add behind linspace/randn against a plain one, and float32 sin/cos/exp
computed in double and rounded once (far closer to torch's kernels) against NumPy's float32
ones (W2's floor uses those).

Run: python benchmarks/exactness.py
"""

from __future__ import annotations

import time

import numpy as np

from gradcli.engine.cascade_sum import full_sum
from gradcli.engine.fma import fma32
from gradcli.engine.ops.pointwise import rounded_from_double


def best_ms(function, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> None:
    rng = np.random.default_rng(0)
    values = rng.standard_normal(10**7).astype(np.float32)
    other = rng.standard_normal(10**7).astype(np.float32)
    rows = [
        ("sum of 1e7 float32", lambda: np.sum(values), lambda: full_sum(values)),
        ("a*b+c over 1e7 float32", lambda: values * other + values,
         lambda: fma32(values, other, values)),
        *((f"{ufunc.__name__} of 1e7 float32", lambda u=ufunc: u(values),
           lambda u=ufunc: rounded_from_double(u)(values)) for ufunc in (np.sin, np.cos, np.exp)),
    ]
    print(f"{'':26s} {'NumPy ms':>9s} {'torch-exact ms':>15s} {'ratio':>6s}")
    for name, plain, exact in rows:
        a, b = best_ms(plain), best_ms(exact)
        print(f"{name:26s} {a:9.1f} {b:15.1f} {b / a:5.1f}x")


if __name__ == "__main__":
    main()
