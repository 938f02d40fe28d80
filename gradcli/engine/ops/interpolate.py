"""F.interpolate's nearest, nearest-exact, (bi/tri)linear and bicubic modes: per output
position the source indices and weights torch's CPU kernels compute (in float), a weighted
gather forward and its scatter-add backward (UpsampleNearest2DBackward0, ...); area mode is
adaptive average pooling, as in torch's Python; bilinear with antialias resamples one dim at a
time (torch's separable kernel). Nearest is exact; linear values can differ from torch's in the
last bit (antialias's past four taps a dim, when downsampling by more than 1.5)."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.declarations import declare
from gradcli.engine.fma import fused
from gradcli.engine.functions import F
from gradcli.engine.ops.registry import OPS, apply, defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

_LINEAR = {1: "linear", 2: "bilinear", 3: "trilinear"}
_ALL_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"


def _scale(size_in: int, size_out: int, factor, align_corners: bool) -> np.float32:
    if align_corners:
        return np.float32((size_in - 1) / (size_out - 1) if size_out > 1 else 0)
    if factor is not None:
        return np.float32(1.0 / factor)
    return np.float32(size_in) / np.float32(size_out)


def _taps(mode: str, size_in: int, size_out: int, factor, align_corners: bool):
    """(indices, weights) per tap for one dim: one tap for the nearest modes, two for linear."""
    i = np.arange(size_out)
    if mode == "nearest-exact":  # floorf((i + 0.5) * scale): a double product, rounded to float
        scale = np.float64(_scale(size_in, size_out, factor, False))
        src = np.floor(((i + 0.5) * scale).astype(np.float32))
        return [np.minimum(src.astype(np.int64), size_in - 1)], [None]
    if mode == "bicubic":
        return _cubic_taps(size_in, size_out, factor, align_corners)
    if mode == "nearest":
        if size_out == size_in:
            return [i], [None]
        if size_out == 2 * size_in:
            return [i >> 1], [None]
        src = np.floor(i.astype(np.float32) * _scale(size_in, size_out, factor, False))
        return [np.minimum(src.astype(np.int64), size_in - 1)], [None]
    scale = _scale(size_in, size_out, factor, align_corners)
    if align_corners:
        src = scale * i.astype(np.float32)
    else:
        src = np.maximum(scale * (i.astype(np.float32) + np.float32(0.5)) - np.float32(0.5),
                         np.float32(0))
    low = src.astype(np.int64)
    high = low + (low < size_in - 1)
    lam = (src - low.astype(np.float32)).astype(np.float32)
    return [low, high], [np.float32(1) - lam, lam]


def _antialias_taps(size_in: int, size_out: int, factor, align_corners: bool, dtype):
    """Bilinear antialias's taps for one dim (torch's _compute_indices_min_size_weights_aa):
    a triangle filter as wide as the scale when downsampling, over the source pixels around
    each output's centre, normalised to sum 1, in the input's float type; a dim whose size
    stays is not resampled. Taps past an output's own count weigh 0."""
    if size_in == size_out:
        return [np.arange(size_out)], [None]
    real = np.dtype(dtype).type
    scale = real(_scale(size_in, size_out, factor, align_corners))
    support = scale if scale >= 1 else real(1)
    inverse = real(1.0 / float(scale)) if scale >= 1 else real(1)  # a double quotient
    width = math.ceil(support) * 2 + 1
    indices = [np.zeros(size_out, np.int64) for _ in range(width)]
    weights = [np.zeros(size_out, real) for _ in range(width)]
    for i in range(size_out):
        center = real(scale * (i + 0.5))
        low = max(int(float(center - support) + 0.5), 0)
        count = min(max(min(int(float(center + support) + 0.5), size_in) - low, 0), width)
        taps = []
        for j in range(count):
            x = abs(real((float(real(j + low) - center) + 0.5) * float(inverse)))
            taps.append(real(1.0 - x) if x < 1 else real(0))
        total = real(0)
        for w in taps:
            total = real(total + w)
        for j in range(width):
            indices[j][i] = min(low + j, size_in - 1)
            weights[j][i] = real(taps[j] / total) if j < count and total != 0 else real(0)
    return indices, weights


