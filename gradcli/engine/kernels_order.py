"""torch's CPU softmax-family kernels (aten/src/ATen/native/cpu/SoftMaxKernel.cpp) in their own
order of float operations, so that float32 results carry torch's last bits.

torch works on `(outer, dim, inner)` views of a contiguous tensor. Over the last dimension
(inner == 1) each row is reduced with `vec::reduce_all`: one vector accumulator fed whole
vectors, the tail added to its first lanes only, then the lanes combined (a butterfly for float,
lane by lane for double); rows shorter than a vector are summed one value after another. Over
another dimension the kernels run across the inner dimension, a vector of inner positions at a
time, accumulating along `dim` one step after another; inner positions past the last whole
vector take the scalar path (`std::exp` instead of the vectorised exp). Vectorised exp and log
are SLEEF's (gradcli.engine.sleef). Loops run over chunks, lanes and dims, never elements.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from gradcli.engine import dtypes, sleef
from gradcli.engine.cascade_sum import THREADS
from gradcli.engine.cpu_capability import WIDE_VECTOR_BYTES
from gradcli.engine.fma import fma64, fused, near_float_rounding


def lanes(dtype) -> int:
    """Vectorized<T>::size() of the softmax kernels on this CPU (16 floats on AVX512, else 8)."""
    return WIDE_VECTOR_BYTES // np.dtype(dtype).itemsize


@functools.cache
def exp2_table() -> np.ndarray:
    """glibc's __exp2f_data.tab: 2**(i/32) as double bits, less i << 47 (made on first use)."""
    from decimal import Decimal, getcontext
    getcontext().prec = 60
    bits = [np.float64(float(Decimal(2) ** (Decimal(i) / 32))).view(np.uint64) for i in range(32)]
    return np.array(bits, np.uint64) - (np.arange(32, dtype=np.uint64) << np.uint64(47))


_INV_LN2_N = float.fromhex("0x1.71547652b82fep+0") * 32
_EXPF_POLY = (float.fromhex("0x1.c6af84b912394p-5") / 32 ** 3,
              float.fromhex("0x1.ebfce50fac4f3p-3") / 32 ** 2,
              float.fromhex("0x1.62e42ff0c52d6p-1") / 32)
_SHIFT = float.fromhex("0x1.8p+52")


