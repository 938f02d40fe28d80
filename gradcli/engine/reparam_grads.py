"""The reparameterised gradients of Gamma and Dirichlet draws (torch._standard_gamma_grad and
torch._dirichlet_grad): ATen's standard_gamma_grad_one and dirichlet_grad_one, element by element,
with their float steps in the tensor's dtype and their double steps in double, as the CPU kernels
instantiate them (accscalar_t double)."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine.libm_float import pow_double, powf, scalar

_F32 = np.float32
_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)
_GAMMA_UV = ((0.16009398, -0.094634809, 0.025146376, -0.0030648343,
              1, 0.32668115, 0.10406089, 0.0014179084),
             (0.53487893, 0.1298071, 0.065735949, -0.0015649758,
              0.16639465, 0.020070113, -0.0035938915, -0.00058392623),
             (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777,
              0.017050642, -0.0021309326, 0.00085092367, -1.5247877e-07))
_DIRICHLET_C = (
    (((1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
      (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
      (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
     ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
      (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
      (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
     ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
      (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
      (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05))),
    (((1, -0.02924021934, -0.04438342661, 0.007285809825),
      (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
      (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
     ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
      (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
      (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
     ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
      (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
      (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06))))


def _f(value: float) -> float:
    """A C float literal (0.8f) as the double it widens to."""
    return float(_F32(value))


def _log(x: float) -> float:
    return math.log(x) if x > 0 else float(np.log(np.float64(x)))


def _pow(x: float, y: float) -> float:
    try:
        return math.pow(x, y)
    except (ValueError, OverflowError):
        return float(pow_double(x, y))


def _logs(x: np.ndarray) -> np.ndarray:
    """std::log in the array's dtype (glibc's logf for float32, its log for float64)."""
    return scalar("log", x)


def _pows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype == _F32:
        return powf(x, y)
    return pow_double(x, y)


def _digamma_double(x: float) -> float:
    """digamma_one<double, double> of one value."""
    return float(_digamma(np.array([x], np.float64))[0])


def _digamma(x: np.ndarray) -> np.ndarray:
    """digamma_one<T, double> elementwise: x in the array's dtype T, the sums in double, the
    result rounded to T."""
    t = x.dtype.type
    x = x.copy()
    infinite = (x == 0) | ((x < 0) & (x == np.floor(x)))
    extra = np.zeros(x.shape)
    negative = (x < 0) & ~infinite
    if negative.any():
        pi = t(math.pi)
        extra[negative] = -pi / np.tan(pi * x[negative])
        x[negative] = t(1) - x[negative]
    result = np.zeros(x.shape)
    low = x < 10
    while low.any():
        result[low] -= t(1) / x[low]
        x[low] += t(1)
        low = x < 10
    z = 1.0 / (x * x).astype(np.float64)
    poly = np.zeros(x.shape)
    for a in _DIGAMMA_A:
        poly = poly * z + a
    y = np.where(x < _f(1.0e17), z * poly, 0.0)
    out = (result + _logs(x) - t(0.5) / x - y + extra).astype(t)
    out = np.where(x == 10, (result + _PSI_10 + extra).astype(t), out)
    return np.where(infinite, t(np.inf), out)


def _gamma_grad_one(alpha: float, x: float) -> float:
    """standard_gamma_grad_one in double: a Taylor series for small x, Rice's saddle point for
    large alpha, a bivariate rational approximation otherwise."""
    if x < _f(0.8):
        numer, denom = 1.0, alpha
        series1, series2 = numer / denom, numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / float(i)
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        pow_x_alpha = _pow(x, alpha)
        pdf = _pow(x, alpha - 1) * math.exp(-x)
        cdf = pow_x_alpha * series1
        cdf_alpha = (_log(x) - _digamma_double(alpha)) * cdf - pow_x_alpha * series2
        with np.errstate(all="ignore"):
            result = float(np.float64(-cdf_alpha) / np.float64(pdf))
        return 0.0 if result != result else result
    if alpha > 8.0:
        if _f(0.9) * alpha <= x <= _f(1.1) * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = (1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha
                       + alpha * (107 + 3600 * x))
            return numer_1 * numer_2 / (1244160 * (alpha * alpha) * (alpha * alpha))
        denom = math.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = _pow(x - alpha - alpha * _log(x / alpha), -1.5)
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = _log(x / alpha) * term23 - math.sqrt(2 / alpha) * (alpha + x) / (
            (alpha - x) * (alpha - x))
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        return -stirling * (x * term1) / denom
    u, v = _log(x / alpha), _log(alpha)
    coef = [_GAMMA_UV[0][i] + u * (_GAMMA_UV[1][i] + u * _GAMMA_UV[2][i]) for i in range(8)]
    p = coef[0] + v * (coef[1] + v * (coef[2] + v * coef[3]))
    q = coef[4] + v * (coef[5] + v * (coef[6] + v * coef[7]))
    return math.exp(p / q)


def _alpha_small(x, alpha, beta):
    """_beta_grad_alpha_small: a Taylor series in the arrays' dtype for x near 0."""
    t = x.dtype.type
    factor = _digamma(alpha) - _digamma(alpha + beta) - _logs(x)
    numer = np.ones_like(x)
    series = numer / alpha * (factor + t(1) / alpha)
    for i in range(1, 11):
        ti = t(i)
        numer = numer * ((ti - beta) * x / ti)
        denom = alpha + ti
        series = series + numer / denom * (factor + t(1) / denom)
    result = x * _pows(t(1) - x, -beta) * series
    return np.where(np.isnan(result), t(0), result)


