"""Measures this processor's `rsqrtps` (the estimate MKL's float32 sqrt starts from) and writes it
into gradcli/engine/rsqrt_estimate.py.

The estimate depends on the top 12 fraction bits and the exponent's parity only (8192 cases: the
inputs 1 to 4 in steps of 2**-11 and 2**-10), and decreases by 0, 1 or 2 units of 2**-13 from one
case to the next. Run `python tests/golden/record_rsqrt_estimate.py` (a C compiler as `cc`) on the
processor the estimate is wanted for.
"""

from __future__ import annotations

import base64
import re
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import numpy as np

MODULE = Path(__file__).parents[2] / "gradcli" / "engine" / "rsqrt_estimate.py"
PROGRAM = r"""
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    for (uint32_t i = 0; i < 8192; i++) {
        uint32_t bits = 0x3f800000u + (i << 11);
        float x, y;
        memcpy(&x, &bits, 4);
        y = _mm_cvtss_f32(_mm_rsqrt_ps(_mm_set1_ps(x)));
        memcpy(&bits, &y, 4);
        printf("%u\n", bits);
    }
    return 0;
}
"""


def measured() -> np.ndarray:
    with tempfile.TemporaryDirectory() as folder:
        source, binary = Path(folder, "rsqrt.c"), Path(folder, "rsqrt")
        source.write_text(PROGRAM, encoding="utf-8")
        subprocess.run(["cc", "-O1", "-msse", "-o", str(binary), str(source)], check=True)
        lines = subprocess.run([str(binary)], check=True, capture_output=True, text=True).stdout
    return np.array(lines.split(), dtype=np.int64)


def main() -> int:
    bits = measured()
    assert not (bits & 0x7FF).any(), "the estimate has more than 12 fraction bits"
    units = bits >> 11
    drops = -np.diff(units)
    assert units[0] == 0x7EFFF and set(drops.tolist()) <= {0, 1, 2}, "not the expected shape"
    encoded = base64.b85encode(zlib.compress(drops.astype(np.uint8).tobytes(), 9)).decode()
    text = MODULE.read_text(encoding="utf-8")
    text = re.sub(r'_DROPS = \(\n(    ".*"\n)+\)', lambda _: "_DROPS = (\n" + "".join(
        f'    "{encoded[at:at + 92]}"\n' for at in range(0, len(encoded), 92)) + ")", text)
    MODULE.write_text(text, encoding="utf-8")
    print(f"wrote the estimate into {MODULE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
