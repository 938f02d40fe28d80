"""torch's matrix exponential on the CPU, in its order of operations (ATen's LinearAlgebra.cpp,
after Bader, Blanes and Casas, Mathematics 2019, 7, 1174).

A lone matrix takes the Taylor polynomial of degree 1, 2, 4, 8 or 12 that its 1-norm allows,
else (and every matrix of a batch) degree 18 with scaling and squaring. The polynomials are
linear combinations of I, A, A^2, A^3 (and A^6), each combination summed term by term from
zero, and a few matrix products, which go through `bmm` (torch's batched product).
"""

from __future__ import annotations

import numpy as np

_THETAS = {
    np.float32: (1.192092800768788e-07, 5.978858893805233e-04, 5.116619363445086e-02,
                 5.800524627688768e-01, 1.461661507209034e+00, 3.010066362817634e+00),
    np.float64: (2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04,
                 4.991228871115323e-02, 2.996158913811580e-01, 1.090863719290036e+00),
}

_T12 = ((9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740),
        (5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031,
         0.01108844528519167989),
        (0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968,
         0.00610700528898058230),
        (-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079,
         -0.00675951846863086359))

_T18 = ((0., -1.00365581030144618291e-01, -8.02924648241156932449e-03,
         -8.92138498045729985177e-04, 0.),
        (0., 3.97849749499645077844e-01, 1.36783778460411720168e+00,
         4.98289622525382669416e-01, -6.37898194594723280150e-04),
        (-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
         -6.98210122488052056106e-03, 3.34975017086070470649e-05),
        (-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
         2.95552570429315521194e-02, -1.39180257516060693404e-05),
        (0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02,
         -1.40086798182036094347e-05))


def matrix_exp(a: np.ndarray, bmm) -> np.ndarray:
    """exp of each matrix of a float32/float64 (..., n, n) array with n >= 2."""
    kind = a.dtype.type
    flat = a.reshape((-1,) + a.shape[-2:])
    thetas = [kind(t) for t in _THETAS.get(kind, _THETAS[np.float64])]
    norm = np.max(np.sum(np.abs(flat), axis=-2), axis=-1)
    if len(flat) > 1:
        return _t18_scale_square(flat, norm, thetas[5], bmm).reshape(a.shape)
    result = np.full(flat.shape, np.nan, a.dtype)
    approximations = (_t1, _t2, _t4, _t8, _t12)
    for i, compute in enumerate(approximations):
        lower = kind(-1) if i == 0 else thetas[i - 1]
        if lower < norm[0] <= thetas[i]:
            result = compute(flat, bmm)
    if norm[0] >= thetas[4]:
        result = _t18_scale_square(flat, norm, thetas[5], bmm)
    return result.reshape(a.shape)


def _powers(a: np.ndarray, count: int, bmm) -> list:
    """The first `count` of I, A, A^2, A^3, A^6."""
    powers = [np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape).copy(), a]
    if count > 2:
        powers.append(bmm(a, a))
    if count > 3:
        powers.append(bmm(a, powers[2]))
    if count > 4:
        powers.append(bmm(powers[3], powers[3]))
    return powers


def _combination(terms: list, coefficients) -> np.ndarray:
    """_compute_linear_combination: sum_j terms[j] * c[j], from zero, term by term."""
    kind = terms[0].dtype.type
    out = np.zeros_like(terms[0])
    for term, c in zip(terms, coefficients):
        out = out + term * kind(c)
    return out


def _t1(a, bmm):
    identity, a = _powers(a, 2, bmm)
    return identity + a


def _t2(a, bmm):
    identity, a, a2 = _powers(a, 3, bmm)
    return (identity + a) + a2 / a.dtype.type(2)


def _t4(a, bmm):
    powers = _powers(a, 3, bmm)
    powers.append(bmm(powers[2], _combination(powers, (1 / 2.0, 1 / 6.0, 1 / 24.0))))
    return _combination(powers, (1.0, 1.0, 0.0, 1.0))


def _t8(a, bmm):
    kind = a.dtype.type
    sqrt_177, x3 = float(kind(0.1330413469565007072504e+2)), float(kind(2. / 3.))
    x1 = x3 * ((1. + sqrt_177) / 88.)
    x2 = x3 * ((1. + sqrt_177) / 352.)
    x4 = (-271. + 29. * sqrt_177) / (315. * x3)
    x5 = (-11. + 11. * sqrt_177) / (1260. * x3)
    x6 = (-99. + 11. * sqrt_177) / (5040. * x3)
    x7 = (89. - sqrt_177) / (5040. * x3)
    y2 = (857. - 58. * sqrt_177) / 630.
    powers = _powers(a, 3, bmm)
    powers.append(bmm(powers[2], _combination(powers[1:3], (x1, x2))))
    powers.append(bmm(_combination(powers[2:4], (x3, 1.0)),
                      _combination(powers[0:4], (x4, x5, x6, x7))))
    return _combination(powers, (1.0, 1.0, y2, 0.0, 1.0))


def _t12(a, bmm):
    powers = _powers(a, 4, bmm)
    b = [_combination(powers, row) for row in _T12]
    b[2] = b[2] + bmm(b[3], b[3])
    b[1] = b[1] + b[2]
    return b[0] + bmm(b[1], b[2])


def _t18(a, bmm):
    powers = _powers(a, 5, bmm)
    b = [_combination(powers, row) for row in _T18]
    b[3] = b[3] + bmm(b[0], b[4])
    b[2] = b[2] + b[3]
    return b[1] + bmm(b[2], b[3])


def _t18_scale_square(a, norm, theta, bmm):
    """Scale each matrix by 2^-s so its norm is within theta, take degree 18, square s times."""
    kind = a.dtype.type
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.maximum(np.ceil(np.log2(norm / theta)), kind(0))
    scaled = a * np.power(kind(2), -s).astype(a.dtype)[:, None, None]
    result = _t18(scaled, bmm)
    for i in range(len(a)):
        if not np.isfinite(s[i]):
            continue
        entry = result[i:i + 1]
        for _ in range(int(s[i])):
            entry = bmm(entry, entry)
        result[i:i + 1] = entry
    return result
