"""torch's CPU flash-attention kernel for float32 (aten/src/ATen/native/cpu/FlashAttentionKernel.cpp)
in its own order of float operations, so that F.scaled_dot_product_attention's results carry
torch's last bits.

Per batch, head and block of query rows (32, 64 or 256 of them by the query length), with all
keys in one block (at most 512): scores = q @ k^T by MKL's sgemm (matmul_order.mm), each scaled
(one rounding; with a float mask, scale and mask in one fused multiply-add) with the row
maximum taken alongside, then exp(score - max) by the vectorised
`exp_u20` over whole vectors (the scalar tail's exp correctly rounded, as torch's build gives
it), their sum in one vector accumulator combined by vec_reduce_all's butterfly with the tail
added after, (exps @ v) by sgemm, and the
product with 1/sum. MKL's kernels peel to 16-byte boundaries, so each gemm is told where its
query rows and its output (a per-thread scratch buffer) start. Longer key sequences (several
blocks, rescaled as they go) are not reproduced: `attention` returns None for them."""

from __future__ import annotations

import numpy as np

from gradcli.engine import matmul_order
from gradcli.engine.cascade_sum import THREADS
from gradcli.engine.fma import fma32
from gradcli.engine.kernels_order import lanes, vec_reduce_all

_KV_SPLIT = 512


def _float(bits: int) -> np.float32:
    return np.array(bits, np.uint32).view(np.float32)[()]


_LOG2E, _LN2 = _float(0x3FB8AA3B), _float(0x3F317218)
_LN_FLT_MIN, _LN_FLT_MAX = _float(0xC2AEAC50), _float(0x42B17218)
_FACTORIALS = tuple(np.float32(c) for c in (0.00828929059, 0.0418978221, 0.166676521,
                                            0.499991506, 0.999999701, 1.0))


def exp_u20(x: np.ndarray) -> np.ndarray:
    """Vectorized<float>::exp_u20: 2**n times a degree-5 polynomial of the remainder, by FMAs
    (its 'ULP=20' exp)."""
    x = np.asarray(x, np.float32)
    src = np.where(x < _LN_FLT_MAX, x, _LN_FLT_MAX)  # _mm512_min_ps, then max_ps
    src = np.where(src > _LN_FLT_MIN, src, _LN_FLT_MIN)
    fx = np.floor(fma32(src, _LOG2E, np.float32(0.5))).astype(np.float32)
    r = fma32(-fx, _LN2, src)
    res = fma32(r, _FACTORIALS[0], _FACTORIALS[1])
    for c in _FACTORIALS[2:]:
        res = fma32(r, res, c)
    exponent = (fx - np.float32(1)).astype(np.int32) + 127
    two_pow = np.where(x < _LN_FLT_MIN, np.float32(0),
                       (exponent.astype(np.uint32) << np.uint32(23)).view(np.float32))
    return (res * two_pow) * np.float32(2)


def _q_split(q_len: int) -> int:
    return 256 if q_len >= 768 else 64 if q_len >= 192 else 32


def _exp_sums(scores: np.ndarray, peak: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """_exp_reduce_sum_fusion_kernel over each row: the exponentials and their sums."""
    width = lanes(np.float32)
    n = scores.shape[-1]
    whole = n - n % width
    shifted = scores - peak
    exps = np.empty_like(shifted)
    exps[:, :whole] = exp_u20(shifted[:, :whole])
    exps[:, whole:] = np.exp(shifted[:, whole:].astype(np.float64)).astype(np.float32)
    acc = np.zeros((len(scores), width), np.float32)
    for start in range(0, whole, width):
        acc += exps[:, start:start + width]
    total = vec_reduce_all(acc)
    for column in range(whole, n):
        total = total + exps[:, column]
    return exps, total


def _scaled(scores: np.ndarray, scale: np.float32, mask: np.ndarray | None) -> np.ndarray:
    """scores * scale, or with a mask _scale_attn_mask_fusion_kernel's scores * scale + mask,
    one fused multiply-add (the compiler contracts the kernel's multiply and add)."""
    return scores * scale if mask is None else fma32(scores, scale, mask)


def _block(q: np.ndarray, k: np.ndarray, v: np.ndarray, first_row: int, causal: bool,
           scale: np.float32, offsets: tuple[int, int],
           mask: np.ndarray | None) -> np.ndarray | None:
    """One block of query rows of one head: its output rows, or None where an sgemm's order is
    not known. `offsets`: where the block's first query row and its output buffer start, in
    floats past a 64-byte boundary (MKL's kernels peel to it); `mask`: the block's rows of the
    float mask, or None."""
    scores = matmul_order.mm(q, k.T, offsets=(offsets[0], 0), serial=True)
    if scores is None:
        return None
    if causal:
        rows = first_row + np.arange(len(q))[:, None]
        scores = np.where(np.arange(k.shape[0])[None, :] > rows, np.float32(-np.inf), scores)
    scores = _scaled(scores, scale, mask)
    peak = scores.max(axis=1, keepdims=True)
    empty = peak[:, 0] == -np.inf
    exps, total = _exp_sums(scores, np.where(empty[:, None], np.float32(0), peak))
    exps[empty] = 0
    total = np.where(empty, np.float32(0), total)
    out = matmul_order.mm(exps, v, offsets=(0, offsets[1]), serial=True)
    if out is None:
        return None
    reciprocal = np.float32(1) / np.where(total == 0, np.float32(1), total)
    return out * reciprocal[:, None]


def attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, causal: bool, scale: float,
              mask: np.ndarray | None = None) -> np.ndarray | None:
    """The kernel's output for float32 (batch, heads, length, dim) arrays with one block of
    keys, in C order (`mask`: a float32 mask broadcastable to the scores, or None); None when the
    kernel's order is not reproduced here.
    Blocks are shared among torch's threads as at::parallel_for shares them, each thread with
    its own scratch buffer (scores, row maxima and sums, then the output rows)."""
    if q.dtype != np.float32 or k.shape[2] > _KV_SPLIT or k.shape[1] != q.shape[1] or \
            0 in q.shape or 0 in k.shape or (mask is not None and mask.dtype != np.float32):
        return None
    batch, heads, length, dim = q.shape
    if mask is not None:
        mask = np.broadcast_to(mask, (batch, heads, length, k.shape[2]))
    out = np.empty((batch, heads, length, v.shape[3]), np.float32)
    split = min(_q_split(length), length)
    slices = -(-length // split)
    chunk = -(-batch * heads * slices // min(THREADS, batch * heads * slices))
    per_thread = split * k.shape[2] + 2 * split + split * v.shape[3]
    strides = [s // 4 for s in q.strides]
    factor = np.float32(scale)
    for item in range(batch * heads * slices):
        b, h, m = item // (heads * slices), item // slices % heads, item % slices * split
        offsets = ((b * strides[0] + h * strides[1] + m * strides[2]) % 16,
                   (item // chunk * per_thread + split * k.shape[2] + 2 * split) % 16)
        rows = _block(q[b, h, m:m + split], k[b, h], v[b, h], m, causal, factor, offsets,
                      None if mask is None else mask[b, h, m:m + split])
        if rows is None:
            return None
        out[b, h, m:m + split] = rows
    return out
