"""torch's gamma-family kernels (aten/src/ATen/native/Math.h) vectorised in NumPy: lgamma,
digamma, trigamma, the Hurwitz zeta and polygamma, in the float or double arithmetic torch's CPU
code uses; and erfc, entr, xlog1py and logcumsumexp's scan. The Bessel functions are in
bessel_math.py.
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import libm_float
from gradcli.engine.fma import fused
from gradcli.engine.kernels_order import scalar_exp

# lgamma: torch's vector code calls SLEEF's, within an ulp and almost always the correctly rounded
# value (98.8% of random doubles); computed here in long double and rounded once, it matches far
# more often than Python's math.lgamma (its own Lanczos sum, 36%).
_LD = np.longdouble
_EULER = _LD("0.5772156649015328606065121")
_PI = _LD("3.141592653589793238462643383")
_HALF_LOG_2PI = _LD("0.9189385332046727417803297")
# zeta(k) for k = 2, 3, ...: lgamma(1 + e) = -euler e + sum (-1)^k zeta(k) / k e^k, |e| <= 1/2
_ZETAS = tuple(_LD(z) for z in """
    1.644934066848226436472 1.2020569031595942854 1.082323233711138191516
    1.036927755143369926331 1.017343061984449139715 1.00834927738192282684
    1.004077356197944339379 1.002008392826082214418 1.000994575127818085337
    1.000494188604119464559 1.000246086553308048299 1.000122713347578489147
    1.000061248135058704829 1.000030588236307020494 1.000015282259408651872
    1.000007637197637899762 1.00000381729326499984 1.000001908212716553939
    1.000000953962033872796 1.000000476932986787806 1.000000238450502727733
    1.000000119219925965311 1.000000059608189051259 1.000000029803503514652
    1.000000014901554828365 1.000000007450711789835 1.000000003725334024788
    1.000000001862659723513 1.00000000093132743242 1.000000000465662906503
    1.000000000232831183368 1.000000000116415501727 1.000000000058207720879
    1.000000000029103850445 1.000000000014551921891 1.000000000007275959835
    1.000000000003637979547 1.00000000000181898965 1.000000000000909494784
    1.000000000000454747378 1.000000000000227373685 1.000000000000113686841
    1.00000000000005684342 1.00000000000002842171 1.000000000000014210855
    1.000000000000007105427 1.000000000000003552714 1.000000000000001776357
    1.000000000000000888178 1.000000000000000444089 1.000000000000000222045
    1.000000000000000111022 1.000000000000000055511 1.000000000000000027756
    1.000000000000000013878 1.000000000000000006939 1.000000000000000003469
    1.000000000000000001735 1.000000000000000000867 1.000000000000000000434
    1.000000000000000000217 1.000000000000000000108 1.000000000000000000054
    1.000000000000000000027
""".split())
# Bernoulli numbers B(2k) / (2k (2k - 1)) of Stirling's series, as fractions
_STIRLING = tuple(_LD(n) / _LD(d) for n, d in (
    (1, 12), (-1, 360), (1, 1260), (-1, 1680), (1, 1188), (-691, 360360), (1, 156),
    (-3617, 122400), (43867, 244188), (-174611, 125400)))


def _lgamma_near_one(e: np.ndarray) -> np.ndarray:
    """lgamma(1 + e) for |e| <= 1/2, by its Taylor series at 1."""
    total = np.zeros_like(e)
    for k in range(len(_ZETAS) + 1, 1, -1):
        total = total * e + (-1) ** k * _ZETAS[k - 2] / k
    return (total * e - _EULER) * e + 0  # + 0: lgamma(1) is +0, never -0


def _lgamma_positive(x: np.ndarray) -> np.ndarray:
    """lgamma for x > 0 in long double: the series at 1 and 2 below 2.5, the recurrence down to
    [1.5, 2.5) below 10, Stirling's series above."""
    out = np.empty_like(x)
    small = x < 0.5
    out[small] = _lgamma_near_one(x[small]) - np.log(x[small])
    middle = (x >= 0.5) & (x < 1.5)
    out[middle] = _lgamma_near_one(x[middle] - 1)
    low = (x >= 1.5) & (x < 10)
    z = x[low]
    steps = np.floor(z - _LD(1.5))
    r = z - steps
    product = np.ones_like(z)
    for k in range(int(steps.max()) if z.size else 0, 0, -1):
        product = np.where(steps >= k, product * (r + (k - 1)), product)
    e = r - 2
    out[low] = _lgamma_near_one(e) + np.log1p(e) + np.log(product)
    large = x >= 10
    z = x[large]
    inverse, square = 1 / z, 1 / (z * z)
    series = np.zeros_like(z)
    for c in reversed(_STIRLING):
        series = series * square + c
    out[large] = (z - _LD(0.5)) * np.log(z) - z + _HALF_LOG_2PI + series * inverse
    return out


