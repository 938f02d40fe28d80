"""float32 input gradients of strided convolutions in the order oneDNN's brgconv_strided kernel
sums them, where torch's CPU build runs it (contiguous float32 input and weight, stride above 1
either way, no dilation; see `onednn_conv` for when torch hands a convolution to oneDNN).  The
same kernel runs the forward of strided transposed convolutions.

The kernel (jit_brgemm_conv_bwd_strided) computes each row of the input gradient in blocks of
input columns of one residue modulo the stride, calling a batch-reduce GEMM per group of kernel
taps; each call's sum is a fused chain from +0 over its taps (kh, then kw, ascending) and, per
tap, the output channels in order, then added to what the earlier calls left.  The groups, for
one block of columns: the columns' kernel columns (kw of their residue) each on its own call,
but those every column of the block reads fully in range (its `get_kw_range`) together on one
call placed where the first of them is; all kernel rows in one block (weights small enough).
An input width the stride does not divide goes through a padded copy of the gradient
(`exec_trans`): all of a residue's kernel columns on one call.  Measured: one block of the
whole width, on one thread, and on two when the batch splits evenly between them.

Measured against torch 2.13.0's CPU wheel (oneDNN v3.12) on one and two threads: widths up to
128 (past about 200 oneDNN cuts the width on one thread too), strides 1 to 3 each way, kernels
1 to 7, padding up to half the kernel, 1 to 512 channels (1x1 kernels among them).
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import onednn_conv
from gradcli.engine.fma import fma_accumulate

_MAX_WIDTH = 128  # input widths measured
# bytes of the weights of one block of 16 to 64 input channels: past about this CPU's L2 (1 MB)
# oneDNN puts the kernel rows of one stride on separate calls; half of it claimed
_MAX_WEIGHTS = 512 * 1024


def _c_div(a: int, b: int) -> int:
    """C's integer division (toward zero)."""
    q = abs(a) // b
    return q if a >= 0 else -q


def _in_range(out: int, stride: int, pad: int, rows: int, start: int, kw: int) -> int:
    """How many of the block's `rows` columns start, start + stride, ... read kernel column kw
    within the output (oneDNN's get_iw_range)."""
    ow = _c_div(start - kw + pad, stride)
    cut = max(0, -ow) + max(0, ow + rows - out)
    first = min(start + max(0, -ow), start + rows)
    return min(max(start + max(0, -ow) + rows - cut, first), start + rows) - first


def _calls(out: int, stride: int, pad: int, kernel: int, rows: int,
           start: int) -> list[tuple[int, ...]]:
    """The kernel columns of each call for the block's columns from `start` (oneDNN's
    get_kw_range and the loops over its three ranges): one call each before and after the
    columns read fully in range, which share one."""
    ranges = [kw for kw in range(kernel) if _in_range(out, stride, pad, rows, start, kw)]
    full = [kw for kw in ranges if _in_range(out, stride, pad, rows, start, kw) == rows]
    first, last = (ranges[0], ranges[-1] + 1) if ranges else (0, 0)
    full_first, full_last = (full[0], full[-1] + 1) if full else (last, last)
    residue = (start + pad) % stride
    first += (residue - first) % stride
    full_first += (residue - full_first) % stride
    return ([(kw,) for kw in range(first, full_first, stride)]
            + [tuple(range(full_first, full_last, stride))]
            + [(kw,) for kw in range(full_last, last, stride)])


