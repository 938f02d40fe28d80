"""Inputs for the float32 and float64 ops torch computes with MKL's VML kernels, torch's results for them, and
the recorder of vml.json (made on an AMD processor, where gradcli/engine/vml.py reproduces MKL; records
that differ on an Intel processor with AVX-512, whose kernels the vml_avx512 modules reproduce, go beside
it, see tests/golden_machine.py).

Run `OMP_NUM_THREADS=1 python tests/golden/record_vml.py` (torch 2.13.0 installed) to rewrite it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from golden_machine import MACHINE, write_records  # noqa: E402

GOLDEN = Path(__file__).with_name("vml.json")
SPECIALS = (0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40, 1.0, -1.0, 0.5, 2.0)
# Each op: the ranges its inputs are drawn from (uniformly, both signs where the range says so),
# within the kernel's fast path (past it, the slow path is not reproduced: see vml.py), but for
# the logarithms, whose slow path (0, subnormal and negative x) is.
RANGES = {
    "sin": ((-20.0, 20.0), (-1e4, 1e4), (-1e-3, 1e-3)),
    "cos": ((-20.0, 20.0), (-1e4, 1e4), (-1e-3, 1e-3)),
    "tan": ((-20.0, 20.0), (-1e4, 1e4), (-1e-3, 1e-3)),
    "atan": ((-3.0, 3.0), (-1e6, 1e6), (-0.4, 0.4), (-1e-30, 1e-30)),
    "asin": ((-1.0, 1.0), (-0.5, 0.5), (-1e-3, 1e-3), (-1e-30, 1e-30)),
    "exp": ((-2.0, 2.0), (-87.3, 87.3), (-1e-3, 1e-3)),
    "sqrt": ((0.0, 4.0), (0.0, 1e6), (0.0, 3.4e38), (0.0, 1e-36)),
    "acos": ((-1.0, 1.0), (-0.5, 0.5), (-1e-3, 1e-3), (-1e-30, 1e-30)),
    "erf": ((-4.0, 4.0), (-0.02, 0.02), (-1e-30, 1e-30), (-1e-40, 1e-40), (-1e30, 1e30)),
    "erfc": ((-4.0, 4.0), (-0.02, 0.02), (-1e-30, 1e-30), (9.0, 10.05), (-12.0, -9.0)),
    "erfinv": ((-1.0, 1.0), (0.999, 1.0), (-1e-3, 1e-3), (-1e-7, 1e-7), (-1e-30, 1e-30)),
    "log": ((0.0, 3.0), (0.99999, 1.00001), (0.0, 1e6), (0.0, 3.4e38), (0.0, 1e-38), (-3.0, 3.0)),
    "log10": ((0.0, 3.0), (0.99999, 1.00001), (0.0, 1e6), (0.0, 3.4e38), (0.0, 1e-38), (-3.0, 3.0)),
    "log2": ((0.0, 3.0), (0.99999, 1.00001), (0.0, 1e6), (0.0, 3.4e38), (0.0, 1e-38), (-3.0, 3.0)),
    "tanh": ((-1.0, 1.0), (-0.125, 0.125), (-12.0, 12.0), (-1e-3, 1e-3), (-1e-40, 1e-40), (-1e30, 1e30)),
}
# the same for float64 (vml_double.py), keyed "name:float64" in vml.json
RANGES64 = {
    "exp": ((-1.0, 1.0), (-30.0, 30.0), (-708.0, 708.0), (-1e-6, 1e-6)),
    "tanh": ((-1.0, 1.0), (-0.2, 0.2), (-25.0, 25.0), (-1e-6, 1e-6)),
    "sin": ((-20.0, 20.0), (-65536.0, 65536.0), (-1e-3, 1e-3)),
    "cos": ((-20.0, 20.0), (-65536.0, 65536.0), (-1e-3, 1e-3)),
    "log": ((0.0, 3.0), (0.9, 1.1), (0.99999, 1.00001), (0.0, 1e6), (0.0, 1e300), (0.0, 1e-300)),
    "log10": ((0.0, 3.0), (0.9, 1.1), (0.99999, 1.00001), (0.0, 1e6), (0.0, 1e300), (0.0, 1e-300)),
    "log2": ((0.0, 3.0), (0.9, 1.1), (0.99999, 1.00001), (0.0, 1e6), (0.0, 1e300), (0.0, 1e-300)),
    "atan": ((-3.0, 3.0), (-0.5, 0.5), (0.68, 0.7), (2.4, 2.5), (-1e6, 1e6), (-1e300, 1e300), (-1e-30, 1e-30)),
    "tan": ((-2.0, 2.0), (1.5, 1.6), (-20.0, 20.0), (-65536.0, 65536.0), (-1e-3, 1e-3)),
    "sqrt": ((0.0, 4.0), (0.99, 1.01), (0.0, 1e6), (0.0, 1e300), (0.0, 1e308), (0.0, 1e-300), (0.0, 1e-306)),
    "erf": ((-6.0, 6.0), (-0.5, 0.5), (-0.03, 0.03), (-1e-3, 1e-3), (-1e-300, 1e-300), (-1e-310, 1e-310),
            (-1e300, 1e300)),
    "erfc": ((-6.0, 6.0), (-0.5, 0.5), (-1e-3, 1e-3), (5.0, 27.0), (-30.0, -5.0), (26.5, 27.3), (-1e300, 1e300)),
    "erfinv": ((-1.0, 1.0), (0.999, 1.0), (1 - 1e-12, 1.0), (-1e-3, 1e-3), (-1e-15, 1e-15), (-1e-300, 1e-300),
               (-1e-310, 1e-310), (-2.0, 2.0)),
    "asin": ((-1.0, 1.0), (-0.5, 0.5), (0.49, 0.51), (-0.51, -0.49), (1 - 1e-12, 1.0), (-1e-3, 1e-3), (-1e-300, 1e-300),
             (-2.0, 2.0)),
    "acos": ((-1.0, 1.0), (-0.5, 0.5), (0.49, 0.51), (-0.51, -0.49), (1 - 1e-12, 1.0), (-1.0, -1 + 1e-12),
             (-1e-3, 1e-3), (-1e-300, 1e-300), (-2.0, 2.0)),
}
CASES = [(name, np.float32) for name in RANGES] + [(name, np.float64) for name in RANGES64]


def key(name: str, dtype) -> str:
    """The op's entry in vml.json."""
    return name if dtype == np.float32 else f"{name}:float64"


def inputs(name: str, count: int, seed: int, dtype=np.float32) -> np.ndarray:
    """`count` inputs of `dtype` per range of `name`, then the special values."""
    rng = np.random.default_rng(seed)
    ranges = RANGES if dtype == np.float32 else RANGES64
    drawn = [rng.uniform(low, high, count) for low, high in ranges[name]]
    return np.concatenate(drawn + [np.array(SPECIALS)]).astype(dtype)


def torch_results(name: str, values: np.ndarray) -> np.ndarray:
    import torch

    torch.set_num_threads(1)
    return getattr(torch, name)(torch.from_numpy(values.copy())).numpy()


def main() -> int:
    records = {key(name, dtype): torch_results(name, inputs(name, 400, 0, dtype)).tobytes().hex()
               for name, dtype in sorted(CASES, key=lambda case: key(*case))}
    write_records(GOLDEN, records, indent=0)
    print(f"wrote {len(records)} ops to {GOLDEN} ({MACHINE})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
