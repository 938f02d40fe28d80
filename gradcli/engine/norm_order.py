"""torch's AVX2 CPU kernel for the 2-norm of a whole float32 tensor: eight running lanes of
squares (a multiply, then an add), the lanes summed in order, the leftover elements fused
multiply-added one by one, then the square root."""

from __future__ import annotations

import numpy as np

from gradcli.engine.fma import fma32

_LANES = 8
_ONE_CHUNK = 32768  # above this torch may split the reduction between threads


def exact_for(a: np.ndarray) -> bool:
    """Whether two_norm_f32 follows torch's order for this array."""
    return a.dtype == np.float32 and a.size < _ONE_CHUNK


def two_norm_f32(a: np.ndarray) -> np.float32:
    flat = np.ascontiguousarray(a).ravel()
    body = len(flat) - len(flat) % _LANES
    rows = flat[:body].reshape(-1, _LANES)
    lanes = np.zeros(_LANES, np.float32)
    for row in rows:  # one row at a time: each lane accumulates in order
        lanes = lanes + row * row
    total = lanes[0]
    for lane in lanes[1:]:
        total = np.float32(total + lane)
    for x in flat[body:]:
        total = fma32(np.float32(x), np.float32(x), total)
    return np.sqrt(np.float32(total))
