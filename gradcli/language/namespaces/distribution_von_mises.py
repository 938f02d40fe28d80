"""torch.distributions.VonMises: a circular distribution drawn by Best and Fisher's rejection
sampling in float64, its log-density through torch's polynomial approximations of the modified
Bessel functions, the same calls as torch's Python code."""

from __future__ import annotations

import math

from gradcli.engine import dtypes
from gradcli.engine.state import grad_mode
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import Calls, Distribution, op
from gradcli.language.runtime import protocols

_I0_SMALL = (1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2)
_I0_LARGE = (0.39894228, 0.1328592e-1, 0.225319e-2, -0.157565e-2, 0.916281e-2, -0.2057706e-1,
             0.2635537e-1, -0.1647633e-1, 0.392377e-2)
_I1_SMALL = (0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3)
_I1_LARGE = (0.39894228, -0.3988024e-1, -0.362018e-2, 0.163801e-2, -0.1031555e-1, 0.2282967e-1,
             -0.2895312e-1, 0.1787654e-1, -0.420059e-2)


def _eval_poly(y, coefficients):
    """Horner's rule from the highest coefficient, as torch's _eval_poly adds them."""
    result = coefficients[-1]
    for coefficient in reversed(coefficients[:-1]):
        result = op("+", coefficient, op("*", y, result))
    return result


def _log_bessel(c: Calls, x, order: int):
    """torch's _log_modified_bessel_fn: log I0 or log I1, small and large x approximations."""
    small_coef, large_coef = (_I0_SMALL, _I0_LARGE) if order == 0 else (_I1_SMALL, _I1_LARGE)
    y = op("/", x, 3.75)
    small = _eval_poly(op("*", y, y), small_coef)
    if order == 1:
        small = op("*", c.method(x, "abs"), small)
    small = c.method(small, "log")
    large = op("+", op("-", x, op("*", 0.5, c.method(x, "log"))),
               c.method(_eval_poly(op("/", 3.75, x), large_coef), "log"))
    return c.torch("where", protocols.compare("<", x, 3.75), small, large)


class VonMises(Distribution):
    __slots__ = ()
    NAME, EXPANDED = "VonMises", ("loc", "concentration")

    def __init__(self, runtime, loc, concentration, validate_args=None):
        self.setup_broadcast(runtime, validate_args, loc=loc, concentration=concentration)

    def arg_constraints(self) -> dict:
        return {"loc": base.REAL, "concentration": base.POSITIVE}

    def support(self):
        return base.REAL

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c, kappa = self.calls, self.attrs["concentration"]
        log_prob = op("*", kappa, c.torch("cos", op("-", value, self.attrs["loc"])))
        return op("-", op("-", log_prob, math.log(2 * math.pi)), _log_bessel(c, kappa, 0))

    def _proposal_r(self, kappa):
        c = self.calls
        tau = op("+", 1, c.method(op("+", 1, op("*", 4, op("**", kappa, 2))), "sqrt"))
        rho = op("/", op("-", tau, c.method(op("*", 2, tau), "sqrt")), op("*", 2, kappa))
        proposal = op("/", op("+", 1, op("**", rho, 2)), op("*", 2, rho))
        taylor = op("+", op("/", 1, kappa), kappa)  # second order around 0, for small kappa
        return c.torch("where", protocols.compare("<", kappa, 1e-5), taylor, proposal)

    def sample(self, sample_shape=()):
        """_rejection_sample: uniform triples drawn for the whole shape until every element
        is accepted once, in float64."""
        c = self.calls
        with grad_mode(False):
            loc = c.method(self.attrs["loc"], "to", dtypes.float64)
            kappa = c.method(self.attrs["concentration"], "to", dtypes.float64)
            proposal_r = self._proposal_r(kappa)
            shape = tuple(self.extended_shape(sample_shape))
            x = c.torch("zeros", shape, dtype=dtypes.float64)
            done = c.torch("zeros", shape, dtype=dtypes.bool_)
            while not c.method(c.method(done, "all"), "item"):
                u1, u2, u3 = c.method(c.torch("rand", (3, *shape), dtype=dtypes.float64),
                                      "unbind")
                z = c.torch("cos", op("*", math.pi, u1))
                f = op("/", op("+", 1, op("*", proposal_r, z)), op("+", proposal_r, z))
                k = op("*", kappa, op("-", proposal_r, f))
                accept = op("|", protocols.compare(">", op("-", op("*", k, op("-", 2, k)), u2), 0),
                            protocols.compare(">=", op("-", op("+", c.method(
                                op("/", k, u2), "log"), 1), k), 0))
                if c.method(c.method(accept, "any"), "item"):
                    x = c.torch("where", accept, op("*", c.method(op("-", u3, 0.5), "sign"),
                                                    c.method(f, "acos")), x)
                    done = op("|", done, accept)
            angle = op("-", op("%", op("+", op("+", x, math.pi), loc), 2 * math.pi), math.pi)
            return c.method(angle, "to", base.attr(self.attrs["loc"], "dtype"))

    @property
    def mean(self):
        return self.attrs["loc"]

    @property
    def mode(self):
        return self.attrs["loc"]

    @property
    def variance(self):
        c, kappa = self.calls, self.attrs["concentration"]
        return op("-", 1, c.method(op("-", _log_bessel(c, kappa, 1), _log_bessel(c, kappa, 0)),
                                   "exp"))
