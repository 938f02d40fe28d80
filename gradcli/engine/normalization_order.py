"""torch's CPU layer_norm and batch_norm kernels (ATen's cpu/layer_norm_kernel.cpp,
cpu/moments_utils.h, cpu/batch_norm_kernel.cpp and Normalization.cpp) in their own order of
float operations, so that float32 and float64 results carry torch's last bits.

The kernels are registered for AVX2 only, so AVX512 CPUs also run 256-bit vectors (8 floats,
4 doubles). layer_norm runs in the input's dtype (torch's opmath type of float is float);
batch_norm sums its statistics in double. Where GCC contracts a multiply and an add into one
FMA was measured against torch 2.13, not guessed: the vector bodies of map2/map3_reduce_all are
not contracted but their tails are, Welford's scalar tail is not, the running statistics are
not, and the rest of the multiply-adds below are unless a comment says otherwise. Loops run
over vectors, chunks, lanes, rows and threads, never over elements.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.cascade_sum import THREADS
from gradcli.engine.fma import fma_accumulate, fused as fma

_CHUNK = 16  # moments_utils' kChunkSize: vectors per Welford chunk


def lanes(dtype) -> int:
    """Vectorized<T>::size() of the AVX2 build: 8 floats, 4 doubles."""
    return 32 // np.dtype(dtype).itemsize


def supported(x: np.ndarray, *params) -> bool:
    """Whether these kernels reproduce torch for `x` and its optional same-dtype parameters."""
    return x.dtype in (np.float32, np.float64) and x.size > 0 and all(
        p is None or p.dtype == x.dtype for p in params)


def _thread_runs(batch: int, grain: int) -> list[slice]:
    """The runs of rows at::parallel_for(0, batch, grain) gives each of THREADS threads (one
    run unless there are more rows than `grain`)."""
    if batch <= grain:
        return [slice(0, batch)]
    chunk = -(-batch // min(THREADS, -(-batch // grain)))
    return [slice(first, min(batch, first + chunk)) for first in range(0, batch, chunk)]


def _thread_sums(rows: np.ndarray, grain: int = 1) -> np.ndarray:
    """Each thread's buffer of `buffer + row` over its run of rows, from zero."""
    return np.stack([np.add.accumulate(rows[run], axis=0)[-1]
                     for run in _thread_runs(len(rows), grain)])


def _thread_fma_sums(p: np.ndarray, q: np.ndarray, grain: int = 1) -> np.ndarray:
    """Each thread's buffer of `fma(p_row, q_row, buffer)` over its run of rows, from zero: the
    threads side by side, a shorter run padded with zero products (which change nothing)."""
    runs = _thread_runs(len(p), grain)
    steps = runs[0].stop - runs[0].start
    padded_p = np.zeros((steps, len(runs)) + p.shape[1:], p.dtype)
    padded_q = np.zeros_like(padded_p)
    for task, run in enumerate(runs):
        padded_p[:run.stop - run.start, task] = p[run]
        padded_q[:run.stop - run.start, task] = q[run]
    return fma_accumulate(padded_p, padded_q)


def _sum_from_zero(buffers: np.ndarray, dtype) -> np.ndarray:
    """0 + buffers[0] + buffers[1] + ... in `dtype`."""
    zero = np.zeros((1,) + buffers.shape[1:], dtype)
    return np.add.accumulate(np.concatenate([zero, buffers.astype(dtype)]), axis=0)[-1]


def _ceil_log2(value: int) -> int:
    """utils::CeilLog2, which counts 1 for 0, 1 and 2."""
    return 1 if value <= 2 else (value - 1).bit_length()


def _add_moments_vec(m0_add, m1_add, m2_add, m0, m1, m2):
    """AddMomentsVec: merge (m0_add, m1_add, m2_add) into (m0, m1, m2), lane by lane."""
    t = m1.dtype.type
    n = m0 + m0_add
    c = t(0) if n == 0 else t(m0_add) / t(n)
    delta = m1_add - m1
    c_delta = c * delta
    return n, m1 + c_delta, fma(delta * t(m0), c_delta, m2 + m2_add)


def _chunk_moments(vectors: np.ndarray, steps: np.ndarray):
    """UpdateMomentsVec over (rows, chunks, vectors, lanes): Welford's update from zero, one
    vector after another, every chunk side by side."""
    m1 = np.zeros(vectors.shape[:2] + vectors.shape[3:], vectors.dtype)
    m2 = np.zeros_like(m1)
    for j in range(vectors.shape[2]):
        x = vectors[:, :, j]
        delta = x - m1
        m1 = fma(steps[j], delta, m1)
        m2 = fma(delta, x - m1, m2)
    return m1, m2


