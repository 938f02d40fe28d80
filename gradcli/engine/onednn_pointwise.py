"""float32 1x1 convolutions in the order oneDNN's jit_1x1 kernel (jit_avx512_common_1x1_conv)
sums them, where torch's CPU build runs it.

torch hands a 1x1 float32 convolution to oneDNN when it is strided, has 16 or more images or runs
on more than one thread (ATen's `use_mkldnn`), and then only with more than one image or more
than 20480 inputs.  Without padding oneDNN takes its 1x1 kernel: a strided one through a copy of
the inputs it reads ("rtus") where the stride tiles the input exactly, else its direct kernel.

forward: the input channels in chunks (the kernel's `reduce_blocking`: all of them, or 80 or
256 or 512 of them by the output's height and channels, fewer where the chunk's inputs would
alias in L2); per output a fused chain over the first chunk's channels in order from the bias
(or +0), each later chunk's chain from +0 added to it.

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
