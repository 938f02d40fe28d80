"""float32 depthwise convolutions (groups = input channels = output channels) in the order
oneDNN's jit_dw kernels (jit_uni_dw_conv, avx512_core) sum them, where torch's CPU build runs
them: ATen hands every grouped float32 convolution to oneDNN.

* forward: per output a fused chain from the bias (or +0) over the kernel's taps (kh, then kw,
  ascending), the taps the padding cuts off skipped.
* input gradient: per input a fused chain from +0 over the taps (kh, kw ascending) of the
  outputs that read it.
* weight gradient (kernels at most 3 wide, padding at most half the kernel): per weight a fused
  chain from +0 over the positions (n, oh, ow) in order; on two threads, below 17 channels, the
  images split between the threads (balance211), the second thread's sum added to the first's.
  The bias gradient sums the same way, one plain addition a position.

Measured against torch 2.13.0's CPU wheel (oneDNN v3.12) on one and two threads.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import onednn_conv
from gradcli.engine.cpu_capability import AVX512_CORE
from gradcli.engine.fma import fma_accumulate

_SIMD = 16  # channels of one block
_UR_W = 6  # the forward kernel's unrolling over output columns


def _end_pad(pad: int, out: int, size: int, stride: int, kernel: int) -> int:
    """oneDNN's calculate_end_padding."""
    return (out - 1) * stride + kernel - (size + pad)


def _shape(x_shape, w_shape, stride, padding, dilation, groups: int):
    """The 2-d shape, kernel, stride and padding of a depthwise float32 convolution oneDNN's
    jit_dw kernels could take (no dilation, at least two channels), else None."""
    if not AVX512_CORE or len(w_shape) != 4 or len(x_shape) != 4:
        return None
    shape, kernel, stride, padding, dilation = onednn_conv._planar(
        x_shape, w_shape, stride, padding, dilation)
    n, c, h, w = shape
    if groups < 2 or not c == w_shape[0] == groups or w_shape[1] != 1 or dilation != (1, 1):
        return None
    if n * c * h * w == 0 or any(k > size for k, size in zip(kernel, shape[2:])):
        return None
    return shape, kernel, stride, padding


def depthwise(x_shape, w_shape, stride, padding, dilation, groups: int) -> bool:
    """Whether this is a depthwise convolution of the kind oneDNN's jit_dw kernels could take."""
    return _shape(x_shape, w_shape, stride, padding, dilation, groups) is not None


def forward_claimed(x_shape, w_shape, stride, padding, dilation, groups: int) -> bool:
    """Whether oneDNN's jit_dw forward kernel runs this convolution (its padding checks)."""
    found = _shape(x_shape, w_shape, stride, padding, dilation, groups)
    if found is None:
        return False
    shape, kernel, stride, padding = found
    for size, k, s, p in zip(shape[2:], kernel, stride, padding):
        out = onednn_conv._out_size(size, k, s, p, 1)
        if k <= p or k <= _end_pad(p, out, size, s, k) or out < 1:
            return False
    out = onednn_conv._out_size(shape[3], kernel[1], stride[1], padding[1], 1)
    ur = min(_UR_W, out)
    return padding[1] <= ur and _end_pad(padding[1], out - out % ur, shape[3], stride[1],
                                         kernel[1]) <= ur


def data_claimed(x_shape, w_shape, stride, padding, dilation, groups: int) -> bool:
    """Whether the input gradient follows torch: the jit_dw kernel's, measured with padding at
    most half the kernel."""
    found = _shape(x_shape, w_shape, stride, padding, dilation, groups)
    return found is not None and all(2 * p <= k for k, p in zip(found[1], found[3]))


def weights_claimed(x_shape, w_shape, stride, padding, dilation, groups: int) -> bool:
    """Whether oneDNN's jit_dw backward-weights kernel runs this convolution: a kernel at most
    3 wide and no wider than its stride, padding at most half the kernel (beyond one a multiple
    of the stride), an input as tall as the kernel (its boundary checks)."""
    found = _shape(x_shape, w_shape, stride, padding, dilation, groups)
    if found is None:
        return False
    shape, kernel, stride, padding = found
    if kernel[1] > 3 or stride[1] > kernel[1]:
        return False
    if shape[2] < kernel[0] + (-padding[0]) % stride[0]:
        return False
    for size, k, s, p, vertical in zip(shape[2:], kernel, stride, padding, (True, False)):
        end = _end_pad(p, onednn_conv._out_size(size, k, s, p, 1), size, s, k)
        if p > k // 2 or end > k // 2:
            return False
        if vertical and (p > 1 and p % s or end > 1 and end % s):
            return False
    return True