def lgamma(a: np.ndarray) -> np.ndarray:
    """log|gamma(a)| elementwise (inf at 0 and the negative integers), rounded to a's dtype;
    below 0 by the reflection formula."""
    x = np.asarray(a, np.float64).astype(_LD)
    out = np.full(x.shape, np.inf, _LD)
    with np.errstate(all="ignore"):
        positive = (x > 0) & (x < np.inf)
        out[positive] = _lgamma_positive(x[positive])
        negative = (x < 0) & (x != np.floor(x)) & np.isfinite(x)
        v = x[negative]
        sine = np.abs(np.sin(_PI * (v - np.round(v))))
        out[negative] = np.log(_PI / (sine * -v)) - _lgamma_positive(-v)
        out[np.isnan(x)] = np.nan
        return out.astype(np.float64).astype(a.dtype, copy=False).reshape(np.shape(a))


def _python_pow(x: float, y: float) -> float:
    """libm's pow (math.pow calls it), with IEEE's results where Python raises."""
    try:
        return math.pow(x, y)
    except (ValueError, OverflowError):
        with np.errstate(all="ignore"):
            return float(np.power(x, y))


# NumPy's own float64 power (SVML's on AVX512) differs from glibc's in the last bit for ~5%
_POW = np.frompyfunc(_python_pow, 2, 1)