def _kw_groups(size: int, out: int, stride: int, pad: int, kernel: int, block: int,
               trans: bool) -> list[tuple[tuple[int, ...], ...]]:
    """For each input column, its calls' kernel columns in call order, those that read inside
    the output only."""
    groups = [()] * size
    rows = -(-block // stride)
    for first in range(0, size, block):
        for start in range(first, min(first + stride, size)):
            calls = ([tuple(range((start + pad) % stride, kernel, stride))] if trans else
                     _calls(out, stride, pad, kernel, rows, start))
            for column in range(start, min(first + block, size), stride):
                inside = (tuple(kw for kw in call if kw < kernel
                                and 0 <= (column + pad - kw) // stride < out) for call in calls)
                groups[column] = tuple(call for call in inside if call)
    return groups


def claimed(x_shape, w_shape, stride, padding, dilation, groups: int, threads: int) -> bool:
    """Whether `backward_data` follows torch for this contiguous float32 convolution: oneDNN's
    brgconv_strided kernel within the shapes measured (see the module's docstring)."""
    if len(w_shape) not in (3, 4) or threads not in (1, 2):
        return False
    shape, kernel, stride, padding, dilation = onednn_conv._planar(
        x_shape, w_shape, stride, padding, dilation)
    if (not onednn_conv._onednn(shape, kernel, w_shape[0], groups, stride, threads)
            or stride == (1, 1) or dilation != (1, 1) or shape[3] > _MAX_WIDTH):
        return False
    if any(k > size or 2 * p > k for size, k, p in zip(shape[2:], kernel, padding)):
        return False
    if 4 * kernel[0] * kernel[1] * w_shape[0] * min(64, -(-shape[1] // 16) * 16) > _MAX_WEIGHTS:
        return False
    # an odd batch on two threads can make oneDNN cut the width into blocks (its `est_eff`) or
    # take its direct backward-data kernel instead (3 images, one channel, a 7x7 kernel)
    return threads == 1 or shape[0] % threads == 0


def backward_data(g: np.ndarray, w: np.ndarray, input_shape, stride,
                  padding) -> np.ndarray | None:
    """The input gradient of a strided float32 convolution `claimed` takes: g (N, O, [OH,] OW)
    against w (O, C, [KH,] KW), summed as brgconv_strided does; None for weights not all finite
    (the kernel skips the taps outside the output, which a NaN or infinite weight would poison)."""
    if not np.isfinite(w).all():
        return None
    one_d = w.ndim == 3
    g, w, stride, padding, _ = onednn_conv._as_2d(g, w, stride, padding, (1,) * len(stride))
    n, o = g.shape[:2]
    c, kernel = w.shape[1], w.shape[2:]
    size = tuple(input_shape[2:]) if not one_d else (1, input_shape[2])
    out = g.shape[2:]
    # tap (kh, kw) of input (i, j) reads output ((i + p - kh) / s, (j + p - kw) / s) where that
    # divides and lies inside: spread g over a grid where row i + p - kh is that output's row
    spread = np.zeros((n, o, *(size[i] + 2 * padding[i] + kernel[i] for i in range(2))),
                      np.float32)
    spread[:, :, kernel[0]:kernel[0] + stride[0] * out[0]:stride[0],
           kernel[1]:kernel[1] + stride[1] * out[1]:stride[1]] = g
    columns = _kw_groups(size[1], out[1], stride[1], padding[1], kernel[1], size[1],
                         size[1] % stride[1] != 0)
    result = np.zeros((n, c, *size), np.float32)
    for r_row in range(stride[0]):
        rows = np.arange(size[0])[(np.arange(size[0]) + padding[0]) % stride[0] == r_row]
        khs = np.arange(r_row, kernel[0], stride[0])
        if not len(rows) or not len(khs):
            continue
        for calls in set(columns):
            cols = np.array([j for j in range(size[1]) if columns[j] == calls])
            total = None
            for kws in calls:
                chain = _chain(spread, w, rows, cols, khs, np.array(kws), padding, kernel)
                total = chain if total is None else total + chain
            if total is not None:
                result[:, :, rows[:, None], cols] = total
    return result[:, :, 0] if one_d else result


def _chain(spread, w, rows, cols, khs, kws, padding, kernel) -> np.ndarray:
    """One call's fused chains for the inputs (rows x cols): from +0 over its taps (kh, kw) and
    per tap the output channels, in blocks of images that keep the products' memory bounded."""
    n, o = spread.shape[:2]
    taps_h = rows[:, None] + padding[0] + kernel[0] - khs[None, :]  # (rows, khs)
    taps_w = cols[:, None] + padding[1] + kernel[1] - kws[None, :]  # (cols, kws)
    weights = w[:, :, khs][:, :, :, kws].transpose(2, 3, 0, 1).reshape(-1, 1, w.shape[1], 1, 1)
    terms = len(khs) * len(kws) * o
    step = max(1, onednn_conv._CHUNK // max(1, terms * w.shape[1] * len(rows) * len(cols)))
    parts = []
    for first in range(0, n, step):
        # inputs (kh, kw, o, N, 1, rows, cols) flattened to (K, N, 1, rows, cols)
        picked = spread[first:first + step][:, :, taps_h[:, :, None, None],
                                            taps_w[None, None, :, :]]
        inputs = picked.transpose(3, 5, 1, 0, 2, 4).reshape(terms, -1, 1, len(rows), len(cols))
        parts.append(fma_accumulate(inputs, weights))
    return np.concatenate(parts)
