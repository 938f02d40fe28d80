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
  convolutions take oneDNN's brgconv_strided kernel instead (`onednn_strided`).
* weight and bias gradients (contiguous, no dilation): the direct backward-weights kernel
  (avx512 for 1 to 3 and 16 or more input channels, avx2 for 4 to 15): per weight a fused chain
  over the positions (n, oh, ow) in order, the bias a plain sum in that order.  On more than one
  thread the positions are split: whole image rows (more than 9 output rows) or whole images,
  among the threads oneDNN's `balance` gives the reduction (the bias of the latter among those
  its reducer gives); each thread's chain starts from +0 and the threads' sums are added in
  turn.  The avx2 kernel splits whole images as its reducers balance them.
* a channels-last input or weight goes to oneDNN's brg_conv_fwd kernel, which sums in that
  same order for 2 to 15 input channels when the kernel fits inside the unpadded input and the
  padding is below half the kernel (`brg_forward`); one channel (its "relo" layouts), a
  width-2 kernel padded by one and 16 or more channels sum otherwise, not reproduced.

Measured on one and two threads: about 1,000 random contiguous shapes (batch 1..16, 1..48
channels, kernels 1..7, stride 1..3, dilation 1..2, padding up to half the kernel, conv1d among
them) and 860 channels-last ones, every claimed output exact; of them about 400 input gradients
and, on one and two threads, about 1,000 weight and bias gradients claimed, all exact.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.cpu_capability import AVX512_CORE
from gradcli.engine.fma import fma_accumulate

_BLOCK = 16  # channels per block (one zmm of float32)
_CHUNK = 1 << 22  # products per step of a chain held at once
_MIN_OH_REDUCE = 9  # backward weights split image rows among threads past this many rows


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


def _use_mkldnn(shape, kernel, stride, threads: int) -> bool:
    """ATen's `use_mkldnn` for a float32 convolution of one group without dilation: a 1x1 kernel
    only when strided, of 16 or more images or on more threads; then a kernel wider than 3 both
    ways, more than one image or more than 20480 inputs."""
    n, c, h, w = shape
    if kernel == (1, 1) and stride == (1, 1) and n < 16 and threads == 1:
        return False
    return kernel[0] > 3 and kernel[1] > 3 or n > 1 or n * c * h * w > 20480


def _onednn(shape, kernel, o: int, groups: int, stride=(1, 1), threads: int = 1) -> bool:
    """Whether ATen hands this float32 convolution (no dilation) to oneDNN and oneDNN has its
    AVX-512 kernels, for the shapes checked here: one group, nothing empty."""
    n, c, h, w = shape
    return (AVX512_CORE and groups == 1 and n * c * h * w * o > 0
            and _use_mkldnn(shape, kernel, stride, threads))


def aten_convolves(x_shape, w_shape, stride, groups: int, threads: int) -> bool:
    """Whether ATen keeps this float32 convolution (one group, no dilation) from oneDNN: one
    sample of at most 20480 inputs and no kernel wider than 3 both ways, or a 1x1 kernel at
    stride 1 on one thread of fewer than 16 images."""
    shape, kernel, stride, *_ = _planar(x_shape, w_shape, stride, (0,), (1,))
    return groups == 1 and not _use_mkldnn(shape, kernel, stride, threads)


def direct_forward(x_shape, w_shape, stride, padding, dilation, groups: int) -> bool:
    """Whether torch runs this float32 convolution (batch, channels and one or two spatial
    sizes; x and w contiguous) through oneDNN's direct jit:avx512_core kernel, within the
    shapes checked: padding that keeps the kernel inside the input and near enough to it
    that the kernel's width blocking takes it."""
    if len(w_shape) not in (3, 4):
        return False
    shape, kernel, stride, padding, dilation = _planar(x_shape, w_shape, stride, padding,
                                                       dilation)
    if not _onednn(shape, kernel, w_shape[0], groups, stride) or kernel == (1, 1) and (
            stride == (1, 1) or padding != (0, 0)
            or all(size % s == 0 for size, s in zip(shape[2:], stride))):
        return False  # 1x1: oneDNN's 1x1 kernel where the stride tiles the input, or its GEMM
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
    if (kernel == (1, 1) or not _onednn(shape, kernel, w_shape[0], groups)
            or not 2 <= shape[1] < _BLOCK):
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