def _cubic_taps(size_in: int, size_out: int, factor, align_corners: bool):
    """Four taps around floor(source), clamped to the input, weighted by the cubic convolution
    (A = -0.75) of the source's fraction, all in float as torch's CPU kernel computes them."""
    scale, i = _scale(size_in, size_out, factor, align_corners), np.arange(size_out)
    if align_corners:
        src = scale * i.astype(np.float32)
    else:
        src = scale * (i.astype(np.float32) + np.float32(0.5)) - np.float32(0.5)
    low = np.minimum(np.floor(src).astype(np.int64), size_in - 1)
    t = np.clip(src - low.astype(np.float32), np.float32(0), np.float32(1)).astype(np.float32)
    one = np.float32(1)

    def near(x):  # cubic_convolution1, for |x| <= 1
        return ((_CUBIC + 2) * x - (_CUBIC + 3)) * x * x + one

    def far(x):  # cubic_convolution2, for 1 < |x| < 2
        return ((_CUBIC * x - 5 * _CUBIC) * x + 8 * _CUBIC) * x - 4 * _CUBIC
    weights = [far(t + one), near(t), near(one - t), far(one - t + one)]
    indices = [np.clip(low - 1 + j, 0, size_in - 1) for j in range(4)]
    return indices, [w.astype(np.float32) for w in weights]


def _along(x: np.ndarray, axis: int, index, weight) -> np.ndarray:
    picked = np.take(x, index, axis=axis)
    if weight is None:
        return picked
    shape = [1] * x.ndim
    shape[axis] = -1
    return picked * weight.reshape(shape).astype(x.dtype)


def _resample(x: np.ndarray, taps: tuple) -> np.ndarray:
    """torch's nested sum: the outer dim's taps over the inner dims' results (a uint8 image's
    weighted taps in float, rounded and clamped back, as its uint8 kernel does)."""
    if x.dtype == np.uint8 and any(weight is not None for _, weights in taps
                                   for weight in weights):
        return np.clip(np.rint(_resample(x.astype(np.float32), taps)), 0, 255).astype(np.uint8)

    def level(array, depth):
        if depth == len(taps):
            return array
        axis = array.ndim - len(taps) + depth
        indices, weights = taps[depth]
        out = None
        for index, weight in zip(indices, weights):
            inner = level(np.take(array, index, axis=axis), depth + 1)
            if weight is None:
                return inner
            shape = [1] * array.ndim
            shape[axis] = -1
            w = weight.reshape(shape).astype(array.dtype)
            out = inner * w if out is None else out + inner * w
        return out
    return level(x, 0)


def _separable(x: np.ndarray, taps: tuple) -> np.ndarray:
    """torch's antialiased resampling: one dim at a time, the last (horizontal) first, each
    output the first tap's product, then each next product fused into the sum."""
    for depth in reversed(range(len(taps))):
        axis = x.ndim - len(taps) + depth
        indices, weights = taps[depth]
        if weights[0] is None:
            continue
        shape = [1] * x.ndim
        shape[axis] = -1
        out = None
        for index, weight in zip(indices, weights):
            term = np.take(x, index, axis=axis)
            w = weight.reshape(shape).astype(x.dtype)
            out = term * w if out is None else fused(term, w, out)
        x = out
    return x


def _spread(g: np.ndarray, taps: tuple, shape: tuple) -> np.ndarray:
    """The gradient of _separable as torch's backward kernel adds it: output by output (rows,
    then columns), each source's weight product times the output's gradient fused into its
    sum; a dim whose size stays weighs each source 1."""
    rows, columns = ([(list(index[:, o]), list(weight[:, o])) for o in range(index.shape[1])]
                     for index, weight in (_tap_table(t, n) for t, n in zip(taps, g.shape[-2:])))
    out = np.zeros(g.shape[:-2] + tuple(shape[-2:]), g.dtype)
    for oh, (ys, wy) in enumerate(rows):
        for ow, (xs, wx) in enumerate(columns):
            value = g[..., oh, ow]
            for y, weight_y in zip(ys, wy):
                for x, weight_x in zip(xs, wx):
                    if weight_x and weight_y:
                        out[..., y, x] = fused(g.dtype.type(weight_x * weight_y), value,
                                               out[..., y, x])
    return out


def _tap_table(taps, size_out: int):
    """(indices, weights) as (tap, output) arrays; weight 1 for a dim that is not resampled."""
    indices, weights = taps
    if weights[0] is None:
        return np.arange(size_out)[None], np.ones((1, size_out), np.float64)
    return np.stack(indices), np.stack(weights)


def _scatter(g: np.ndarray, taps: tuple, shape: tuple) -> np.ndarray:
    """The gradient of _resample: each output's gradient times its weights, added back onto
    its source positions, one dim at a time."""
    for depth in reversed(range(len(taps))):
        axis = g.ndim - len(taps) + depth
        sizes = list(g.shape)
        sizes[axis] = shape[axis]
        out = np.zeros(sizes, g.dtype)
        for index, weight in zip(*taps[depth]):
            part = g if weight is None else _along(g, axis, np.arange(g.shape[axis]), weight)
            np.add.at(np.moveaxis(out, axis, 0), index, np.moveaxis(part, axis, 0))
        g = out
    return g


