"""Freed memory kept in the process's heap for the next temporaries, not handed back to the OS.

The exact kernels work through large arrays in cache-sized blocks, each block a few dozen NumPy
temporaries of half a megabyte. glibc's defaults map such blocks afresh and trim the heap's top
at each free, so every page of every temporary comes back as a page fault: a third of a 1e7
float32 sin/exp workload's time went to the kernel's page faults. Raising the two thresholds
(blocks under 16 MiB come from the heap, the heap's top is trimmed past 64 MiB) keeps them.
"""

from __future__ import annotations

import functools

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_TRIM_BYTES, _MMAP_BYTES = 64 << 20, 16 << 20


@functools.cache
def keep_freed_memory() -> None:
    """Set glibc's trim and mmap thresholds once (elsewhere than glibc, nothing to do)."""
    try:
        import ctypes  # only glibc's mallopt, with the constants above
        mallopt = ctypes.CDLL(None).mallopt
    except (ImportError, OSError, AttributeError):
        return
    mallopt(_M_MMAP_THRESHOLD, _MMAP_BYTES)
    mallopt(_M_TRIM_THRESHOLD, _TRIM_BYTES)