def _cubic_times_scale(poly: tuple, r: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """glibc's ((c0 r + c1) r**2 + (c2 r + 1)) * scale, its three multiply-adds fused, rounded to
    float: computed unfused, then fused where that might round to another float."""
    c0, c1, c2 = poly
    r, scale = np.asarray(r), np.asarray(scale)
    value = np.asarray(((c0 * r + c1) * (r * r) + (c2 * r + 1)) * scale)
    doubtful = near_float_rounding(value)
    if doubtful.any():
        r, scale = r[doubtful], scale[doubtful]
        value[doubtful] = fma64(fma64(c0, r, c1), r * r, fma64(c2, r, 1.0)) * scale
    return value.astype(np.float32)


def glibc_expf(x: np.ndarray) -> np.ndarray:
    """glibc's expf (e_expf.c, the FMA build x86-64 machines run): a 32-entry table of
    2**(i/32) times a cubic in double, rounded once to float."""
    xd = x.astype(np.float64)
    with np.errstate(all="ignore"):
        z = _INV_LN2_N * xd
        kd = z + _SHIFT
        ki = np.where(np.isfinite(kd), kd, 0).view(np.uint64)
        kd = kd - _SHIFT
        r = z - kd
        t = exp2_table()[(ki % np.uint64(32)).astype(np.intp)] + (ki << np.uint64(47))
        s = t.view(np.float64)
        result = _cubic_times_scale(_EXPF_POLY, r, s)
    result = np.where(x > np.float32(float.fromhex("0x1.62e42ep6")), np.float32(np.inf), result)
    result = np.where(x < np.float32(float.fromhex("-0x1.9fe368p6")), np.float32(0), result)
    return np.where(np.isnan(x), x, result)


_EXP2F_POLY = (float.fromhex("0x1.c6af84b912394p-5"), float.fromhex("0x1.ebfce50fac4f3p-3"),
               float.fromhex("0x1.62e42ff0c52d6p-1"))


def glibc_exp2f(x: np.ndarray) -> np.ndarray:
    """glibc's exp2f (e_exp2f.c, its FMA build): the same table of 2**(i/32) as expf, times a
    cubic in double, rounded once to float."""
    xd = x.astype(np.float64)
    with np.errstate(all="ignore"):
        kd = xd + _SHIFT / 32
        ki = np.where(np.isfinite(kd), kd, 0).view(np.uint64)
        r = xd - (kd - _SHIFT / 32)
        t = exp2_table()[(ki % np.uint64(32)).astype(np.intp)] + (ki << np.uint64(47))
        result = _cubic_times_scale(_EXP2F_POLY, r, t.view(np.float64))
    result = np.where(x >= np.float32(128), np.float32(np.inf), result)
    result = np.where(x <= np.float32(-150), np.float32(0), result)
    return np.where(np.isnan(x), x, result)


def scalar_exp(values: np.ndarray) -> np.ndarray:
    """std::exp on values of the array's dtype: glibc's expf for float, exp for double (Python's
    math.exp is glibc's; NumPy's own differs in the last bit for about 2% of inputs)."""
    if values.dtype == np.float32:
        return glibc_expf(values)
    with np.errstate(all="ignore"):
        return np.asarray(np.frompyfunc(_glibc_exp, 1, 1)(values), np.float64)


def _glibc_exp(x) -> float:
    try:
        return math.exp(float(x))
    except OverflowError:
        return math.inf


def vec_reduce_all(acc: np.ndarray) -> np.ndarray:
    """Combine a (rows, lanes) accumulator: float's butterfly (lane i with i^8 on AVX512, then
    i^4, i^2, i^1), double's lane-by-lane fold."""
    width = acc.shape[1]
    if acc.dtype == np.float32 and width in (8, 16):
        for step in (8, 4, 2, 1)[(16 // width) - 1:]:
            idx = np.arange(width) ^ step
            acc = acc + acc[:, idx]
        return acc[:, 0]
    return fold(acc.T)


def fold(values: np.ndarray) -> np.ndarray:
    """Left-to-right sum over axis 0, one rounding per add."""
    total = values[0].copy()
    for v in values[1:]:
        total += v
    return total


def reduce_all_sum(rows: np.ndarray, vector_bytes: int = 0) -> np.ndarray:
    """vec::reduce_all(x + y) over each row of a (batch, n) array, with vectors of this CPU's
    width (or of `vector_bytes`, for a kernel built for narrower vectors only)."""
    batch, n = rows.shape
    width = vector_bytes // rows.dtype.itemsize if vector_bytes else lanes(rows.dtype)
    if n < width:
        return fold(rows.T)
    full = n // width
    chunks = rows[:, :full * width].reshape(batch, full, width)
    acc = chunks[:, 0].copy()
    for k in range(1, full):
        acc += chunks[:, k]
    rem = n - full * width
    if rem:
        acc[:, :rem] += rows[:, full * width:]
    return vec_reduce_all(acc)


def _as_3d(a: np.ndarray, dim: int):
    outer = math.prod(a.shape[:dim])
    inner = math.prod(a.shape[dim + 1:])
    return np.ascontiguousarray(a).reshape(outer, a.shape[dim], inner)


def _vector_positions(outer: int, inner: int, width: int) -> np.ndarray:
    """_vec_softmax's split of the flat (outer, inner) positions: True where a position is
    handled by a whole vector, False where it takes the scalar tail. Its at::parallel_for has a
    grain of one, so every thread takes an equal run however small the tensor; a vector never
    crosses a row or a thread's run."""
    total = outer * inner
    threads = min(THREADS, total)
    if threads == 1:
        positions = np.arange(inner)
        return np.broadcast_to(positions < inner // width * width, (outer, inner))
    chunk = -(-total // threads)
    flat = np.arange(total)
    row_start = flat // inner * inner
    start = np.maximum(row_start, flat // chunk * chunk)
    end = np.minimum(row_start + inner, (flat // chunk + 1) * chunk)
    return ((flat - start) < (end - start) // width * width).reshape(outer, inner)


def _whole_vectors(inner: int, dtype) -> np.ndarray:
    """Inner positions covered by whole vectors (the rest take the scalar path)."""
    width = lanes(dtype)
    return np.arange(inner) < inner // width * width


def _mixed_exp(values: np.ndarray, vector: np.ndarray) -> np.ndarray:
    out = np.array(sleef.exp(values), copy=True)
    tail = ~np.broadcast_to(vector, values.shape)
    if tail.any():
        out[tail] = scalar_exp(values[tail])
    return out


def _row_exps(x: np.ndarray):
    """Over the last dim: rows, their max, exp(x - max) and its vec::reduce_all sum."""
    rows = x.reshape(x.shape[0], x.shape[1])
    top = rows.max(axis=1, keepdims=True)
    e = sleef.exp(rows - top)
    return rows, top, e, reduce_all_sum(e)


def _dim_exps(x: np.ndarray, vector: np.ndarray):
    """Over another dim: the max, exp(x - max) and its sum, one step of dim at a time."""
    top = x.max(axis=1, keepdims=True)
    e = _mixed_exp(x - top, vector)
    return top, e, fold(e.transpose(1, 0, 2))[:, None, :]


def _last(a: np.ndarray, dim: int) -> bool:
    """Whether `dim` is the last dimension: torch's last-dim kernels serve only that one (a
    trailing dimension of size 1 still takes the general kernel)."""
    return dim % a.ndim == a.ndim - 1


def softmax(a: np.ndarray, dim: int) -> np.ndarray:
    """torch's softmax kernel over `dim` of a float32/float64 array."""
    x = _as_3d(a, dim)
    outer, size, inner = x.shape
    if x.size == 0:
        return np.empty(a.shape, a.dtype)
    if _last(a, dim):
        _, _, e, total = _row_exps(x)
        return (e * (a.dtype.type(1) / total)[:, None]).reshape(a.shape)
    vector = _vector_positions(outer, inner, lanes(a.dtype))[:, None, :]
    _, e, total = _dim_exps(x, vector)
    return (e / total).reshape(a.shape)


def softmax_reduced_last_dim(a: np.ndarray) -> np.ndarray:
    """torch's float16/bfloat16 softmax over the last dimension (`a` holds float32 values of
    the reduced dtype): in float32, whole float vectors through the vectorised exp and into a
    vector accumulator whose lanes are then combined, the tail through std::exp added one by one
    after them, then each exp times 1/sum (the result is rounded as it becomes a tensor)."""
    x = _as_3d(a, a.ndim - 1)
    if x.size == 0:
        return np.empty(a.shape, np.float32)
    rows = x.reshape(x.shape[0], x.shape[1])
    shifted = rows - rows.max(axis=1, keepdims=True)
    width = lanes(np.float32)
    whole = shifted.shape[1] // width * width
    e = np.concatenate([sleef.exp(shifted[:, :whole]), scalar_exp(shifted[:, whole:])], axis=1)
    total = np.zeros(rows.shape[0], np.float32)
    if whole:
        chunks = e[:, :whole].reshape(rows.shape[0], -1, width).transpose(1, 0, 2)
        total = vec_reduce_all(fold(chunks))
    total = fold(np.concatenate([total[None], e[:, whole:].T]))
    return (e * (np.float32(1) / total)[:, None]).reshape(a.shape)


def log_softmax(a: np.ndarray, dim: int) -> np.ndarray:
    """torch's log_softmax kernel over `dim` of a float32/float64 array."""
    x = _as_3d(a, dim)
    if x.size == 0:
        return np.empty(a.shape, a.dtype)
    if _last(a, dim):
        rows, top, _, total = _row_exps(x)
        return (rows - top - sleef.log(total)[:, None]).reshape(a.shape)
    top, _, total = _dim_exps(x, _whole_vectors(x.shape[2], a.dtype))
    return (x - top - sleef.log(total)).reshape(a.shape)


def softmax_reduced(a: np.ndarray, dim: int, dtype) -> np.ndarray:
    """torch's float16/bfloat16 softmax over another dimension (`a` holds float32 values of
    `dtype`, the reduced one), in float32 across a vector of the
    reduced dtype's inner positions at a time: positions past the whole vectors (the scalar
    path) keep each exp in the reduced dtype before dividing it by the sum."""
    x = _as_3d(a, dim)
    if x.size == 0:
        return np.empty(a.shape, np.float32)
    outer, _, inner = x.shape
    vector = np.broadcast_to(_vector_positions(outer, inner, lanes(np.float16))[:, None, :],
                             x.shape)
    shifted = x - x.max(axis=1, keepdims=True)
    e = np.where(vector, sleef.exp(shifted), scalar_exp(shifted))
    total = fold(e.transpose(1, 0, 2))[:, None, :]
    return (np.where(vector, e, dtypes.rounded_to(dtype, e)) / total).reshape(a.shape)


def log_softmax_reduced_last_dim(a: np.ndarray, dtype) -> np.ndarray:
    """torch's float16/bfloat16 log_softmax over the last dimension (`a` holds float32 values
    of `dtype`, the reduced one): as the float32 kernel, but the sum of the exps and its log are
    kept in the reduced dtype."""
    x = _as_3d(a, a.ndim - 1)
    if x.size == 0:
        return np.empty(a.shape, np.float32)
    rows, top, _, total = _row_exps(x)
    log_total = dtypes.rounded_to(dtype, sleef.log(dtypes.rounded_to(dtype, total)))
    return (rows - top - log_total[:, None]).reshape(a.shape)


def _dot_rows(g: np.ndarray, o: np.ndarray) -> np.ndarray:
    """vec::map2_reduce_all(x * y, +) over each row: whole vectors' products rounded and
    added, and so the tail's, except where GCC contracts the tail into an FMA: for float, in
    the copy of the kernel that at::parallel_for runs inline (one row, or one thread)."""
    batch, n = g.shape
    width = lanes(g.dtype)
    if n < width:
        return fold((g * o).T)
    full = n // width
    acc = g[:, :width] * o[:, :width]
    for k in range(1, full):
        part = slice(k * width, (k + 1) * width)
        acc += g[:, part] * o[:, part]
    rem = n - full * width
    if rem:
        tail = slice(full * width, None)
        inline = batch == 1 or THREADS == 1
        acc[:, :rem] = (fused(g[:, tail], o[:, tail], acc[:, :rem])
                        if g.dtype == np.float32 and inline
                        else acc[:, :rem] + g[:, tail] * o[:, tail])
    return vec_reduce_all(acc)


def _backward(g: np.ndarray, out: np.ndarray, dim: int, last_dim, other_dim) -> np.ndarray:
    """Run a backward kernel on (outer, dim, inner) views: `last_dim(g, out)` on
    (outer, dim) rows over the last dimension, else `other_dim(g, out)`."""
    g3, o3 = _as_3d(g, dim), _as_3d(out, dim)
    if g3.size == 0:
        return np.empty(g.shape, g.dtype)
    if _last(g, dim):
        return last_dim(g3[:, :, 0], o3[:, :, 0]).reshape(g.shape)
    return other_dim(g3, o3).reshape(g.shape)


def _softmax_backward_rows(g, o):
    return (g - _dot_rows(g, o)[:, None]) * o


def _softmax_backward_dims(g, o):
    total = np.zeros((g.shape[0], g.shape[2]), g.dtype)
    for d in range(g.shape[1]):
        total = fused(g[:, d], o[:, d], total)
    return o * (g - total[:, None, :])


def softmax_backward(g: np.ndarray, out: np.ndarray, dim: int) -> np.ndarray:
    """torch's softmax backward kernel: out * (g - sum(g * out))."""
    return _backward(g, out, dim, _softmax_backward_rows, _softmax_backward_dims)


def _log_softmax_backward_rows(g, o):
    return fused(-sleef.exp(o), reduce_all_sum(g)[:, None], g)


def _log_softmax_backward_dims(g, o):
    total = fold(g.transpose(1, 0, 2))[:, None, :]
    return fused(-_mixed_exp(o, _whole_vectors(g.shape[2], g.dtype)), total, g)


def log_softmax_backward(g: np.ndarray, out: np.ndarray, dim: int) -> np.ndarray:
    """torch's log_softmax backward kernel: g - exp(out) * sum(g), fused."""
    return _backward(g, out, dim, _log_softmax_backward_rows, _log_softmax_backward_dims)


def _ceil_log2(value: int) -> int:
    return 0 if value <= 1 else (value - 1).bit_length()


def nll_cascade_sum(values: np.ndarray, valid: np.ndarray, reduced=None) -> np.ndarray:
    """nll_loss's reduction (LossNLL.cpp): each kept sample's value is added to level 0 of
    eight partial sums; after sample b, when b is a multiple of 2**power, level 0 is flushed
    upward (and level j on to j+1 while b is a multiple of 2**(power*(j+1))); then the levels
    are added in order. `values` (one per sample) are what the kernel adds; ignored samples
    are skipped without flushing. The partial sums are of the input's dtype: float32 values of
    the `reduced` one (bfloat16 or float16), if given, each sum rounded to it."""
    batch = len(values)
    dtype = values.dtype.type
    if reduced is None:
        add = np.add
    else:
        def add(a, b):
            return dtypes.rounded_to(reduced, np.add(a, b)).astype(values.dtype)
    power = max(4, _ceil_log2(batch) // 8)
    mask = (1 << power) - 1
    kept = np.flatnonzero(valid)
    flushes = kept[(kept & mask) == 0]
    # level-0 runs: kept samples up to and including each flush point, then the remainder
    ends = np.searchsorted(kept, flushes, side="right")
    starts = np.concatenate([[0], ends])
    stops = np.concatenate([ends, [len(kept)]])
    width = int((stops - starts).max()) if len(starts) else 0
    runs = np.zeros((len(starts), max(width, 1)), values.dtype)
    for k in range(width):
        take = starts + k < stops
        runs[take, k] = values[kept[starts[take] + k]]
    run_sums = np.zeros(len(starts), values.dtype)
    for k in range(width):
        run_sums = add(run_sums, runs[:, k])
    levels = [dtype(0)] * 8
    for b, run in zip(flushes.tolist(), run_sums[:-1]):
        levels[1] = add(levels[1], run)
        for j in range(1, 7):
            if b & (mask << (j * power)):
                break
            levels[j + 1] = add(levels[j + 1], levels[j])
            levels[j] = dtype(0)
    levels[0] = run_sums[-1]
    total = dtype(0)
    for level in levels:
        total = add(total, level)
    return np.asarray(total, values.dtype)
