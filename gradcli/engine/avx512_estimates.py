"""AVX-512's 14-bit estimates, vrcp14 (1/x) and vrsqrt14 (1/sqrt(x)), bit for bit, for float32
and float64 arrays: the first step of MKL's AVX-512 kernels, which refine them.

Intel specifies both by a reference algorithm (its "Reference Implementations for IA
Approximation Instructions"): the argument scaled by a power of two (of four for the root) into
[1, 2) (or [1, 4)), its significand cut to 16 (15) fraction bits, a line through the point
`y` of its segment, `c - d * (x - y)`, evaluated exactly and cut to 17 significant bits; the
power of two scaled back. The segments' coefficients below are that specification's; the
results were checked against the instructions on every float32 significand.
"""

from __future__ import annotations

import functools

import numpy as np

# (d, c) per segment: rcp14 has 64 segments of [1, 2); rsqrt14 has 32 of [1, 2) then 32 of [2, 4),
# interleaved ([1, 2)'s d and c, then [2, 4)'s).
_RCP14 = (
    1009, 260119, 977, 256148, 949, 252296, 921, 248558, 893, 244929, 869, 241405, 843, 237981,
    821, 234652, 797, 231416, 777, 228266, 755, 225202, 735, 222220, 717, 219314, 699, 216485,
    681, 213727, 663, 211038, 647, 208417, 631, 205859, 617, 203364, 601, 200929, 587, 198551,
    573, 196229, 561, 193960, 547, 191743, 535, 189576, 523, 187458, 513, 185387, 501, 183360,
    491, 181377, 479, 179439, 469, 177540, 459, 175681, 451, 173860, 441, 172077, 433, 170330,
    423, 168618, 415, 166940, 407, 165295, 399, 163682, 391, 162101, 385, 160550, 377, 159027,
    369, 157535, 363, 156069, 357, 154631, 349, 153219, 343, 151832, 337, 150470, 331, 149133,
    325, 147819, 319, 146528, 315, 145260, 309, 144012, 303, 142787, 299, 141582, 293, 140397,
    289, 139232, 285, 138085, 279, 136959, 275, 135853, 271, 134763, 267, 133689, 263, 132631,
    259, 131589)
_RSQRT14 = (
    1001, 520261, 707, 367881, 955, 512437, 675, 362349, 915, 504953, 647, 357056, 877, 497790,
    619, 351992, 841, 490922, 595, 347136, 807, 484331, 571, 342475, 775, 478001, 549, 337997,
    747, 471909, 527, 333693, 719, 466046, 509, 329545, 693, 460397, 491, 325551, 669, 454947,
    473, 321697, 647, 449688, 457, 317977, 625, 444606, 441, 314385, 603, 439694, 427, 310910,
    585, 434939, 413, 307549, 567, 430335, 401, 304295, 549, 425875, 389, 301139, 533, 421551,
    377, 298079, 517, 417355, 365, 295115, 501, 413284, 355, 292237, 487, 409329, 345, 289439,
    473, 405487, 335, 286722, 461, 401748, 325, 284080, 449, 398111, 317, 281508, 437, 394571,
    309, 279006, 425, 391127, 301, 276569, 415, 387770, 293, 274195, 403, 384498, 285, 271882,
    393, 381307, 279, 269625, 385, 378194, 271, 267425, 375, 375155, 265, 265276, 367, 372190,
    259, 263178)


@functools.cache
def _columns(table: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    pairs = np.array(table, dtype=np.float64).reshape(-1, 2)
    return np.ascontiguousarray(pairs[:, 0]), np.ascontiguousarray(pairs[:, 1])


def _truncated(values: np.ndarray, dropped: int) -> np.ndarray:
    """`values` (float64) with the low `dropped` bits of their significands cleared."""
    return (values.view(np.uint64) & np.uint64(~((1 << dropped) - 1) & (2**64 - 1))).view(np.float64)


def _line(x: np.ndarray, segment: np.ndarray, y: np.ndarray, table: tuple[int, ...],
          slope_scale: float, scale: float) -> np.ndarray:
    """c - d * slope_scale * (x - y), exact in double, cut to 17 significant bits, times `scale`."""
    d, c = _columns(table)
    value = c.take(segment) - d.take(segment) * slope_scale * (x - y)
    return _truncated(value, 36) * scale


def _split(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """|x| (finite, nonzero, as float64) as m * 2**e with m in [1, 2)."""
    m, e = np.frexp(np.abs(x).astype(np.float64))
    return m * 2, e - 1


def _rcp_core(m: np.ndarray, kept_fraction_bits: int) -> np.ndarray:
    """rcp14 of m in [1, 2)."""
    segment = ((m - 1) * 64).astype(np.intp)
    y = 1 + 1 / 128 + segment / 64
    return _line(_truncated(m, 52 - kept_fraction_bits), segment, y, _RCP14, 256.0, 2.0 ** -18)


def rcp14(x: np.ndarray) -> np.ndarray:
    """vrcp14ps / vrcp14pd of a float32 or float64 array."""
    x = np.asarray(x)
    single = x.dtype == np.float32
    with np.errstate(all="ignore"):
        out = (1 / x).astype(np.float64)  # zeros, infinities, NaN (quieted) as the instruction gives them
        regular = np.isfinite(x) & (x != 0)
        if regular.any():
            m, e = _split(x[regular])
            power = m == 1
            core = np.where(power, 1.0, _rcp_core(m, 16))
            estimate = np.copysign(np.ldexp(core, -e), x[regular])
            # a float32 argument of 2**-128 or less (subnormal) has no finite estimate
            limit = 2.0 ** -128 if single else 2.0 ** -1024
            out[regular] = np.where(np.abs(x[regular]) <= limit, np.copysign(np.inf, x[regular]), estimate)
    return out.astype(x.dtype)


def rsqrt14(x: np.ndarray) -> np.ndarray:
    """vrsqrt14ps / vrsqrt14pd of a float32 or float64 array."""
    x = np.asarray(x)
    with np.errstate(all="ignore"):
        out = (1 / np.sqrt(x)).astype(np.float64)  # zeros, +inf, NaN; negative x gives NaN
        regular = np.isfinite(x) & (x > 0)
        if regular.any():
            m, e = _split(x[regular])
            odd = (e & 1).astype(bool)
            m = np.where(odd, m * 2, m)  # [1, 4)
            half = (e - odd) // 2
            low = ~odd
            segment = np.where(low, (m - 1) * 32, (m - 2) * 16).astype(np.intp)
            y = np.where(low, 1 + 1 / 64 + segment / 32, 2 + 1 / 32 + segment / 16)
            cut = _truncated(m, 52 - 15)
            line = np.where(low, _line(cut, 2 * segment, y, _RSQRT14, 256.0, 2.0 ** -19),
                            _line(cut, 2 * segment + 1, y, _RSQRT14, 128.0, 2.0 ** -19))
            line[m == 1] = 1.0
            out[regular] = np.ldexp(line, -half)
        out[x < 0] = -np.nan  # the default NaN, sign bit set
    return out.astype(x.dtype)