def _pow(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.asarray(_POW(x, y), np.float64)


_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _log(x: np.ndarray) -> np.ndarray:
    """std::log in x's dtype: glibc's logf or log."""
    if x.dtype in (np.float32, np.float64):
        return libm_float.scalar("log", x)
    return np.log(x.astype(np.float64)).astype(x.dtype)


def _digamma_positive(x: np.ndarray) -> np.ndarray:
    """calc_digamma's recurrence up to 10 and asymptotic series, for x > 0 (or NaN, inf)."""
    t = x.dtype.type
    result = np.zeros_like(x)
    x = x.copy()
    low = x < 10
    while low.any():
        result[low] -= t(1) / x[low]
        x[low] += t(1)
        low = x < 10
    z = t(1) / (x * x)
    poly = np.zeros_like(x)
    for c in _DIGAMMA_A:
        poly = fused(poly, z, t(c))
    y = np.where(x < 1e17, z * poly, t(0))
    out = result + _log(x) - t(0.5) / x - y
    return np.where(x == 10, result + t(_PSI_10), out)


_TAN = np.frompyfunc(math.tan, 1, 1)


def digamma(a: np.ndarray) -> np.ndarray:
    """calc_digamma elementwise: ±inf at ±0, NaN at negative integers, reflection below 0."""
    x = np.asarray(a)
    t = x.dtype.type
    with np.errstate(all="ignore"):
        negative = x < 0
        integer = x == np.trunc(x)
        reflected = np.where(negative, t(1) - x, x)
        out = _digamma_positive(reflected)
        r = (x - np.trunc(x)).astype(np.float64)
        cot = (np.pi / np.asarray(_TAN(np.pi * r), np.float64)).astype(x.dtype)  # glibc tan
        out = np.where(negative, out - cot, out)
        out = np.where(negative & integer, t(np.nan), out)
        return np.where(x == 0, np.copysign(t(np.inf), -x), out).astype(x.dtype, copy=False)


def trigamma(a: np.ndarray) -> np.ndarray:
    """torch's calc_trigamma (polygamma with n = 1) in the input's dtype: std::sin (glibc's
    sinf or sin), and the series' multiply-adds fused as the compiler fuses them."""
    x = np.asarray(a).copy()
    t = x.dtype.type
    with np.errstate(all="ignore"):
        small = x < t(0.5)
        pi = t(math.pi)
        sin_pi_x = _sin(pi * x)
        result = np.where(small, t(0) - (pi * pi) / (sin_pi_x * sin_pi_x), t(0))
        x = np.where(small, t(1) - x, x)
        for _ in range(6):
            result = result + t(1) / (x * x)
            x = x + t(1)
        ixx = t(1) / (x * x)
        series = fused(-ixx, fused(-ixx, t(1) / t(42), t(1) / t(30)), t(1) / t(6))
        result = result + fused(ixx, series, t(1) + t(1) / (t(2) * x)) / x
        return np.where(small, -result, result)


_SIN = np.frompyfunc(math.sin, 1, 1)


def _sin(x: np.ndarray) -> np.ndarray:
    """std::sin in x's dtype: glibc's sinf or sin."""
    if x.dtype == np.float32:
        return libm_float.sinf(x)
    if x.dtype == np.float64:
        return np.asarray(_SIN(x), np.float64)
    return np.sin(x.astype(np.float64)).astype(x.dtype)


_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042E-16


def zeta(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """torch's Hurwitz zeta (Cephes's): in double, each element leaving its loops where the
    scalar code returns; float's first term is powf's, of the float arguments."""
    single = np.result_type(x, q) == np.float32
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    x, q = x.ravel(), q.ravel()
    out = np.full(x.shape, np.nan)
    with np.errstate(all="ignore"):
        live = ~((x == 1) | (x < 1) | ((q <= 0) & ((q == np.floor(q)) | (x != np.floor(x)))))
        out[x == 1] = np.inf
        out[(x > 1) & (q <= 0) & (q == np.floor(q))] = np.inf
        s = np.where(live, _pow(q, -x), 0.0)
        if single:
            s = s.astype(np.float32).astype(np.float64)
        a, b = q.copy(), np.zeros_like(q)
        i = 0
        while True:
            running = live & ((i < 9) | (a <= 9.0))
            if not running.any():
                break
            i += 1
            a = np.where(running, a + 1.0, a)
            b = np.where(running, _pow(a, -x), b)
            s = np.where(running, s + b, s)
            done = running & (-_MACHEP * s < b) & (b < _MACHEP * s)
            out[done] = s[done]
            live = live & ~done
        w = a
        s = s + b * w / (x - 1.0)
        s = s - 0.5 * b
        a, k = np.ones_like(x), np.zeros_like(x)
        for coefficient in _ZETA_A:
            a = a * (x + k)
            b = b / w
            term = a * b / coefficient
            s = s + term
            done = live & (np.fabs(term / s) < _MACHEP)
            out[done] = s[done]
            live = live & ~done
            k = k + 1.0
            a = a * (x + k)
            b = b / w
            k = k + 1.0
        out[live] = s[live]
    return out


def polygamma(n: int, a: np.ndarray) -> np.ndarray:
    """calc_polygamma: digamma for n = 0, trigamma for 1, else ±n! zeta(n + 1, a)."""
    if n == 0:
        return digamma(a)
    if n == 1:
        return trigamma(a)
    t = a.dtype.type
    with np.errstate(all="ignore"):
        factorial = t(math.exp(float(lgamma(np.asarray(t(n + 1))))))
        sign = t(1) if n % 2 else t(-1)
        values = zeta(np.full(a.shape, n + 1, a.dtype), a).astype(a.dtype).reshape(a.shape)
        return sign * factorial * values


_ERFC = np.frompyfunc(math.erfc, 1, 1)


def erfc(a: np.ndarray) -> np.ndarray:
    """The complementary error function, computed in double (glibc's, as math.erfc is)."""
    return np.asarray(_ERFC(a.astype(np.float64)), np.float64).astype(a.dtype).reshape(a.shape)


def entr(a: np.ndarray) -> np.ndarray:
    """-x log x; 0 at 0, -inf below 0, NaN kept."""
    t = a.dtype.type
    with np.errstate(all="ignore"):
        out = -a * _log(a)
    out = np.where(a == 0, t(0), np.where(a < 0, t(-np.inf), out))
    return np.where(np.isnan(a), a, out)


def xlog1py(x, y):
    """x * log1p(y), 0 where x is 0 (NaN where y is)."""
    with np.errstate(all="ignore"):
        product = np.where(x == 0, 0, x * np.log1p(y))
    return np.where(np.isnan(y), y, product).astype(np.result_type(x, y), copy=False)


def logcumsumexp(a: np.ndarray, axis: int) -> np.ndarray:
    """torch's scan in double: log1p(exp(min - max)) + max of each element and the running
    value, the element kept where both are the same infinity."""
    x = np.moveaxis(a.astype(np.float64), axis, 0)
    out = np.empty_like(x)
    running = np.full(x.shape[1:], -np.inf)
    with np.errstate(all="ignore"):
        for i in range(x.shape[0]):
            value = x[i]
            low = np.where(np.isnan(running), running, np.minimum(value, running))
            high = np.where(np.isnan(running), running, np.maximum(value, running))
            combined = np.log1p(scalar_exp(low - high)) + high
            running = np.where((low != high) | np.isfinite(low), combined, value)
            out[i] = running
    return np.moveaxis(out, 0, axis).astype(a.dtype)


# Cephes' ndtri coefficients, as torch's calc_ndtri holds them.
_NDTRI_P0 = (-5.99633501014107895267E1, 9.80010754185999661536E1, -5.66762857469070293439E1,
             1.39312609387279679503E1, -1.23916583867381258016E0)
_NDTRI_Q0 = (1.0, 1.95448858338141759834E0, 4.67627912898881538453E0, 8.63602421390890590575E1,
             -2.25462687854119370527E2, 2.00260212380060660359E2, -8.20372256168333339912E1,
             1.59056225126211695515E1, -1.18331621121330003142E0)
_NDTRI_P1 = (4.05544892305962419923E0, 3.15251094599893866154E1, 5.71628192246421288162E1,
             4.40805073893200834700E1, 1.46849561928858024014E1, 2.18663306850790267539E0,
             -1.40256079171354495875E-1, -3.50424626827848203418E-2, -8.57456785154685413611E-4)
_NDTRI_Q1 = (1.0, 1.57799883256466749731E1, 4.53907635128879210584E1, 4.13172038254672030440E1,
             1.50425385692907503408E1, 2.50464946208309415979E0, -1.42182922854787788574E-1,
             -3.80806407691578277194E-2, -9.33259480895457427372E-4)
_NDTRI_P2 = (3.23774891776946035970E0, 6.91522889068984211695E0, 3.93881025292474443415E0,
             1.33303460815807542389E0, 2.01485389549179081538E-1, 1.23716634817820021358E-2,
             3.01581553508235416007E-4, 2.65806974686737550832E-6, 6.23974539184983293730E-9)
_NDTRI_Q2 = (1.0, 6.02427039364742014255E0, 3.67983563856160859403E0, 1.37702099489081330271E0,
             2.16236993594496635890E-1, 1.34204006088543189037E-2, 3.28014464682127739104E-4,
             2.89247864745380683936E-6, 6.79019408009981274425E-9)


def _polevl(x: np.ndarray, coefficients: tuple) -> np.ndarray:
    """Cephes' polevl in x's dtype: Horner's rule from the highest coefficient, each step one
    fused multiply-add (as GCC contracts it in torch's FMA-enabled kernels)."""
    result = np.zeros_like(x)
    for c in coefficients:
        result = fused(result, x, np.full_like(x, c))
    return result


_C_LOG = np.frompyfunc(math.log, 1, 1)


def _c_log(x: np.ndarray) -> np.ndarray:
    """C's log in double (math.log is glibc's; NumPy's own can differ in the last bit); NaN for
    values below 0 and -inf at 0, as C's."""
    wide = x.astype(np.float64)
    safe = np.where(wide > 0, wide, 1.0)
    out = np.asarray(_C_LOG(safe), np.float64).reshape(x.shape)
    return np.where(wide > 0, out, np.where(wide == 0, -np.inf, np.nan))


def ndtri(a: np.ndarray) -> np.ndarray:
    """The inverse of the standard normal CDF, Cephes' algorithm in the input's dtype (torch's
    calc_ndtri): a rational approximation near 0.5, others in sqrt(-2 log y) in the tails."""
    t = a.dtype.type
    one, edge = t(1), t(0.13533528323661269189)
    flipped = a > one - edge
    y = np.where(flipped, one - a, a)
    with np.errstate(all="ignore"):
        centre = y - t(0.5)
        c2 = centre * centre
        ratio = c2 * _polevl(c2, _NDTRI_P0) / _polevl(c2, _NDTRI_Q0)
        middle = fused(centre, ratio, centre) * t(2.50662827463100050242E0)
        # ::log and ::sqrt are C's double functions: these two lines run in double
        x = np.sqrt(-2.0 * _c_log(y)).astype(a.dtype)
        wide = x.astype(np.float64)
        x0 = (wide - _c_log(x) / wide).astype(a.dtype)
        z = one / x
        x1 = np.where(x < t(8.0), z * _polevl(z, _NDTRI_P1) / _polevl(z, _NDTRI_Q1),
                      z * _polevl(z, _NDTRI_P2) / _polevl(z, _NDTRI_Q2))
        tail = np.where(flipped, x0 - x1, -(x0 - x1))
    out = np.where(y > edge, middle, tail)
    out = np.where(a == 0, t(-np.inf), np.where(a == one, t(np.inf), out))
    return np.where((a < 0) | (a > one), t(np.nan), out).astype(a.dtype)
