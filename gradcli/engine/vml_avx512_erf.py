"""MKL's AVX-512 VML kernels for erf and erfc (`mkl_vml_kernel_<s|d><Op>_Z0HAynn`), which torch's
CPU build runs on Intel processors with AVX-512, step by step (see vml.py for the interface:
SINGLE as vml._KERNELS, DOUBLE as vml_double.KERNELS). sErf computes in double; every
multiply-add below is the kernel's fused one (fma.py)."""

from __future__ import annotations

import numpy as np

from gradcli.engine.fma import fma32, fma64
from gradcli.engine.vml import (_ERFC_LIMIT, _ERFC_SHIFTER, _ERFC_TOP, _ERFC_V, _ERFC_W, _EXPONENT,
                                _LOW_26, _SIGN, _SIXTY_FOURTH, _TINY, _TWO_MINUS_64)
from gradcli.engine.vml import _table as _float_table
from gradcli.engine.vml_double import (_ERF_D2, _ERF_LIMIT, _ERF_LOW, _ERF_MIXED, _ERF_SHIFTER,
                                       _ERF_U, _ERFC_D2, _ERFC_U, _ERFC_ZERO, _table)
from gradcli.engine.vml_double import _ERFC_LIMIT as _DERFC_TOP
from gradcli.engine.vml_double import _EXPONENT as _EXPONENT64


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
_SERF_SATURATED = np.uint32(0x416B027F).view(np.float32)  # 14.688109: x*x from it on gives +-1


def _plain(a, b, c):
    return a * b + c


def _serf_polynomial(t: np.ndarray, madd, magnitudes: bool = False) -> np.ndarray:
    """c16*t + c15, times t plus c14, ... down to c0 (each step a `madd`); of the coefficients'
    magnitudes if `magnitudes`."""
    poly = [abs(c) for c in _SERF_POLY] if magnitudes else _SERF_POLY
    p = np.full(t.shape, poly[0])
    for c in poly[1:]:
        p = madd(p, t, c)
    return p


def _serf(x: np.ndarray) -> np.ndarray:
    """sErf: t = x*x in double, p = c16*t + c15, p = p*t + c14, ... (fused) down to c0, erf x =
    float(p*x); where float x*x is 14.688109 or more (infinities too), x's sign on 1. NaN takes
    the polynomial. The polynomial is taken with separate roundings first, and fused (fma64)
    only where the float it rounds to could differ."""
    a = x.astype(np.float64)
    t = a * a
    v = _serf_polynomial(t, _plain) * a
    # the fused steps differ from plain ones by a few roundings of the terms' magnitudes (their
    # sum, |c16|*t**16 + ... + |c0|, bounds them): only lanes whose float could change take them
    terms = _serf_polynomial(t, _plain, magnitudes=True) * np.abs(a)
    margin = terms * 2.0 ** -45 + np.abs(v) * 2.0 ** -50
    with np.errstate(invalid="ignore"):
        doubtful = ((v - margin).astype(np.float32) != (v + margin).astype(np.float32)) | np.isnan(v)
    if doubtful.any():
        v[doubtful] = _serf_polynomial(t[doubtful], fma64) * a[doubtful]
    out = v.astype(np.float32)
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


