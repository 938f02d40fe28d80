"""Fused multiply-add (a * b + c rounded once), emulated exactly in NumPy: the rounding of
torch's CPU kernels that use vfmadd (its RNG transforms, arange/linspace, optimizer updates)."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine.blockwise import blockwise


def _round_to_odd(s: np.ndarray, err: np.ndarray) -> np.ndarray:
    """Turn round-to-nearest `s` of the exact `s + err` into its round-to-odd."""
    even = (s.view(np.uint64) & np.uint64(1)) == 0
    return np.where(even & (err != 0), np.nextafter(s, np.copysign(np.inf, err)), s)


def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _two_prod(a, b):
    p = a * b
    split = 134217729.0 * a
    ah = split - (split - a)
    split = 134217729.0 * b
    bh = split - (split - b)
    al, bl = a - ah, b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


_F32_MIDPOINT_BITS, _F32_DROPPED_BITS = np.uint64(1 << 28), np.uint64((1 << 29) - 1)
_F32_TINY = 2.0 ** -126


def fma32(a, b, c) -> np.ndarray:
    """Correctly rounded float32 a * b + c, like the vfmadd instruction.

    The product is exact in float64 (24 + 24 bits); the float64 sum then rounds to the right
    float32 unless it landed on a float32 midpoint (or in float32's subnormal range), where
    the sign of the sum's own rounding error decides (round to odd), for those elements only.
    """
    return blockwise(_fma32_block, a, b, c, dtype=np.float32)


def _doubtful32(s: np.ndarray) -> np.ndarray:
    """Where the double sum `s` of an exact product and a float may round to the wrong float:
    on a float midpoint, or in float's subnormal range (an exact zero has its right sign)."""
    return ((s.view(np.uint64) & _F32_DROPPED_BITS) == _F32_MIDPOINT_BITS) | (
        (np.abs(s) < _F32_TINY) & (s != 0))


def near_float_rounding(x: np.ndarray) -> np.ndarray:
    """Where a double `x` lies within 2**12 double ulps of a float rounding boundary, or in
    float's subnormal range: where a few ulps' change to `x` (a product and sum rounded apart
    instead of fused) might change the float it rounds to."""
    dropped = (x.view(np.uint64) & _F32_DROPPED_BITS).astype(np.int64)
    return (np.abs(dropped - (1 << 28)) < 4096) | ((np.abs(x) < _F32_TINY) & (x != 0))


def _any_doubtful32(s: np.ndarray) -> bool:
    """Whether `_doubtful32(s)` holds anywhere, in fewer passes: the subnormal test runs only
    where the smallest magnitude calls for it."""
    if ((s.view(np.uint64) & _F32_DROPPED_BITS) == _F32_MIDPOINT_BITS).any():
        return True
    magnitude = np.abs(s)
    return bool(magnitude.min(initial=np.inf) < _F32_TINY
                and ((magnitude < _F32_TINY) & (s != 0)).any())


def _double(x) -> np.ndarray:
    """`x` as float64: a ufunc over operands of one dtype runs without casting buffers."""
    return np.asarray(x).astype(np.float64, copy=False)


def _fma32_block(a, b, c) -> np.ndarray:
    return sum32(np.asarray(np.multiply(_double(a), _double(b))), c)


def sum32(product: np.ndarray, c) -> np.ndarray:
    """The float32 nearest the exact `product + c`, for a double `product` that is exact (a
    product of two floats) and a float `c`: the double sum, redone by round-to-odd where it may
    have rounded to the wrong float."""
    addend = _double(c)
    s = np.asarray(np.add(product, addend))
    s = np.array(s) if s.ndim == 0 else s
    if _any_doubtful32(s):
        doubtful = _doubtful32(s)
        exact = np.broadcast_to(product, s.shape)[doubtful]
        addend = np.broadcast_to(addend, s.shape)[doubtful]
        s[doubtful] = _round_to_odd(*_two_sum(exact, addend))
    return s.astype(np.float32)


_CHAIN_BYTES = 1 << 19  # the double products and sums a float32 chain holds at once (in cache)
_BLOCK_STEPS = 4  # the fewest steps a block of chains takes at a time, where its elements allow
_SMALL_CHAIN = 1 << 12  # the most products a chain takes in one go, blocks not worth their cost
_RERUNS = 8  # restarts of a float32 chain before its doubtful elements take every step exactly


def fma_accumulate(a: np.ndarray, b: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """acc = fma(a[k], b[k], acc) for k = 0, 1, ... from acc = `start` (else 0): a chain of
    vfmadd along axis 0. A float32 chain runs in double, one add a step (its products are exact
    there), a block of elements a few thousand steps at a time (`_float_chain`)."""
    shape = np.broadcast_shapes(a.shape[1:], b.shape[1:])
    if a.dtype != np.float32:
        acc = np.zeros(shape, np.float64) if start is None else start
        for k in range(len(a)):
            acc = fma64(*np.broadcast_arrays(a[k], b[k], acc))
        return acc
    acc = np.zeros(shape, np.float32) if start is None else \
        np.broadcast_to(np.asarray(start, np.float32), shape).copy()
    a, b = (x.reshape((len(x),) + (1,) * (len(shape) + 1 - x.ndim) + x.shape[1:]) for x in (a, b))
    if len(a) * acc.size <= _SMALL_CHAIN:  # at once, without the blocks' bookkeeping
        products = np.multiply(a, b, dtype=np.float64).reshape(len(a), acc.size)
        _float_chain(products, acc.reshape(-1), np.empty_like(products))
        return acc
    buffers = None
    for block in _element_blocks(shape, _CHAIN_BYTES // (16 * min(len(a), _BLOCK_STEPS))):
        part = acc[block] if block else acc
        flat = part.reshape(-1)
        steps = min(len(a), max(1, _CHAIN_BYTES // (16 * max(1, flat.size))))
        if buffers is None:  # no block is larger than the first
            buffers = np.empty((2, min(len(a) * flat.size, max(_CHAIN_BYTES // 16, flat.size))))
        a_block, b_block = (x[(slice(None),) + _broadcast_index(block, x.shape[1:])] for x in (a, b))
        for first in range(0, len(a), steps):
            count = min(steps, len(a) - first)
            # cast first: NumPy buffers a multiply that casts as it goes
            operands = [x[first:first + count].astype(np.float64) for x in (a_block, b_block)]
            products = np.multiply(*operands, out=buffers[0, :count * flat.size]
                                   .reshape(np.broadcast_shapes(*(x.shape for x in operands))))
            _float_chain(products.reshape(count, flat.size), flat,
                         buffers[1, :count * flat.size].reshape(count, flat.size))
        if not np.shares_memory(flat, part):
            part[...] = flat.reshape(part.shape)
    return acc


def _element_blocks(shape: tuple, limit: int):
    """Index tuples that split an array of `shape` into blocks of at most `limit` elements (one
    at least): each a run along one axis, with the axes after it whole."""
    if math.prod(shape) <= limit or not shape:
        yield ()
        return
    inner = 1
    axis = len(shape) - 1
    while axis > 0 and inner * shape[axis] <= limit:
        inner *= shape[axis]
        axis -= 1
    run = max(1, limit // inner)
    for outer in np.ndindex(*shape[:axis]):
        for first in range(0, shape[axis], run):
            yield outer + (slice(first, first + run),)


def _broadcast_index(block: tuple, shape: tuple) -> tuple:
    """`block`'s index into an operand of `shape` broadcast against the result: every axis kept
    (an integer as a slice of one), a length-1 axis whole."""
    return tuple(slice(None) if size == 1 else slice(i, i + 1) if type(i) is int else i
                 for i, size in zip(block, shape))


def _float_chain(products: np.ndarray, acc: np.ndarray, sums: np.ndarray) -> None:
    """Run the chains acc[e] = fma(.., .., acc[e]) over the exact products[k, e], k in order, in
    place. Each step is a double sum (into `sums`) rounded to float; an element whose double sum
    may have rounded wrongly at some step (`_inexact_doubtful`) is run again from there, that
    step exact (`sum32`); after `_RERUNS` such restarts the elements left take every step
    exactly."""
    count, columns, first, restarts = len(products), None, 0, 0
    run, start = products, acc.copy()
    for step, total in zip(products, sums):  # (assignment casts without copyto's dispatch)
        np.add(step, acc, out=total)
        acc[...] = total
    while _any_doubtful32(sums):
        wrong = _inexact_doubtful(run, sums, start)
        if wrong is None:
            return
        again = np.flatnonzero(wrong.any(axis=0))  # positions within this run's columns
        k = int(np.argmax(wrong[:, again].any(axis=1)))
        before = sums[k - 1, again].astype(np.float32) if k else start[again]
        columns = again if columns is None else columns[again]
        acc[columns] = sum32(run[k, again], before)
        first, restarts = first + k + 1, restarts + 1
        if first == count:
            return
        run, start = products[first:, columns], acc[columns]
        if restarts == _RERUNS:
            for step in run:
                start = sum32(step, start)
            acc[columns] = start
            return
        sums, current = np.empty_like(run), start.copy()
        for step, total in zip(run, sums):
            np.add(step, current, out=total)
            current[...] = total
        acc[columns] = current


def _inexact_doubtful(run: np.ndarray, sums: np.ndarray, start: np.ndarray) -> np.ndarray | None:
    """Where a chain's double sums may have rounded to the wrong float (`_doubtful32`) and were
    not exact (an exact sum rounds right, even on a midpoint: a true tie), or None if nowhere."""
    steps, columns = np.nonzero(_doubtful32(sums))
    before = np.where(steps > 0, sums[steps - 1, columns].astype(np.float32),
                      start[columns]).astype(np.float64)
    inexact = _two_sum(run[steps, columns], before)[1] != 0
    if not inexact.any():
        return None
    doubtful = np.zeros(sums.shape, bool)
    doubtful[steps[inexact], columns[inexact]] = True
    return doubtful


def fma64(a, b, c) -> np.ndarray:
    """Correctly rounded float64 a * b + c (Boldo and Melquiond's round-to-odd emulation; an
    infinite or NaN operand gives IEEE's a * b + c). Products near the subnormal range, where the
    splitting loses bits, and factors so large that the splitting overflows are computed
    exactly."""
    a, b, c = (np.asarray(x, np.float64) for x in (a, b, c))
    with np.errstate(invalid="ignore", over="ignore"):
        ph, pl = _two_prod(a, b)
        sh, sl = _two_sum(c, ph)
        t, terr = _two_sum(sl, pl)
        result = np.asarray(sh + _round_to_odd(t, terr))
    tiny = np.abs(ph) < _SPLIT_SAFE
    if np.isfinite(result).all() and not tiny.any() and max(
            np.abs(a).max(initial=0), np.abs(b).max(initial=0)) <= _SPLIT_MAX:
        return result  # (a non-finite operand, or an overflow, gives a non-finite result)
    finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
    if not finite.all():  # IEEE's rules for infinities and NaNs, which one rounding keeps
        with np.errstate(invalid="ignore", over="ignore"):
            result = np.where(finite, result, a * b + c)
    # factors whose split overflows, or a product at or beyond the largest double (x - s*s there)
    huge = (np.abs(a) > _SPLIT_MAX) | (np.abs(b) > _SPLIT_MAX) | ~np.isfinite(pl)
    exact = ((tiny & (a != 0) & (b != 0)) | huge) & finite
    if exact.any():
        result = result.copy()
        operands = (np.broadcast_to(x, result.shape)[exact] for x in (a, b, c))
        result[exact] = [_fma_exact(*values) for values in zip(*(x.tolist() for x in operands))]
    return result


_SPLIT_SAFE = 2.0 ** -969  # below this, Dekker's split of a product underflows
_SPLIT_MAX = 2.0 ** 995  # above this, Dekker's split of a factor overflows


def _fma_exact(a: float, b: float, c: float) -> float:
    from fractions import Fraction  # only for the rare operands Dekker's method cannot take

    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        return a * b + c  # an exact zero takes IEEE's sign rules
    try:
        return math.copysign(float(exact), exact)
    except OverflowError:  # beyond the largest double: rounds to an infinity of its sign
        return math.inf if exact > 0 else -math.inf


def fused(a, b, c) -> np.ndarray:
    """a * b + c rounded once in the operands' floating dtype, as vfmadd (float16 through
    float32, as torch's kernels compute it); other dtypes multiply and add."""
    dtype = np.result_type(a, b, c)
    if dtype == np.float64:
        return fma64(*np.broadcast_arrays(a, b, c))
    if dtype in (np.float32, np.float16):
        return fma32(a, b, c).astype(dtype)
    return a * b + c


# torch's CPU kernels whose multiply-add rounds once (explicit vec::fmadd, or a product and a sum
# GCC contracts); Python scalars are cast to the tensors' dtype first, as the kernels cast them.

def add_scaled(a: np.ndarray, b, alpha) -> np.ndarray:
    """a.add(b, alpha=alpha) for floating `a`: fmadd(b, alpha, a)."""
    return fused(np.asarray(b, a.dtype), a.dtype.type(alpha), a)


def lerp(start: np.ndarray, end, weight) -> np.ndarray:
    """start.lerp(end, weight), from whichever end is nearer to the weight (float16 computed in
    float32, as torch's opmath)."""
    dtype = start.dtype
    opmath = np.float32 if dtype == np.float16 else dtype
    start, end, weight = (np.asarray(v, opmath) for v in (start, end, weight))
    small = np.abs(weight) < 0.5
    return fused(np.where(small, weight, weight - weight.dtype.type(1)), end - start,
                 np.where(small, start, end)).astype(dtype, copy=False)


def addcmul(a: np.ndarray, t1, t2, value=1) -> np.ndarray:
    """a.addcmul(t1, t2, value=value): (value * t1) * t2 + a, rounded once at the add."""
    return fused(a.dtype.type(value) * np.asarray(t1, a.dtype), np.asarray(t2, a.dtype), a)
