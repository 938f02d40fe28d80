"""Op rows that only exist in place: zero_, fill_ and copy_, with their own grad_fn labels."""

from __future__ import annotations

import numpy as np

from gradcli.engine import functional as F
from gradcli.engine.ops.registry import defop


def _zeros(g, *args, **params):
    return F.zeros_like(g)


defop("zero_", "ZeroBackward0", np.zeros_like, promote="none", vjp=_zeros)
defop("fill_.Scalar", "FillBackward2", lambda a, value: np.full_like(a, value), promote="none",
      vjp=_zeros)
defop("fill_.Tensor", "FillBackward3", lambda a, value: np.full_like(a, value), promote="none",
      vjp=(_zeros, lambda g, a, value: F.sum(g)))
defop("copy_", "CopyBackwards",
      lambda a, src: np.broadcast_to(src, a.shape).astype(a.dtype), promote="none",
      vjp=(_zeros, lambda g, a, src: g), name="torch::autograd::CopyBackwards")
