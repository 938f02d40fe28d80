"""SLEEF's float-float arithmetic (src/common/df.h, its FMA variants as AVX-512 builds them):
a value carried as an unevaluated float32 sum (hi, lo), in NumPy."""

from __future__ import annotations

import numpy as np

from gradcli.engine.fma import fma32

_F = np.float32
_ONE = _F(1)


def _fmapn(x, y, z):
    """x * y - z, rounded once (vfmsub)."""
    return fma32(x, y, -z)


def _fmanp(x, y, z):
    """-x * y + z, rounded once (vfnmadd)."""
    return fma32(-x, y, z)


def add_ff(x, y):
    """dfadd_vf2_vf_vf (|x| >= |y|)."""
    s = x + y
    return s, (x - s) + y


def add2_ff(x, y):
    """dfadd2_vf2_vf_vf."""
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def add_fd(x, y):
    """dfadd_vf2_vf_vf2 (|x| >= |y|)."""
    s = x + y[0]
    return s, ((x - s) + y[0]) + y[1]


def add_df(x, y):
    """dfadd_vf2_vf2_vf (|x| >= |y|)."""
    s = x[0] + y
    return s, ((x[0] - s) + y) + x[1]


def add2_df(x, y):
    """dfadd2_vf2_vf2_vf."""
    s = x[0] + y
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y - v)) + x[1]


def add_dd(x, y):
    """dfadd_vf2_vf2_vf2 (|x| >= |y|)."""
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def add2_dd(x, y):
    """dfadd2_vf2_vf2_vf2."""
    s = x[0] + y[0]
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y[0] - v)) + (x[1] + y[1])


def neg(x):
    return -x[0], -x[1]


def normalize(x):
    s = x[0] + x[1]
    return s, (x[0] - s) + x[1]


def mul_ff(x, y):
    """dfmul_vf2_vf_vf."""
    s = x * y
    return s, _fmapn(x, y, s)


def mul_df(x, y):
    """dfmul_vf2_vf2_vf."""
    s = x[0] * y
    return s, fma32(x[1], y, _fmapn(x[0], y, s))


def mul_dd(x, y):
    """dfmul_vf2_vf2_vf2."""
    s = x[0] * y[0]
    return s, fma32(x[0], y[1], fma32(x[1], y[0], _fmapn(x[0], y[0], s)))


def squ(x):
    """dfsqu_vf2_vf2."""
    s = x[0] * x[0]
    return s, fma32(x[0] + x[0], x[1], _fmapn(x[0], x[0], s))


def rec(x):
    """dfrec_vf2_vf2."""
    s = _ONE / x[0]
    return s, s * _fmanp(x[1], s, _fmanp(x[0], s, _ONE))


def div(n, d):
    """dfdiv_vf2_vf2_vf2."""
    t = _ONE / d[0]
    s = n[0] * t
    u = _fmapn(t, n[0], s)
    v = _fmanp(d[1], t, _fmanp(d[0], t, _ONE))
    return s, fma32(s, v, fma32(n[1], t, u))
