"""Reduction op rows: sum and mean over all elements or chosen dims."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors, functional as F
from gradcli.engine.ops.registry import defop


def _sum_dtype(dtype, params):
    if params.get("dtype") is not None:
        return params["dtype"]
    return dtype if dtype.is_floating_point else dtypes.int64


def _mean_dtype(dtype, params):
    out = params.get("dtype") or dtype
    if not out.is_floating_point:
        raise errors.runtime(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {_scalar_type_name(dtype)}")
    return out


def _scalar_type_name(dtype) -> str:
    return dtype.legacy_name.removesuffix("Tensor")


def _unsqueeze_dims(g, dim, keepdim, sizes):
    if keepdim or not sizes:
        return g
    for d in sorted(d % len(sizes) for d in dim):
        g = F.unsqueeze(g, d)
    return g


def _numel(sizes, dim=None):
    picked = sizes if dim is None else [sizes[d] for d in dim]
    return int(np.prod(picked, dtype=np.int64))


defop("sum", "SumBackward0", lambda a, sizes, dtype=None: np.sum(a), promote="none",
      out_dtype=_sum_dtype, vjp=lambda g, a, sizes, dtype=None: F.expand(g, sizes))
defop("sum.dim_IntList", "SumBackward1",
      lambda a, dim, keepdim, sizes, dtype=None: np.sum(a, axis=dim, keepdims=keepdim),
      promote="none", out_dtype=_sum_dtype,
      vjp=lambda g, a, dim, keepdim, sizes, dtype=None:
          F.expand(_unsqueeze_dims(g, dim, keepdim, sizes), sizes))
defop("mean", "MeanBackward0", lambda a, sizes, dtype=None: np.mean(a, dtype=a.dtype),
      promote="none", out_dtype=_mean_dtype,
      vjp=lambda g, a, sizes, dtype=None: F.div(F.expand(g, sizes), _numel(sizes)))
defop("mean.dim", "MeanBackward1",
      lambda a, dim, keepdim, sizes, dtype=None: np.mean(a, axis=dim, keepdims=keepdim, dtype=a.dtype),
      promote="none", out_dtype=_mean_dtype,
      vjp=lambda g, a, dim, keepdim, sizes, dtype=None:
          F.div(F.expand(_unsqueeze_dims(g, dim, keepdim, sizes), sizes), _numel(sizes, dim)))
