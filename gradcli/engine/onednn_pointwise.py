"""float32 1x1 convolutions in the order oneDNN's jit_1x1 kernel (jit_avx512_common_1x1_conv)
sums them, where torch's CPU build runs it.

torch hands a 1x1 float32 convolution to oneDNN when it is strided, has 16 or more images or runs
on more than one thread (ATen's `use_mkldnn`), and then only with more than one image or more
than 20480 inputs.  Without padding oneDNN takes its 1x1 kernel: a strided one through a copy of
the inputs it reads ("rtus") where the stride tiles the input exactly, else its direct kernel.

forward: the input channels in chunks (the kernel's `reduce_blocking`: all of them, or 80 or
256 or 512 of them by the output's height and channels, fewer where the chunk's inputs would
alias in L2); per output a fused chain over the first chunk's channels in order from the bias
(or +0), each later chunk's chain from +0 added to it.  The input gradient (stride 1) is the
same kernel over the output channels, without bias.
weights: the positions (n, oh, ow) split among the threads its `balance` gives the reduction,
each thread's share into kernel calls of whole blocks of positions within one image; per call
a fused chain from +0, added to the thread's sum; the threads' sums added in turn.  bias: each
thread of its reducer adds its images' gradients one by one, the threads' sums in turn.

Measured against torch 2.13.0's CPU wheel (oneDNN v3.12) on one and two threads.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import onednn_conv
from gradcli.engine.fma import fma_accumulate

_SIMD = 16  # float32 lanes of a zmm register
_SMALL_SPATIAL, _BIG_SPATIAL, _BIG_LOAD_DIM = 10, 28, 256


def forward_claimed(x_shape, w_shape, stride, padding, dilation, groups: int,
                    threads: int) -> bool:
    """Whether `forward` follows torch for this contiguous float32 convolution: a 1x1 (or width
    1) kernel, no padding or dilation, oneDNN's jit_1x1 kernel (a stride that tiles the input)."""
    if len(w_shape) not in (3, 4):
        return False
    shape, kernel, stride, padding, dilation = onednn_conv._planar(
        x_shape, w_shape, stride, padding, dilation)
    if kernel != (1, 1) or padding != (0, 0) or dilation != (1, 1) or threads not in (1, 2):
        return False
    if not onednn_conv._onednn(shape, kernel, w_shape[0], groups, stride, threads):
        return False
    return all(size % s == 0 for size, s in zip(shape[2:], stride))


def _ur(rows: int, positions: int, o: int, max_regs: int = 9, min_regs: int = 6) -> int:
    """The kernel's register blocking of output positions (`ur`)."""
    if o > 128 and o < _BIG_LOAD_DIM and _SMALL_SPATIAL < rows < _BIG_SPATIAL:
        max_regs, min_regs = 6, 5
    for ur in range(max_regs, min_regs - 1, -1):
        if (rows >= 14 and rows % ur == 0) or (rows < 14 and positions % ur == 0):
            return ur
    ur, tail = min(max_regs, positions), positions % max_regs
    for regs in range(max_regs, min_regs - 1, -1):
        if positions % regs > tail or positions % regs == 0:
            ur, tail = regs, positions % regs
            if tail == 0:
                break
    return ur