def _beta_small(x, alpha, beta):
    """_beta_grad_beta_small: a Taylor series in the arrays' dtype for x near 0."""
    t = x.dtype.type
    factor = _digamma(alpha + beta) - _digamma(beta)
    numer, betas, dbetas, series = np.ones_like(x), np.ones_like(x), np.zeros_like(x), factor / alpha
    for i in range(1, 9):
        ti = t(i)
        numer = numer * (-x / ti)
        dbetas = dbetas * (beta - ti) + betas
        betas = betas * (beta - ti)
        series = series + numer / (alpha + ti) * (dbetas + factor * betas)
    result = -_pows(t(1) - x, t(1) - beta) * series
    return np.where(np.isnan(result), t(0), result)


def _alpha_mid(x, alpha, beta):
    """_beta_grad_alpha_mid: Rice's saddle point expansion in double for large alpha and beta."""
    total = alpha + beta
    mean = alpha / total
    std = np.sqrt(alpha * beta / (total + 1)) / total
    poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
        (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
            3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                    8 * (1 - x) * (135 * beta - 11)))))
    prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
    prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
    near_mean = prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / np.sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
                * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1 = term1_num / (np.sqrt(2 * alpha / beta) * pow_double(total, 1.5) * axbx * axbx)
    term2 = 0.5 * _logs(alpha / (total * x))
    term3 = np.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4 = pow_double(beta * _logs(beta / (total * (1 - x))) + alpha * _logs(alpha / (total * x)),
                       -1.5)
    far = stirling * prefactor * (term1 + term2 * (term3 + np.where(x < mean, term4, -term4)))
    return np.where((mean - 0.1 * std <= x) & (x <= mean + 0.1 * std), near_mean, far)


def _rational(x, alpha, total, t):
    """dirichlet_grad_one's rational correction to an analytic approximation, in double."""
    u = _logs(x)
    a = _logs(alpha) - u
    b = _logs(total) - a
    pow_u, pow_a = (1.0, u, u * u), (1.0, a, a * a)
    p = q = 0.0
    for i in range(3):
        for j in range(3):
            ua = pow_u[i] * pow_a[j]
            cp, cq = _DIRICHLET_C[0][i][j], _DIRICHLET_C[1][i][j]
            p = p + ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])))
            q = q + ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])))
    digammas = _digamma(total.astype(t)).astype(np.float64) - _digamma(alpha.astype(t))
    return p / q * (x * digammas / (total - alpha))


def standard_gamma_grad(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    """_standard_gamma_grad_cpu on two arrays of one shape and floating dtype."""
    t = alpha.dtype.type
    with np.errstate(all="ignore"):
        values = [t(_gamma_grad_one(float(a), float(v)))
                  for a, v in zip(alpha.ravel().tolist(), x.ravel().tolist())]
    return np.array(values, alpha.dtype).reshape(alpha.shape)


def dirichlet_grad(x: np.ndarray, alpha: np.ndarray, total: np.ndarray) -> np.ndarray:
    """_dirichlet_grad_cpu (dirichlet_grad_one<T, double>) on three arrays of one shape and
    floating dtype T: -(d/dalpha cdf(x; alpha, total - alpha)) / pdf / (1 - x), from a Taylor
    series near 0 or 1, Rice's expansion for large parameters, else a rational approximation;
    every branch computed for every element, each element taking its own."""
    t = x.dtype.type
    beta = total - alpha
    boundary = total * x * (t(1) - x)
    wide = [v.astype(np.float64) for v in (x, alpha, total)]
    with np.errstate(all="ignore"):
        out = _rational(*wide, t).astype(t)
        out = np.where((alpha > 6) & (beta > 6), _alpha_mid(wide[0], wide[1], wide[2] - wide[1])
                       .astype(t), out)
        out = np.where((x >= 0.5) & (boundary < 0.75), -_beta_small(t(1) - x, beta, alpha), out)
        return np.where((x <= 0.5) & (boundary < 2.5), _alpha_small(x, alpha, beta), out)