# the rows' names of a mode (linear modes: by the number of spatial dims)
_KEYS = {"nearest": "nearest", "nearest-exact": "nearest_exact", "bicubic": "bicubic"}
_CUBIC = np.float32(-0.75)  # torch's A of the cubic convolution
_ROWS = [(dims, mode, label) for dims in (1, 2, 3) for mode, label in (
    ("nearest", "Nearest"), ("nearest_exact", "NearestExact"),
    (_LINEAR[dims], _LINEAR[dims].capitalize()))] + [(2, "bicubic", "Bicubic")]
for _dims, _mode, _label in _ROWS:
    _key = f"upsample_{_mode}{_dims}d"
    defop(_key, f"Upsample{_label}{_dims}DBackward0",
          lambda x, taps, shape: _resample(x, taps), promote="none",
          vjp=lambda g, x, taps, shape, key=_key: apply(OPS[key + "_backward"], g,
                                                        taps=taps, shape=shape))
    defop(_key + "_backward", f"Upsample{_label}{_dims}DBackwardBackward0", _scatter,
          promote="none", vjp=lambda gg, g, taps, shape, key=_key: apply(
              OPS[key], gg, taps=taps, shape=gg.shape))
defop("upsample_bilinear2d_aa", "UpsampleBilinear2DAaBackward0",
      lambda x, taps, shape: _separable(x, taps), promote="none",
      vjp=lambda g, x, taps, shape: apply(OPS["upsample_bilinear2d_aa_backward"], g, taps=taps,
                                          shape=shape))
defop("upsample_bilinear2d_aa_backward", "UpsampleBilinear2DAaBackwardBackward0", _spread,
      promote="none", vjp=lambda gg, g, taps, shape: apply(OPS["upsample_bilinear2d_aa"], gg,
                                                           taps=taps, shape=gg.shape))


def _python_types(values) -> str:
    return "[" + ", ".join(f"<class '{errors.type_name(v)}'>" for v in values) + "]"


def _check_spatial(given, dims: int, spatial: list, what: str, shown_as: str, name: str,
                   letter: str) -> None:
    """One spatial entry per spatial dimension of the input, or torch's ValueError."""
    if len(given) != dims:
        raise errors.value_error(
            f"Input and {what} must have the same number of spatial dimensions, but got input "
            f"with spatial dimensions of {spatial} and {shown_as} {given!r}. Please provide "
            f"input tensor in (N, C, d1, d2, ...,dK) format and {name} in ({letter}1, "
            f"{letter}2, ...,{letter}K) format.")


