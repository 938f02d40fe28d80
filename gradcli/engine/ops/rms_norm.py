"""torch.rms_norm and F.rms_norm: ATen's composite, input * rsqrt(mean(input**2) + eps) times
the weight, so its graph shows MulBackward0, RsqrtBackward0, AddBackward0 and MeanBackward1."""

from __future__ import annotations

import numpy as np

from gradcli.engine import declarations, errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor


def _sizes(shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def rms_norm(x: Tensor, normalized_shape, weight=None, eps=None) -> Tensor:
    shape = tuple(normalized_shape)
    if not shape:
        raise errors.runtime(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
            "one element, but got normalized_shape = []")
    if weight is not None and tuple(weight.shape) != shape:
        raise errors.runtime(
            f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
            f"{_sizes(weight.shape)} and normalized_shape = {_sizes(shape)}")
    if len(shape) > x.ndim or tuple(x.shape[x.ndim - len(shape):]) != shape:
        raise errors.runtime(
            f"Given normalized_shape={_sizes(shape)}, expected input with shape "
            f"[*{', '.join(map(str, shape))}], but got input of size{_sizes(x.shape)}")
    if not x.dtype.is_floating_point:
        raise errors.not_implemented_for("rms_norm", x.dtype)
    eps = float(np.finfo(x.dtype.np).eps) if eps is None else float(x.dtype.np.type(eps))
    dims = [x.ndim - i - 1 for i in range(len(shape))]
    rstd = F.rsqrt(F.add_scalar(F.mean(F.pow(x, 2), dims, True), eps))
    result = F.mul(x, rstd)
    return result if weight is None else F.mul(result, weight)


declare("rms_norm", rms_norm, "rms_norm(Tensor input, int[] normalized_shape, "
        "Tensor? weight=None, float? eps=None)", variants="torch")
declare("rms_norm", lambda x, normalized_shape, weight=None, eps=None: declarations.call(
    "torch", "rms_norm", x, normalized_shape, weight, eps), python="input: object, "
    "normalized_shape, weight: object=None, eps=None", variants="functional")