def reduce_chunk(c: int, o: int, rows: int, positions: int) -> int:
    """The channels of one chunk of the forward's reduction (oneDNN's `reduce_blocking` for an
    output of `rows` rows and `positions` positions per image)."""
    if o <= _BIG_LOAD_DIM and _SMALL_SPATIAL < rows < _BIG_SPATIAL:
        chunk = min(c, 80)
    else:
        chunk = min(c, 512 if rows > _SMALL_SPATIAL else 256)
    way, hits_most = 64 * 1024 // 4, 7
    if positions * chunk > way * hits_most:
        ur, lanes, blocks = _ur(rows, positions, o), way // _SIMD, chunk // _SIMD
        for start in range(ur):
            hits = 0
            for off in range(start, positions * blocks, lanes):
                if off % positions >= ur:
                    continue
                hits += 1
                if hits < hits_most:
                    continue
                chunk = min(chunk, _SIMD * max(1, (off + lanes) // positions))
                break
    return -(-chunk // _SIMD) * _SIMD


def forward(x: np.ndarray, w: np.ndarray, b, stride) -> np.ndarray:
    """The 1x1 convolution of float32 x (N, C, [H,] W) and w (O, C, [1,] 1) plus bias b, summed
    as oneDNN's jit_1x1 kernel does (see the module's docstring)."""
    one_d = w.ndim == 3
    x, w, stride, _, _ = onednn_conv._as_2d(x, w, stride, (0,) * len(stride),
                                            (1,) * len(stride))
    x = x[:, :, ::stride[0], ::stride[1]]
    n, c, rows, cols = x.shape
    o = w.shape[0]
    chunk = reduce_chunk(c, o, rows, rows * cols)
    weights = w[:, :, 0, 0].T.reshape(c, 1, o, 1, 1)
    step = max(1, onednn_conv._CHUNK // max(1, min(c, chunk) * o * rows * cols))
    result = np.empty((n, o, rows, cols), np.float32)
    for first in range(0, n, step):
        inputs = x[first:first + step].transpose(1, 0, 2, 3)[:, :, None]
        total = None
        for start in range(0, c, chunk):
            part = slice(start, start + chunk)
            if total is None:
                begin = None if b is None else np.broadcast_to(
                    b.reshape(1, o, 1, 1), (inputs.shape[1], o, rows, cols)).copy()
                total = fma_accumulate(inputs[part], weights[part], begin)
            else:
                total = total + fma_accumulate(inputs[part], weights[part])
        result[first:first + step] = total
    return result[:, :, 0] if one_d else result


def _best_divider(value: int, least: int, most: int, find_max: bool) -> int:
    """oneDNN's best_divider: the divider in [least, most] that pads `value` least (the
    largest such when find_max, else the smallest)."""
    most = max(1, min(most, value))
    least = max(1, min(least, most))
    best, chosen = np.inf, most
    for divider in range(most, least - 1, -1):
        padded = -(-value // divider) * divider
        loss = np.float32(padded - value) / np.float32(padded)
        if loss < best or not find_max and loss == best:
            best, chosen = loss, divider
    return chosen


def _weights_blocking(rows: int, cols: int) -> tuple[int, int, int]:
    """The backward-weights kernel's blocks of positions: (reduce_block, positions of a step,
    of the last step taken whole), for positions few enough that L1 does not bound them."""
    positions = rows * cols
    block = _best_divider(positions, 7, 16, True)
    if positions % block:
        block = _best_divider(cols, 4, cols, False)
    if block > 256:
        block = 1
    steps = _best_divider(positions, max(cols, rows), positions, True)
    steps = max(steps // block * block, block)
    return block, steps, steps * 3 // 2 // block * block


def _balance(n: int, c: int, o: int, reduce_blocks: int, block: int,
             threads: int) -> tuple[int, int]:
    """oneDNN's balance for the 1x1 backward weights: the threads sharing the reduction over
    (image, block of positions) and the threads used in all (least memory traffic)."""
    nb_c, nb_o, work = -(-c // _SIMD), -(-o // _SIMD), n * reduce_blocks

    def cost(mb, oc_b, ic_b):
        return (-(-work // mb) * -(-nb_c // ic_b) * _SIMD * block
                + -(-work // mb) * -(-nb_o // oc_b) * _SIMD * block
                + 12 * -(-nb_o // oc_b) * -(-nb_c // ic_b) * _SIMD * _SIMD)

    best, split = cost(1, 1, 1), (1, 1, 1)
    for mb in range(1, min(threads, work) + 1):
        for oc_b in range(1, min(threads // mb, nb_o) + 1):
            ic_b = min(threads // mb // oc_b, nb_c)
            if cost(mb, oc_b, ic_b) <= best:
                best, split = cost(mb, oc_b, ic_b), (mb, oc_b, ic_b)
    mb, oc_b, ic_b = split
    if threads // 2 < mb < threads:
        mb = min(n, threads)
    return mb, mb * oc_b * ic_b


def weights_claimed(x_shape, w_shape, stride, padding, dilation, groups: int,
                    threads: int) -> bool:
    """Whether `backward_weights` and `backward_bias` follow torch: the shapes `forward_claimed`
    takes with at most 512 output positions per image (past them L1's size bounds the kernel's
    steps)."""
    if not forward_claimed(x_shape, w_shape, stride, padding, dilation, groups, threads):
        return False
    shape, _, stride, *_ = onednn_conv._planar(x_shape, w_shape, stride, padding, dilation)
    return shape[2] // stride[0] * (shape[3] // stride[1]) <= 512


def _weights_shares(n: int, c: int, o: int, rows: int, cols: int,
                    threads: int) -> tuple[list[list[tuple[int, int]]], int]:
    """Per thread sharing the reduction, the [start, end) of positions (n, oh, ow in order) of
    each of its kernel calls; and the threads used in all."""
    block, step, step_max = _weights_blocking(rows, cols)
    per_image = -(-rows * cols // block)
    team, used = _balance(n, c, o, per_image, block, threads)
    shares = []
    for first, last in onednn_conv._balance211(n * per_image, team):
        calls, at = [], first
        while at < last:
            image, within = divmod(at, per_image)
            left = min(per_image - within, last - at)
            take = left if left < -(-step_max // block) else -(-step // block)
            calls.append((image * rows * cols + within * block,
                          image * rows * cols + (within + take) * block))
            at += take
        shares.append(calls)
    return shares, used


def backward_weights(x: np.ndarray, g: np.ndarray, w_shape, stride,
                     threads: int) -> np.ndarray:
    """The weight gradient of a 1x1 convolution `weights_claimed` takes, summed as oneDNN's
    jit_1x1 kernel does: per kernel call a fused chain from +0 over its positions in order,
    added to the thread's sum; the threads' sums then added in turn."""
    x, g, stride, _, _ = onednn_conv._as_2d(x, g, stride, (0,) * len(stride),
                                            (1,) * len(stride))
    x = x[:, :, ::stride[0], ::stride[1]]
    n, c, rows, cols = x.shape
    o = g.shape[1]
    inputs = x.transpose(0, 2, 3, 1).reshape(-1, 1, c)
    grads = g.transpose(0, 2, 3, 1).reshape(-1, o, 1)
    shares, _ = _weights_shares(n, c, o, rows, cols, threads)
    size = max(1, onednn_conv._CHUNK // (o * c))
    total = None
    for calls in shares:
        part = None
        for first, last in calls:
            acc = None
            for start in range(first, last, size):
                stop = min(start + size, last)
                acc = fma_accumulate(inputs[start:stop], grads[start:stop], acc)
            part = acc if part is None else part + acc
        if part is None:
            part = np.zeros((o, c), np.float32)
        total = part if total is None else total + part
    return total.reshape(w_shape)


def backward_bias(g: np.ndarray, c: int, threads: int) -> np.ndarray:
    """The bias gradient of g (N, O, [OH,] OW) as the 1x1 backward-weights kernel sums it: each
    thread of its reducer adds its images' gradients one by one from +0, the threads' sums
    then in turn."""
    g = g if g.ndim == 4 else g[:, :, None]
    n, o, rows, cols = g.shape
    _, used = _weights_shares(n, c, o, rows, cols, threads)
    team = 1 if threads == 1 else onednn_conv._reducer_group(
        used, -(-o // _SIMD), n, _SIMD, used * 3 * 5 * 5 * 256)
    flat = np.moveaxis(g, 1, -1).reshape(-1, o)
    total = None
    for first, last in onednn_conv._balance211(n, team):
        part = (np.add.accumulate(flat[first * rows * cols:last * rows * cols], axis=0,
                                  dtype=np.float32)[-1]
                if last > first and rows * cols else np.zeros(o, np.float32))
        total = part if total is None else total + part
    return total