def rowwise_moments(rows: np.ndarray):
    """RowwiseMoments of each row of a (M, N) array: its mean and biased variance."""
    t = rows.dtype.type
    batch, size = rows.shape
    width = lanes(rows.dtype)
    n = size // width
    depth = _ceil_log2(-(-n // _CHUNK))
    steps = np.array([t(1) / t(i + 1) for i in range(_CHUNK)], rows.dtype)
    vectors = rows[:, :n * width].reshape(batch, n, width)
    full = n // _CHUNK
    chunks = []
    if full:
        m1, m2 = _chunk_moments(vectors[:, :full * _CHUNK].reshape(batch, full, _CHUNK, width),
                                steps)
        chunks += [(_CHUNK, m1[:, k], m2[:, k]) for k in range(full)]
    if n > full * _CHUNK:
        m1, m2 = _chunk_moments(vectors[:, None, full * _CHUNK:], steps)
        chunks.append((n - full * _CHUNK, m1[:, 0], m2[:, 0]))
    zero = np.zeros((batch, width), rows.dtype)
    stack = [(0, zero, zero)] * depth
    for i, chunk in enumerate(chunks):
        stack[0] = _add_moments_vec(*chunk, *stack[0])
        mask, j = i + 1, 1
        while j < depth and mask & 1 == 0:  # a cascade: equal counts merge upward
            stack[j] = _add_moments_vec(*stack[j - 1], *stack[j])
            stack[j - 1] = (0, zero, zero)
            mask >>= 1
            j += 1
    for j in range(1, depth):
        stack[0] = _add_moments_vec(*stack[j], *stack[0])
    count, m1, m2 = 0, np.zeros(batch, rows.dtype), np.zeros(batch, rows.dtype)
    for i in range(n * width, size):  # the scalar tail, before the lanes
        x = rows[:, i]
        delta = x - m1
        count += 1
        m1 = m1 + delta / t(count)
        m2 = m2 + delta * (x - m1)
    for lane in range(width):  # AddMoments, one lane at a time
        total = count + n
        c = t(0) if total == 0 else t(n) / t(total)
        delta = stack[0][1][:, lane] - m1
        m1 = fma(c, delta, m1)
        m2 = m2 + fma(delta * delta * c, t(count), stack[0][2][:, lane])
        count = total
    return m1, m2 / t(size)


def layer_norm(rows: np.ndarray, weight, bias, eps: float):
    """LayerNormKernelImplInternal on (M, N) rows: the output, mean and rstd."""
    t = rows.dtype.type
    mean, var = rowwise_moments(rows)
    rstd = t(1) / np.sqrt(var + t(eps))
    centered = rows - mean[:, None]
    beta = t(0) if bias is None else bias
    if weight is None:  # the scalar loop, which GCC versions for gamma == 1
        return fma(centered, rstd[:, None], beta), mean, rstd
    return fma(centered * rstd[:, None], weight, beta), mean, rstd


def _vec_reduce_all(acc: np.ndarray) -> np.ndarray:
    """Combine a (rows, lanes) accumulator: float's AVX2 butterfly (lane i with i^4, i^2,
    i^1), double's lane-by-lane fold."""
    if acc.dtype == np.float32:
        for step in (4, 2, 1):
            acc = acc + acc[:, np.arange(8) ^ step]
        return acc[:, 0]
    return np.add.accumulate(acc, axis=1)[:, -1]


def map_reduce_all(p: np.ndarray, q: np.ndarray | None = None, fused_tail: bool = True
                   ) -> np.ndarray:
    """vec::reduce_all(+) over each row of p, or map2_reduce_all(x * y, +) of p and q (map3's
    with p a product already): whole vectors added in order, the tail's products added to the
    first lanes (fused where GCC contracts them), then the lanes combined."""
    size = p.shape[1]
    width = lanes(p.dtype)
    items = p if q is None else p * q
    if size < width:
        return np.add.accumulate(items, axis=1)[:, -1]
    full = size // width
    acc = np.add.accumulate(items[:, :full * width].reshape(len(p), full, width), axis=1)
    acc = acc[:, -1]
    rem = size - full * width
    if rem:
        tail = slice(full * width, None)
        if q is None or not fused_tail:
            acc[:, :rem] = acc[:, :rem] + items[:, tail]
        else:
            acc[:, :rem] = fma(p[:, tail], q[:, tail], acc[:, :rem])
    return _vec_reduce_all(acc)


def layer_norm_backward(dy: np.ndarray, rows: np.ndarray, weight, eps: float, index: int):
    """LayerNormBackwardKernelImplInternal on (M, N) rows: the input's gradient (index 1), the
    weight's (2) or the bias's (3)."""
    t = rows.dtype.type
    batch, size = rows.shape
    if index == 3:
        return _sum_from_zero(_thread_sums(dy), rows.dtype)
    mean, var = rowwise_moments(rows)
    rstd = t(1) / np.sqrt(var + t(eps))
    if index == 1:
        return _layer_norm_input_grad(dy, rows, weight, mean, rstd)
    normalized = fma(rstd[:, None], rows, (-rstd * mean)[:, None])
    return _sum_from_zero(_thread_fma_sums(dy, normalized), rows.dtype)


def _layer_norm_input_grad(dy, rows, weight, mean, rstd):
    t = rows.dtype.type
    scale = t(1) / t(rows.shape[1])
    if weight is None:
        ds = map_reduce_all(dy, rows)
        db = map_reduce_all(dy)
        scaled = rstd[:, None] * dy
    else:
        gamma = np.broadcast_to(weight, rows.shape)
        ds = map_reduce_all(dy * rows, gamma)
        db = map_reduce_all(dy, gamma)
        scaled = rstd[:, None] * dy * weight
    b = fma(db, mean, -ds) * rstd * rstd * rstd * scale
    c = fma(-b, mean, -(db * rstd * scale))
    return fma(b[:, None], rows, scaled) + c[:, None]


# ---- batch_norm: contiguous (N, C, S) inputs, S the product of the spatial sizes ------------
# torch runs an (N, C) input (S == 1) through its channels-last kernels: per-thread buffers of
# C values filled row after row, vectorised across channels.

def batch_norm_stats(x: np.ndarray):
    """batch_norm_cpu_collect_stats: each channel's mean and sum of squared deviations."""
    batch, channels, size = x.shape
    count = batch * size
    if size > 1:  # per channel, one double sum in memory order
        values = x.transpose(1, 0, 2).reshape(channels, count)
        mean = (np.add.accumulate(values.astype(np.float64), axis=1)[:, -1] / count).astype(
            x.dtype)
        deviations = values - mean[:, None]
        if x.dtype == np.float64 and size % 2:
            return mean, _odd_rows_square_sum(deviations.reshape(channels, batch, size))
        squares = (deviations * deviations).astype(np.float64)
        return mean, np.add.accumulate(squares, axis=1)[:, -1].astype(x.dtype)
    # measured: torch 2.13 runs these two passes on one thread for two rows, as if their
    # grain were 2 (the backward's passes split two rows between two threads)
    rows = x[:, :, 0]
    mean = (_sum_from_zero(_thread_sums(rows, 2), np.float64) / count).astype(x.dtype)
    deviations = rows - mean
    var_sum = _sum_from_zero(_thread_fma_sums(deviations, deviations, 2), np.float64)
    return mean, var_sum.astype(x.dtype)


def _odd_rows_square_sum(deviations: np.ndarray) -> np.ndarray:
    """The double sum of squares over (C, N, S) deviations with S odd, as GCC vectorises it:
    each row's pairs of squares rounded and added in order, its last square fused."""
    total = np.zeros(deviations.shape[0])
    for row in deviations.transpose(1, 0, 2):
        squares = row[:, :-1] * row[:, :-1]
        total = np.add.accumulate(np.concatenate([total[:, None], squares], axis=1), axis=1)[:, -1]
        total = fma(row[:, -1], row[:, -1], total)
    return total


def batch_norm_invstd(var_sum: np.ndarray, count: int, eps: float) -> np.ndarray:
    """InvStd of the biased variance (var_sum / count in the input's dtype), in double."""
    var = (var_sum / var_sum.dtype.type(count)).astype(np.float64)
    return (1 / np.sqrt(var + eps)).astype(var_sum.dtype)


def batch_norm_transform(x: np.ndarray, weight, bias, mean, invstd) -> np.ndarray:
    """output = input * alpha + beta, alpha = invstd * weight, beta = bias - mean * alpha."""
    t = x.dtype.type
    alpha = invstd if weight is None else invstd * weight
    beta = fma(-mean, alpha, t(0) if bias is None else bias)
    return fma(x, alpha[None, :, None], beta[None, :, None])


def eval_invstd(running_var: np.ndarray, eps: float, forward: bool) -> np.ndarray:
    """1 / sqrt(running_var + eps): in the input's dtype in the forward kernel, in double (eps
    is a double there) in the backward one."""
    if forward:
        t = running_var.dtype.type
        return t(1) / np.sqrt(running_var + t(eps))
    return (1 / np.sqrt(running_var.astype(np.float64) + eps)).astype(running_var.dtype)


def running_stats(running_mean, running_var, mean, var_sum, count: int, momentum: float):
    """batch_norm_cpu_update_stats_template's new running mean and (unbiased) variance."""
    t = mean.dtype.type
    m = t(momentum)
    new_mean = m * mean + (t(1) - m) * running_mean
    unbiased = (var_sum / t(count - 1)).astype(np.float64)
    new_var = m * unbiased + ((t(1) - m) * running_var).astype(np.float64)
    return new_mean, new_var.astype(mean.dtype)


def batch_norm_backward(dy, x, weight, mean, invstd, training: bool, index: int):
    """batch_norm_cpu_backward on (N, C, S) arrays: the input's gradient (index 1), the
    weight's (2) or the bias's (3). `mean` and `invstd` are the saved statistics in training,
    the running mean and eval_invstd(running_var) in evaluation."""
    batch, channels, size = x.shape
    t = x.dtype.type
    count = t(batch * size)
    w = np.ones(channels, x.dtype) if weight is None else weight
    flat = (batch * channels, size)
    if size > 1:
        total = _sum_from_zero(map_reduce_all(dy.reshape(flat)).reshape(batch, channels),
                               np.float64)
    else:  # the channels-last kernel stores its sums back as floats
        total = _sum_from_zero(_thread_sums(dy[:, :, 0]), np.float64).astype(x.dtype)
    if index == 3:
        return total.astype(x.dtype)
    centered = x - mean[None, :, None]
    if size > 1:
        dotp = _sum_from_zero(map_reduce_all(centered.reshape(flat), dy.reshape(flat))
                              .reshape(batch, channels), np.float64)
    else:
        dotp = _sum_from_zero(_thread_fma_sums(centered[:, :, 0], dy[:, :, 0]),
                              np.float64).astype(x.dtype)
    if index == 2:
        return (dotp * invstd).astype(x.dtype)
    if not training:
        return dy * invstd[None, :, None] * w[None, :, None]
    if size > 1:
        k = dotp.astype(x.dtype) * invstd * invstd / count
        grad_mean = (total / (batch * size)).astype(x.dtype)
        return fma(-centered, k[None, :, None], dy - grad_mean[None, :, None]) * invstd[
            None, :, None] * w[None, :, None]
    k = dotp * invstd * invstd / count
    grad_mean = total / count
    centered = centered[:, :, 0]
    rest = dy[:, :, 0] - grad_mean
    dx = rest - centered * k
    body = channels - channels % lanes(x.dtype)  # whole vectors fused, the tail not
    dx[:, :body] = fma(-centered[:, :body], k[:body], rest[:, :body])
    return (dx * invstd * w)[:, :, None]


def batch_norm_backward_expanded(value, x, weight, mean, invstd, training: bool, index: int):
    """batch_norm_backward_cpu_template's TensorIterator path, which torch takes for a
    grad_output that is one value expanded (the gradient of .sum()): each channel's dot
    product summed in double in memory order, nothing vectorised or fused. Its at::sum of the
    copies of `value` is taken as exact (it is for 1 and other short values)."""
    batch, channels, size = x.shape
    t = x.dtype.type
    count = batch * size
    total = np.full(channels, t(value) * t(count), x.dtype)
    if index == 3:
        return total
    centered = x - mean[None, :, None]
    products = (centered * t(value)).transpose(1, 0, 2).reshape(channels, count)
    dotp = np.add.accumulate(products.astype(np.float64), axis=1)[:, -1]
    if index == 2:
        return (dotp * invstd).astype(x.dtype)
    w = (np.ones(channels, x.dtype) if weight is None else weight)[None, :, None]
    if not training:
        return np.full(x.shape, t(value), x.dtype) * invstd[None, :, None] * w
    k = dotp.astype(x.dtype) * invstd * invstd / t(count)
    grad_mean = total / t(count)
    grad = centered * k[None, :, None]
    return (t(value) - grad_mean[None, :, None] - grad) * invstd[None, :, None] * w
