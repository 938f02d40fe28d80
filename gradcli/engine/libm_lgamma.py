"""glibc's lgamma and lgammaf for positive arguments (fdlibm's e_lgamma_r.c and its float
conversion, which glibc 2.36 ships), vectorised in NumPy in the argument's dtype: what
std::lgamma returns inside ATen's scalar kernels (calc_igamma). torch.lgamma's own vector code
is SLEEF's; special_math.lgamma serves that."""

from __future__ import annotations

import math

import numpy as np

# Each dtype's coefficients (a0..a11, tc, tf, tt, t0..t14, u0..u5, v1..v5, s0..s6, r1..r6,
# w0..w6) and the high-word thresholds of its branches.
_DOUBLE = dict(
    a=(7.72156649015328655494e-02, 3.22467033424113591611e-01, 6.73523010531292681824e-02,
       2.05808084325167332806e-02, 7.38555086081402883957e-03, 2.89051383673415629091e-03,
       1.19270763183362067845e-03, 5.10069792153511336608e-04, 2.20862790713908385557e-04,
       1.08011567247583939954e-04, 2.52144565451257326939e-05, 4.48640949618915160150e-05),
    tc=1.46163214496836224576e+00, tf=-1.21486290535849611461e-01,
    tt=-3.63867699703950536541e-18,
    t=(4.83836122723810047042e-01, -1.47587722994593911752e-01, 6.46249402391333854778e-02,
       -3.27885410759859649565e-02, 1.79706750811820387126e-02, -1.03142241298341437450e-02,
       6.10053870246291332635e-03, -3.68452016781138256760e-03, 2.25964780900612472250e-03,
       -1.40346469989232843813e-03, 8.81081882437654011382e-04, -5.38595305356740546715e-04,
       3.15632070903625950361e-04, -3.12754168375120860518e-04, 3.35529192635519073543e-04),
    u=(-7.72156649015328655494e-02, 6.32827064025093366517e-01, 1.45492250137234768737e+00,
       9.77717527963372745603e-01, 2.28963728064692451092e-01, 1.33810918536787660377e-02),
    v=(1.0, 2.45597793713041134822e+00, 2.12848976379893395361e+00, 7.69285150456672783825e-01,
       1.04222645593369134254e-01, 3.21709242282423911810e-03),
    s=(-7.72156649015328655494e-02, 2.14982415960608852501e-01, 3.25778796408930981787e-01,
       1.46350472652464452805e-01, 2.66422703033638609560e-02, 1.84028451407337715652e-03,
       3.19475326584100867617e-05),
    r=(1.0, 1.39200533467621045958e+00, 7.21935547567138069525e-01, 1.71933865632803078993e-01,
       1.86459191715652901344e-02, 7.77942496381893596434e-04, 7.32668430744625636189e-06),
    w=(4.18938533204672725052e-01, 8.33333333333329678849e-02, -2.77777777728775536470e-03,
       7.93650558643019558500e-04, -5.95187557450339963135e-04, 8.36339918996282139126e-04,
       -1.63092934096575273989e-03),
    words=dict(tiny=0x3b900000, low=0x3feccccc, low0=0x3FE76944, low1=0x3FCDA661,
               high0=0x3FFBB4C3, high1=0x3FF3B4C4, two=0x40000000, eight=0x40200000,
               huge=0x43900000))
_FLOAT = dict(
    a=(7.7215664089e-02, 3.2246702909e-01, 6.7352302372e-02, 2.0580807701e-02, 7.3855509982e-03,
       2.8905137442e-03, 1.1927076848e-03, 5.1006977446e-04, 2.2086278477e-04, 1.0801156895e-04,
       2.5214456400e-05, 4.4864096708e-05),
    tc=1.4616321325e+00, tf=-1.2148628384e-01, tt=6.6971006518e-09,
    t=(4.8383611441e-01, -1.4758771658e-01, 6.4624942839e-02, -3.2788541168e-02,
       1.7970675603e-02, -1.0314224288e-02, 6.1005386524e-03, -3.6845202558e-03,
       2.2596477065e-03, -1.4034647029e-03, 8.8108185446e-04, -5.3859531181e-04,
       3.1563205994e-04, -3.1275415677e-04, 3.3552918467e-04),
    u=(-7.7215664089e-02, 6.3282704353e-01, 1.4549225569e+00, 9.7771751881e-01,
       2.2896373272e-01, 1.3381091878e-02),
    v=(1.0, 2.4559779167e+00, 2.1284897327e+00, 7.6928514242e-01, 1.0422264785e-01,
       3.2170924824e-03),
    s=(-7.7215664089e-02, 2.1498242021e-01, 3.2577878237e-01, 1.4635047317e-01,
       2.6642270386e-02, 1.8402845599e-03, 3.1947532989e-05),
    r=(1.0, 1.3920053244e+00, 7.2193557024e-01, 1.7193385959e-01, 1.8645919859e-02,
       7.7794247773e-04, 7.3266842264e-06),
    w=(4.1893854737e-01, 8.3333335817e-02, -2.7777778450e-03, 7.9365057172e-04,
       -5.9518753551e-04, 8.3633989561e-04, -1.6309292987e-03),
    words=dict(tiny=0x30800000, low=0x3f666666, low0=0x3f3b4a20, low1=0x3e6d3308,
               high0=0x3fdda618, high1=0x3F9da620, two=0x40000000, eight=0x41000000,
               huge=0x4c800000))

