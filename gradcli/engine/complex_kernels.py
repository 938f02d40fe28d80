"""torch's CPU complex multiply, divide and abs, in their roundings (c10/util/complex.h as compiled).

Both kernels run as cpu_kernel_vec with 256-bit vectors over each innermost run (one per
thread's chunk past GRAIN elements). Multiply: the vector code's (ac - bd) + (ad + bc)i with
each product rounded; the scalar tail's products contracted into fused multiply-adds, for
complex64 two elements at a time with its odd last element as the vector code rounds (or,
where an operand stays put, four after one peeled, the rest unfused). Divide:
c10's Smith division everywhere (the vector code calls it per element), its three
multiply-adds fused; complex64's odd last element of a run fuses only the denominator's.
(Measured against torch 2.13.)
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import pointwise_order
from gradcli.engine.cascade_sum import parallel_chunk
from gradcli.engine.fma import fma32, fma64

_VECTOR_BYTES = 32


def _run(shape: tuple, operands: list) -> tuple[int, bool]:
    """The length of the innermost run TensorIterator loops over (the trailing dimensions of
    the result that every operand, broadcast to it, lays out as one coalesced stretch), and
    whether an operand stays put along it (a broadcast number or row)."""
    if not shape:
        return 1, True
    strides = [np.broadcast_to(x, shape).strides for x in operands]
    inner = max((k for k in range(len(shape)) if shape[k] != 1), default=len(shape) - 1)
    run, k = shape[inner], inner
    while k > 0:
        if not all(s[k - 1] == s[k] * shape[k] or shape[k - 1] == 1 for s in strides):
            break
        run *= shape[k - 1]
        k -= 1
    return max(run, 1), any(s[inner] == 0 for s in strides) and shape[inner] > 1


def _placement(shape: tuple, operands: list, itemsize: int) -> tuple:
    """(vector, tail place, tail length, steady) over the flat result: where the vector code
    computes; elsewhere an element's place in its run's scalar tail and that tail's length;
    whether an operand stays put along the runs."""
    size = int(np.prod(shape, dtype=np.int64))
    run, steady = _run(shape, operands) if size else (1, False)
    chunk = parallel_chunk(size) if run == size else run  # one run: a chunk per thread
    flat = np.arange(size)
    place = flat % chunk
    length = np.minimum(flat - place + chunk, size) - (flat - place)
    block = 2 * _VECTOR_BYTES // itemsize
    vectors = length // block * block
    return place < vectors, place - vectors, length - vectors, steady


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
    vector, place, tail, steady = _placement(shape, [a, b], dtype.itemsize)
    if dtype == np.complex128:
        fused = ~vector
    elif steady:  # GCC's loop for a steady operand: one peeled, then four at once
        fused = ~vector & (tail >= 5) & (place >= 1) & (place <= 4)
    else:  # two at a time, an odd last one alone
        fused = ~vector & ~((place == tail - 1) & (tail % 2 == 1))
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
    if dtype == np.complex64:  # two at a time, an odd last one alone
        vector, place, tail, _ = _placement(shape, [a, b], dtype.itemsize)
        length = np.where(vector, 0, tail)
        partly = ~vector & (place == length - 1) & (length % 2 == 1)
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


_EXTENDED = np.finfo(np.longdouble).nmant >= 63  # x87's 80-bit long double


def absolute(a: np.ndarray) -> np.ndarray:
    """|a| of a complex array, correctly rounded as torch's hypot (SLEEF's u05 and glibc's)
    gives it; NumPy's complex abs can be an ulp off (|-5+12j| is 12.999999 in complex64)."""
    if a.dtype == np.complex64:  # float64's hypot, rounded once more, is float32's correct one
        return np.hypot(a.real.astype(np.float64), a.imag.astype(np.float64)).astype(np.float32)
    re, im = a.real, a.imag
    out = np.hypot(re, im)  # the non-finite cases, and the others' first guess
    finite = np.isfinite(re) & np.isfinite(im)
    doubtful = finite
    if _EXTENDED and finite.any():
        wide = np.sqrt(np.square(re.astype(np.longdouble)) + np.square(im.astype(np.longdouble)))
        out = np.where(finite, wide.astype(np.float64), out)
        side = np.nextafter(out, np.where(wide > out, np.inf, -np.inf))
        middle = (out.astype(np.longdouble) + side.astype(np.longdouble)) / 2
        doubtful = finite & (np.abs(wide - middle) <= np.abs(wide) * np.longdouble(2.0 ** -58))
    if doubtful.any():  # near a rounding boundary: the exact square root decides
        out = np.array(out, copy=True)
        import decimal  # rare: only results within a hair of a rounding boundary
        with decimal.localcontext() as context:
            context.prec = 80
            for index in zip(*np.nonzero(doubtful)):
                x, y = decimal.Decimal(float(re[index])), decimal.Decimal(float(im[index]))
                out[index] = float((x * x + y * y).sqrt())
    return out