def weights_kernel(x_shape, w_shape, stride, padding, dilation, groups: int) -> str | None:
    """Which of oneDNN's direct backward-weights kernels torch runs for this contiguous float32
    convolution: "avx512" (1 to 3 or 16 and more input channels), "avx2" (4 to 15, in blocks
    of 8), within the shapes checked: no dilation, padding at most half the kernel at the top
    and bottom and below the kernel at the sides, kernels narrower than 14; else None."""
    if not direct_forward(x_shape, w_shape, stride, padding, dilation, groups):
        return None
    shape, kernel, stride, padding, dilation = _planar(x_shape, w_shape, stride, padding,
                                                       dilation)
    if dilation != (1, 1) or kernel[1] >= 14 or kernel[0] > shape[2]:
        return None
    for size, k, s, p, limit in zip(shape[2:], kernel, stride, padding,
                                    (kernel[0] // 2, kernel[1] - 1)):
        end = (_out_size(size, k, s, p, 1) - 1) * s + k - size - p
        if p > limit or end > limit:
            return None
    return "avx2" if 4 <= shape[1] < _BLOCK else "avx512"


def _balance211(n: int, team: int) -> list[tuple[int, int]]:
    """oneDNN's balance211: the [start, end) of n items each of `team` threads takes."""
    if team <= 1 or n == 0:
        return [(0, n)]
    big = -(-n // team)
    takers = n - (big - 1) * team
    bounds = [t * big if t <= takers else takers * big + (t - takers) * (big - 1)
              for t in range(team + 1)]
    return list(zip(bounds, bounds[1:]))


def _up(a: int, b: int) -> int:
    return -(-a // b)


def _avx512_split(shape, o: int, kernel, stride, out, threads: int) -> tuple[int, int]:
    """How oneDNN's avx512 backward-weights kernel splits its threads (its `balance`: least
    memory traffic, then least compute): the number sharing the reduction (images, or image
    rows) and the number used in all."""
    n, c, ih, iw = shape
    oh, ow = out
    two_d = oh > _MIN_OH_REDUCE
    ic_block, nb_ic = (c, 1) if c < _BLOCK else (_BLOCK, _up(c, _BLOCK))
    nb_oc = _up(o, _BLOCK)
    ih_reduce, oh_reduce = (ih, oh) if two_d else (1, 1)
    ih_rest, oh_rest = (1, 1) if two_d else (ih, oh)
    rows = n * max(1, oh_reduce // _MIN_OH_REDUCE)

    def memory(mb, oc_b, ic_b):
        return (_up(n * ih_reduce, mb) * _up(nb_ic, ic_b) * ic_block * ih_rest * iw
                // stride[0] // stride[1]
                + _up(n * oh_reduce, mb) * _up(nb_oc, oc_b) * _BLOCK * oh_rest * ow
                + 8 * _up(nb_oc, oc_b) * _up(nb_ic, ic_b) * kernel[0] * kernel[1] * ic_block
                * _BLOCK)

    def compute(mb, oc_b, ic_b):
        return _up(n * oh_reduce, mb) * _up(nb_oc, oc_b) * _up(nb_ic, ic_b)

    splits = [(mb, oc_b, min(threads // mb // oc_b, nb_ic))
              for mb in range(1, min(threads, rows) + 1)
              for oc_b in range(1, min(threads // mb, nb_oc) + 1)]
    best, best_memory = (1, 1, 1), memory(1, 1, 1)
    for split in splits:
        if memory(*split) <= best_memory:
            best, best_memory = split, memory(*split)
    best_compute = compute(*best)
    for split in splits:
        cost = compute(*split)
        if (cost <= best_compute and memory(*split) < 1.1 * best_memory
                or 4 * cost <= 3 * best_compute):
            best, best_compute = split, cost
    mb, oc_b, ic_b = best
    if threads // 2 < mb < threads:
        mb = min(rows, threads)
    return mb, mb * oc_b * ic_b


def _reducer_group(threads: int, jobs: int, reduction: int, job_size: int,
                   buffer: int) -> int:
    """The threads oneDNN's cpu_reducer (reduce_balancer_t) gives each group of jobs, which
    share the reduction: the split of least work per thread whose buffers fit `buffer`."""
    least = max(1, jobs // threads)
    most = max(1, buffer // (threads * job_size))
    groups = min(jobs // least, threads)
    per_group = min(threads // groups, reduction)
    bound = jobs * job_size * reduction
    for size in range(least, jobs):
        c_groups = min(jobs // size, threads)
        c_per_group = min(threads // c_groups, reduction)
        if c_per_group > 1 and _up(jobs, c_groups) > most:
            continue
        work = job_size * _up(jobs, c_groups) * (_up(reduction, c_per_group)
                                                 + (c_per_group != 1))
        if work < bound:
            per_group, bound = c_per_group, work
    return per_group


def reduction_shares(x_shape, w_shape, stride, padding, dilation, out, threads: int,
                     bias=False):
    """The [start, end) of positions (n, oh, ow in order) each thread's partial sums of the
    weight (or bias) gradient take in oneDNN's backward-weights kernel, in the order the sums
    are added; None where the kernel is not the direct one.  The avx512 kernel splits whole
    image rows (more than 9 output rows) or whole images among the threads its `balance`
    gives the reduction, the bias of the latter among those its reducer gives; the avx2
    kernel splits whole images as its reducers give them."""
    kind = weights_kernel(x_shape, w_shape, stride, padding, dilation, 1)
    if kind is None:
        return None
    shape, kernel, stride, *_ = _planar(x_shape, w_shape, stride, padding, dilation)
    out = (1, *out) if len(out) == 1 else tuple(out)
    n, c, o = shape[0], shape[1], w_shape[0]
    two_d = kind == "avx512" and out[0] > _MIN_OH_REDUCE
    items, per_item = (n * out[0], out[1]) if two_d else (n, out[0] * out[1])
    team = 1
    if threads > 1 and kind == "avx2":
        team = (_reducer_group(threads, _up(o, 8), n, 8, 1 << 21) if bias else
                _reducer_group(threads, _up(c, 8) * _up(o, 8), n, kernel[0] * kernel[1] * 64,
                               1 << 21))
    elif threads > 1:
        team, used = _avx512_split(shape, o, kernel, stride, out, threads)
        if bias and not two_d:
            team = _reducer_group(used, _up(o, _BLOCK), n, _BLOCK, used * 3 * 5 * 5 * 256)
    return [(first * per_item, last * per_item) for first, last in _balance211(items, team)]


def backward_bias(g: np.ndarray, x_shape, w_shape, stride, padding, dilation,
                  threads: int) -> np.ndarray | None:
    """The bias gradient as oneDNN's backward-weights kernel sums it: each thread's share of
    the positions in order, then the threads' sums in turn (None as `reduction_shares`)."""
    shares = reduction_shares(x_shape, w_shape, stride, padding, dilation, g.shape[2:],
                              threads, bias=True)
    if shares is None:
        return None
    rows = np.moveaxis(g, 1, -1).reshape(-1, g.shape[1])
    total = None
    for first, last in shares:
        part = (np.add.accumulate(rows[first:last], axis=0, dtype=np.float32)[-1]
                if last > first else np.zeros(g.shape[1], np.float32))
        total = part if total is None else total + part
    return total


def backward_weights(x: np.ndarray, g: np.ndarray, w_shape, stride, padding, dilation,
                     threads: int) -> np.ndarray | None:
    """The weight gradient of a contiguous float32 convolution that `weights_kernel` takes,
    summed as oneDNN does: a fused chain per weight over each thread's share of the positions
    in order, the threads' sums then added in turn; None as `reduction_shares`, or for an
    input not all finite (the kernel skips the padding's products)."""
    shares = reduction_shares(x.shape, w_shape, stride, padding, dilation, g.shape[2:], threads)
    if shares is None or not np.isfinite(x).all():
        return None
    one_d = len(w_shape) == 3
    x, g, stride, padding, _ = _as_2d(x, g, stride, padding, (1,) * len(stride))
    kernel = tuple(w_shape[2:]) if not one_d else (1, w_shape[2])
    c, o, out = x.shape[1], g.shape[1], g.shape[2:]
    xp = np.pad(x, [(0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2])
    # position m = (n, oh, ow): the inputs (M, 1, C, KH, KW) and gradients (M, O, 1, 1, 1)
    inputs = _windows(xp, kernel, stride, (1, 1), out).transpose(0, 2, 3, 1, 4, 5).reshape(
        -1, 1, c, *kernel)
    grads = g.transpose(0, 2, 3, 1).reshape(-1, o, 1, 1, 1)
    step = max(1, _CHUNK // (o * c * kernel[0] * kernel[1]))
    total = None
    for first, last in shares:
        acc = np.zeros((o, c, *kernel), np.float32)
        for start in range(first, last, step):
            stop = min(start + step, last)
            acc = fma_accumulate(inputs[start:stop], grads[start:stop], acc)
        total = acc if total is None else total + acc
    return total[:, :, 0] if one_d else total