# ---- sErfc: vml's erfc (the same table and constants), its products and sums fused ------------
def _serfc(x: np.ndarray) -> np.ndarray:
    """sErfc: with m = min(|x|, 10.046875) (NaN gives it), c = m to 1/64, d = max(m, 2**-32) - c,
    u = c*d and from the row of c erfc(c)*2**64 (E), the slope D and low(c): w(u) and v(u) by
    fused steps, h = E - D*d and its error r = D*d - (E - h) (fused), t = d*(w*u*u - u) + (v*d*d
    - low) (fused); erfc |x| = h - (D*t + r), times 2**-64 (for x < 0, 2 less that, fused). x
    from 10.054194 on (and NaN) take the slow path."""
    m = np.where(np.abs(x) < _ERFC_TOP, np.abs(x), _ERFC_TOP)
    shifted = m + _ERFC_SHIFTER
    c = shifted - _ERFC_SHIFTER
    d = np.maximum(m, _TINY) - c
    u = c * d
    high, word = _float_table("erfc", 2)[shifted.view(np.uint32) - _ERFC_SHIFTER.view(np.uint32)].T
    w = fma32(u, -_ERFC_W[1], _ERFC_W[0])
    v = fma32(u, -_ERFC_V[1], _ERFC_V[0])
    w = fma32(u, w, _ERFC_W[2])
    v = fma32(u, v, _ERFC_V[2])
    w = fma32(u, w, _ERFC_W[3])
    low = ((word >> np.uint32(26)) | _SIXTY_FOURTH.view(np.uint32)).view(np.float32) - _SIXTY_FOURTH
    v *= d
    v *= d
    slope = ((high & _EXPONENT) + (word & _LOW_26)).view(np.float32)
    e = high.view(np.float32)
    h = fma32(-d, slope, e)
    v = fma32(d, v, -low)
    tail = fma32(w, u * u, -u)
    error = fma32(d, slope, -(e - h))
    tail = fma32(d, tail, v)
    tail = fma32(slope, tail, error)
    sign = x.view(np.uint32) & _SIGN
    two = np.where(sign != 0, np.float32(2), np.float32(0))
    return fma32((sign | _TWO_MINUS_64).view(np.float32), h - tail, two)


# ---- dErfc: vml_double's erfc (the same table and constants), its products and sums fused ------
def _fused_horner(t: np.ndarray, poly: tuple[float, ...]) -> np.ndarray:
    p = fma64(t, poly[0], poly[1])
    for c in poly[2:]:
        p = fma64(t, p, c)
    return p


def _derfc(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """dErfc: c = min(|x|, 27.24) (NaN gives it), g = c to a multiple of 1/128, d = max(c, 2**-128)
    - g, u = g*d, t = d*d; q = d**3*(((D0*u + D1)*t + p2(u))*t + D3 + u*p1(u)) - k and f =
    (u*u)*p0(u) - u (p0, p1, p2 with D2 the polynomials of vml_double's erfc, each step fused);
    from the row of g, e = erfc(g)*2**128 and the slope s: h = e - d*s, its error r = d*s - (e - h),
    erfc |x| = (h - (s*(d*f + q) + r))*2**-128 (for x < 0, 2 less that), all fused. x from about
    27.226 on give 0, as the kernel's slow path does there; NaN takes that path."""
    c = np.minimum(np.abs(x), _DERFC_TOP)
    c[np.isnan(x)] = _DERFC_TOP
    shifted = c + _ERF_SHIFTER
    g = shifted - _ERF_SHIFTER
    d = np.maximum(c, _d("0x1p-128")) - g
    u = g * d
    rows = _table("erfc")[(shifted.view(_U64) & _U64(4095)).astype(np.intp)].view(_U64)
    t = d * d
    q = _fused_horner(u, _ERFC_U[2] + (_ERFC_D2[2],))
    q = fma64(t, fma64(u, _ERFC_D2[0], _ERFC_D2[1]), q)
    q = fma64(t, q, _ERFC_D2[3])
    q = fma64(u, _fused_horner(u, _ERFC_U[1]), q)
    k = ((rows[..., 1] >> _U64(55)) | _U64(0x3F60000000000000)).view(np.float64) - _d("0x1p-9")
    q = fma64(t * d, q, -k)
    f = fma64(u * u, _fused_horner(u, _ERFC_U[0]), -u)
    f = fma64(d, f, q)
    e = rows[..., 0].view(np.float64)
    mantissa = rows[..., 1] & _U64(0x007FFFFFFFFFFFFF)
    slope = ((rows[..., 0] & _EXPONENT64) + mantissa).view(np.float64)
    h = fma64(-d, slope, e)
    f = fma64(slope, f, fma64(d, slope, -(e - h)))
    sign = x.view(_U64) & _SIGN64
    scale = (sign | _U64(0x37F0000000000000)).view(np.float64)
    out = fma64(scale, h - f, np.where(sign != 0, 2.0, 0.0))
    out[x >= _ERFC_ZERO] = 0.0
    return out, ~np.isnan(x)


SINGLE = {
    "erf": (_serf, _all, None),
    "erfc": (_serfc, lambda x: x < _ERFC_LIMIT, None),
}

DOUBLE = {
    "erf": _derf,
    "erfc": _derfc,
}
