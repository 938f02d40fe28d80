"""MKL's VML kernels for float64 (`vd<Op>`), which torch's CPU build calls for its double unary
ops (ATen's vml.h), step by step as MKL runs them on AMD processors (the SSE4.2 `EX` kernels, in
their high-accuracy mode): see vml.py. Their results are within an ulp of the true value but not
correctly rounded, so NumPy's (libm's) double results differ from torch's in the last bit for a
few inputs in a hundred. Each kernel repeats its fast path's double operations in order, with
the kernel's own constants, and says which lanes that path takes; the other lanes (huge
arguments, results out of range, infinities, NaN) keep NumPy's value.
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

_U64 = np.uint64
_HIGH_HALF = _U64(0xFFFFFFFF00000000)
_SIGN = _U64(1 << 63)


def _d(text: str) -> float:
    return float.fromhex(text)


def _high_words(x: np.ndarray) -> np.ndarray:
    """The upper 32 bits of |x| (the kernels' fast-path tests compare these, as integers)."""
    return (x.view(np.uint64) >> np.uint64(32)).astype(np.uint32) & np.uint32(0x7FFFFFFF)


@functools.cache
def _table(name: str) -> np.ndarray:
    """The rows of one of MKL's tables (vml_tables.py or vml_erf_tables.py, read on first use),
    one double per column; "exp" is made here: 2**(j/64) as a double and the rest."""
    if name == "exp":
        return np.array(_two_part_powers(64))
    if name == "cos":  # MKL's cos table is sin's, 128 rows on (cos t = sin(t + pi/2))
        return np.roll(_table("sin"), -128, axis=0)
    if name.startswith("erf"):
        from gradcli.engine.vml_erf_tables import TABLES
    else:
        from gradcli.engine.vml_tables import TABLES
    width, text = TABLES[name]
    return np.frombuffer(bytes.fromhex(text), "<f8").reshape(-1, width).copy()


@functools.cache
def _columns(name: str) -> np.ndarray:
    """A table's columns, each a contiguous run (gathering from a column of a row-major table
    reads one double per row's worth of memory)."""
    return np.ascontiguousarray(_table(name).T)


def _gathered(name: str, row: np.ndarray) -> list[np.ndarray]:
    """Each column of table `name` at `row`: np.moveaxis(table[row], -1, 0), but contiguous."""
    return [column.take(row) for column in _columns(name)]


def _split(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x as its upper 32 bits and the rest (their products are exact)."""
    high = (x.view(_U64) & _HIGH_HALF).view(np.float64)
    return high, x - high


def _two_part_powers(count: int) -> tuple[np.ndarray, np.ndarray]:
    """2**(j/count) for j < count as a double and the double nearest the rest (MKL's tables)."""
    import decimal
    with decimal.localcontext() as context:
        context.prec = 50
        exact = [decimal.Decimal(2) ** (decimal.Decimal(j) / count) for j in range(count)]
        high = [float(v) for v in exact]
        low = [float(v - decimal.Decimal(h)) for v, h in zip(exact, high)]
    return np.array(high), np.array(low)


# ---- exp: x = (n + j/64) * ln2 + r, 2**(j/64) from a table, a degree-5 polynomial in r -----------
_EXP_SCALE = _d("0x1.71547652b82fep+6")  # 64 / ln2
_SHIFTER = _d("0x1.8p52")  # adding it rounds to an integer, kept in the low bits
_EXP_LN2_HIGH = _d("0x1.62e42fefa0000p-7")  # ln2 / 64 in two parts
_EXP_LN2_LOW = _d("0x1.cf79abc9e3b3ap-46")
_EXP_POLY = tuple(_d(h) for h in (
    "0x1.111112d9f549bp-7", "0x1.555573f218b93p-5", "0x1.555555555653ep-3",
    "0x1.fffffffffdb3bp-2"))
_EXP_LIMIT = np.uint32(0x4086232A)  # |x| past about 708.4: the kernel's slow path


def _exp(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """vdExp: t = x*64/ln2 rounded to an integer; r = x - t*ln2/64 (in two steps);
    2**(t/64) = 2**(t>>6) * 2**(j/64) (j = t's low 6 bits, from the table as high + low);
    the result is (p(r)*high + low) + high with 2**(t>>6) added into the exponent bits."""
    t = x * _EXP_SCALE
    t += _SHIFTER
    n = t - _SHIFTER
    r = x - n * _EXP_LN2_HIGH
    r -= n * _EXP_LN2_LOW
    p = r * _EXP_POLY[0]
    p += _EXP_POLY[1]
    p *= r
    p += _EXP_POLY[2]
    p *= r
    p += _EXP_POLY[3]
    p *= r * r
    p += r
    bits = t.view(np.uint64)
    j = (bits & np.uint64(63)).astype(np.intp)
    high, low = _table("exp")[0][j], _table("exp")[1][j]
    p *= high
    p += low
    p += high
    p.view(np.uint64)[...] += (bits << np.uint64(46)) & np.uint64(0xFFF0000000000000)
    return p, _high_words(x) <= _EXP_LIMIT


# ---- tanh: a polynomial per interval of |x| (by its exponent and top mantissa bits) -------------
# "tanh": per interval, c0, c1, c2, ..., c11 and the shift of |x|


def _tanh(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """vdTanh: z = |x| + shift; c0 + c1 + c2*z + z*z*(c3 + z*(c4 + ... + z*c11)), the leading
    terms added in extra precision (c2*z in split halves); x's sign put back. Intervals start
    at |x| = 0.117 (below it the first) and go by 1/16 of each binade up to 20 (past it the
    last, where tanh is 1); tiny |x| and infinities or NaN take the slow path."""
    words = _high_words(x) & np.uint32(0x7FFE0000)
    fast = (words >= np.uint32(0x1FF00000)) & (words <= np.uint32(0x7FE00000))
    row = (np.maximum(words, np.uint32(0x3FBE0000)) - np.uint32(0x3FBE0000)) >> np.uint32(17)
    row[words > np.uint32(0x40340000)] = len(_table("tanh")) - 1
    c = _gathered("tanh", row)
    z = np.abs(x) + c[12]
    p = c[11] * z
    for k in range(10, 2, -1):
        p += c[k]
        p *= z
    p *= z
    p += c[0]
    c2_high, c2_low = _split(c[2])
    z_high, z_low = _split(z)
    low = c2_low * z_high + (c2_high * z_low + c2_low * z_low)
    low += p
    high = c2_high * z_high
    total = c[1] + high
    rest = high - total
    out = high - (total + rest)
    out += rest + c[1]
    out += low
    out += total
    out.view(_U64)[...] |= x.view(_U64) & _SIGN
    return out, fast


# ---- sin and cos: x less n*pi/128 (in three parts), sin and cos of n*pi/128 from a table -------
_TRIG_SCALE = _d("0x1.45f306dc9c883p+6")  # 128 / pi
_TRIG_PI = tuple(_d(h) for h in (  # pi / 128 in three parts
    "0x1.921fb54400000p-7", "0x1.0b4611a600000p-41", "0x1.3198a2e037073p-76"))
_TRIG_SIN_POLY = (_d("0x1.1110fabb3551cp-7"), _d("-0x1.5555555554448p-3"))
_TRIG_COS_POLY = (_d("0x1.6c16ab163b2d7p-10"), _d("0x1.5555555554ccfp-5"), -0.5)
_TRIG_LIMIT = _d("0x1.000000e4db24cp+16")  # |x| past about 65536: the slow path
# "sin" and "cos": per n mod 512, four doubles (for sin, of n*pi/128)


def _sin_or_cos(x: np.ndarray, cosine: bool) -> tuple[np.ndarray, np.ndarray]:
    """vdSin / vdCos: n = (|x| for sin, x for cos) * 128/pi rounded; r + c = that less n*pi/128
    (c the rounding error of the reduction); f(x) = t0*r + (t1*r + t2) + small terms (odd
    and even polynomials in r times t0 + t1 and t2, c times t0 + t1 - t2*r, and t3), with the
    table's t0..t3 for n mod 512; sin gets x's sign back."""
    a = x if cosine else np.abs(x)
    shifted = a * _TRIG_SCALE
    shifted += _SHIFTER
    row = (shifted.view(_U64) & _U64(511)).astype(np.intp)
    t0, t1, t2, t3 = _gathered("cos" if cosine else "sin", row)
    n = shifted - _SHIFTER
    reduced = a - n * _TRIG_PI[0]
    middle = n * _TRIG_PI[1]
    r = reduced - middle
    c = reduced - r
    c -= middle
    c -= n * _TRIG_PI[2]
    product = r * t1
    partial = product + t2
    error = (t2 - partial) + product
    both = t1 + t0
    product = t0 * r
    head = product + partial
    error += (partial - head) + product
    r2 = r * r
    odd = r2 * _TRIG_SIN_POLY[0]
    odd += _TRIG_SIN_POLY[1]
    odd *= r2
    odd *= r
    odd *= both
    odd += error
    even = _TRIG_COS_POLY[1] - r2 * _TRIG_COS_POLY[0]
    even *= r2
    even += _TRIG_COS_POLY[2]
    even *= r2
    even *= t2
    even += odd
    out = both - t2 * r
    out *= c
    out += t3
    out += even
    out += head
    if not cosine:
        out.view(_U64)[...] ^= x.view(_U64) & _SIGN
    return out, np.abs(x) <= _TRIG_LIMIT


# ---- log, log10, log2: x = 2**e * m, log(m) = log(m*r) - log(r), r from the rcpps estimate of 1/m ---
_MANTISSA = _U64(0x000FFFFFFFFFFFFF)


@functools.cache
def _rcpps_table() -> np.ndarray:
    """rcpps(1 + k/4096) as float32 bits (vml_tables.py, read on first use)."""
    from gradcli.engine.vml_tables import RCPPS
    return np.frombuffer(bytes.fromhex(RCPPS), "<u4").astype(np.int64)


def rcpps(f: np.ndarray) -> np.ndarray:
    """The processor's rcpps estimate of 1/f (float32 f, normal or infinite): it depends on the
    top 12 bits of the mantissa only, the exponent just negates, the sign stays, and estimates
    below the normal range (|f| past 2**125) are 0. (vml.py's float32 logarithms use it too.)"""
    bits = f.view(np.uint32).astype(np.int64)
    estimate = _rcpps_table()[(bits >> 11) & 0xFFF] + 0x3F800000 - (bits & 0x7F800000)
    estimate[estimate < 0x00800000] = 0
    estimate |= bits & 0x80000000
    return estimate.astype(np.uint32).view(np.float32)


def _rcpps(f: np.ndarray) -> np.ndarray:
    return rcpps(f).astype(np.float64)


class _Logarithm:
    """One of MKL's logarithms (the constants for its base)."""

    def __init__(self, name, scale, factor, shift, base, log2, poly, linear=None):
        self.name = name  # its table, per row: log(r) less 1023*log(2), negated, in two parts
        self.scale = _U64(scale)  # the exponent bits m gets
        self.high_bits = _U64(scale | 0xFFFFFFC000000)  # m's exponent and top 26 mantissa bits
        self.factor, self.shift, self.base = factor, _U64(shift), _U64(base)
        self.log2 = log2  # log(2) in two parts; None for log2 (e added as it is)
        self.poly, self.linear = poly, linear

    def __call__(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """m = x's mantissa with the exponent `scale`; r = rint(rcpps(float(m)) * factor);
        u = m*r - factor (m in two halves); log x = (e*log(2) + table(r)) + u + p(u), e x's
        biased exponent, the table and log(2) in two parts. Negative x (-inf too) give the
        positive quiet NaN, as the slow path does; zero, subnormal x, +inf and NaN take it."""
        bits = x.view(_U64)
        m = ((bits & _MANTISSA) | self.scale).view(np.float64)
        r = np.rint(_rcpps(m.astype(np.float32)) * self.factor)
        m_high = (m.view(_U64) & self.high_bits).view(np.float64)
        u = m_high * r - self.factor
        u += (m - m_high) * r
        row = (((r.view(_U64) >> self.shift) - self.base) >> _U64(4)).astype(np.intp)
        exponent = (bits >> _U64(52)).astype(np.float64)
        if self.log2 is None:
            high, low = _table(self.name)[row, 0] + exponent, _table(self.name)[row, 1]
        else:
            high = exponent * self.log2[0] + _table(self.name)[row, 0]
            low = exponent * self.log2[1] + _table(self.name)[row, 1]
        total = u + high
        out = (high - total) + u
        u2 = u * u
        p = u * self.poly[0] + self.poly[1]
        p = p * u2 + (u * self.poly[2] + self.poly[3])
        p *= u2
        if self.linear is not None:
            p += u * self.linear[0] + self.linear[1]
            p *= u
        out += low
        out += p
        out += total
        negative = x < 0
        out[negative] = np.nan
        return out, negative | ((x >= np.finfo(np.float64).tiny) & (x <= np.finfo(np.float64).max))


def _hex(*texts: str) -> tuple[float, ...]:
    return tuple(_d(h) for h in texts)


_LN = _Logarithm(
    "ln", 0x3F50000000000000, 1.0, 39, 0x810000, _hex("0x1.62e42fefa0000p-1", "0x1.cf79abc9e0000p-40"),
    _hex("0x1.9999cacdb4d0ap-3", "-0x1.0000148058ee1p-2", "0x1.55555555543c5p-2", "-0x1.ffffffffff81fp-2"))
_LOG10 = _Logarithm(
    "log10", 0x3F50000000000000, _d("0x1.bcp-2"), 40, 0x406BC0,
    _hex("0x1.34413509f0000p-2", "0x1.e7fbcc47c0000p-40"),
    _hex("-0x1.5c91a15f7eb9fp+3", "0x1.6aba863a166dbp+2", "-0x1.8930964d2fa9bp+1", "0x1.c6a02dc954978p+0"),
    _hex("-0x1.27af2dc77b115p+0", "0x1.a7a6cbf2e410cp-10"))
_LOG2 = _Logarithm(
    "log2", 0x3F60000000000000, _d("0x1.71p0"), 39, 0x80EE20, None,
    _hex("-0x1.b743ca0b38eebp-6", "0x1.7be52039fb7cep-5", "-0x1.563d0fce18810p-4", "0x1.48dead300e7bfp-3"),
    _hex("-0x1.6386b9b9b5d42p-2", "0x1.d4c6d2bc5aea6p-11"))

# ---- atan: atan(|x|) = atan(t) + atan((|x| - t) / (1 + t*|x|)), t from five intervals of |x| ------
# "atan": per interval: t (1 past 2.4375: -1/|x|), a mask, atan(t) in two parts
_ATAN_BOUNDS = (0x3FDC0000, 0x3FE60000, 0x3FF30000, 0x40038000)  # 0.4375, 0.6875, 1.1875, 2.4375
_ATAN_HIGH = _U64(0xFFFFFFFFF8000000)
_ATAN_POLY = (  # even and odd powers of s**2
    _hex("0x1.be4fbe6733718p-7", "0x1.6ad5558fe19c9p-5", "0x1.e12f1edf7c393p-5",
         "0x1.3b132b731e73ap-4", "0x1.c71c719f99f96p-4", "0x1.9999999998f43p-3"),
    _hex("-0x1.04cd71f92185ep-5", "-0x1.a9e755ca13d23p-5", "-0x1.1108d326c68edp-4",
         "-0x1.745d119677a4fp-4", "-0x1.2492492441a21p-3", "-0x1.5555555555552p-2"))


def _atan_high(x: np.ndarray) -> np.ndarray:
    return (x.view(_U64) & _ATAN_HIGH).view(np.float64)


def _atan(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """vdAtan: by |x|'s upper word, t and atan(t) from the table; the quotient
    (|x| masked - t) / (1 + t*|x|) (past 2.4375, -1/|x|) in split halves, 1/den from rcpps
    refined by a degree-6 series; s = the quotient, atan(t) + s + s**3*p(s**2), x's sign put
    back. |x| below about 2**-1020 or past 2**993, infinities and NaN take the slow path."""
    a = np.abs(x)
    words = (a.view(_U64) >> _U64(32)).astype(np.int64)
    row = 4 - sum((words > bound).astype(np.intp) for bound in _ATAN_BOUNDS)
    t, mask, atan_high, atan_low = _gathered("atan", row)
    mask = mask.view(_U64)
    a_high = _atan_high(a)
    a_low = a - a_high
    first = (a_high.view(_U64) & mask).view(np.float64) - t
    second = (a_low.view(_U64) & mask).view(np.float64)
    numerator = first - second
    extra = second - (numerator - first)
    n_high = _atan_high(numerator)
    n_low = (numerator - n_high) + extra
    one = (mask & _U64(0x3FF0000000000000)).view(np.float64) + t * a_high
    product = t * a_low
    denominator = product + one
    error = (one - denominator) + product
    d_high = _atan_high(denominator)
    d_low = (denominator - d_high) + error
    r = _rcpps(d_high.astype(np.float32))
    e = d_low * r + (d_high * r - 1.0)
    series = e * e - e
    for sign in (1.0, -1.0, 1.0, -1.0):
        series = series * e + sign * e
    series *= r
    low = n_low * r + (series * n_high + n_low * series)
    high = n_high * r
    s = high + low
    s2 = s * s
    s4 = s2 * s2
    even = s4 * _ATAN_POLY[0][0] + _ATAN_POLY[0][1]
    odd = s4 * _ATAN_POLY[1][0] + _ATAN_POLY[1][1]
    for k in range(2, 5):
        even = even * s4 + _ATAN_POLY[0][k]
        odd = odd * s4 + _ATAN_POLY[1][k]
    even *= s4
    odd *= s4
    even += _ATAN_POLY[0][5]
    odd += _ATAN_POLY[1][5]
    out = even * s2 + odd
    out *= s2
    out *= s
    out += low + atan_low
    out += high
    out += atan_high
    out.view(_U64)[...] |= x.view(_U64) & _SIGN
    return out, (words >= 0x00300000) & (words < 0x7E000000)

# ---- tan: x less n*pi/128 (in three parts), then a formula per n mod 256 from the table ----------
# "tan": per n mod 256: thirteen doubles (the quotient's and polynomial's terms)


def _tan(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """vdTan: n = |x| * 128/pi rounded; r + r_low = |x| less n*pi/128; with t0..t12 of row
    n mod 256, tan = t2/(t0 - r) (its reciprocal from rcpps, refined twice) + t3 + t5*r +
    t4 + (t5 + t6)*r_low + r*p(r) (p from t6..t12), summed in extra precision; x's sign put
    back. |x| past about 65536, infinities and NaN take the slow path."""
    a = np.abs(x)
    shifted = a * _TRIG_SCALE + _SHIFTER
    n = shifted - _SHIFTER
    partial = n * -_TRIG_PI[0] + a
    middle = n * _TRIG_PI[1]
    r_high = partial - middle
    rest = n * -_TRIG_PI[2] + ((partial - r_high) - middle)
    r = r_high + rest
    r_low = (r_high - r) + rest
    t = _gathered("tan", (shifted.view(_U64) & _U64(255)).astype(np.intp))
    denominator = t[0] - r
    d_high = _atan_high(denominator)
    d_low = ((t[0] - denominator) - r) - r_low
    d_low = ((denominator - d_high) + t[1]) + d_low
    estimate = _atan_high(_rcpps(d_high.astype(np.float32)))
    e = 1.0 - d_high * estimate
    inverse = (e * e + 1.0) * (e * estimate + estimate)
    q = d_low * inverse
    correction = (q * q + (e - q)) * inverse
    quotient = estimate * t[2]
    correction *= t[2]
    r2 = r * r
    odd = (t[9] * r + t[8]) * r2 + (t[7] * r + t[6])
    poly = r2 * r2 * (t[12] * r2 + (t[11] * r + t[10]))
    poly += odd
    poly *= r
    linear = t[5] * r
    head = t[3] + linear
    tail = (t[3] - head) + linear
    tail += correction
    total = head + quotient
    low = (quotient - total) + head
    low += tail
    small = (t[6] + t[5]) * r_low
    small += low
    small += t[4]
    poly += small
    poly += total
    poly.view(_U64)[...] ^= x.view(_U64) & _SIGN
    return poly, a <= _TRIG_LIMIT


# ---- sqrt: x*y*(1 + p(e)), y the rsqrtps estimate of 1/sqrt(x), e = 1 - x*y*y ----------------------
_SQRT_POLY = _hex("0x1.1800032338cbbp-2", "0x1.40000b13001d9p-2", "0x1.80000000000f6p-2",
                  "0x1.ffffffffffe71p-2")  # about 35/128, 5/16, 3/8, 1/2: (1 - e)**-1/2 less 1
_EVEN = _U64(1 << 52)  # set in ~x when x's biased exponent is even
_EXPONENT = _U64(0x7FF0000000000000)


def _sqrt(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """vdSqrt: f = x scaled by a power of 4 into [1, 4) as a float (x's top 23 mantissa bits);
    y = rsqrtps(f) scaled back; e = (1 - y*y*x_high) - y*y*x_low (x_high its top 26 mantissa
    bits); sqrt = x_high*y + (x_low*y + p(e)*y*x). Negative x (-inf too) give the positive quiet
    NaN, as the slow path does; zero, subnormal x, x from 2**1022 on, +inf and NaN take it."""
    from gradcli.engine.rsqrt_estimate import rsqrtps
    bits = x.view(_U64)
    even = ~bits & _EVEN
    f = ((bits & _U64(0x001FFFFFE0000000)) | (even + _U64(0x07F0000000000000))) >> _U64(29)
    scale = ((even - (bits & _EXPONENT) + _U64(0xBFD0000000000000)) >> _U64(1)).view(np.float64)
    y = scale * rsqrtps(f.astype(np.uint32).view(np.float32)).astype(np.float64)
    x_high = (bits & _U64(0xFFFFFFFFF8000000)).view(np.float64)
    x_low = x - x_high
    y2 = y * y
    e = (1.0 - y2 * x_high) - y2 * x_low
    p = e * _SQRT_POLY[0] + _SQRT_POLY[1]
    for c in _SQRT_POLY[2:]:
        p = p * e + c
    p *= e
    out = x_high * y + (x_low * y + p * y * x)
    negative = x < 0
    out[negative] = np.nan
    words = (bits >> _U64(32)).astype(np.int64)
    return out, negative | ((words >= 0x00100000) & (words < 0x7FD00000))


# ---- erf: erf(g) + erf'(g)*d*(1 + q(d, g*d)) with g = |x| rounded to a multiple of 1/128, d = |x| - g --
# "erf": per g*128 (up to 767): erf(g)*2**-1016 (its top bits a correction), 2**32*erf'(g)
_ERF_LIMIT = _d("0x1.7f8p+2")  # 5.99: |x| is clamped there (erf is 1)
_ERF_SHIFTER = _d("0x1p45")  # adding it rounds to a multiple of 1/128
_ERF_U = _hex("0x1.341f806247cecp-3", "-0x1.9ad4ac8de7654p-5", "-0x1.812746b036ad0p-2",
              "0x1.812746b036e4cp-1", "-0x1.20dd750429b6dp+0", "0x1.06eba8214db69p-3")
_ERF_D2 = _hex("0x1.565bcd0e6a53fp-8", "-0x1.b82ce31288b51p-6")
_ERF_MIXED = _hex("0x1.4a21da72d2522p-3", "-0x1.81277cd9c0edfp-3", "0x1.ce2f21a042be2p-4")
_ERF_LOW = _hex("0x1.00c4f4df93fe6p-2", "-0x1.ce2f500d00e98p-2", "0x1.20dd75042830ep-1",
                "-0x1.812746b0379e7p-2")


def _erf(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """vdErf: c = min(|x|, 5.99), g = c rounded to a multiple of 1/128 (0 below 3.5/128), d = c - g,
    u = g*d; from the row of g, e = erf(g) (as min(e, |x|)) and h = erf'(g)*d; the result is
    ((q*h + e*k) + h)*2**-32 + e with q a polynomial in u and d*d and k the row's correction,
    x's sign put back. Every lane takes this path (NaN comes through e)."""
    a = np.abs(x)
    c = np.minimum(a, _ERF_LIMIT)
    c[np.isnan(a)] = _ERF_LIMIT
    shifted = c + _ERF_SHIFTER
    g = shifted - _ERF_SHIFTER
    g[c < _d("0x1.cp-6")] = 0.0
    rows = _table("erf")[(shifted.view(_U64) & _U64(1023)).astype(np.intp)]
    packed = rows[..., 0].view(_U64)
    d = c - g
    u = g * d
    e = np.minimum((packed & _U64(0x007FFFFFFFFFFFFF)).view(np.float64), a) * _d("0x1p1016")
    correction = ((packed >> _U64(32)) | _U64(0x3FF0000000000000)).view(np.float64) * e - e
    d2 = np.where(c > _d("0x1p-256"), d, 0.0)
    d2 *= d2
    mixed = (u * _ERF_MIXED[0] + _ERF_MIXED[1]) * u + _ERF_MIXED[2]
    q = (d2 * _ERF_D2[0] + _ERF_D2[1]) * d2 + mixed
    low = ((u * _ERF_LOW[0] + _ERF_LOW[1]) * u + _ERF_LOW[2]) * u + _ERF_LOW[3]
    q = q * d2 + low
    v = _ERF_U[0] + u * _ERF_U[1]
    for k in (2, 3, 4):
        v = v * u + _ERF_U[k]
    v *= u
    h = rows[..., 1] * d
    q = q * d2 + (v + _ERF_U[5])
    out = q * h + correction
    out += h
    out *= _d("0x1p-32")
    out += e
    out.view(_U64)[...] ^= x.view(_U64) & _SIGN
    return out, np.ones(x.shape, bool)


# ---- erfc: erfc(g) less erfc'(g)-led terms in d, g = |x| rounded to a multiple of 1/128, d = |x| - g ----
# "erfc": per g*128 (up to 3487): erfc(g)*2**128, and a packed row: the slope's mantissa (with
# the first column's exponent) and a small correction in its top bits
_ERFC_LIMIT = _d("0x1.b3ep+4")  # 27.24: |x| is clamped there
_ERFC_ZERO = _d("0x1.b39dc41e48bfdp+4")  # x from about 27.226 on: erfc is 0
_ERFC_U = (  # three polynomials in u = g*d, interleaved in the kernel
    _hex("0x1.aec468d02a083p-16", "-0x1.282607c399dbfp-13", "0x1.71de30b781626p-11",
         "-0x1.a019f74e36970p-9", "0x1.a01a01a0f4f8cp-7", "-0x1.6c16c16cc1d1dp-5",
         "0x1.111111111108fp-3", "-0x1.55555555554d9p-2", "0x1.5555555555555p-1"),
    _hex("0x1.4d516d3db4588p-9", "-0x1.44103d0fa9378p-7", "0x1.1110ffd4fa97fp-5",
         "-0x1.861848a3ac063p-4", "0x1.c71c71cb27ab6p-3", "-0x1.9999999d359a6p-2",
         "0x1.ffffffffff778p-2"),
    _hex("0x1.30107685fc1efp-5", "-0x1.561b8921c8bc7p-4", "0x1.24921081babf0p-3",
         "-0x1.55550d7299c73p-3"))
_ERFC_D2 = _hex("0x1.5766603986421p-5", "-0x1.898a47706cfa8p-6", "0x1.999999b2e0d33p-4",
                "-0x1.5555555555019p-2")


def _horner(t: np.ndarray, poly: tuple[float, ...]) -> np.ndarray:
    p = t * poly[0] + poly[1]
    for c in poly[2:]:
        p = p * t + c
    return p


def _erfc(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """vdErfc: c = |x| clamped to [2**-128, 27.24], g = c rounded to a multiple of 1/128,
    d = c - g, u = g*d; with e = erfc(g)*2**128 and the slope s of the row, h = e - d*s_high
    (its rounding error kept), t = s*(p(u)*d + d**3*q(u, d*d) - k) + s_low*d + error;
    erfc = (h - t)*2**-128, or 2 - that for negative x. x from about 27.226 on (erfc below
    half the least subnormal) give 0, as the slow path does; NaN takes it."""
    c = np.minimum(np.abs(x), _ERFC_LIMIT)
    shifted = c + _ERF_SHIFTER
    c = np.maximum(c, _d("0x1p-128"))
    d = c - (shifted - _ERF_SHIFTER)
    u = (shifted - _ERF_SHIFTER) * d
    rows = _table("erfc")[(shifted.view(_U64) & _U64(4095)).astype(np.intp)].view(_U64)
    first = _horner(u, _ERFC_U[0]) * (u * u) - u
    d2 = d * d
    q = (u * _ERFC_D2[0] + _ERFC_D2[1]) * d2 + (_horner(u, _ERFC_U[2]) * u + _ERFC_D2[2])
    q = q * d2 + _ERFC_D2[3]
    q += _horner(u, _ERFC_U[1]) * u
    q *= d2 * d
    slope = ((rows[..., 0] & _EXPONENT) + (rows[..., 1] & _U64(0x007FFFFFFFFFFFFF))).view(np.float64)
    q -= ((rows[..., 1] >> _U64(55)) | _U64(0x3F60000000000000)).view(np.float64) - _d("0x1p-9")
    t = first * d + q
    t *= slope
    slope_high = (slope.view(_U64) & _U64(0xFFFFF80000000000)).view(np.float64)
    e = rows[..., 0].view(np.float64)
    product = d * slope_high
    h = e - product
    t += (slope - slope_high) * d
    t += product - (e - h)
    sign = x.view(_U64) & _SIGN
    out = h - t
    out += (sign | _U64(0x47F0000000000000)).view(np.float64) - _d("0x1p128")
    out *= (sign | _U64(0x37F0000000000000)).view(np.float64)
    out[x >= _ERFC_ZERO] = 0.0
    return out, ~np.isnan(x)


# ---- erfinv: x * (r0 + s + z*p(z)), a row of coefficients per quarter binade of w = 1 - |x| --------
# "erfinv": per row (w's exponent and top two mantissa bits, from w near 1 down to 2**-53):
# r0, the polynomial's r1..r14, then s = r15 + r16*z in extra precision
_ERFINV_HIGH = _U64(0xFFFFFFFFF8000000)


def _erfinv(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """vdErfInv: w = 1 - |x| (and its rounding error e); z = w's mantissa less 1.125 (its top
    two bits go to the row) + e scaled as w; s = r15 + r16*z as a high part (top 26 mantissa
    bits) and the rest; erfinv = x_high*s_high + (x_low*s_high + x*(r0 + s_low + z*p(z))).
    |x| up to 2**-53 and NaN take the slow path's formulas; |x| from 1 on takes the slow path."""
    bits = x.view(_U64)
    a = np.abs(x)
    words = (bits >> _U64(32)).astype(np.int64) & 0x7FFFFFFF
    fast = (words > 0x3CA00000) & (words <= 0x3FEFFFFF)
    w = 1.0 - a
    error = (1.0 - w) - a
    w_bits = w.view(_U64)
    scale = (_U64(0x7FE0000000000000) - (w_bits & _U64(0x3FF0000000000000))).view(np.float64)
    z0 = ((w_bits & _U64(0x0003FFFFFFFFFFFF)) | _U64(0x3FF0000000000000)).view(np.float64) - 1.125
    z = z0 + scale * error
    row = np.where(fast, 0xFFB - (w_bits >> _U64(50)).astype(np.int64), 0)
    r = np.take(_table("erfinv").T, row, axis=1)  # (each column contiguous)
    p = r[14]
    for k in range(13, 0, -1):
        p = p * z + r[k]
    p *= z
    z0_high = (z0.view(_U64) & _ERFINV_HIGH).view(np.float64)
    product = z0_high * r[16]
    s_high = ((r[15] + product).view(_U64) & _ERFINV_HIGH).view(np.float64)
    p += r[0]
    p += ((r[15] - s_high) + product) + (z - z0_high) * r[16]
    x_high = (bits & _ERFINV_HIGH).view(np.float64)
    p *= x
    p += (x - x_high) * s_high
    p += x_high * s_high
    tiny = words <= 0x3CA00000
    p[tiny] = _erfinv_tiny(x[tiny])
    nan = np.isnan(x)
    p[nan] = x[nan] + x[nan]  # (quiet, as the slow path makes them)
    return p, fast | tiny | nan


_SPLIT = (_d("0x1.8000000010000p+36"), _d("-0x1.8p+36"))  # t*a + t*b: t's top 17 bits
_HALF_ROOT_PI = (_d("0x1.c5cp-1"), _d("-0x1.db92c4255618fp-19"))  # sqrt(pi)/2 in two parts
_SUBNORMAL = _d("0x1p-766")  # (scaled by 2**256: 2**-1022)


def _erfinv_tiny(x: np.ndarray) -> np.ndarray:
    """The slow path's erfinv for |x| up to 2**-53: x*sqrt(pi)/2 from t = x*2**256 split in
    two; a result below the normal range is rounded to its subnormal bits by adding 2**-766
    (scaled) in extra precision."""
    t = x * _d("0x1p256")
    high = t * _SPLIT[1] + t * _SPLIT[0]
    low = (t - high) * _HALF_ROOT_PI[0]
    high *= _HALF_ROOT_PI[0]
    rest = t * _HALF_ROOT_PI[1] + low
    total = high + rest
    out = total * _d("0x1p-256")
    small = np.abs(total) < _SUBNORMAL
    if small.any():
        shift = np.copysign(_SUBNORMAL, x[small])
        rounded = total[small] + shift
        rounded = rounded * _SPLIT[1] + rounded * _SPLIT[0]
        last = rest[small] + (high[small] - (rounded - shift)) + rounded
        out[small] = (last.view(_U64) & _U64(0x800FFFFFFFFFFFFF)).view(np.float64)
    return out


# ---- asin and acos: a polynomial in s = min(x*x, (1 - |x|)/2), sqrt(1 - |x|) from rsqrtps ----------
_ASIN_ROOT = _hex("-0x1.18000993b24c3p-6", "0x1.400006f70d42dp-5", "-0x1.7fffffffffe97p-4",
                  "0x1.fffffffffff9dp-3")  # the correction of sqrt(2v) from e = 2v*y*y - 2
_ASIN_POLY = (  # the kernel's three parts of the polynomial in s, then its last terms
    _hex("0x1.07520c70eb909p-5", "-0x1.0fb17f7dbb0edp-6"),
    _hex("0x1.43f44bfbc3baep-6", "0x1.a583395d45ed5p-8"),
    _hex("0x1.8f8dc2afccad6p-7", "0x1.c6dbbcb88bd57p-7"),
    _hex("0x1.1c6dcf538ad2ep-6", "0x1.6e89cebdefaddp-6"),
    _hex("0x1.f1c72e13ad8bep-6", "0x1.6db6db3b445f8p-5"),
    _hex("0x1.333333337e0dep-4", "0x1.555555555529cp-3"))
_HALF_PI = _hex("0x1.921fb54442d18p+0", "0x1.1a62633145c07p-54")
_PI = _hex("0x1.921fb54442d18p+1", "0x1.1a62633145c07p-53")
_NEGATIVE_NAN = _U64(0xFFF8000000000000).view(np.float64)


def _asin_parts(x: np.ndarray, upper) -> tuple[np.ndarray, ...]:
    """What vdAsin and vdAcos share: with v = 1/2 - |x|/2, s = min(x*x, v) (v if either is
    NaN); on lanes `upper(a, v, s)` picks, sqrt(2v) = h + l - c, h the product of 2v's high
    part (top 26 mantissa bits) and y = rsqrtps(float(v)) cut to 12 bits, l the low part's,
    c a correction (all 0 on the other lanes); p(s), s times the polynomial."""
    from gradcli.engine.rsqrt_estimate import rsqrtps
    a = np.abs(x)
    v = 0.5 - a * 0.5
    s = np.minimum(x * x, v)
    s[np.isnan(s)] = v[np.isnan(s)]
    lanes = upper(a, v, s)
    y = rsqrtps(v.astype(np.float32)).astype(np.float64).view(_U64) & _U64(0xFFFFFF0000000000)
    y = np.where(v >= _d("0x1p-255"), y.view(np.float64), 0.0)
    double = np.where(lanes, v + v, 0.0)
    high = (double.view(_U64) & _U64(0xFFFFFFFFFC000000)).view(np.float64)
    low = (double - high) * y
    high *= y
    e = y * high - 2.0
    e += y * low
    c = _horner(e, _ASIN_ROOT) * ((high + low) * e) - low
    s2 = s * s
    q = (s * _ASIN_POLY[0][0] + _ASIN_POLY[0][1]) * s2 + (s * _ASIN_POLY[1][0] + _ASIN_POLY[1][1])
    r = (s * _ASIN_POLY[2][0] + _ASIN_POLY[2][1]) * s2 + (s * _ASIN_POLY[3][0] + _ASIN_POLY[3][1])
    q = s2 * s2 * q + r
    q = q * s2 + (s * _ASIN_POLY[4][0] + _ASIN_POLY[4][1])
    q = q * s + _ASIN_POLY[5][0]
    q = q * s + _ASIN_POLY[5][1]
    return a, s, lanes, high, c, q * s


def _asin(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """vdAsin: |x| + |x|*p(x*x) below 1/2; from 1/2 on, pi/2 - 2*asin(sqrt(v)) as
    (pi/2 - h) + ((l - c - h)*p(v) + (its rounding error + low(pi/2) - c)); x's sign put
    back. |x| past 1 gives the negative quiet NaN, as the slow path does, and NaN the quiet
    NaN of its sign (its payload lost in the float estimate)."""
    a, _, upper, high, c, q = _asin_parts(x, lambda a, v, s: a >= 0.5)
    top = _HALF_PI[0] - high
    rest = ((_HALF_PI[0] - top) - high) + (c + _HALF_PI[1])
    out = np.where(upper, c - high, a) * q
    out += np.where(upper, rest, 0.0)
    out += np.where(upper, top, a)
    out.view(_U64)[...] ^= x.view(_U64) & _SIGN
    out[a > 1.0] = _NEGATIVE_NAN
    nan = np.isnan(x)
    out[nan] = ((x[nan].view(_U64) & _SIGN) | _U64(0x7FF8000000000000)).view(np.float64)
    return out, np.ones(x.shape, bool)


def _acos(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """vdAcos: pi/2 - (x + x*p(x*x)) where x*x < v; elsewhere 2*asin(sqrt(v)) (and pi less
    it for negative x), as b +- ((h - c)*p(v) + (low - c) + h) with b and low 0 or pi in
    two parts. NaN comes back quiet, as the slow path gives it; |x| past 1 takes the slow path."""
    a, s, upper, high, c, q = _asin_parts(x, lambda a, v, s: ~(s < v))
    negative = upper & ~(s < x)
    head = np.where(upper, high, -a)
    low = np.where(upper, np.where(negative, _PI[1], 0.0), _HALF_PI[1])
    low = (low.view(_U64) | (x.view(_U64) & _SIGN)).view(np.float64)
    out = (head - c) * q + (low - c)
    out += head
    out.view(_U64)[...] ^= x.view(_U64) & _SIGN
    out += np.where(upper, np.where(negative, _PI[0], 0.0), _HALF_PI[0])
    nan = np.isnan(x)
    out[nan] = x[nan] + x[nan]  # (quiet, as the slow path makes them)
    return out, nan | (a <= 1.0)


# name: the kernel, giving its results and the lanes its fast path takes
KERNELS: dict[str, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]] = {
    "exp": _exp,
    "tanh": _tanh,
    "sin": lambda x: _sin_or_cos(x, False),
    "cos": lambda x: _sin_or_cos(x, True),
    "log": _LN,
    "log10": _LOG10,
    "log2": _LOG2,
    "atan": _atan,
    "tan": _tan,
    "sqrt": _sqrt,
    "erf": _erf,
    "erfc": _erfc,
    "erfinv": _erfinv,
    "asin": _asin,
    "acos": _acos,
}
