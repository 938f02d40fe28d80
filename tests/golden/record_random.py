"""Programs of seeded random calls, torch's results for them, and the recorder of random.json.

Run `python tests/golden/record_random.py` (torch 2.13.0 installed) to rewrite random.json.
tests/test_random.py also uses the program builders and `summarize`; torch is imported lazily.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

GOLDEN = Path(__file__).with_name("random.json")
FLOATS = ("float16", "float32", "float64")
SMALL_SIZES = tuple(range(1, 21))
BOUNDARY_SIZES = (15, 16, 17, 31, 32, 33, 312, 623, 624, 625)
LARGE_SIZES = (1000, 1001, 4097, 10000)
INT_RANGES = ((0, 2), (0, 10), (-5, 5), (-1000, -990), (0, 2**28 - 1), (0, 2**28),
              (-(2**40), 2**40), (0, 2**32 + 5), (-(2**63), 2**63 - 1))
MAX_STORED = 20  # arrays longer than this are stored as a digest and their first values


def random_step(rng: np.random.Generator) -> dict:
    """One random call with random arguments, as a JSON-ready dict."""
    pick = rng.random()
    sizes = SMALL_SIZES if pick < 0.5 else BOUNDARY_SIZES if pick < 0.85 else LARGE_SIZES
    n = int(rng.choice(sizes))
    dtype = str(rng.choice(FLOATS))
    op = str(rng.choice(["rand", "randn", "randn", "uniform_", "normal_", "normal_strided",
                         "randint", "randperm"]))
    if op == "uniform_":
        low, high = sorted(float(v) for v in np.round(rng.normal(size=2) * 4, 3))
        return {"op": op, "size": [n], "dtype": dtype, "low": low, "high": high}
    if op in ("normal_", "normal_strided"):
        mean, std = (round(float(v), 3) for v in (rng.normal() * 4, rng.random() * 3))
        return {"op": op, "size": [n], "dtype": dtype, "mean": mean, "std": std}
    if op == "randint":
        low, high = INT_RANGES[int(rng.integers(len(INT_RANGES)))]
        return {"op": op, "size": [n], "dtype": "int64", "low": low, "high": high}
    if op == "randperm":
        return {"op": op, "n": n}
    return {"op": op, "size": [n], "dtype": dtype}


def random_program(seed: int, steps: int = 12) -> dict:
    """A seed and a sequence of random calls, both decided by `seed`."""
    rng = np.random.default_rng(seed)
    return {"seed": seed, "steps": [random_step(rng) for _ in range(steps)]}


def golden_programs() -> list[dict]:
    """The programs stored in random.json: every path once, then a few random sequences."""
    fixed = [{"op": op, "size": [n], "dtype": dtype} for op in ("randn", "rand")
             for dtype in FLOATS for n in (1, 2, 15, 16, 17, 10000)]
    fixed += [{"op": "randint", "size": [6], "dtype": "int64", "low": low, "high": high}
              for low, high in INT_RANGES]
    fixed += [{"op": "randperm", "n": n} for n in (1, 2, 10, 1000)]
    fixed += [{"op": "normal_", "size": [3, 7], "dtype": "float32", "mean": 1.5, "std": 0.25},
              {"op": "uniform_", "size": [2, 4], "dtype": "float32", "low": -0.3, "high": 0.3},
              {"op": "normal_strided", "size": [20], "dtype": "float64", "mean": -1.0, "std": 2.0}]
    programs = [{"seed": seed, "steps": fixed} for seed in (0, 2**32 + 7)]
    return programs + [random_program(seed) for seed in (1, 1234)]


def summarize(values: np.ndarray) -> dict:
    """dtype, shape and values of an array; long ones as a sha256 of their bytes plus a head."""
    values = np.ascontiguousarray(values)
    summary = {"dtype": str(values.dtype), "shape": list(values.shape)}
    flat = values.ravel()
    if flat.size > MAX_STORED:
        summary["sha256"] = hashlib.sha256(flat.tobytes()).hexdigest()
        flat = flat[:4]
    summary["values"] = flat.tolist()
    return summary


def run_torch_step(torch, step: dict):
    """Perform `step` on torch's default generator and return the tensor it makes."""
    op = step["op"]
    if op == "randperm":
        return torch.randperm(step["n"])
    size, dtype = step["size"], getattr(torch, step["dtype"])
    if op == "rand":
        return torch.rand(size, dtype=dtype)
    if op == "randn":
        return torch.randn(size, dtype=dtype)
    if op == "randint":
        return torch.randint(step["low"], step["high"], size, dtype=dtype)
    if op == "uniform_":
        return torch.empty(size, dtype=dtype).uniform_(step["low"], step["high"])
    if op == "normal_":
        return torch.empty(size, dtype=dtype).normal_(step["mean"], step["std"])
    strided = torch.empty([2 * size[0]] + size[1:], dtype=dtype)[::2]
    return strided.normal_(step["mean"], step["std"])


def record_program(torch, program: dict) -> dict:
    """Run a program under torch; its results and the final get_rng_state() digest."""
    torch.manual_seed(program["seed"])
    results = [summarize(run_torch_step(torch, step).numpy()) for step in program["steps"]]
    state = torch.get_rng_state().numpy().tobytes()
    return {**program, "results": results, "state_sha256": hashlib.sha256(state).hexdigest()}


def main() -> None:
    import torch

    if torch.__version__.split("+")[0] != "2.13.0":
        sys.exit(f"record with torch 2.13.0, not {torch.__version__}")
    records = [record_program(torch, program) for program in golden_programs()]
    GOLDEN.write_text(json.dumps({"torch": torch.__version__, "programs": records}) + "\n")
    print(f"wrote {GOLDEN} ({len(records)} programs)")


if __name__ == "__main__":
    main()