def reciprocal(a: np.ndarray) -> np.ndarray:
    """1 / a of a complex array: c10's Smith division of one by each element, as torch's
    reciprocal kernel computes it in both its vector and scalar code."""
    return divide(np.ones((), a.dtype), a, a.dtype)


def _square(a, fused: bool):
    fma = fma32 if a.dtype == np.complex64 else fma64
    r, i = a.real, a.imag
    out = np.empty_like(a)
    out.real, out.imag = (fma(r, r, -(i * i)), fma(r, i, i * r)) if fused else (
        r * r - i * i, r * i + i * r)
    return out


def _times(x, a, fused: bool):
    fma = fma32 if a.dtype == np.complex64 else fma64
    out = np.empty_like(a)
    if fused:
        out.real = fma(x.real, a.real, -(x.imag * a.imag))
        out.imag = fma(x.real, a.imag, x.imag * a.real)
    else:
        out.real = x.real * a.real - x.imag * a.imag
        out.imag = x.real * a.imag + x.imag * a.real
    return out


def _one_over(a):
    """c10's Smith division of one by `a`, its multiply-adds fused."""
    fma = fma32 if a.dtype == np.complex64 else fma64
    c, d = a.real, a.imag
    one, zero = np.ones_like(c), np.zeros_like(c)
    with np.errstate(all="ignore"):
        real_first = np.abs(c) >= np.abs(d)
        big, small = np.where(real_first, c, d), np.where(real_first, d, c)
        rat = small / big
        scl = one / fma(small, rat, big)
        real = np.where(real_first, fma(zero, rat, one), fma(one, rat, zero)) * scl
        imag = np.where(real_first, fma(-one, rat, zero), fma(zero, rat, -one)) * scl
    out = np.empty_like(a)
    out.real, out.imag = real, imag
    return out


# torch's pow kernel with a scalar exponent of 2, 3 or -2: the vector code's products each
# rounded, the scalar tails' contracted into fused multiply-adds
_SMALL_POWERS = {
    2: lambda a, fused: _square(a, fused),
    3: lambda a, fused: _times(_square(a, fused), a, fused),
    -2: lambda a, fused: _one_over(_square(a, fused)),
}


def power(a: np.ndarray, exponent) -> np.ndarray:
    """a ** exponent of a complex array and a Python number, as torch's CPU pow kernel: its
    fast paths (sqrt, 1 / sqrt, reciprocal, products), else glibc's cpow."""
    if exponent == 0.5:
        return np.sqrt(a)
    if exponent == -0.5:
        return divide(np.ones((), a.dtype), np.sqrt(a), a.dtype)
    if exponent == -1:
        return reciprocal(a)
    if exponent in _SMALL_POWERS:
        rule = _SMALL_POWERS[exponent]
        return pointwise_order.split(a, lambda v: rule(v, False), lambda v: rule(v, True))
    return cpow(a, np.asarray(exponent, a.dtype))


def cpow(base, exponent) -> np.ndarray:
    """glibc's cpow elementwise, cexp(exponent * clog(base)), which NumPy's power calls except
    for whole real exponents (it multiplies those out) and a zero base (NaN); there the same
    formula."""
    base, exponent = np.broadcast_arrays(np.asarray(base), np.asarray(exponent))
    with np.errstate(all="ignore"):
        out = np.asarray(np.power(base, exponent))
        whole = ((exponent.imag == 0) & (exponent.real == np.round(exponent.real))) | (base == 0)
        if whole.any():
            out = np.array(out, copy=True)
            out[whole] = np.exp(exponent[whole] * np.log(base[whole]))
    return out
