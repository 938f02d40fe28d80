"""torch's CPU group_norm kernels for contiguous inputs (ATen's cpu/group_norm_kernel.cpp) in
their own order of float operations, so that float32 results carry torch's last bits (float64's
forward too; its backward contracts elsewhere, not yet measured).

Like layer_norm's, the kernels run the AVX2 build's 256-bit vectors on AVX512 CPUs too. Each
(sample, group) row's moments are RowwiseMoments'; its 1/std is taken in double. Where GCC
contracts a multiply and an add into one FMA was measured against torch 2.13: the affine map
and the weight's gradient are contracted, the per-channel sums of the backward are not, and the
group sums of those over channels contract only the scalar remainder GCC leaves after its
128-bit pieces. Loops run over vectors, channels and samples, never over elements.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.fma import fused as fma
from gradcli.engine.normalization_order import lanes, map_reduce_all, rowwise_moments


def group_norm(x: np.ndarray, weight, bias, groups: int, eps: float):
    """GroupNormKernelImplInternal: the output and the (N, G) mean and rstd."""
    n, c = x.shape[:2]
    d = c // groups
    mean, var = rowwise_moments(x.reshape(n * groups, -1))
    rstd = (1 / np.sqrt(np.maximum(var, 0).astype(np.float64) + eps)).astype(x.dtype)
    if weight is None and bias is None:
        rows = x.reshape(n * groups, -1)
        out = (rows - mean[:, None]) * rstd[:, None]
    else:
        scale = rstd.reshape(n, groups, 1) * _per_group(weight, 1, x.dtype, groups, d)
        shift = fma(-scale, mean.reshape(n, groups, 1), _per_group(bias, 0, x.dtype, groups, d))
        out = fma(scale[..., None], x.reshape(n, groups, d, -1), shift[..., None])
    return out.reshape(x.shape), mean.reshape(n, groups), rstd.reshape(n, groups)


def _per_group(param, default, dtype, groups: int, d: int) -> np.ndarray:
    """A per-channel parameter (or its default) shaped (1, G, D)."""
    if param is None:
        return np.full((1, groups, d), default, dtype)
    return param.reshape(1, groups, d)


def _channel_sums(values: np.ndarray, gamma: np.ndarray) -> np.ndarray:
    """GroupNormInputBackward's sum over each row's D channels of value * gamma: whole vectors
    (contracted), their lanes in order from zero, then the rest (GCC's 128-bit pieces not
    contracted, the last scalars contracted)."""
    rows, d = values.shape
    width = lanes(values.dtype)
    whole = d // width * width
    acc = np.zeros((rows, width), values.dtype)
    for j in range(0, whole, width):
        acc = fma(values[:, j:j + width], gamma[:, j:j + width], acc)
    total = np.zeros(rows, values.dtype)
    for lane in range(width):
        total = total + acc[:, lane]
    piece = 16 // values.itemsize
    pieces = whole + (d - whole) // piece * piece
    for j in range(whole, d):
        total = (total + values[:, j] * gamma[:, j] if j < pieces
                 else fma(values[:, j], gamma[:, j], total))
    return total


def group_norm_backward(dy: np.ndarray, x: np.ndarray, weight, groups: int, eps: float,
                        index: int) -> np.ndarray:
    """GroupNormBackwardKernelImplInternal: the input's gradient (index 1), the weight's (2)
    or the bias's (3)."""
    t = x.dtype.type
    n, c = x.shape[:2]
    d = c // groups
    dy_rows, x_rows = dy.reshape(n * c, -1), x.reshape(n * c, -1)
    db = map_reduce_all(dy_rows)
    if index == 3:
        return np.add.accumulate(np.concatenate([np.zeros((1, c), x.dtype),
                                                 db.reshape(n, c)]), axis=0)[-1]
    _, mean, rstd = group_norm(x, None, None, groups, eps)
    mean, rstd = mean.reshape(-1), rstd.reshape(-1)
    ds = map_reduce_all(dy_rows, x_rows, fused_tail=False)
    if index == 2:
        term = fma(-db, np.repeat(mean, d), ds)
        grad = np.zeros(c, x.dtype)
        for sample, factor in zip(term.reshape(n, c), np.repeat(rstd, d).reshape(n, c)):
            grad = fma(sample, factor, grad)
        return grad
    gamma = np.broadcast_to(_per_group(weight, 1, x.dtype, groups, d),
                            (n, groups, d)).reshape(n * groups, d)
    ds_val = _channel_sums(ds.reshape(n * groups, d), gamma)
    db_val = _channel_sums(db.reshape(n * groups, d), gamma)
    s = t(1) / t(d * dy_rows.shape[1])
    c2 = fma(db_val, mean, -ds_val) * rstd * rstd * rstd * s
    c3 = fma(-db_val * rstd, s, -c2 * mean)
    c1 = (rstd[:, None] * gamma)[..., None]
    view = (n * groups, d, -1)
    grad = fma(c1, dy.reshape(view), c2[:, None, None] * x.reshape(view)) + c3[:, None, None]
    return grad.reshape(x.shape)
