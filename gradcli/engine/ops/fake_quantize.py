"""torch.fake_quantize_per_tensor_affine and fake_quantize_per_channel_affine: values rounded to
the integer grid of a scale and zero point, clamped to [quant_min, quant_max] and mapped back,
in the input's dtype with a float scale, as torch's CPU kernel computes them; the gradient
passes where the value was in range (FakeQuantize...CachemaskBackward0)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F
from gradcli.engine.ops.registry import OPS, apply, defop
from gradcli.engine.ops.shapes import wrap_dim
from gradcli.engine.tensor import Tensor, wrap


def _grid(x: np.ndarray, scale, zero_point, quant_min: int, quant_max: int):
    """(the fake-quantized values, where the rounded value lay inside the range)."""
    scale = np.asarray(scale, np.float32)  # torch's kernel: a float scale, 1.0f / scale
    inverse = (np.float32(1) / scale).astype(x.dtype)
    q = (np.asarray(zero_point).astype(x.dtype) + np.rint(x * inverse)).astype(np.int64)
    values = (np.clip(q, quant_min, quant_max) - zero_point).astype(x.dtype) * scale
    return values.astype(x.dtype), (quant_min <= q) & (q <= quant_max)


def _per_channel(scale: np.ndarray, ndim: int, axis: int) -> np.ndarray:
    shape = [1] * ndim
    shape[axis] = -1
    return scale.reshape(shape)


def _forward(x, scale, zero_point, quant_min, quant_max, axis):
    if axis is not None:
        scale, zero_point = (_per_channel(p, x.ndim, axis) for p in (scale, zero_point))
    return _grid(x, scale, zero_point, quant_min, quant_max)[0]


def _masked_grad(g: Tensor, x: Tensor, scale, zero_point, quant_min, quant_max, axis) -> Tensor:
    if axis is not None:
        scale, zero_point = (_per_channel(p, x.ndim, axis) for p in (scale, zero_point))
    inside = _grid(x.data, scale, zero_point, quant_min, quant_max)[1]
    return F.mul(g, wrap(inside, dtypes.bool_))


for _key, _label in (("fake_quantize_per_tensor",
                      "FakeQuantizePerTensorAffineCachemaskBackward0"),
                     ("fake_quantize_per_tensor_qparams",
                      "FakeQuantizePerTensorAffineCachemaskTensorQparamsBackward0"),
                     ("fake_quantize_per_channel",
                      "FakeQuantizePerChannelAffineCachemaskBackward0")):
    defop(_key, _label, _forward, promote="none", save=(0,), vjp=_masked_grad)


def _check_range(quant_min: int, quant_max: int) -> None:
    if quant_min > quant_max:
        raise errors.runtime("`quant_min` should be less than or         equal to `quant_max`.")


def _check_input(x: Tensor) -> None:
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise errors.TorchError("NotImplementedError", "gradcli does not support fake "
                                f"quantization of {x.dtype} tensors yet")


def fake_quantize_per_tensor_affine(x: Tensor, scale, zero_point, quant_min: int,
                                    quant_max: int) -> Tensor:
    _check_input(x)
    _check_range(quant_min, quant_max)
    key = "fake_quantize_per_tensor"
    if isinstance(scale, Tensor):  # the overload of tensor qparams
        scale, zero_point, key = scale.data.reshape(()), int(zero_point.data), key + "_qparams"
    if not quant_min <= zero_point <= quant_max:
        raise errors.runtime("`zero_point` must be between `quant_min` and `quant_max`.")
    return apply(OPS[key], x, scale=float(scale), zero_point=int(zero_point),
                 quant_min=quant_min, quant_max=quant_max, axis=None)


def fake_quantize_per_channel_affine(x: Tensor, scale: Tensor, zero_point: Tensor, axis: int,
                                     quant_min: int, quant_max: int) -> Tensor:
    _check_input(x)
    if zero_point.dtype not in (dtypes.int32, dtypes.float32, dtypes.float16):
        raise errors.runtime(f"Zero-point must be Int32, Float or Half, found "
                             f"{zero_point.dtype.scalar_name}")
    if zero_point.dtype is not dtypes.int32:
        raise errors.TorchError("NotImplementedError", "gradcli does not support floating "
                                "zero points in fake_quantize_per_channel_affine yet")
    _check_range(quant_min, quant_max)
    if scale.ndim != 1 or zero_point.ndim != 1:
        raise errors.runtime("scale and zero-point need to be 1-dimensional tensors")
    axis = wrap_dim(axis, x.ndim)
    if scale.shape[0] != x.shape[axis] or zero_point.shape[0] != x.shape[axis]:
        raise errors.runtime("dimensions of scale and zero-point are not consistent with input "
                             "tensor")
    zero_points = zero_point.data.astype(np.int64)
    if (zero_points < quant_min).any() or (zero_points > quant_max).any():
        raise errors.runtime("`zero_point` must be between `quant_min` and `quant_max`.")
    return apply(OPS["fake_quantize_per_channel"], x, scale=scale.data, zero_point=zero_points,
                 quant_min=quant_min, quant_max=quant_max, axis=axis)


declare("fake_quantize_per_tensor_affine", fake_quantize_per_tensor_affine,
        "fake_quantize_per_tensor_affine(Tensor input, Tensor scale, Tensor zero_point, "
        "int quant_min, int quant_max)",
        "fake_quantize_per_tensor_affine(Tensor input, float scale, int zero_point, "
        "int quant_min, int quant_max)", variants="torch")
declare("fake_quantize_per_channel_affine", fake_quantize_per_channel_affine,
        "fake_quantize_per_channel_affine(Tensor input, Tensor scale, Tensor zero_point, "
        "int axis, int quant_min, int quant_max)", variants="torch")
