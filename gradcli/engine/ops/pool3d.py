"""3-d pooling as ATen's CPU kernels compute it: avg_pool3d (AvgPool3DBackward0), max_pool3d
(MaxPool3DWithIndicesBackward0), adaptive_avg_pool3d and adaptive_max_pool3d, batched (5-D) or
not (4-D).

Each kernel loops over window offsets, never over elements: a window's values are added in
ATen's order (depth, height, width), and a gradient reaches each input from its outputs in
their order."""

from __future__ import annotations

import itertools

import numpy as np

from gradcli.engine import dtypes, errors, schemas
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.convolution import (_check_pool, _check_pool_lists, _list_with_default,
                                            _pairs, _pool_args, _pool_out, _sizes,
                                            _unbatched_too, lowest)
from gradcli.engine.ops.pool_indices import _gather_from_planes
from gradcli.engine.ops.registry import NOT_FLOATING, NOT_FLOATING_OR_LONG, OPS, apply, defop
from gradcli.engine.tensor import Tensor


_unbatched = _unbatched_too(5)  # (N, C, D, H, W) kernels that also take (C, D, H, W)


def _offsets(kernel):
    return itertools.product(*(range(k) for k in kernel))


def _grid(*axes):
    """Per-dimension index vectors broadcast against each other (depth, height, width)."""
    n = len(axes)
    return tuple(np.asarray(a).reshape((1,) * d + (-1,) + (1,) * (n - d - 1))
                 for d, a in enumerate(axes))


# ---- avg_pool3d ---------------------------------------------------------------------------------

def _avg_geometry(shape, kernel, stride, padding, ceil_mode):
    """Each dimension's output count and its windows' (clipped start, clipped stop, size with
    padding), as ATen's cpu_avg_pool3d bounds them."""
    rows = []
    for i in range(3):
        size = shape[2 + i]
        out = _pool_out(size, kernel[i], stride[i], padding[i], 1, ceil_mode)
        start = np.arange(out) * stride[i] - padding[i]
        stop = np.minimum(start + kernel[i], size + padding[i])
        rows.append((out, np.maximum(start, 0), np.minimum(stop, size), stop - start))
    return rows


def _avg_divisor(rows, count_include_pad, divisor_override):
    """(divisor, empty) over the output grid: ATen's divide_factor of each window."""
    lengths = _grid(*(np.maximum(stop - start, 0) for _, start, stop, _ in rows))
    empty = (lengths[0] * lengths[1] * lengths[2]) == 0
    if divisor_override:
        divisor = np.full(empty.shape, divisor_override, np.int64)
    elif count_include_pad:
        padded = _grid(*(size for *_, size in rows))
        divisor = padded[0] * padded[1] * padded[2]
    else:
        divisor = lengths[0] * lengths[1] * lengths[2]
    return np.where(empty, 1, divisor), empty


def _padded(x, kernel, stride, padding, rows, fill):
    """x padded with `fill` on each side far enough for every window."""
    widths = [(padding[i], max(0, (rows[i][0] - 1) * stride[i] + kernel[i] - x.shape[2 + i]
                               - padding[i])) for i in range(3)]
    return np.pad(x, [(0, 0), (0, 0), *widths], constant_values=fill)


def _window_slice(k, out, stride):
    return tuple(slice(k[i], k[i] + (out[i] - 1) * stride[i] + 1, stride[i]) for i in range(3))


