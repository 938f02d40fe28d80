"""oneDNN's own float32 GEMM (src/cpu/x64/gemm, not MKL's) as its reference RNN calls it on
AVX-512 (`extended_sgemm` -> `gemm_driver`), in the order it sums: found by experiment against
torch 2.13.0's CPU wheel (oneDNN v3.12) and read from the kernels' drivers.

Products are written row-major here: C (M x N) = A (M x K) @ B (K x N); oneDNN's column-major
call has m = N, n = M.

* nocopy kernel (`jit_avx512_common_gemm_f32`, picked by `nocopy_checker_avx512` for every
  product with 1/m + 1/n >= 0.00196 and for thin ones): K in blocks (`sgemm_nocopy_driver`:
  384 terms, a remainder between 384 and 768 halved), each block one fused chain from +0 in k
  order, added to C (beta = 1) or stored (the first block with beta = 0).
* matrix-vector (`gemv_n`: one output row, or one column of an 'NT' product): every entry
  one fused chain over all K starting from C itself (beta = 1) or from +0; past the threading
  threshold a short and fat product splits K between threads, whose partial sums are added to
  thread 0's in order (`gemv_threading_driver`).
* one output column of an 'NN' product (`gemv_t`): dots, see `_dots`.
* copy-based kernels (both M and N past about 510): the same chains and additions, K blocks of
  384 from 768 terms on (`_k_blocks`); measured M 1100, N 1040, K up to 1300, one and two
  threads, with and without C.
* the RNN's brgemm kernels (`brgemm`, forward_inference without grad mode): one chain over all K,
  added to C, or continuing from it (measured up to K = 1500, batches up to 100, one and two
  threads).

Measured with one and two threads on LSTM shapes (K, M, N from 1 to 1100), every draw exact.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.cascade_sum import THREADS
from gradcli.engine.fma import fused

_BK = 384  # sgemm_nocopy_driver's K block on AVX-512


def good_ld(dim: int) -> int:
    """rnn_utils::get_good_ld: a leading dimension rounded up to 16 floats and kept off the
    multiples of 256."""
    ld = -(-dim // 16) * 16
    return ld + 16 if ld % 256 == 0 else ld


def _k_blocks(k: int, copying: bool = False) -> list[tuple[int, int]]:
    """The K blocks: the nocopy driver halves whatever remains between 384 and 768 terms; the
    copy-based driver (`get_k_padd`) halves a whole K of that length, else takes 384 at a time."""
    if copying and k >= 2 * _BK:
        return [(start, min(start + _BK, k)) for start in range(0, k, _BK)]
    blocks, start = [], 0
    while start < k:
        size = k - start
        if size >= 2 * _BK:
            size = _BK
        elif size > _BK:
            size = (size + 1) // 2
        blocks.append((start, start + size))
        start += size
    return blocks


def _chain(a: np.ndarray, b: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """acc = fma(a[:, k], b[k, :], acc) for k in order."""
    for k in range(a.shape[1]):
        acc = fused(a[:, k:k + 1], b[k:k + 1, :], acc)
    return acc


def _nocopy(m: int, n: int, k: int, lds: tuple, transb: bool) -> bool:
    """nocopy_checker_avx512 for a column-major product m x n over k (A not transposed)."""
    lda, ldb, ldc = lds
    nthr = THREADS
    if nthr <= 8 and not transb and lda % 1024 == 0 and k > 500 and n > 100:
        return False
    if 1.0 / m + 1.0 / n >= 0.00196 and not (lda % 1024 == 0 and transb):
        return True
    if any(ld % 256 == 0 for ld in lds) and m >= 32 and n > 16:
        return False
    if (m <= 378 and n <= 378 and k >= nthr * 378) or (m >= nthr * 378 and k >= nthr * 378):
        return False
    if transb:
        return (m <= nthr * 28 and m >= n) or n <= nthr * 28 or k <= nthr
    return m <= nthr * 28 or n <= nthr * 28 or k <= nthr


def _gemv_threads(m: int, n: int) -> int:
    """gemv_threading_driver's thread_checker (f32 on AVX2 and up) for y (m) += A (m x n) x."""
    if m * n + 288 * n < 41700:
        return 1
    if m >= 20000 and n <= 200:
        return THREADS
    band = n // THREADS
    if THREADS <= 12 and ((band < 32 and m * band < 2048) or m * band < 4096):
        return 1
    return THREADS