_LOG = np.frompyfunc(math.log, 1, 1)


def _log(x: np.ndarray) -> np.ndarray:
    """glibc's log (math.log), or its logf as the double log rounded, for x > 0."""
    return np.asarray(_LOG(x.astype(np.float64)), np.float64).reshape(x.shape).astype(x.dtype)


def _nested(y: np.ndarray, coefficients, t) -> np.ndarray:
    """c0 + y*(c1 + y*(c2 + ...)), innermost first, each step rounded."""
    total = np.full_like(y, t(coefficients[-1]))
    for c in reversed(coefficients[:-1]):
        total = t(c) + y * total
    return total


def _below_two(x, word, k, t) -> np.ndarray:
    """lgamma on (2^-70, 2): around 1 by lgamma(x + 1) - log(x), three fits."""
    w = k["words"]
    low = word <= w["low"]
    r = np.where(low, -_log(np.where(low, x, t(1))), t(0))
    one = t(1)
    case = np.where(low, np.where(word >= w["low0"], 0, np.where(word >= w["low1"], 1, 2)),
                    np.where(word >= w["high0"], 0, np.where(word >= w["high1"], 1, 2)))
    y = np.where(low, np.select([case == 0, case == 1], [one - x, x - (t(k["tc"]) - one)], x),
                 np.select([case == 0, case == 1], [t(2) - x, x - t(k["tc"])], x - one))
    a, tt = k["a"], k["t"]
    z = y * y
    p1 = _nested(z, a[0::2], t)
    p2 = z * _nested(z, a[1::2], t)
    first = (y * p1 + p2) - t(0.5) * y
    cube = z * y
    q1, q2, q3 = (_nested(cube, tt[i::3], t) for i in range(3))
    second = t(k["tf"]) + (z * q1 - (t(k["tt"]) - cube * (q2 + y * q3)))
    with np.errstate(all="ignore"):
        third = -t(0.5) * y + (y * _nested(y, k["u"], t)) / _nested(y, k["v"], t)
    return r + np.select([case == 0, case == 1], [first, second], third)


def _below_eight(x, k, t) -> np.ndarray:
    """lgamma on [2, 8): a fit on [2, 3) and log of the product of the shifts."""
    i = np.floor(x)
    y = x - i
    p = y * _nested(y, k["s"], t)
    r = t(0.5) * y + p / _nested(y, k["r"], t)
    z = np.ones_like(x)
    for step in range(7, 2, -1):
        z = np.where(i >= step, z * (y + t(step - 1)), z)
    return np.where(i >= 3, r + _log(z), r)


def lgamma_positive(x: np.ndarray) -> np.ndarray:
    """glibc's lgamma (lgammaf for float32) elementwise for x > 0 (inf at 0 and inf, NaN kept)."""
    t = x.dtype.type
    k = _DOUBLE if t is np.float64 else _FLOAT
    w = k["words"]
    word = (x.view(np.uint64) >> np.uint64(32)).astype(np.int64) if t is np.float64 else \
        x.view(np.uint32).astype(np.int64)
    word &= 0x7fffffff
    out = np.empty_like(x)
    with np.errstate(all="ignore"):
        special = word >= (0x7ff00000 if t is np.float64 else 0x7f800000)
        out[special] = x[special] * x[special]
        zero = x == 0
        out[zero] = t(np.inf)
        tiny = ~special & ~zero & (word < w["tiny"])
        out[tiny] = -_log(x[tiny])
        exact = (x == 1) | (x == 2)
        out[exact] = t(0)
        rest = ~special & ~zero & ~tiny & ~exact
        small = rest & (word < w["two"])
        out[small] = _below_two(x[small], word[small], k, t)
        middle = rest & (word >= w["two"]) & (word < w["eight"])
        out[middle] = _below_eight(x[middle], k, t)
        large = rest & (word >= w["eight"]) & (word < w["huge"])
        v = x[large]
        z = t(1) / v
        tail = _nested(z, (k["w"][0],), t) + z * _nested(z * z, k["w"][1:], t)
        out[large] = (v - t(0.5)) * (_log(v) - t(1)) + tail
        huge = rest & (word >= w["huge"])
        out[huge] = x[huge] * (_log(x[huge]) - t(1))
    return out
