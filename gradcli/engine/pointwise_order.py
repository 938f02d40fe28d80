"""torch's vectorised elementwise kernels (cpu_kernel_vec) in their split of the work.

A dense run is cut into one equal chunk per thread past GRAIN elements; each chunk is computed
two vectors at a time by the kernel's vector code, and its last (fewer than two vectors')
elements by the scalar code. Where the two codes round differently (SLEEF's exp against
glibc's), the result depends on an element's place in its chunk.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.cascade_sum import parallel_chunk
from gradcli.engine.cpu_capability import WIDE_VECTOR_BYTES


def vector_positions(n: int, itemsize: int, vector_bytes: int = WIDE_VECTOR_BYTES) -> np.ndarray:
    """True for the flat positions of an n-element run that the vector code computes."""
    block = 2 * vector_bytes // itemsize
    chunk = parallel_chunk(n)
    flat = np.arange(n)
    start = flat // chunk * chunk
    length = np.minimum(start + chunk, n) - start
    return (flat - start) < length // block * block


def split(a: np.ndarray, vector, scalar, vector_bytes: int = WIDE_VECTOR_BYTES) -> np.ndarray:
    """`vector(a)` where the vector code runs, `scalar(a)` on the tails (a flat C-order run)."""
    flat = a.reshape(-1)
    inside = vector_positions(flat.size, a.dtype.itemsize, vector_bytes)
    out = vector(flat)
    if not inside.all():
        out[~inside] = scalar(flat[~inside])
    return out.reshape(a.shape)


def split2(a: np.ndarray, b: np.ndarray, vector, scalar,
           vector_bytes: int = WIDE_VECTOR_BYTES) -> np.ndarray:
    """`split` of a binary kernel: `vector(a, b)` and `scalar(a, b)` over broadcast a and b."""
    a, b = np.broadcast_arrays(a, b)
    flat_a, flat_b = a.reshape(-1), b.reshape(-1)
    inside = vector_positions(flat_a.size, a.dtype.itemsize, vector_bytes)
    out = vector(flat_a, flat_b)
    if not inside.all():
        out[~inside] = scalar(flat_a[~inside], flat_b[~inside])
    return out.reshape(a.shape)


def at_least(a, low):
    """max(a, low) as torch's clamp kernels take it (low > a ? low : a): a's -0.0 stays where
    low is 0.0 (NumPy's maximum gives 0.0 there)."""
    return np.where(a == low, a, np.maximum(a, low))


def at_most(a, high):
    """min(a, high) as torch's clamp kernels take it: a where a equals high."""
    return np.where(a == high, a, np.minimum(a, high))
