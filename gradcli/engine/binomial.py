"""torch.binomial: _s_binomial_cpu's sample_binomial (BTRS from a mean of 10, inversion below)
on double uniforms, with a float32 count and probability doing their own steps in single
precision as the kernel's scalar_t arithmetic does."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import errors
from gradcli.engine.creation import draw_source
from gradcli.engine.declarations import declare
from gradcli.engine.functions import export
from gradcli.engine.ops.registry import OPS, apply, broadcast_shape, defop, not_implemented
from gradcli.engine.random import _uniform_f64
from gradcli.engine.tensor import Tensor

_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
         0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
         0.00925546218271273, 0.00833056343336287)


def _log(x: float) -> float:
    """C's log: -inf at 0 and nan below it, where math.log raises."""
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


def _stirling_tail(k: float) -> float:
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _inversion(count, prob, uniform, t) -> float:
    """Counting geometric gaps until they pass `count`; log1p(-prob) in the scalar type."""
    logprob = float(np.log1p(t(-prob)))
    geom_sum, num_geom = 0.0, t(0)
    while True:
        geom_sum += float(np.ceil(_log(uniform()) / logprob))
        if geom_sum > count:
            return num_geom
        num_geom = t(num_geom + t(1))


def _btrs(count, prob, uniform, t):
    """Hoermann's transformed rejection; `t` is the scalar type count and prob are held in."""
    one = t(1)
    stddev = float(np.sqrt(t(t(count * prob) * t(one - prob))))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * float(prob)
    c = float(t(count * prob)) + 0.5
    v_r = 0.92 - 4.2 / b
    r = float(t(prob / t(one - prob)))
    alpha = (2.83 + 5.1 / b) * stddev
    m = float(np.floor(t(t(count + one) * prob)))
    count_d = float(count)
    while True:
        u = uniform() - 0.5
        v = uniform()
        us = 0.5 - abs(u)
        k = t(np.floor((2 * a / us + b) * u + c))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = _log(v * alpha / (a / (us * us) + b))
        kd = float(k)
        left = float(t(t(count - k) + one))
        upperbound = ((m + 0.5) * _log((m + 1) / (r * (count_d - m + 1)))
                      + (count_d + 1) * _log((count_d - m + 1) / left)
                      + (kd + 0.5) * _log(r * left / float(t(k + one)))
                      + _stirling_tail(m) + _stirling_tail(count_d - m)
                      - _stirling_tail(kd) - _stirling_tail(float(t(count - k))))
        if v <= upperbound:
            return k


def _sample(count, prob, uniform, t):
    """sample_binomial for one element."""
    if count <= 0.0 or prob <= 0.0:
        return t(0)
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        if float(t(count * prob)) >= 10.0:
            return _btrs(count, prob, uniform, t)
        return _inversion(count, prob, uniform, t)
    if prob > 0.5:
        qprob = t(1.0 - float(prob))
        if float(t(count * qprob)) >= 10.0:
            return t(count - _btrs(count, qprob, uniform, t))
        return t(count - _inversion(count, qprob, uniform, t))
    return t(math.nan)


def _draws(count: Tensor, prob: Tensor, generator) -> np.ndarray:
    shape = broadcast_shape(count.shape, prob.shape)
    t = count.dtype.np.type
    source = draw_source(generator)

    def uniform() -> float:
        return float(_uniform_f64(source._words(2), 0.0, 1.0)[0])

    counts = np.broadcast_to(count.data, shape).ravel()
    probs = np.broadcast_to(prob.data, shape).ravel()
    with np.errstate(all="ignore"):  # C's overflows and NaNs pass silently
        return np.array([_sample(n, p, uniform, t) for n, p in zip(counts, probs)],
                        count.dtype.np).reshape(shape)


defop("binomial", "NotImplemented", lambda count, prob, drawn: drawn, promote="none",
      name="torch::autograd::NotImplemented",
      vjp=(not_implemented("aten::binomial"), not_implemented("aten::binomial")))


def binomial(count: Tensor, prob: Tensor, generator=None) -> Tensor:
    if not count.dtype.is_floating_point:
        raise errors.value_error("binomial only supports floating-point dtypes for count, got: "
                                 f"{count.dtype.scalar_name}")
    if prob.dtype is not count.dtype:
        raise errors.runtime(f"Found dtype {prob.dtype.scalar_name} but expected "
                             f"{count.dtype.scalar_name}")
    return apply(OPS["binomial"], count, prob, drawn=_draws(count, prob, generator))


__all__ = ["binomial"]

declare("binomial", binomial, "binomial(Tensor count, Tensor prob, Generator? generator=None)",
        variants="torch")

export(__name__, globals())
