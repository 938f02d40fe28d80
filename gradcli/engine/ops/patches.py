"""Rearranging spatial blocks: pixel_shuffle/pixel_unshuffle and im2col/col2im (F.unfold and
F.fold), with torch's checks in its order and their rows."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors, schemas
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import LINEAR, OPS, apply, defop
from gradcli.engine.tensor import Tensor


# ---- pixel shuffle ------------------------------------------------------------------------------

def _pixel_shuffle(a, factor):
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r)."""
    *lead, c, h, w = a.shape
    split = a.reshape(*lead, c // (factor * factor), factor, factor, h, w)
    n = len(lead)
    order = (*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return np.ascontiguousarray(split.transpose(order)).reshape(
        *lead, c // (factor * factor), h * factor, w * factor)


def _pixel_unshuffle(a, factor):
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W)."""
    *lead, c, h, w = a.shape
    split = a.reshape(*lead, c, h // factor, factor, w // factor, factor)
    n = len(lead)
    order = (*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return np.ascontiguousarray(split.transpose(order)).reshape(
        *lead, c * factor * factor, h // factor, w // factor)


defop("pixel_shuffle", "PixelShuffleBackward0", _pixel_shuffle, promote="none", jvp=LINEAR,
      vjp=lambda g, a, factor: pixel_unshuffle(g, factor))
defop("pixel_unshuffle", "PixelUnshuffleBackward0", _pixel_unshuffle, promote="none",
      jvp=LINEAR, vjp=lambda g, a, factor: pixel_shuffle(g, factor))


def _check_shuffle_input(x: Tensor, name: str, factor: int, what: str) -> None:
    if x.ndim < 3:
        raise errors.runtime(f"{name} expects input to have at least 3 dimensions, but got input "
                             f"with {x.ndim} dimension(s)")
    if factor <= 0:
        raise errors.runtime(f"{name} expects a positive {what}, but got {factor}")


def pixel_shuffle(x: Tensor, upscale_factor: int) -> Tensor:
    _check_shuffle_input(x, "pixel_shuffle", upscale_factor, "upscale_factor")
    channels = x.shape[-3]
    if channels % (upscale_factor * upscale_factor):
        raise errors.runtime(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
            f"of upscale_factor, but input.size(-3)={channels} is not divisible by "
            f"{upscale_factor * upscale_factor}")
    return apply(OPS["pixel_shuffle"], x, factor=upscale_factor)


def pixel_unshuffle(x: Tensor, downscale_factor: int) -> Tensor:
    _check_shuffle_input(x, "pixel_unshuffle", downscale_factor, "downscale_factor")
    for name, dim in (("height", -2), ("width", -1)):
        if x.shape[dim] % downscale_factor:
            raise errors.runtime(
                f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                f"input.size({dim})={x.shape[dim]} is not divisible by {downscale_factor}")
    return apply(OPS["pixel_unshuffle"], x, factor=downscale_factor)


# ---- im2col / col2im ----------------------------------------------------------------------------

def _blocks(size, kernel, dilation, padding, stride) -> tuple:
    """The number of sliding blocks along each spatial dimension (C++'s rounding down)."""
    return tuple((size[i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
                 for i in range(2))


def _im2col(x, kernel, dilation, padding, stride, input_size):
    """(N, C, H, W) -> (N, C*kh*kw, L): each block's values, channel-major, then kernel rows."""
    n, c = x.shape[:2]
    blocks = _blocks(x.shape[2:], kernel, dilation, padding, stride)
    padded = np.pad(x, [(0, 0), (0, 0), *((p, p) for p in padding)])
    s = padded.strides
    windows = np.lib.stride_tricks.as_strided(
        padded, (n, c, *kernel, *blocks),
        (s[0], s[1], s[2] * dilation[0], s[3] * dilation[1], s[2] * stride[0], s[3] * stride[1]),
        writeable=False)
    return windows.reshape(n, c * kernel[0] * kernel[1], blocks[0] * blocks[1])


def _col2im(cols, output_size, kernel, dilation, padding, stride):
    """The adjoint of _im2col: overlapping values add up, kernel offsets in order, as ATen's
    col2im loop adds them."""
    n = cols.shape[0]
    c = cols.shape[1] // (kernel[0] * kernel[1])
    blocks = _blocks(output_size, kernel, dilation, padding, stride)
    cols = cols.reshape(n, c, *kernel, *blocks)
    height, width = (output_size[i] + 2 * padding[i] for i in range(2))
    padded = np.zeros((n, c, height, width), cols.dtype)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            rows = slice(i * dilation[0], i * dilation[0] + stride[0] * (blocks[0] - 1) + 1,
                         stride[0])
            columns = slice(j * dilation[1], j * dilation[1] + stride[1] * (blocks[1] - 1) + 1,
                            stride[1])
            padded[:, :, rows, columns] += cols[:, :, i, j]
    return padded[:, :, padding[0]:padding[0] + output_size[0],
                  padding[1]:padding[1] + output_size[1]]


def _unbatched(kernel, ndim: int):
    """A kernel over batched arrays that also takes arrays without the batch dimension."""
    def run(x, *args, **params):
        return kernel(x[None], *args, **params)[0] if x.ndim == ndim - 1 else kernel(
            x, *args, **params)
    return run


_NOT_INTEGERS = (dtypes.INTEGRAL,)
defop("im2col", "Im2ColBackward0", _unbatched(_im2col, 4), promote="none", jvp=LINEAR,
      refuses=("im2col_out_cpu", _NOT_INTEGERS),
      vjp=lambda g, x, input_size, **p: col2im(g, input_size, p["kernel"], p["dilation"],
                                                p["padding"], p["stride"]))
defop("col2im", "Col2ImBackward0", _unbatched(_col2im, 3), promote="none", jvp=LINEAR,
      refuses=("col2im_out_cpu", _NOT_INTEGERS),
      vjp=lambda g, x, output_size, **p: im2col(g, p["kernel"], p["dilation"], p["padding"],
                                                 p["stride"]))


def _expected_pairs(**values) -> None:
    for name, value in values.items():
        if len(value) != 2:
            raise errors.runtime(f"It is expected {name} equals to 2, but got size {len(value)}")


def _check_window(kernel, dilation, padding, stride, order: str) -> None:
    """ATen's checks of kernel, dilation, padding and stride, in `order` (its first letters)."""
    checks = {
        "k": (kernel, lambda v: v > 0, "kernel size should be greater than zero, but got "
              "kernel_height: {} kernel_width: {}"),
        "d": (dilation, lambda v: v > 0, "dilation should be greater than zero, but got "
              "dilation_height: {} dilation_width: {}"),
        "p": (padding, lambda v: v >= 0, "padding should be non-negative, but got pad_height: {} "
              "pad_width: {}"),
        "s": (stride, lambda v: v > 0, "stride should be greater than zero, but got "
              "stride_height: {} stride_width: {}")}
    for key in order:
        values, good, text = checks[key]
        if not (good(values[0]) and good(values[1])):
            raise errors.runtime(text.format(*values))


def _pair_text(values) -> str:
    return f"({values[0]}, {values[1]})"


def im2col(x: Tensor, kernel_size, dilation, padding, stride) -> Tensor:
    """ATen's im2col: its argument and shape checks in order, for 3-D or 4-D input."""
    _expected_pairs(kernel_size=kernel_size, dilation=dilation, padding=padding, stride=stride)
    _check_window(kernel_size, dilation, padding, stride, "kdps")
    valid = F.size_at(x, 1) != 0 and F.size_at(x, 2) != 0
    if not ((x.ndim == 3 and x.shape[0] and valid) or (x.ndim == 4 and valid and x.shape[3])):
        raise errors.runtime("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size "
                             "and other non-zero dimensions for input, but got: "
                             f"{F.size_list(x.shape)}")
    size = x.shape[-2:]
    blocks = _blocks(size, kernel_size, dilation, padding, stride)
    if blocks[0] < 1 or blocks[1] < 1:
        raise errors.runtime(
            f"Given input with spatial size {_pair_text(size)}, kernel_size="
            f"{_pair_text(kernel_size)}, dilation={_pair_text(dilation)}, padding="
            f"{_pair_text(padding)}, calculated shape of the array of sliding blocks as "
            f"{_pair_text(blocks)}, but its components must be at least one.")
    return apply(OPS["im2col"], x, kernel=tuple(kernel_size), dilation=tuple(dilation),
                 padding=tuple(padding), stride=tuple(stride), input_size=size)


def col2im(x: Tensor, output_size, kernel_size, dilation, padding, stride) -> Tensor:
    """ATen's col2im: its argument and shape checks in order, for 2-D or 3-D input."""
    _expected_pairs(output_size=output_size, kernel_size=kernel_size, dilation=dilation,
                    padding=padding, stride=stride)
    _check_window(kernel_size, dilation, padding, stride, "ksdp")
    shape = x.shape
    if not ((x.ndim == 2 and shape[0] and shape[1]) or (x.ndim == 3 and shape[1] and shape[2])):
        raise errors.runtime("Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                             "batch size and non-zero dimensions for input, but got: "
                             f"{F.size_list(shape)}")
    planes, length = shape[-2:]
    if planes % (kernel_size[0] * kernel_size[1]):
        raise errors.runtime(
            "Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
            f"but got input.size(1)={planes} and kernel_size={_pair_text(kernel_size)}.")
    blocks = _blocks(output_size, kernel_size, dilation, padding, stride)
    given = (f"Given output_size={_pair_text(output_size)}, kernel_size="
             f"{_pair_text(kernel_size)}, dilation={_pair_text(dilation)}, padding="
             f"{_pair_text(padding)}, stride={_pair_text(stride)}, ")
    if length != blocks[0] * blocks[1]:
        raise errors.runtime(
            f"{given}expected size of input's dimension 2 to match the calculated number of "
            f"sliding blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got "
            f"input.size(2)={length}.")
    if blocks[0] < 1 or blocks[1] < 1:
        raise errors.runtime(f"{given}calculated shape of the array of sliding blocks as "
                             f"{_pair_text(blocks)}, which is too small (non-positive)")
    return apply(OPS["col2im"], x, output_size=tuple(output_size), kernel=tuple(kernel_size),
                 dilation=tuple(dilation), padding=tuple(padding), stride=tuple(stride))


def _pair(value):
    """torch's _pair: an iterable (a tensor's rows, a string's characters too) as a tuple,
    anything else twice."""
    if isinstance(value, Tensor):
        if value.ndim == 0:
            raise errors.type_error("iteration over a 0-d tensor")
        return tuple(F.unbind(value, 0))
    return tuple(value) if isinstance(value, (tuple, list, str)) else (value, value)


_IM2COL = ("im2col(Tensor input, int[2] kernel_size, int[2] dilation, int[2] padding, "
           "int[2] stride)")
_COL2IM = ("col2im(Tensor input, int[2] output_size, int[2] kernel_size, int[2] dilation, "
           "int[2] padding, int[2] stride)")


def unfold_blocks(x, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """F.unfold, Python in torch: each size as a pair, then torch._C._nn.im2col."""
    bound = schemas.bind_cpp(_IM2COL, x, *map(_pair, (kernel_size, dilation, padding, stride)))
    return im2col(*bound.values())


def fold_blocks(x, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """F.fold, Python in torch: each size as a pair, then torch._C._nn.col2im."""
    bound = schemas.bind_cpp(_COL2IM, x, *map(_pair, (output_size, kernel_size, dilation,
                                                      padding, stride)))
    return col2im(*bound.values())


declare("pixel_shuffle", pixel_shuffle, "pixel_shuffle(Tensor input, int upscale_factor)",
        variants="torch functional")
declare("pixel_unshuffle", pixel_unshuffle,
        "pixel_unshuffle(Tensor input, int downscale_factor)", variants="torch functional")
declare("unfold", unfold_blocks, python="input, kernel_size, dilation=1, padding=0, stride=1"
        "; input: object",  # im2col checks it, after the sizes are made pairs
        variants="functional")
declare("fold", fold_blocks, python="input, output_size, kernel_size, dilation=1, padding=0, stride=1"
        "; input: object",  # col2im checks it, after the sizes are made pairs
        variants="functional")


export(__name__, globals())