def _sizes_out(x: Tensor, size, scale_factor, dims: int):
    """The output sizes and scale factors, checked in the order of torch's Python code."""
    spatial = list(x.shape[2:])
    if size is not None and scale_factor is not None:
        raise errors.value_error("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            _check_spatial(size, dims, spatial, "output", "output size of", "output size", "o")
            if not all(isinstance(v, int) for v in size):
                raise errors.type_error(
                    "expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                    f"Tuple[int, int, int], but got size with types {_python_types(size)}")
            return list(size), [None] * dims
        return [size] * dims, [None] * dims
    if scale_factor is None:
        raise errors.value_error("either size or scale_factor should be defined")
    if isinstance(scale_factor, (list, tuple)):
        _check_spatial(scale_factor, dims, spatial, "scale_factor", "scale_factor of shape",
                       "scale_factor", "s")
        factors = list(scale_factor)
    else:
        factors = [scale_factor] * dims
    return [math.floor(float(n) * f) for n, f in zip(spatial, factors)], factors


def _check_sizes(sizes_in, sizes_out) -> None:
    """The upsampling kernels' common check: every input and output size positive."""
    if min(*sizes_in, *sizes_out) > 0:
        return
    names = "DHW"[3 - len(sizes_in):]
    shown = [", ".join(f"{n}: {s}" for n, s in zip(names, sizes)) for sizes in (sizes_in,
                                                                               sizes_out)]
    joined = " and output" if len(names) == 1 else " output"
    raise errors.runtime("Input and output sizes should be greater than 0, but got input "
                         f"({shown[0]}){joined} ({shown[1]})")


def _check_dtype(x: Tensor, mode: str) -> None:
    """The upsampling kernels' dtypes: floating ones, and uint8 but for linear and trilinear."""
    if x.dtype.is_floating_point or (x.dtype is dtypes.uint8 and mode not in ("linear",
                                                                              "trilinear")):
        return
    if mode == "bicubic":
        kernel = "compute_indices_weights_cubic"
    elif x.ndim == 4:  # (ATen's 2-d kernels name their dispatch so, whatever the layout)
        kernel = f"upsample_{'bilinear' if mode == 'bilinear' else 'nearest'}2d_channels_last"
    else:
        kernel = f"compute_indices_weights_{'nearest' if 'nearest' in mode else 'linear'}"
    raise errors.not_implemented_for(kernel, x.dtype)


def interpolate(x: Tensor, size=None, scale_factor=None, mode: str = "nearest",
                align_corners=None, recompute_scale_factor=None, antialias: bool = False):
    """F.interpolate, its checks in torch's order: align_corners, size and scale_factor, the
    mode against the input's dimensions."""
    if mode in ("nearest", "area", "nearest-exact") and align_corners is not None:
        raise errors.value_error("align_corners option can only be set with the interpolating "
                                 "modes: linear | bilinear | bicubic | trilinear")
    dims = x.ndim - 2
    sizes, factors = _sizes_out(x, size, scale_factor, dims)
    if recompute_scale_factor and size is not None:
        raise errors.value_error("recompute_scale_factor is not meaningful with an explicit size.")
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and x.ndim == 4):
        raise errors.value_error("Anti-alias option is restricted to bilinear, bicubic, and "
                                 "lanczos modes and requires a 4-D tensor as input")
    if dims not in (1, 2, 3) or mode not in _ALL_MODES.split(" | ") or (
            mode == "bicubic" and dims != 2):
        raise errors.TorchError("NotImplementedError", f"Input Error: Only 3D, 4D and 5D input "
                                f"Tensors supported (got {x.ndim}D) for the modes: {_ALL_MODES} "
                                f"(got {mode})")
    if mode in _LINEAR.values() and _LINEAR.get(dims) != mode:
        raise errors.TorchError("NotImplementedError",
                                f"Got {x.ndim}D input, but {mode} mode needs "
                                f"{ {'linear': 3, 'bilinear': 4, 'trilinear': 5}[mode]}D input")
    if mode == "area":  # torch's Python: an adaptive average pool to the output size
        pool = (F.adaptive_avg_pool1d, F.adaptive_avg_pool2d, F.adaptive_avg_pool3d)[dims - 1]
        return pool(x, sizes)
    if mode == "lanczos" or (antialias and mode != "bilinear"):
        raise errors.TorchError("NotImplementedError", f"interpolate mode {mode} on {x.ndim}D "
                                "input is not supported by gradcli yet")
    _check_sizes(x.shape[2:], sizes)
    _check_dtype(x, mode)
    if recompute_scale_factor:
        factors = [None] * dims
    if antialias:
        taps = tuple(_antialias_taps(n_in, n_out, f, bool(align_corners), x.dtype.np)
                     for n_in, n_out, f in zip(x.shape[2:], sizes, factors))
        return apply(OPS["upsample_bilinear2d_aa"], x, taps=taps, shape=x.shape)
    taps = tuple(_taps(mode, n_in, n_out, f, bool(align_corners)) for n_in, n_out, f in
                 zip(x.shape[2:], sizes, factors))
    key = f"upsample_{_KEYS.get(mode) or _LINEAR[dims]}{dims}d"
    return apply(OPS[key], x, taps=taps, shape=x.shape)


declare("interpolate", interpolate, "interpolate(Tensor input, int[]? size=None, "
        "float[]? scale_factor=None, str mode='nearest', bool? align_corners=None, "
        "bool? recompute_scale_factor=None, bool antialias=False)", variants="functional",
        python="input, size=None, scale_factor=None, mode='nearest', align_corners=None, "
        "recompute_scale_factor=None, antialias=False; input: .dim")



def _deprecated(name: str, x, size, scale_factor, mode: str, align_corners):
    """torch's deprecated upsampling functions: a warning, then F.interpolate."""
    STATE.warn("UserWarning", f"`nn.functional.{name}` is deprecated. Use "
               "`nn.functional.interpolate` instead.")
    if not isinstance(x, Tensor):  # interpolate's input.dim()
        raise errors.no_attribute(x, "dim")
    return interpolate(x, size, scale_factor, mode, align_corners)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    return _deprecated("upsample", input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    return _deprecated("upsample_nearest", input, size, scale_factor, "nearest", None)


def upsample_bilinear(input, size=None, scale_factor=None):
    return _deprecated("upsample_bilinear", input, size, scale_factor, "bilinear", True)


declare("upsample", upsample, "upsample(Tensor input, int[]? size=None, "
        "float[]? scale_factor=None, str mode='nearest', bool? align_corners=None)",
        variants="functional",
        python="input: object, size=None, scale_factor=None, mode='nearest', "
        "align_corners=None")
for _name, _impl in (("upsample_nearest", upsample_nearest),
                     ("upsample_bilinear", upsample_bilinear)):
    declare(_name, _impl, f"{_name}(Tensor input, int[]? size=None, float[]? scale_factor=None)",
            variants="functional", python="input: object, size=None, scale_factor=None")