def _gemv(a: np.ndarray, b: np.ndarray, c: np.ndarray | None) -> np.ndarray:
    """One output row: a (1 x K) @ b (K x N) from c (or +0), K split as the threads split it."""
    n, k = b.shape[1], a.shape[1]
    start = np.zeros((1, n), np.float32) if c is None else c.copy()
    threads = _gemv_threads(n, k)
    if threads == 1 or not (n <= threads * 500 and k >= threads * 128):
        return _chain(a, b, start)
    width, extra = divmod(k, threads)
    bounds = [i * (width + 1) if i < extra else k - (threads - i) * width
              for i in range(threads)] + [k]
    y = _chain(a[:, bounds[0]:bounds[1]], b[bounds[0]:bounds[1]], start)
    for i in range(1, threads):
        y = y + _chain(a[:, bounds[i]:bounds[i + 1]], b[bounds[i]:bounds[i + 1]],
                       np.zeros((1, n), np.float32))
    return y


def _fold(acc: np.ndarray) -> np.ndarray:
    """Eight lanes (last axis) to one: vhaddps, halves swapped and added, vhaddps."""
    pairs = acc[..., 0::2] + acc[..., 1::2]
    return (pairs[..., 0] + pairs[..., 2]) + (pairs[..., 1] + pairs[..., 3])


def _dots(a: np.ndarray, v: np.ndarray, c: np.ndarray | None) -> np.ndarray:
    """One output column (`jit_avx_gemv_t_f32_kern`): each entry a dot of a row of `a` with v,
    the whole sixteens fused into eight lanes (term j into lane j % 8), folded and added to the
    entry; then what remains in pieces of 8, 4, 2 and 1 terms, each folded and added in turn."""
    rows, k = a.shape
    x, w = a, np.broadcast_to(v.reshape(1, k), (rows, k))
    y = np.zeros((rows,), np.float32) if c is None else c.reshape(rows).copy()
    whole = k - k % 16
    if whole:
        acc = np.zeros((rows, 8), np.float32)
        for start in range(0, whole, 8):
            acc = fused(x[:, start:start + 8], w[:, start:start + 8], acc)
        y = y + _fold(acc)
    start = whole
    for piece in (8, 4, 2, 1):
        if k % 16 & piece:
            lanes = np.zeros((rows, 8), np.float32)
            lanes[:, :piece] = x[:, start:start + piece] * w[:, start:start + piece]
            y = y + _fold(lanes)
            start += piece
    return y.reshape(rows, 1)


def brgemm(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, further: bool = False
           ) -> np.ndarray:
    """a (M x K) @ b (K x N) [+ c] as the RNN's brgemm kernels (forward_inference) sum it: one
    fused chain over all K from +0, added to c; `further`: the chain goes on from c (a batch
    that continues the previous one in the same accumulators)."""
    if further:
        return _chain(a, b, c)
    acc = _chain(a, b, np.zeros((a.shape[0], b.shape[1]), np.float32))
    return acc if c is None else c + acc


def gemm(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, lds: tuple,
         transb: bool = False, nocopy: bool = False) -> np.ndarray | None:
    """a (M x K) @ b (K x N) [+ c, beta = 1] as oneDNN's sgemm sums it, or None where it may
    split K between threads (four or more). `lds` are oneDNN's column-major (lda, ldb, ldc) and
    `transb` whether its B is transposed (its 'NT' products): they pick the kernel, unless
    `nocopy` forces the nocopy one (the RNN's `force_nocopy`)."""
    rows, k = a.shape
    cols = b.shape[1]
    if k == 0 or THREADS >= 4:
        return None
    if rows == 1:
        return _gemv(a, b, c)
    if cols == 1 and transb:  # the transposed matrix-vector kernel, written as one row
        return _gemv(b.T, a.T, None if c is None else c.T).T
    if cols == 1 and not transb:
        return _dots(a, b, c)
    for lo, hi in _k_blocks(k, not (nocopy or _nocopy(cols, rows, k, lds, transb))):
        part = _chain(a[:, lo:hi], b[lo:hi], np.zeros((rows, cols), np.float32))
        c = part if c is None else c + part
    return c
