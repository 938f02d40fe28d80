"""MKL's AVX-512 VML kernels for erf and erfc (`mkl_vml_kernel_<s|d><Op>_Z0HAynn`), which torch's
CPU build runs on Intel processors with AVX-512, step by step (see vml.py for the interface:
SINGLE as vml._KERNELS, DOUBLE as vml_double.KERNELS). The float32 kernels compute in double;
every multiply-add below is the kernel's fused one (fma.py)."""

from __future__ import annotations

import numpy as np

from gradcli.engine.fma import fma64
from gradcli.engine.vml_double import _ERF_D2, _ERF_LIMIT, _ERF_LOW, _ERF_MIXED, _ERF_SHIFTER, _ERF_U, _table

_U64 = np.uint64
_SIGN64 = _U64(1 << 63)


def _d(text: str) -> float:
    return float.fromhex(text)


def _all(x: np.ndarray) -> np.ndarray:
    return np.ones(x.shape, bool)


# ---- sErf: x*p(x*x) in double, p of degree 16; +-1 from x*x = 14.688 (|x| about 3.8325) on ------
_SERF_POLY = tuple(_d(h) for h in (
    "0x1.ca6f11938c219p-59", "-0x1.ec22b47d823a1p-52", "0x1.ec4f20cd1a8a2p-46",
    "-0x1.31e5d8f72439cp-40", "0x1.09fc73009abb4p-35", "-0x1.5a63b2335f935p-31",
    "0x1.61e396f7c7e2bp-27", "-0x1.26046742b0352p-23", "0x1.98f32f5cc465ap-20",
    "-0x1.e683ac21ba632p-17", "0x1.f51077325b817p-14", "-0x1.bf24742ac5608p-11",
    "0x1.5633728782213p-8", "-0x1.b8254cec9607ap-6", "0x1.ce2e5d8c9e959p-4",
    "-0x1.81273ea9280efp-2", "0x1.20dd74f5bc259p+0"))
_SERF_SATURATED = np.uint32(0x416B027F).view(np.float32)  # 14.688109: x*x (float) from it on gives +-1


def _serf(x: np.ndarray) -> np.ndarray:
    """sErf: t = x*x in double, p = c16*t + c15, p = p*t + c14, ... (fused) down to c0, erf x =
    float(p*x); where float x*x is 14.688109 or more (infinities too), x's sign on 1. NaN takes
    the polynomial."""
    a = x.astype(np.float64)
    t = a * a
    p = np.full(a.shape, _SERF_POLY[0])
    for c in _SERF_POLY[1:]:
        p = fma64(p, t, c)
    out = (p * a).astype(np.float32)
    saturated = _SERF_SATURATED <= x * x
    out[saturated] = np.copysign(np.float32(1), x[saturated])
    return out


# ---- dErf: vml_double's erf (the same table and constants), its sums fused ----------------------
def _derf(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """dErf: c = min(|x|, 5.99) (NaN gives 5.99), g = c to a multiple of 1/128 (0 below 3.5/128),
    d = c - g, u = g*d, t = d*d (0 for c up to 2**-256); q = ((l(u) + t*(m(u) + t*s(t)))*t + v(u)
    with l, m, s, v the polynomials of vml_double's erf, evaluated by fused steps; from the row of
    g, e = min(erf(g), |x|)*2**1016, k = e*(the row's correction) - e, h = erf'(g)*d; erf |x| =
    ((h*q + k) + h)*2**-32 + e (fused), x's sign put back."""
    a = np.abs(x)
    c = np.minimum(a, _ERF_LIMIT)
    c[np.isnan(a)] = _ERF_LIMIT
    shifted = c + _ERF_SHIFTER
    g = np.where(c >= _d("0x1.cp-6"), shifted - _ERF_SHIFTER, 0.0)
    rows = _table("erf")[(shifted.view(_U64) & _U64(1023)).astype(np.intp)]
    d = c - g
    u = g * d
    t = np.where(c > _d("0x1p-256"), d, 0.0)
    t *= t
    m = fma64(fma64(u, _ERF_MIXED[0], _ERF_MIXED[1]), u, _ERF_MIXED[2])
    m = fma64(t, fma64(t, _ERF_D2[0], _ERF_D2[1]), m)
    low = fma64(u, _ERF_LOW[0], _ERF_LOW[1])
    for k in (2, 3):
        low = fma64(u, low, _ERF_LOW[k])
    m = fma64(t, m, low)
    v = fma64(u, _ERF_U[1], _ERF_U[0])
    for k in (2, 3, 4, 5):
        v = fma64(u, v, _ERF_U[k])
    q = fma64(t, m, v)
    h = rows[..., 1] * d
    packed = rows[..., 0].view(_U64)
    e = np.minimum((packed & _U64(0x007FFFFFFFFFFFFF)).view(np.float64), a) * _d("0x1p1016")
    correction = fma64(((packed >> _U64(32)) | _U64(0x3FF0000000000000)).view(np.float64), e, -e)
    out = fma64(h, q, correction)
    out += h
    out = fma64(out, _d("0x1p-32"), e)
    out.view(_U64)[...] ^= x.view(_U64) & _SIGN64
    return out, _all(x)


SINGLE = {
    "erf": (_serf, _all, None),
}

DOUBLE = {
    "erf": _derf,
}
