"""Freed temporaries stay in the heap for the next ones (gradcli/engine/heap.py): a loop of
half-megabyte NumPy temporaries, like a blockwise kernel's, faults its pages in once, not on
every pass."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

LOOP = """
import resource, sys
import numpy as np
from gradcli.engine.heap import keep_freed_memory
if sys.argv[1] == "kept":
    keep_freed_memory()
x = np.ones(1 << 16)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(200):
    temporaries = [x * k for k in range(8)]  # 4 MiB alive, then freed
    del temporaries
after = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
print(after - before)
"""


def _faults(mode: str) -> int:
    return int(subprocess.run([sys.executable, "-c", LOOP, mode], capture_output=True,
                              text=True, check=True).stdout)


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                    reason="glibc's malloc thresholds")
def test_temporaries_reuse_freed_pages_instead_of_faulting_them_in_again():
    default, kept = _faults("default"), _faults("kept")
    assert kept * 10 < default, (kept, default)
