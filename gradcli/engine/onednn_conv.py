"""float32 convolutions in the order oneDNN's direct kernel (jit:avx512_core) sums them, where
torch's CPU build runs it.

torch hands float32 Conv1d/Conv2d to oneDNN (ATen's `use_mkldnn`: batch > 1, a kernel wider
than 3 both ways, or an input of more than 20480 elements); on a CPU with AVX-512 (F, BW, VL, DQ)
oneDNN runs its direct convolution there unless the padding puts the kernel outside the input.
Found by experiment against torch 2.13.0's CPU wheel (oneDNN v3.12) and its kernel's source:

* forward: input channels in blocks of 16 (one block of all of them below 16 channels); each
  output is, per block, a fused chain acc = fma(w, x, acc) from +0 over the kernel's rows, its
  columns, then the block's channels (kh, kw, c), the terms the padding cuts off skipped; the
  bias is added to the first block's chain and each later block's chain to the running output.
  One and two threads give the same bits (each output is one thread's).
* input gradient (stride 1, contiguous): the direct backward-data kernel, the same chains
  with the roles swapped: blocks of 16 output channels, each in (kh, kw, o) order.  Strided
  convolutions take oneDNN's brgconv_strided kernel instead, not reproduced.
* a channels-last input or weight goes to oneDNN's brg_conv_fwd kernel, which sums in that
  same order for 2 to 15 input channels when the kernel fits inside the unpadded input and the
  padding is below half the kernel (`brg_forward`); one channel (its "relo" layouts), a
  width-2 kernel padded by one and 16 or more channels sum otherwise, not reproduced.

Measured on one and two threads: about 1,000 random contiguous shapes (batch 1..16, 1..48
channels, kernels 1..7, stride 1..3, dilation 1..2, padding up to half the kernel, conv1d among
them) and 860 channels-last ones, every claimed output exact; of them about 400 input gradients
claimed, all exact.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.cpu_capability import _FLAGS
from gradcli.engine.fma import fma_accumulate

AVX512_CORE = {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= _FLAGS
_BLOCK = 16  # channels per block (one zmm of float32)
_CHUNK = 1 << 22  # products per step of a chain held at once


def _out_size(size: int, k: int, s: int, p: int, d: int) -> int:
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def _planar(x_shape, w_shape, stride, padding, dilation):
    """(N, C, H, W), (KH, KW) and the three parameter pairs of a 1-d or 2-d convolution, 1-d
    taken as 2-d of height 1 (as ATen hands it to oneDNN)."""
    shape = tuple(x_shape) if len(x_shape) == 4 else (x_shape[0], x_shape[1], 1, x_shape[2])
    kernel = tuple(w_shape[2:]) if len(w_shape) == 4 else (1, w_shape[2])
    pairs = (tuple(v) if len(v) == 2 else (unit, *v)
             for v, unit in ((stride, 1), (padding, 0), (dilation, 1)))
    return (shape, kernel, *pairs)


def _onednn(shape, kernel, o: int, groups: int) -> bool:
    """Whether ATen hands this float32 convolution to oneDNN (`use_mkldnn`), for the shapes
    checked here: one group, not a 1x1 kernel (oneDNN's 1x1 kernels), nothing empty."""
    n, c, h, w = shape
    if not AVX512_CORE or groups != 1 or n * c * h * w * o == 0 or kernel == (1, 1):
        return False
    return kernel[0] > 3 and kernel[1] > 3 or n > 1 or n * c * h * w > 20480


def direct_forward(x_shape, w_shape, stride, padding, dilation, groups: int) -> bool:
    """Whether torch runs this float32 convolution (batch, channels and one or two spatial
    sizes; x and w contiguous) through oneDNN's direct jit:avx512_core kernel, within the
    shapes checked: padding that keeps the kernel inside the input and near enough to it
    that the kernel's width blocking takes it."""
    if len(w_shape) not in (3, 4):
        return False
    shape, kernel, stride, padding, dilation = _planar(x_shape, w_shape, stride, padding,
                                                       dilation)
    if not _onednn(shape, kernel, w_shape[0], groups):
        return False
    c, w = shape[1], shape[3]
    for size, k, s, p, d in zip(shape[2:], kernel, stride, padding, dilation):
        extent = d * (k - 1) + 1
        out = _out_size(size, k, s, p, d)
        end = (out - 1) * s + extent - size - p
        if out < 1 or extent <= p or extent <= end or p > min(out, 5) or end > min(out, 5):
            return False
    return 3 * kernel[1] * min(c, _BLOCK) * 31 * 15 <= 256 * 1024 and (
        c < _BLOCK or _out_size(w, kernel[1], stride[1], padding[1], dilation[1]) <= 150)


def brg_forward(x_shape, w_shape, stride, padding, dilation, groups: int) -> bool:
    """Whether torch runs this float32 2-d convolution with a channels-last input or weight
    through oneDNN's brg_conv_fwd kernel in the direct kernel's order: measured for 2 to 15
    input channels, a kernel within the unpadded input and padding below half the kernel
    (one channel, and a width-2 kernel padded by one, sum otherwise)."""
    if len(w_shape) != 4:
        return False
    shape, kernel, stride, padding, dilation = _planar(x_shape, w_shape, stride, padding,
                                                       dilation)
    if not _onednn(shape, kernel, w_shape[0], groups) or not 2 <= shape[1] < _BLOCK:
        return False
    return all(d * (k - 1) + 1 <= size and 2 * p < k
               for size, k, p, d in zip(shape[2:], kernel, padding, dilation))


def _as_2d(x, w, stride, padding, dilation):
    if w.ndim == 4:
        return x, w, tuple(stride), tuple(padding), tuple(dilation)
    return x[:, :, None], w[:, :, None], (1, *stride), (0, *padding), (1, *dilation)


def _windows(xp: np.ndarray, kernel, stride, dilation, out) -> np.ndarray:
    """xp (N, C, H, W) -> view (N, C, OH, OW, KH, KW) of the inputs each output reads."""
    s = xp.strides
    return np.lib.stride_tricks.as_strided(
        xp, (*xp.shape[:2], *out, *kernel),
        (s[0], s[1], s[2] * stride[0], s[3] * stride[1], s[2] * dilation[0], s[3] * dilation[1]),
        writeable=False)


def _block_chains(windows: np.ndarray, w: np.ndarray, b) -> np.ndarray:
    """sum over c, kh, kw of windows[n, c, i, j, kh, kw] * w[o, c, kh, kw] (+ b[o]) as oneDNN's
    direct kernels sum it: per block of 16 channels a fused chain from +0 in (kh, kw, c) order,
    the bias added to the first block's chain and each later chain to the running sum."""
    n, c, *out = windows.shape[:4]
    o, kernel = w.shape[0], w.shape[2:]
    terms = kernel[0] * kernel[1] * min(c, _BLOCK)
    rows = max(1, _CHUNK // max(1, terms * o * out[0] * out[1]))
    result = np.empty((n, o, *out), np.float32)
    for start in range(0, n, rows):
        part = slice(start, start + rows)
        total = None
        for first in range(0, c, _BLOCK):
            channels = slice(first, first + _BLOCK)
            # the terms first: inputs (K, N, 1, OH, OW), weights (K, 1, O, 1, 1)
            inputs = windows[part, channels].transpose(4, 5, 1, 0, 2, 3).reshape(
                -1, windows[part].shape[0], 1, *out)
            weights = w[:, channels].transpose(2, 3, 1, 0).reshape(-1, 1, o, 1, 1)
            chain = fma_accumulate(inputs, weights)
            if total is None:
                total = chain if b is None else chain + b.reshape(1, -1, 1, 1)
            else:
                total = chain + total
        result[part] = total
    return result


def forward(x: np.ndarray, w: np.ndarray, b, stride, padding, dilation) -> np.ndarray | None:
    """The convolution of float32 x (N, C, [H,] W) and w (O, C, [KH,] KW) plus bias b, summed
    as oneDNN's direct kernel does; None where the weights are not all finite (the kernel skips
    the padding's products, which a NaN or infinite weight would otherwise poison)."""
    if not np.isfinite(w).all():
        return None
    one_d = w.ndim == 3
    x, w, stride, padding, dilation = _as_2d(x, w, stride, padding, dilation)
    kernel = w.shape[2:]
    out = tuple(_out_size(x.shape[2 + i], kernel[i], stride[i], padding[i], dilation[i])
                for i in range(2))
    xp = np.pad(x, [(0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2])
    result = _block_chains(_windows(xp, kernel, stride, dilation, out), w, b)
    return result[:, :, 0] if one_d else result


def backward_data(g: np.ndarray, w: np.ndarray, input_shape, padding,
                  dilation) -> np.ndarray | None:
    """The input gradient of a stride-1 convolution: g (N, O, [OH,] OW) against w (O, C, [KH,]
    KW), summed as oneDNN's direct backward-data kernel does (blocks of 16 output channels,
    each a chain in (kh, kw, o) order, kh and kw ascending); None for weights not all finite."""
    if not np.isfinite(w).all():
        return None
    one_d = w.ndim == 3
    g, w, _, padding, dilation = _as_2d(g, w, (1,) * (w.ndim - 2), padding, dilation)
    kernel, size = w.shape[2:], tuple(input_shape[2:]) if not one_d else (1, input_shape[2])
    reach = [dilation[i] * (kernel[i] - 1) for i in range(2)]
    # input row i reads g rows i + p - kh * d: pad g so that window row i, tap t is that row
    # for kh = KH - 1 - t, then flip the taps to put kh in ascending order
    gp = np.pad(g, [(0, 0), (0, 0)] + [
        (reach[i] - padding[i], size[i] + padding[i] - g.shape[2 + i]) for i in range(2)])
    windows = _windows(gp, kernel, (1, 1), dilation, size)[..., ::-1, ::-1]
    result = _block_chains(windows, w.transpose(1, 0, 2, 3), None)
    return result[:, :, 0] if one_d else result