@_unbatched
def _avg_pool3d(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    rows = _avg_geometry(x.shape, kernel, stride, padding, ceil_mode)
    out = tuple(r[0] for r in rows)
    padded = _padded(x, kernel, stride, padding, rows, 0)
    total = np.zeros((*x.shape[:2], *out), x.dtype)
    if 0 not in out:
        for k in _offsets(kernel):
            total = total + padded[(..., *_window_slice(k, out, stride))]
    divisor, empty = _avg_divisor(rows, count_include_pad, divisor_override)
    if np.issubdtype(x.dtype, np.integer):  # C++'s integer division
        result = np.trunc(total / divisor).astype(x.dtype)
    else:
        result = total / divisor.astype(x.dtype)
    return np.where(empty, x.dtype.type(0), result)


@_unbatched
def _avg_pool3d_backward(g, x, input_shape, kernel, stride, padding, ceil_mode,
                         count_include_pad, divisor_override):
    """Each output's share added to its window, outputs in order (offsets in reverse)."""
    shape = (*g.shape[:2], *input_shape[-3:])
    rows = _avg_geometry(shape, kernel, stride, padding, ceil_mode)
    out = tuple(r[0] for r in rows)
    divisor, empty = _avg_divisor(rows, count_include_pad, divisor_override)
    share = np.where(empty, g.dtype.type(0), g / divisor.astype(g.dtype))
    grad = _padded(np.zeros(shape, g.dtype), kernel, stride, padding, rows, 0)
    if 0 not in out:
        for k in reversed(list(_offsets(kernel))):
            grad[(..., *_window_slice(k, out, stride))] += share
    crop = tuple(slice(padding[i], padding[i] + shape[2 + i]) for i in range(3))
    return np.ascontiguousarray(grad[(..., *crop)])


defop("avg_pool3d", "AvgPool3DBackward0", _avg_pool3d, promote="none", save=(0,),
      refuses=("avg_pool3d_out_frame", NOT_FLOATING_OR_LONG + (dtypes.float16, dtypes.bfloat16)),
      vjp=lambda g, x, **p: F.apply_op("avg_pool3d_backward", g, x, input_shape=x.shape, **p))
defop("avg_pool3d_backward", "AvgPool3DBackwardBackward0", _avg_pool3d_backward,
      promote="none", save=(),
      vjp=(lambda gg, g, x, input_shape, **p: F.apply_op("avg_pool3d", gg, **p),
           lambda gg, g, x, input_shape, **p: F.zeros_of(input_shape, gg.dtype)))


# ---- max_pool3d ---------------------------------------------------------------------------------

def _pick(cols, positions, valid):
    """ATen's max over each window (last axis): the first maximum, the last NaN, and the first
    valid position while nothing beats the starting -inf."""
    size = cols.shape[-1]
    nan = np.isnan(cols) if np.issubdtype(cols.dtype, np.floating) else np.zeros(cols.shape, bool)
    last_nan = size - 1 - nan[..., ::-1].argmax(-1)
    picked = np.where(nan.any(-1), last_nan, cols.argmax(-1))
    values = np.take_along_axis(cols, picked[..., None], -1)[..., 0]
    unbeaten = ~nan.any(-1) & (values == lowest(cols.dtype))
    picked = np.where(unbeaten, np.broadcast_to(valid, cols.shape).argmax(-1), picked)
    values = np.take_along_axis(cols, picked[..., None], -1)[..., 0]
    indices = np.take_along_axis(np.broadcast_to(positions, cols.shape), picked[..., None],
                                 -1)[..., 0]
    return values, indices.astype(np.int64)


@_unbatched
def _max_pool3d(x, kernel, stride, padding, dilation, ceil_mode):
    out = tuple(_pool_out(x.shape[2 + i], kernel[i], stride[i], padding[i], dilation[i],
                          ceil_mode) for i in range(3))
    widths = [(padding[i], max(0, (out[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1
                               - x.shape[2 + i] - padding[i])) for i in range(3)]
    padded = np.pad(x, [(0, 0), (0, 0), *widths], constant_values=lowest(x.dtype))
    positions = np.pad(np.arange(int(np.prod(x.shape[2:]))).reshape(x.shape[2:]), widths,
                       constant_values=-1)
    taps = [_grid(*(np.arange(out[i]) * stride[i] + k[i] * dilation[i] for i in range(3)))
            for k in _offsets(kernel)]
    cols = np.stack([padded[(slice(None), slice(None), *t)] for t in taps], -1)
    index_cols = np.stack([positions[t] for t in taps], -1)
    values, indices = _pick(cols, index_cols, index_cols >= 0)
    return values.astype(x.dtype), indices


def _scatter_to_planes(g, indices, x_shape):
    """Each output's gradient added at its index in its input plane, outputs in order."""
    planes = x_shape[0] * x_shape[1]
    out = np.zeros((planes, int(np.prod(x_shape[2:]))), g.dtype)
    per_plane = indices.size // planes if planes else 0
    np.add.at(out, (np.repeat(np.arange(planes), per_plane), indices.reshape(-1)), g.reshape(-1))
    return out.reshape(x_shape)


@_unbatched
def _max_pool3d_backward(g, x, **params):
    return _scatter_to_planes(g, _max_pool3d(x, **params)[1], x.shape)


defop("max_pool3d_with_indices", "MaxPool3DWithIndicesBackward0", _max_pool3d, promote="none",
      n_outputs=2, out_dtype=lambda dtype, params: (dtype, dtypes.int64), save=(0,),
      vjp=lambda g, x, **p: F.apply_op("max_pool3d_with_indices_backward", g[0], x, **p),
      refuses=("max_pool3d", (dtypes.BOOL,)))
defop("max_pool3d_with_indices_backward", "MaxPool3DWithIndicesBackwardBackward0",
      _max_pool3d_backward, promote="none", save=(1,),
      vjp=(lambda gg, g, x, **p: _gather_from_planes(gg, _max_pool3d(x.data, **p)[1], 3),
           lambda gg, g, x, **p: F.zeros_for(x)))


# ---- adaptive pools -----------------------------------------------------------------------------

def _adaptive_taps(shape, output_size):
    """For each offset into the widest window: the input index of every output (grid) and
    whether it lies inside that output's window; plus the window lengths per dimension."""
    starts, lengths = [], []
    for size, out in zip(shape[-3:], output_size):
        o = np.arange(out)
        start = (o * size) // out
        starts.append(start)
        lengths.append(-((-(o + 1) * size) // out) - start)
    widest = [int(length.max()) if length.size else 0 for length in lengths]
    taps = []
    for k in _offsets(widest):
        index = _grid(*(np.minimum(starts[i] + k[i], shape[-3 + i] - 1) for i in range(3)))
        inside = _grid(*(k[i] < lengths[i] for i in range(3)))
        taps.append((index, inside[0] & inside[1] & inside[2]))
    return taps, lengths


@_unbatched
def _adaptive_avg_pool3d(x, output_size):
    taps, lengths = _adaptive_taps(x.shape, output_size)
    total = np.zeros((*x.shape[:2], *output_size), x.dtype)
    for index, inside in taps:
        total = total + np.where(inside, x[(slice(None), slice(None), *index)], 0)
    kd, kh, kw = (length.astype(x.dtype) for length in _grid(*lengths))
    return total / kd / kh / kw


@_unbatched
def _adaptive_avg_pool3d_backward(g, x, output_size, input_shape):
    """Each output's share (divided by each window length in turn) added to its window, outputs
    in order: np.add.at takes the (output, offset) pairs in output order."""
    shape = (*g.shape[:2], *input_shape[-3:])
    if 0 in output_size:
        return np.zeros(shape, g.dtype)
    taps, lengths = _adaptive_taps(shape, output_size)
    kd, kh, kw = (length.astype(g.dtype) for length in _grid(*lengths))
    share = (g / kd / kh / kw).reshape(-1, g[0, 0].size if g.ndim else 1)
    planes = shape[0] * shape[1]
    flat = [np.ravel_multi_index(np.broadcast_arrays(*index), shape[2:]) for index, _ in taps]
    inside = [np.broadcast_to(i, tuple(output_size)) for _, i in taps]
    targets = np.stack(flat, -1).reshape(-1)
    keep = np.stack(inside, -1).reshape(-1)
    outputs = np.repeat(np.arange(int(np.prod(output_size))), len(taps))
    grad = np.zeros((int(np.prod(shape[2:])), planes), g.dtype)
    np.add.at(grad, targets[keep], share.reshape(planes, -1).T[outputs[keep]])
    return np.ascontiguousarray(grad.T).reshape(shape)


defop("_adaptive_avg_pool3d", "AdaptiveAvgPool3DBackward0", _adaptive_avg_pool3d,
      promote="none", save=(0,), refuses=("adaptive_avg_pool3d_cpu", NOT_FLOATING),
      vjp=lambda g, x, output_size: F.apply_op("_adaptive_avg_pool3d_backward", g, x,
                                               output_size=output_size, input_shape=x.shape))
defop("_adaptive_avg_pool3d_backward", "AdaptiveAvgPool3DBackwardBackward0",
      _adaptive_avg_pool3d_backward, promote="none", save=(),
      vjp=(lambda gg, g, x, output_size, input_shape: F.apply_op(
          "_adaptive_avg_pool3d", gg, output_size=output_size),
           lambda gg, g, x, output_size, input_shape: F.zeros_of(input_shape, gg.dtype)))


@_unbatched
def _adaptive_max_pool3d(x, output_size):
    if 0 in output_size:
        shape = (*x.shape[:2], *output_size)
        return np.empty(shape, x.dtype), np.empty(shape, np.int64)
    taps, _ = _adaptive_taps(x.shape, output_size)
    plane = x.shape[2:]
    low = lowest(x.dtype)
    cols = np.stack([np.where(inside, x[(slice(None), slice(None), *index)], low)
                     for index, inside in taps], -1)
    positions = np.stack([np.broadcast_to(np.ravel_multi_index(np.broadcast_arrays(*index),
                                                               plane), tuple(output_size))
                          for index, _ in taps], -1)
    inside = np.stack([np.broadcast_to(i, tuple(output_size)) for _, i in taps], -1)
    values, indices = _pick(cols, positions, inside)
    return values.astype(x.dtype), indices


@_unbatched
def _adaptive_max_pool3d_backward(g, x, output_size):
    return _scatter_to_planes(g, _adaptive_max_pool3d(x, output_size)[1], x.shape)


defop("adaptive_max_pool3d", "AdaptiveMaxPool3DBackward0", _adaptive_max_pool3d,
      promote="none", n_outputs=2, out_dtype=lambda dtype, params: (dtype, dtypes.int64),
      save=(0,), refuses=("adaptive_max_pool3d_cpu", NOT_FLOATING),
      vjp=lambda g, x, output_size: F.apply_op("adaptive_max_pool3d_backward", g[0], x,
                                               output_size=output_size))
defop("adaptive_max_pool3d_backward", "AdaptiveMaxPool3DBackwardBackward0",
      _adaptive_max_pool3d_backward, promote="none", save=(1,),
      vjp=(lambda gg, g, x, output_size: _gather_from_planes(
          gg, _adaptive_max_pool3d(x.data, output_size)[1], 3),
           lambda gg, g, x, output_size: F.zeros_for(x)))


# ---- functions ----------------------------------------------------------------------------------

def _pool3d_shape_check(x: Tensor, kernel, stride, padding, dilation, ceil_mode, name: str,
                        check_input_size: bool = False):
    """ATen's pool3d_shape_check, output size check included."""
    def check():
        if min(kernel) <= 0:
            raise errors.runtime(f"kernel size should be greater than zero, but got kT: "
                                 f"{kernel[0]} kH: {kernel[1]} kW: {kernel[2]}")
        if min(stride) <= 0:
            raise errors.runtime(f"stride should be greater than zero, but got dT: {stride[0]} "
                                 f"dH: {stride[1]} dW: {stride[2]}")
        if min(dilation) <= 0:
            raise errors.runtime(f"dilation should be greater than zero, but got dilationT: "
                                 f"{dilation[0]} dilationH: {dilation[1]} dilationW: "
                                 f"{dilation[2]}")
        if x.ndim not in (4, 5):
            raise errors.runtime(f"{name}: Expected 4D or 5D tensor for input, but got: "
                                 f"{_sizes(x.shape)}")
        empty = next((s for d, s in enumerate(x.shape) if s <= 0 and (x.ndim == 4 or d)), None)
        if empty is not None:
            raise errors.runtime(f"{name}: Expected input's non-batch dimensions to have "
                                 f"positive length, but input has a shape of {_sizes(x.shape)} "
                                 f"and non-batch dimension {empty} has length zero!")
        size = x.shape[-3:]
        if check_input_size and any(size[i] < kernel[i] for i in range(3)):
            raise errors.runtime(f"input image (T: {size[0]} H: {size[1]} W: {size[2]}) smaller "
                                 f"than kernel size (kT: {kernel[0]} kH: {kernel[1]} kW: "
                                 f"{kernel[2]})")
        if any(kernel[i] // 2 < padding[i] for i in range(3)):
            raise errors.runtime(
                f"pad should be smaller than or equal to half of kernel size, but got kT: "
                f"{kernel[0]} kW: {kernel[2]} kH: {kernel[1]} padT: {padding[0]} padW: "
                f"{padding[2]} padH: {padding[1]}")
        out = [_pool_out(size[i], kernel[i], stride[i], padding[i], dilation[i], ceil_mode)
               for i in range(3)]
        if min(out) < 1:
            lead = x.shape[-4]
            raise errors.runtime(f"Given input size: ({lead}x{size[0]}x{size[1]}x{size[2]}). "
                                 f"Calculated output size: ({lead}x{out[0]}x{out[1]}x{out[2]}). "
                                 "Output size is too small")
    return check


def _check_4d_or_5d(x: Tensor) -> None:
    if x.ndim not in (4, 5):
        raise errors.runtime("non-empty 4D or 5D (batch mode) tensor expected for input")


def avg_pool3d(x: Tensor, kernel_size, stride=(), padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override=None) -> Tensor:
    _check_pool_lists("avg_pool3d", (kernel_size, stride, padding))
    kernel, stride, padding = _pool_args(kernel_size, stride, padding, 3)
    if divisor_override is not None and divisor_override == 0:
        raise errors.runtime("divisor must be not zero")
    _check_4d_or_5d(x)
    _check_pool(x, kernel, stride, padding, (1, 1, 1), ceil_mode,
                _pool3d_shape_check(x, kernel, stride, padding, (1, 1, 1), ceil_mode,
                                    "avg_pool3d()", check_input_size=True))
    return apply(OPS["avg_pool3d"], x, kernel=kernel, stride=stride, padding=padding,
                 ceil_mode=bool(ceil_mode), count_include_pad=bool(count_include_pad),
                 divisor_override=divisor_override)


def max_pool3d_with_indices(x: Tensor, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode: bool = False):
    """torch.max_pool3d(_with_indices) after its parser: ATen's checks in order, then the row."""
    _check_pool_lists("max_pool3d", (kernel_size, stride, padding, dilation))
    kernel, stride, padding = _pool_args(kernel_size, stride, padding, 3)
    dilation = _pairs(dilation, 3)
    _check_4d_or_5d(x)
    _check_pool(x, kernel, stride, padding, dilation, ceil_mode,
                _pool3d_shape_check(x, kernel, stride, padding, dilation, ceil_mode,
                                    "max_pool3d_with_indices_out_cpu_template()"))
    return apply(OPS["max_pool3d_with_indices"], x, kernel=kernel, stride=stride,
                 padding=padding, dilation=dilation, ceil_mode=bool(ceil_mode))


def max_pool3d(x: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    name = "max_pool3d" + ("_with_indices" if return_indices else "")
    schemas.bind_cpp(f"{name}(Tensor self, int[3] kernel_size, int[3] stride=[], "
                     "int[3] padding=0, int[3] dilation=1, bool ceil_mode=False)",
                     x, kernel_size, [] if stride is None else stride, padding, dilation,
                     ceil_mode)
    values, indices = max_pool3d_with_indices(x, kernel_size, stride, padding, dilation,
                                              ceil_mode)
    return (values, indices) if return_indices else values


def max_pool3d_values(x: Tensor, kernel_size, stride=(), padding=0, dilation=1,
                      ceil_mode: bool = False) -> Tensor:
    """torch.max_pool3d: the values of max_pool3d_with_indices."""
    return max_pool3d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode)[0]


def _empty_dimension(x: Tensor):
    return next((d for d in range(1, x.ndim) if x.shape[d] == 0), None)


def adaptive_avg_pool3d(x: Tensor, output_size) -> Tensor:
    """F.adaptive_avg_pool3d: None sizes taken from the input, then torch's C++ checks in its
    order (a 1x1x1 output is the input's mean over its last three dimensions)."""
    given = _list_with_default(output_size, x.shape)
    sizes = schemas.bind_cpp("adaptive_avg_pool3d(Tensor self, int[3] output_size)", x,
                             given)["output_size"]
    if not isinstance(given, (tuple, list)):  # an int stands for all three sizes
        sizes = tuple(sizes) * 3
    if len(sizes) != 3:
        raise errors.runtime("adaptive_avg_pool3d: output_size must be 3")
    if min(sizes) < 0:
        raise errors.runtime("adaptive_avg_pool3d: elements of output_size must be greater than "
                             f"or equal to 0 but received {{{sizes[0]}, {sizes[1]},{sizes[2]}}}")
    if tuple(sizes) == (1, 1, 1):
        return F.mean(x, (-1, -2, -3), True)
    empty = _empty_dimension(x)
    if empty is not None:
        raise errors.runtime("adaptive_avg_pool3d(): Expected input to have non-zero size for "
                             f"non-batch dimensions, but input has sizes {_sizes(x.shape)} with "
                             f"dimension {empty} being empty")
    if x.ndim not in (4, 5):
        raise errors.runtime("adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got "
                             f"{_sizes(x.shape)}")
    return apply(OPS["_adaptive_avg_pool3d"], x, output_size=tuple(sizes))


def adaptive_max_pool3d(x: Tensor, output_size, return_indices: bool = False):
    given = _list_with_default(output_size, x.shape)
    sizes = schemas.bind_cpp("adaptive_max_pool3d(Tensor self, int[3] output_size)", x,
                             given)["output_size"]
    if not isinstance(given, (tuple, list)):  # an int stands for all three sizes
        sizes = tuple(sizes) * 3
    if x.ndim not in (4, 5):
        raise errors.runtime(f"adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: "
                             f"{_sizes(x.shape)}")
    empty = _empty_dimension(x)
    if empty is not None:
        raise errors.runtime("adaptive_max_pool3d(): Expected input to have non-zero size for "
                             f"non-batch dimensions, but input has sizes {_sizes(x.shape)} with "
                             f"dimension {empty} being empty")
    if len(sizes) != 3:
        raise errors.runtime("adaptive_max_pool3d(): internal error: output_size.size() must be 3")
    if min(sizes) < 0:
        shape = (*x.shape[:-3], *sizes)
        raise errors.runtime(f"Trying to create tensor with negative dimension {min(sizes)}: "
                             f"{_sizes(shape)}")
    values, indices = apply(OPS["adaptive_max_pool3d"], x, output_size=tuple(sizes))
    return (values, indices) if return_indices else values


declare("avg_pool3d", avg_pool3d, "avg_pool3d(Tensor input, int[3] kernel_size, "
        "int[3] stride=[], int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, "
        "int? divisor_override=None)", variants="functional")
declare("max_pool3d", max_pool3d, python="input, kernel_size, stride=None, padding=0, dilation=1, "
        "ceil_mode=False, return_indices=False; return_indices: truth", variants="functional",
        title="_max_pool3d")
declare("max_pool3d", max_pool3d_values, "max_pool3d(Tensor input, int[3] kernel_size, "
        "int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False)",
        variants="torch")
declare("adaptive_avg_pool3d", adaptive_avg_pool3d, python="input, output_size; input: .size",
        variants="functional")
declare("adaptive_max_pool3d", adaptive_max_pool3d, python="input: .size, output_size, "
        "return_indices=False; return_indices: truth", variants="functional",
        title="_adaptive_max_pool3d")
declare("max_pool3d_with_indices", lambda *args: max_pool3d(*args[:6], True),
        python="input: .is_cuda, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, "
        "return_indices=False", variants="functional")
declare("adaptive_max_pool3d_with_indices", lambda x, size, _: adaptive_max_pool3d(x, size, True),
        python="input: .size, output_size, return_indices=False", variants="functional")


export(__name__, globals())