def _tap_chains(grid: np.ndarray, w: np.ndarray, size, window, b=None) -> np.ndarray:
    """Per position of `size` a fused chain over the kernel's taps (kh, then kw) of
    window(grid, kh, kw) * w, from the bias b (or +0), in blocks of images that keep the
    products' memory bounded."""
    n, c = grid.shape[:2]
    kernel = w.shape[2:]
    weights = w[:, 0].reshape(c, -1).T.reshape(-1, 1, c, 1, 1)
    step = max(1, onednn_conv._CHUNK // max(1, kernel[0] * kernel[1] * c * size[0] * size[1]))
    result = np.empty((n, c, *size), np.float32)
    for first in range(0, n, step):
        part = grid[first:first + step]
        inputs = np.stack([window(part, kh, kw)
                           for kh in range(kernel[0]) for kw in range(kernel[1])])
        start = None if b is None else np.broadcast_to(
            b.reshape(1, c, 1, 1), inputs.shape[1:]).copy()
        result[first:first + step] = fma_accumulate(inputs, weights, start)
    return result


def forward(x: np.ndarray, w: np.ndarray, b, stride, padding) -> np.ndarray:
    """The depthwise convolution of float32 x (N, C, H, W) and w (C, 1, KH, KW) plus bias b as
    jit_dw sums it: per output a chain from the bias over the taps (kh, kw)."""
    kernel = w.shape[2:]
    out = tuple(onednn_conv._out_size(x.shape[2 + i], kernel[i], stride[i], padding[i], 1)
                for i in range(2))
    xp = np.pad(x, [(0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2])
    return _tap_chains(xp, w, out, lambda part, kh, kw: part[
        :, :, kh:kh + stride[0] * (out[0] - 1) + 1:stride[0],
        kw:kw + stride[1] * (out[1] - 1) + 1:stride[1]], b)


def backward_data(g: np.ndarray, w: np.ndarray, input_shape, stride, padding) -> np.ndarray:
    """The input gradient as jit_dw sums it: per input a chain from +0 over the taps (kh, kw)
    of the outputs that read it."""
    n, c, *out = g.shape
    kernel, size = w.shape[2:], tuple(input_shape[2:])
    # tap (kh, kw) of input (i, j) reads row i + p - kh of a grid holding output r at row s*r
    spread = np.zeros((n, c, *(size[i] + 2 * padding[i] + kernel[i] for i in range(2))),
                      np.float32)
    spread[:, :, kernel[0]:kernel[0] + stride[0] * out[0]:stride[0],
           kernel[1]:kernel[1] + stride[1] * out[1]:stride[1]] = g
    rows, cols = (padding[i] + kernel[i] for i in range(2))
    return _tap_chains(spread, w, size, lambda part, kh, kw: part[
        :, :, rows - kh:rows - kh + size[0], cols - kw:cols - kw + size[1]])


def _image_shares(n: int, c: int, threads: int) -> list[tuple[int, int]]:
    """The images each thread sharing the reduction takes: all on one thread, or with more
    threads than blocks of 16 channels split among the threads the blocks leave (balance)."""
    groups = min(-(-c // _SIMD), threads)
    team = min(max(1, threads // groups), n)
    return onednn_conv._balance211(n, team)


def backward_weights(x: np.ndarray, g: np.ndarray, w_shape, stride, padding,
                     threads: int) -> np.ndarray:
    """The weight gradient as jit_dw sums it: per weight a chain from +0 over each thread's
    images' positions (n, oh, ow) in order, the threads' sums added in turn."""
    n, c, *out = g.shape
    kernel = tuple(w_shape[2:])
    xp = np.pad(x, [(0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2])
    windows = onednn_conv._windows(xp, kernel, stride, (1, 1), out)  # N, C, OH, OW, KH, KW
    inputs = windows.transpose(0, 2, 3, 1, 4, 5).reshape(-1, c, *kernel)
    grads = g.transpose(0, 2, 3, 1).reshape(-1, c, 1, 1)
    per_image = out[0] * out[1]
    size = max(1, onednn_conv._CHUNK // (c * kernel[0] * kernel[1]))
    total = None
    for first, last in _image_shares(n, c, threads):
        acc = np.zeros((c, *kernel), np.float32)
        for start in range(first * per_image, last * per_image, size):
            stop = min(start + size, last * per_image)
            acc = fma_accumulate(inputs[start:stop], grads[start:stop], acc)
        total = acc if total is None else total + acc
    return total.reshape(w_shape)


def backward_bias(g: np.ndarray, threads: int) -> np.ndarray:
    """The bias gradient as jit_dw sums it: each thread's images' gradients added one by one
    from +0, the threads' sums then in turn."""
    n, c = g.shape[:2]
    rows = np.moveaxis(g, 1, -1).reshape(n, -1, c)
    total = None
    for first, last in _image_shares(n, c, threads):
        part = (np.add.accumulate(rows[first:last].reshape(-1, c), axis=0,
                                  dtype=np.float32)[-1]
                if last > first and rows.shape[1] else np.zeros(c, np.float32))
        total = part if total is None else total + part
    return total
