"""How often gradcli's float results carry torch's exact bits: elementwise functions over 10,000
drawn values each (tails, NaN, inf and subnormals among them) and random matrix products with
inner dimension 1 to 256, in float32 and float64, compared bit for bit with torch on this machine.

Run: python benchmarks/agreement.py [--products N] [--values N]  (needs torch==2.13.0; prints a
markdown table of mismatch rates). The reductions are held at 0 mismatches by
tests/differential/test_float_reductions.py instead.
"""

from __future__ import annotations

import argparse
import platform
import sys
import warnings

import numpy as np

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine import cpu_capability, dtypes
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor

UNARY = ["exp", "log", "sin", "cos", "tan", "tanh", "sigmoid", "sqrt", "rsqrt", "log1p", "expm1",
         "log2", "log10", "exp2", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh",
         "atanh", "erf", "erfinv", "reciprocal", "silu", "gelu", "softplus", "mish", "relu",
         "abs", "sign", "round", "trunc", "frac"]
POWERS = [2.0, 3.0, 0.5, 1.5, -1.0, "tensor"]


def drawn_values(rng, n: int, dtype) -> np.ndarray:
    """n values: normals over six decades, uniforms in [-100, 100], subnormals, huge values and
    the special ones (NaN, +-inf, +-0, the extremes), shuffled."""
    info = np.finfo(dtype)
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, info.max, -info.max, info.tiny,
                        1.0, -1.0, 88.7, 89.0, -87.3, -104.0, 709.0, 710.0]).astype(dtype)
    ordinary = np.concatenate([rng.standard_normal(n // 2) * 10.0 ** rng.uniform(-3, 3, n // 2),
                               rng.uniform(-100, 100, n // 4)])
    tiny = rng.standard_normal(n // 20) * info.tiny * rng.uniform(0, 1, n // 20)
    rest = max(n - ordinary.size - tiny.size - special.size, 0)
    huge = rng.standard_normal(rest) * 10.0 ** rng.uniform(3, np.log10(info.max) - 1, rest)
    with np.errstate(over="ignore", under="ignore"):
        values = np.concatenate([ordinary.astype(dtype), tiny.astype(dtype), special,
                                 huge.astype(dtype)])
    rng.shuffle(values)
    return values


def mismatch_rate(ours: np.ndarray, theirs: np.ndarray) -> float:
    """The share of positions whose bits differ (any NaN matches any NaN)."""
    unsigned = np.uint32 if ours.dtype == np.float32 else np.uint64
    same = (ours.view(unsigned) == theirs.view(unsigned)) | (np.isnan(ours) & np.isnan(theirs))
    return float(1.0 - same.mean())


def tensor(values: np.ndarray) -> Tensor:
    return Tensor(values.copy(), dtypes.from_numpy(values.dtype))


def elementwise_rows(torch, count: int):
    rng = np.random.default_rng(0)
    for name in UNARY + [f"pow {p}" for p in POWERS]:
        rates = []
        for dtype in (np.float32, np.float64):
            x = drawn_values(rng, count, dtype)
            if name.startswith("pow"):
                exponent = name.split()[1]
                base = np.abs(x)
                if exponent == "tensor":
                    e = (drawn_values(rng, count, dtype) % 7).astype(dtype)
                    ours = F.pow(tensor(base), tensor(e)).data
                    theirs = torch.pow(torch.from_numpy(base), torch.from_numpy(e)).numpy()
                else:
                    ours = F.pow(tensor(base), float(exponent)).data
                    theirs = torch.pow(torch.from_numpy(base), float(exponent)).numpy()
            else:
                function = getattr(torch, name, None) or getattr(torch.nn.functional, name)
                theirs = function(torch.from_numpy(x)).numpy()
                ours = getattr(F, name)(tensor(x)).data
            rates.append(mismatch_rate(ours, theirs))
        yield name, rates


def _operand(rng, torch, rows: int, cols: int, dtype, transposed: bool):
    values = rng.standard_normal((cols, rows) if transposed else (rows, cols)).astype(dtype)
    ours, theirs = tensor(values), torch.from_numpy(values.copy())
    return (F.t(ours), theirs.t()) if transposed else (ours, theirs)


K_BUCKETS = ((1, 16), (17, 64), (65, 256))


def product_rows(torch, count: int):
    """Per dtype and inner-dimension bucket: products drawn and how many differ from torch."""
    rng = np.random.default_rng(1)
    for dtype in (np.float32, np.float64):
        tally = {bucket: [0, 0] for bucket in K_BUCKETS}
        for _ in range(count):
            m, n = (int(np.exp(rng.uniform(0, np.log(65)))) for _ in range(2))
            k = int(rng.integers(1, 257))
            a, ta = _operand(rng, torch, m, k, dtype, bool(rng.integers(2)))
            b, tb = _operand(rng, torch, k, n, dtype, bool(rng.integers(2)))
            if rng.integers(2):
                bias = rng.standard_normal(n).astype(dtype)
                ours = F.addmm(tensor(bias), a, b).data
                theirs = torch.addmm(torch.from_numpy(bias), ta, tb).numpy()
            else:
                ours, theirs = F.mm(a, b).data, torch.mm(ta, tb).numpy()
            bucket = next(b for b in K_BUCKETS if b[0] <= k <= b[1])
            tally[bucket][0] += 1
            tally[bucket][1] += mismatch_rate(ours, theirs) > 0
        yield np.dtype(dtype).name, tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--values", type=int, default=10_000)
    parser.add_argument("--products", type=int, default=2_000)
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        sys.exit("agreement.py compares with torch: pip install torch==2.13.0")
    warnings.simplefilter("ignore")
    print(f"{platform.machine()}, {cpu_capability.VENDOR} cpu family {cpu_capability.FAMILY}, "
          f"torch {torch.__version__} capability {torch.backends.cpu.get_cpu_capability()}, "
          f"{torch.get_num_threads()} threads\n")
    print(f"| function ({args.values} values) | float32 mismatches | float64 mismatches |")
    print("|---|---|---|")
    for name, (single, double) in elementwise_rows(torch, args.values):
        print(f"| {name} | {100 * single:.2f}% | {100 * double:.2f}% |")
    print(f"\n| products ({args.products} per dtype) | inner dimension | drawn | "
          "differing | agreement |")
    print("|---|---|---|---|---|")
    for dtype, tally in product_rows(torch, args.products):
        for (low, high), (drawn, differing) in tally.items():
            print(f"| {dtype} | {low}-{high} | {drawn} | {differing} | "
                  f"{100 * (drawn - differing) / max(drawn, 1):.1f}% |")
        drawn, differing = (sum(v[i] for v in tally.values()) for i in (0, 1))
        print(f"| {dtype} | all | {drawn} | {differing} | "
              f"{100 * (drawn - differing) / drawn:.1f}% |")


if __name__ == "__main__":
    main()
