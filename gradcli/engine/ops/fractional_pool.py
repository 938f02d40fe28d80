"""Fractional max pooling (2d and 3d, FractionalMaxPool2DBackward0 and
FractionalMaxPool3DBackward0): each plane's windows start at the pseudo-random intervals ATen
draws from one uniform sample per plane and dimension, computed in the input's dtype."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors, schemas
from gradcli.engine.creation import rand
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F
from gradcli.engine.ops.convolution import _sizes
from gradcli.engine.ops.registry import NOT_FLOATING, OPS, apply, defop
from gradcli.engine.tensor import Tensor

_NAMES = {2: ("height", "width"), 3: ("time", "height", "width")}


def _intervals(sample, input_size: int, output_size: int, pool: int) -> np.ndarray:
    """ATen's generate_intervals: window starts from one sample, in the sample's dtype."""
    starts = np.empty(output_size, np.int64)
    if output_size > 1:
        kind = sample.dtype.type
        alpha = kind(input_size - pool) / kind(output_size - 1)
        steps = np.arange(output_size - 1).astype(sample.dtype)
        starts[:-1] = ((steps + sample) * alpha).astype(np.int64) - np.int64(sample * alpha)
    if output_size > 0:
        starts[-1] = input_size - pool
    return starts


def _fractional_max_pool(x, samples, kernel, output_size):
    """(N, C, *S) or (C, *S) -> each window's maximum and its flat index in its plane: the
    first maximum, or the last NaN (ATen's `val > maxval || isnan(val)`)."""
    n = len(kernel)
    if x.ndim == n + 1:
        values, indices = _fractional_max_pool(x[None], samples, kernel, output_size)
        return values[0], indices[0]
    batch, channels, spatial = x.shape[0], x.shape[1], x.shape[2:]
    values = np.empty((batch, channels, *output_size), x.dtype)
    indices = np.empty((batch, channels, *output_size), np.int64)
    strides = [int(np.prod(spatial[d + 1:])) for d in range(n)]
    for b in range(batch):
        for c in range(channels):
            # 2d draws (width, height) per plane, 3d (time, height, width)
            order = (1, 0) if n == 2 else (0, 1, 2)
            starts = [_intervals(samples[b, c, order[d]], spatial[d], output_size[d], kernel[d])
                      for d in range(n)]
            places = 0
            for d in range(n):  # (out..., k...) grid of flat plane indices
                along = starts[d][:, None] + np.arange(kernel[d])[None, :]
                shape = [1] * (2 * n)
                shape[d], shape[n + d] = output_size[d], kernel[d]
                places = places + (along * strides[d]).reshape(shape)
            places = np.broadcast_to(places, (*output_size, *kernel)).reshape(*output_size, -1)
            window = x[b, c].reshape(-1)[places]
            nan = np.isnan(window)
            last_nan = window.shape[-1] - 1 - nan[..., ::-1].argmax(-1)
            picked = np.where(nan.any(-1), last_nan, window.argmax(-1))
            values[b, c] = np.take_along_axis(window, picked[..., None], -1)[..., 0]
            indices[b, c] = np.take_along_axis(places, picked[..., None], -1)[..., 0]
    return values, indices


def _scatter_to_planes(g, x, indices, spatial: int):
    """Each output's gradient added at its index in its input plane."""
    planes = int(np.prod(x.shape[:-spatial]))
    out = np.zeros((planes, int(np.prod(x.shape[-spatial:]))), g.dtype)
    flat = indices.reshape(planes, -1)
    np.add.at(out, (np.arange(planes)[:, None], flat), g.reshape(planes, -1))
    return out.reshape(x.shape)


def _gathered(gg: Tensor, indices: np.ndarray, spatial: int) -> Tensor:
    """The double backward: gg read at each plane's indices."""
    lead = indices.shape[:-spatial]
    index = Tensor(np.ascontiguousarray(indices).reshape(*lead, -1), dtypes.int64)
    flat = F.reshape(gg, (*lead, -1))
    return F.view(F.gather(flat, flat.ndim - 1, index), indices.shape)


for _n in (2, 3):
    defop(f"fractional_max_pool{_n}d", f"FractionalMaxPool{_n}DBackward0", _fractional_max_pool,
          promote="none", n_outputs=2, out_dtype=lambda dtype, params: (dtype, dtypes.int64),
          save=(0, 1), refuses=(f"fractional_max_pool{_n}d", NOT_FLOATING),
          vjp=(lambda g, x, samples, kernel, output_size, _n=_n: F.apply_op(
              f"fractional_max_pool{_n}d_backward", g[0], x, samples, kernel=kernel,
              output_size=output_size), None))
    defop(f"fractional_max_pool{_n}d_backward", f"FractionalMaxPool{_n}DBackwardBackward0",
          lambda g, x, samples, kernel, output_size: _scatter_to_planes(
              g, x, _fractional_max_pool(x, samples, kernel, output_size)[1], len(kernel)),
          promote="none", save=(1, 2),
          vjp=(lambda gg, g, x, samples, kernel, output_size: _gathered(
              gg, _fractional_max_pool(x.data, samples.data, kernel, output_size)[1],
              len(kernel)),
               lambda gg, g, x, samples, kernel, output_size: F.zeros_for(x), None))


def _checked(n: int, x: Tensor, kernel, output_size, samples: Tensor) -> tuple:
    """torch._C._nn.fractional_max_pool{n}d: ATen's checks in order, then the row."""
    name = f"fractional_max_pool{n}d"
    bound = schemas.bind_cpp(f"{name}(Tensor self, int[{n}] kernel_size, int[{n}] output_size, "
                             "Tensor random_samples)", x, kernel, output_size, samples)
    kernel, output_size = (tuple(bound[key]) * (n if len(bound[key]) == 1 else 1)
                           for key in ("kernel_size", "output_size"))
    if x.ndim not in (n + 1, n + 2):
        raise errors.runtime(f"{name}(): Expected {n + 1}D or {n + 2}D tensor, but got: "
                             f"{_sizes(x.shape)}")
    where = name + ("()" if n == 2 else "_out()")
    room = 0 if n == 2 else 1  # ATen's 3d check is strict: the last window may not reach the end
    for d, what in enumerate(_NAMES[n]):
        size = x.shape[x.ndim - n + d]
        if output_size[d] + kernel[d] - 1 > size - room:
            raise errors.runtime(f"{where}: pool {what} {kernel[d]} too large relative to input "
                                 f"{what} {size}")
    if samples.dtype is not x.dtype:
        raise errors.runtime("Expect _random_samples to have the same dtype as input")
    if samples.ndim != 3:
        raise errors.runtime("Expect _random_samples to have 3 dimensions, got "
                             f"{samples.ndim}")
    if samples.shape[0] < (x.shape[0] if x.ndim == n + 2 else 1):
        raise errors.runtime("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != x.shape[-n - 1]:
        raise errors.runtime("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != n:
        raise errors.runtime(f"Expect _random_samples.size(2) equals to {n}; got "
                             f"{samples.shape[2]}.")
    return apply(OPS[name], x, samples, kernel=kernel, output_size=output_size)


def _size(x: Tensor, dim: int) -> int:
    """input.size(dim), with its IndexError."""
    if not -x.ndim <= dim < x.ndim:
        raise errors.TorchError("IndexError", "Dimension out of range (expected to be in range "
                                f"of [{-x.ndim}, {x.ndim - 1}], but got {dim})")
    return x.shape[dim]


def _read(x, method: str) -> None:
    """torch's Python code calling input.<method>(): an AttributeError for a non-tensor."""
    if not isinstance(x, Tensor):
        raise errors.no_attribute(x, method)


def _fractional(n: int):
    """F.fractional_max_pool{n}d(_with_indices): the output size from the ratio, a uniform
    sample per plane and dimension drawn when none is given, then the pooling."""
    def run(x: Tensor, kernel_size, output_size=None, output_ratio=None,
            return_indices: bool = False, _random_samples=None):
        name = f"fractional_max_pool{n}d"
        if output_size is None and output_ratio is None:
            raise errors.value_error(f"{name} requires specifying either an output_size or an "
                                     "output_ratio")
        if output_size is None:
            if n == 2:
                if not isinstance(output_ratio, (tuple, list)):
                    raise errors.type_error(f"object of type '{errors.type_name(output_ratio)}' "
                                            "has no len()")
                if len(output_ratio) > 2:
                    raise errors.value_error(f"{name} requires output_ratio to either be a "
                                             "single Int or tuple of Ints.")
            ratio = tuple(output_ratio) if isinstance(output_ratio, (tuple, list)) \
                else (output_ratio,) * n
            _read(x, "size")
            output_size = [int(_size(x, d - n) * ratio[d]) for d in range(n)]
        if _random_samples is None:
            _read(x, "dim")
            batch = 1 if x.ndim == n + 1 else _size(x, 0)
            _random_samples = rand(batch, _size(x, -n - 1), n, dtype=x.dtype)
        elif not isinstance(x, Tensor):
            raise errors.type_error(f"{name}(): argument 'input' (position 1) must be Tensor, "
                                    f"not {errors.type_name(x)}")
        values, indices = _checked(n, x, kernel_size, output_size, _random_samples)
        return (values, indices) if return_indices else values
    return run


fractional_max_pool2d = _fractional(2)
fractional_max_pool3d = _fractional(3)

_SPEC = ("input: object, kernel_size, output_size=None, output_ratio=None, "
         "return_indices=False, _random_samples=None")
for _n, _fn in ((2, fractional_max_pool2d), (3, fractional_max_pool3d)):
    declare(f"fractional_max_pool{_n}d", _fn, python=_SPEC, variants="functional",
            title=f"_fractional_max_pool{_n}d")
    declare(f"fractional_max_pool{_n}d_with_indices",
            lambda x, kernel, size, ratio, _, samples, _fn=_fn: _fn(x, kernel, size, ratio, True,
                                                                    samples),
            python=_SPEC, variants="functional")
del _n, _fn
