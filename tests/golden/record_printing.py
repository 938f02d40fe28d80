"""Random tensor-printing cases, torch's repr of each, and the recorder of printing.json.

Run `python tests/golden/record_printing.py` (torch 2.13.0 installed) to rewrite printing.json.
The case generator is also used by the live differential test; torch is imported lazily.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np

GOLDEN = Path(__file__).with_name("printing.json")
DTYPES = ("float16", "float32", "float64", "uint8", "int8", "int16", "int32", "int64", "bool")
FLOATS = ("float16", "float32", "float64")
MAX_ELEMENTS = 3000


def _shape(rng: np.random.Generator, max_elements: int) -> tuple[int, ...]:
    ndim = int(rng.integers(0, 5))
    if ndim == 0:
        return ()
    log_total = rng.uniform(0, math.log(max_elements))
    weights = rng.dirichlet(np.ones(ndim))
    dims = [max(1, int(math.exp(w * log_total))) for w in weights]
    while math.prod(dims) > max_elements:
        dims[int(np.argmax(dims))] -= 1
    if rng.random() < 0.06:
        dims[int(rng.integers(ndim))] = 0
    return tuple(dims)


def _float_values(rng: np.random.Generator, n: int) -> np.ndarray:
    style = rng.choice(["int", "narrow", "wide", "tiny", "huge", "mixed"])
    if style == "int":
        scale = 10.0 ** rng.integers(0, 13)
        values = np.round(rng.uniform(-scale, scale, n))
    else:
        lo, hi = {"narrow": (-2, 3), "wide": (-12, 12), "tiny": (-12, -3), "huge": (6, 12),
                  "mixed": (-6, 8)}[style]
        a, b = sorted(rng.uniform(lo, hi, 2))
        values = 10.0 ** rng.uniform(a, b, n) * rng.choice([-1.0, 1.0], n)
        if style == "mixed":
            values = np.where(rng.random(n) < 0.5, np.round(values), values)
    specials = np.array([0.0, -0.0, np.nan, np.inf, -np.inf])
    special_rate = rng.choice([0.0, 0.0, 0.05, 0.3, 0.9, 1.0])
    picks = rng.random(n) < special_rate
    values[picks] = rng.choice(specials, int(picks.sum()))
    return values


def _int_values(rng: np.random.Generator, n: int, dtype: np.dtype) -> np.ndarray:
    info = np.iinfo(dtype)
    digits = int(rng.integers(0, len(str(info.max)) + 1))
    high = min(int(info.max), 10**digits)
    low = max(int(info.min), -high) if rng.random() < 0.6 else 0
    return rng.integers(low, high, n, endpoint=True, dtype=dtype)


def _print_calls(rng: np.random.Generator) -> list[dict]:
    calls = []
    for _ in range(int(rng.choice([0, 1, 1, 2]))):
        kwargs = {}
        if rng.random() < 0.25:
            kwargs["profile"] = str(rng.choice(["default", "short", "full"]))
        if rng.random() < 0.5:
            kwargs["precision"] = int(rng.integers(0, 11))
        if rng.random() < 0.5:
            thresholds = [0, 1, 5, 10, 50, 100, 1000, math.inf, int(rng.integers(0, 3000))]
            kwargs["threshold"] = thresholds[int(rng.integers(len(thresholds)))]
        if rng.random() < 0.5:
            kwargs["edgeitems"] = int(rng.integers(0, 6))
        if rng.random() < 0.5:
            kwargs["linewidth"] = int(rng.integers(5, 200))
        if rng.random() < 0.6:
            kwargs["sci_mode"] = [None, True, False][int(rng.integers(3))]
        calls.append(kwargs)
    return calls


def random_case(rng: np.random.Generator, max_elements: int = MAX_ELEMENTS,
                choices: tuple[str, ...] = DTYPES) -> dict:
    """One case: values (a numpy array), dtype name, print calls, default dtype, grad kind."""
    dtype = str(rng.choice(choices))
    shape = _shape(rng, max_elements)
    n = math.prod(shape)
    if dtype in FLOATS:
        with np.errstate(over="ignore"):
            values = _float_values(rng, n).astype(dtype)
    elif dtype == "bool":
        values = rng.random(n) < rng.random()
    else:
        values = _int_values(rng, n, np.dtype(dtype))
    grad = str(rng.choice(["none", "none", "leaf", "mul"])) if dtype in FLOATS else "none"
    return {
        "values": values.reshape(shape),
        "dtype": dtype,
        "print_calls": _print_calls(rng),
        "default_dtype": str(rng.choice(["float32"] * 15 + ["float64"] * 4 + ["float16"])),
        "grad": grad,
    }


def torch_repr(case: dict) -> tuple[str, dict]:
    """torch's repr of the case, and torch's print options while printing it."""
    import torch

    values = torch.from_numpy(np.array(case["values"], order="C"))
    try:
        torch.set_default_dtype(getattr(torch, case["default_dtype"]))
        for kwargs in case["print_calls"]:
            torch.set_printoptions(**kwargs)
        if case["grad"] == "leaf":
            values.requires_grad_()
        elif case["grad"] == "mul":
            values = values.requires_grad_() * 1
        return repr(values), torch._tensor_str.get_printoptions()
    finally:
        torch.set_printoptions(profile="default")
        torch.set_default_dtype(torch.float32)


def _to_json(case: dict, expected: str, options: dict) -> dict:
    values = case["values"]
    return {
        "shape": list(values.shape),
        "values": values.tolist(),
        "dtype": case["dtype"],
        "print_calls": case["print_calls"],
        "default_dtype": case["default_dtype"],
        "grad": case["grad"],
        "options": options,
        "repr": expected,
    }


def record(count: int = 400, seed: int = 20240613) -> None:
    """Write `count` cases to printing.json: half floating, mostly small, a few summarised."""
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(count):
        case = random_case(rng, MAX_ELEMENTS if i % 10 == 0 else 60,
                           FLOATS if i % 2 else DTYPES)
        cases.append(_to_json(case, *torch_repr(case)))
    GOLDEN.write_text(json.dumps(cases, indent=0) + "\n")


if __name__ == "__main__":
    record(*map(int, sys.argv[1:]))
