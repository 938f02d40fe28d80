"""The recorder of avx512_estimates.json: what the processor's vrcp14 and vrsqrt14 instructions give
for the inputs of `inputs()` (every 13th float32 significand of five binades, subnormals, specials, random
float32 and float64 bit patterns), as a SHA-256 digest per op and input set plus the first results.

Run `python tests/golden/record_avx512_estimates.py` on an x86-64 machine with AVX-512 and a C
compiler (`cc`) to rewrite it: a small shim is compiled into a temporary directory and called
through ctypes.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

GOLDEN = Path(__file__).with_name("avx512_estimates.json")
SHOWN = 64  # results kept in full per set, so a difference shows its inputs
_SHIM = """
#include <immintrin.h>
#define RUN(name, type, vec, load, store, op, lanes) \\
  void name(const type *a, type *r, long n) { \\
    for (long i = 0; i < n; i += lanes) store(r + i, op(load(a + i))); }
RUN(rcp14ps, float, __m512, _mm512_loadu_ps, _mm512_storeu_ps, _mm512_rcp14_ps, 16)
RUN(rsqrt14ps, float, __m512, _mm512_loadu_ps, _mm512_storeu_ps, _mm512_rsqrt14_ps, 16)
RUN(rcp14pd, double, __m512d, _mm512_loadu_pd, _mm512_storeu_pd, _mm512_rcp14_pd, 8)
RUN(rsqrt14pd, double, __m512d, _mm512_loadu_pd, _mm512_storeu_pd, _mm512_rsqrt14_pd, 8)
"""
SPECIALS = (0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 4.0, 0.25, 2.0, -2.0, 3.0)


def inputs() -> dict[str, np.ndarray]:
    """The input sets by name."""
    significands = np.arange(0, 1 << 23, 13, dtype=np.uint32)
    rng = np.random.default_rng(0)
    sets = {f"float32 binade {e}": (significands | np.uint32(e << 23)).view(np.float32)
            for e in (0, 1, 127, 128, 254)}
    sets["float32 random bits"] = rng.integers(0, 2**32, 200_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    sets["float32 specials"] = np.array(SPECIALS + (1e-45, 2.0**-128, 2.0**-127, 2.0**127, 3e38), np.float32)
    sets["float64 random bits"] = rng.integers(0, 2**64 - 1, 200_000, dtype=np.uint64).view(np.float64)
    sets["float64 [1, 4)"] = rng.uniform(1, 4, 200_000)
    sets["float64 subnormal"] = rng.uniform(0, 1e-308, 50_000)
    sets["float64 specials"] = np.array(SPECIALS + (5e-324, 2.0**-1024, 2.0**-1023, 2.0**1023, 1.7e308))
    return sets


def entry(results: np.ndarray) -> dict:
    """A record: the results' digest and the first of them as hex."""
    return {"sha256": hashlib.sha256(results.tobytes()).hexdigest(), "first": results[:SHOWN].tobytes().hex()}


def _instructions():
    folder = Path(tempfile.mkdtemp())
    (folder / "shim.c").write_text(_SHIM, encoding="utf-8")
    subprocess.run(["cc", "-O2", "-mavx512f", "-shared", "-fPIC", "-o", str(folder / "shim.so"),
                    str(folder / "shim.c")], check=True)
    return ctypes.CDLL(str(folder / "shim.so"))


def main() -> int:
    shim = _instructions()
    records = {}
    for name, values in inputs().items():
        suffix = "ps" if values.dtype == np.float32 else "pd"
        padded = np.concatenate([values, np.ones(-values.size % 16, values.dtype)])
        for op in ("rcp14", "rsqrt14"):
            out = np.empty_like(padded)
            getattr(shim, op + suffix)(padded.ctypes.data_as(ctypes.c_void_p),
                                       out.ctypes.data_as(ctypes.c_void_p), ctypes.c_long(padded.size))
            records[f"{op} {name}"] = entry(out[:values.size])
    GOLDEN.write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(records)} records to {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
