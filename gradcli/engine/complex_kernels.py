"""torch's CPU complex multiply and divide, in their roundings (c10/util/complex.h as compiled).

Both kernels run as cpu_kernel_vec with 256-bit vectors over each innermost run (one per
thread's chunk past GRAIN elements). Multiply: the vector code's (ac - bd) + (ad + bc)i with
each product rounded; the scalar tail's products contracted into fused multiply-adds, for
complex64 two elements at a time, its odd last element as the vector code rounds. Divide:
c10's Smith division everywhere (the vector code calls it per element), its three
multiply-adds fused; complex64's odd last element of a run fuses only the denominator's.
(Measured against torch 2.13.)
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.cascade_sum import parallel_chunk
from gradcli.engine.fma import fma32, fma64
from gradcli.engine.pointwise_order import vector_positions

_VECTOR_BYTES = 32


def _runs(shape: tuple, operands: list) -> int:
    """The length of the innermost run TensorIterator loops over: the trailing dimensions of
    the result that every operand (broadcast to it) lays out as one coalesced stretch."""
    if not shape:
        return 1
    strides = [np.broadcast_to(x, shape).strides for x in operands]
    run, k = shape[-1], len(shape) - 1
    while k > 0:
        if not all(s[k - 1] == s[k] * shape[k] or shape[k - 1] == 1 for s in strides):
            break
        run *= shape[k - 1]
        k -= 1
    return max(run, 1)


def _placement(shape: tuple, operands: list, itemsize: int) -> tuple[np.ndarray, np.ndarray]:
    """(vector, odd last) masks over the flat result: where the vector code computes, and the
    odd last element of each run's scalar tail."""
    size = int(np.prod(shape, dtype=np.int64))
    run = _runs(shape, operands) if size else 1
    if run == size:  # one run, cut into chunks per thread past GRAIN
        vector = vector_positions(size, itemsize, _VECTOR_BYTES)
        chunk = parallel_chunk(size)
    else:
        vector = np.tile(vector_positions(run, itemsize, _VECTOR_BYTES), size // run)
        chunk = run
    place = np.arange(size) % chunk
    length = np.minimum(np.arange(size) - place + chunk, size) - (np.arange(size) - place)
    block = 2 * _VECTOR_BYTES // itemsize
    tail = length - length // block * block
    odd_last = ~vector & (place == length - 1) & (tail % 2 == 1)
    return vector, odd_last


def _parts(a, b, shape):
    a = np.broadcast_to(np.asarray(a), shape).reshape(-1)
    b = np.broadcast_to(np.asarray(b), shape).reshape(-1)
    return a.real, a.imag, b.real, b.imag


def multiply(a: np.ndarray, b, dtype: np.dtype) -> np.ndarray:
    """a * b for complex operands (arrays or a Python number) of complex `dtype`."""
    a, b = np.asarray(a, dtype), np.asarray(b, dtype)
    shape = np.broadcast_shapes(a.shape, b.shape)
    ar, ai, br, bi = _parts(a, b, shape)
    out = np.empty(int(np.prod(shape, dtype=np.int64)), dtype)
    out.real, out.imag = ar * br - ai * bi, ar * bi + ai * br
    vector, odd_last = _placement(shape, [a, b], dtype.itemsize)
    fused = ~vector & ~odd_last if dtype == np.complex64 else ~vector
    if fused.any():
        fma = fma32 if dtype == np.complex64 else fma64
        r, i, c, d = ar[fused], ai[fused], br[fused], bi[fused]
        out.real[fused] = fma(r, c, -(i * d))
        out.imag[fused] = fma(r, d, i * c)
    return out.reshape(shape)


def divide(a: np.ndarray, b, dtype: np.dtype) -> np.ndarray:
    """a / b for complex operands (arrays or a Python number) of complex `dtype`."""
    a, b = np.asarray(a, dtype), np.asarray(b, dtype)
    shape = np.broadcast_shapes(a.shape, b.shape)
    ar, ai, br, bi = _parts(a, b, shape)
    if dtype == np.complex64:
        _, partly = _placement(shape, [a, b], dtype.itemsize)
        fma = fma32
    else:
        partly, fma = np.zeros(ar.shape, bool), fma64
    plain = lambda x, y, z: x * y + z
    with np.errstate(all="ignore"):
        real_first = np.abs(br) >= np.abs(bi)
        big, small = np.where(real_first, br, bi), np.where(real_first, bi, br)
        rat = small / big
        scl = np.ones((), ar.dtype) / fma(small, rat, big)
        # real_first: (a + b rat, b - a rat); else (a rat + b, b rat - a)
        x1, y1 = np.where(real_first, ai, ar), np.where(real_first, ar, ai)
        x2, y2 = np.where(real_first, -ar, ai), np.where(real_first, ai, -ar)
        real = np.where(partly, plain(x1, rat, y1), fma(x1, rat, y1)) * scl
        imag = np.where(partly, plain(x2, rat, y2), fma(x2, rat, y2)) * scl
        zero = (br == 0) & (bi == 0)  # c10 divides by the zeros themselves: inf or nan
        real = np.where(zero, ar / np.abs(br), real)
        imag = np.where(zero, ai / np.abs(bi), imag)
    out = np.empty(ar.shape, dtype)
    out.real, out.imag = real, imag
    return out.reshape(shape)
