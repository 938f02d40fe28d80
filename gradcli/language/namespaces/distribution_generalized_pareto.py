"""torch.distributions.GeneralizedPareto: loc, scale and concentration, drawn by its icdf of a
uniform draw, the same calls as torch's Python code (after TensorFlow Probability's)."""

from __future__ import annotations

import math

from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import Distribution, op
from gradcli.language.runtime import protocols


class GeneralizedPareto(Distribution):
    __slots__ = ()
    NAME, has_rsample = "GeneralizedPareto", True
    EXPANDED = ("loc", "scale", "concentration")

    def __init__(self, runtime, loc, scale, concentration, validate_args=None):
        self.setup_broadcast(runtime, validate_args, loc=loc, scale=scale,
                             concentration=concentration)

    def arg_constraints(self) -> dict:
        return {"loc": base.REAL, "scale": base.POSITIVE, "concentration": base.REAL}

    def support(self):
        c, loc, k = self.calls, self.attrs["loc"], self.attrs["concentration"]
        upper = c.torch("where", protocols.compare("<", k, 0),
                        op("-", loc, op("/", self.attrs["scale"], k)), math.inf)
        return base.interval(loc, upper)

    def _safe_concentration(self, zero):
        """(concentration == 0 within isclose, concentration with 1 there)."""
        c, k = self.calls, self.attrs["concentration"]
        eq_zero = c.torch("isclose", k, zero)
        return eq_zero, c.torch("where", eq_zero, c.torch("ones_like", k), k)

    def rsample(self, sample_shape=()):
        loc = self.attrs["loc"]
        u = self.calls.torch("rand", self.extended_shape(sample_shape),
                             dtype=base.attr(loc, "dtype"))
        return self.icdf(u)

    def icdf(self, value):
        c, loc, scale = self.calls, self.attrs["loc"], self.attrs["scale"]
        eq_zero, safe = self._safe_concentration(
            c.torch("zeros_like", self.attrs["concentration"]))
        logu = c.torch("log1p", protocols.unary("-", value))
        nonzero = op("+", loc, op("*", op("/", scale, safe), c.torch(
            "expm1", op("*", protocols.unary("-", safe), logu))))
        return c.torch("where", eq_zero, op("-", loc, op("*", scale, logu)), nonzero)

    def _z(self, value):
        return op("/", op("-", value, self.attrs["loc"]), self.attrs["scale"])

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c = self.calls
        z = self._z(value)
        eq_zero, safe = self._safe_concentration(c.torch("tensor", 0.0))
        y = op("+", op("/", 1, safe), c.torch("ones_like", z))
        nonzero = c.torch("where", protocols.compare("==", y, 0), y,
                          op("*", y, c.torch("log1p", op("*", safe, z))))
        return op("-", protocols.unary("-", c.method(self.attrs["scale"], "log")),
                  c.torch("where", eq_zero, z, nonzero))

    def cdf(self, value):
        if self.validate:
            self.validate_sample(value)
        c = self.calls
        z = self._z(value)
        eq_zero, safe = self._safe_concentration(c.torch("tensor", 0.0))
        nonzero = op("/", protocols.unary("-", c.torch("log1p", op("*", safe, z))), safe)
        survival = c.torch("where", eq_zero, protocols.unary("-", z), nonzero)
        return c.torch("exp", c.torch("log1p", protocols.unary("-", c.torch("exp", survival))))

    @property
    def mean(self):
        c, k = self.calls, self.attrs["concentration"]
        valid = protocols.compare("<", k, 1)
        safe = c.torch("where", valid, k, 0.5)
        result = op("+", self.attrs["loc"], op("/", self.attrs["scale"], op("-", 1, safe)))
        return c.torch("where", valid, result, math.nan)

    @property
    def variance(self):
        c, k = self.calls, self.attrs["concentration"]
        valid = protocols.compare("<", k, 0.5)
        safe = c.torch("where", valid, k, 0.25)
        result = op("/", op("**", self.attrs["scale"], 2),
                    op("*", op("**", op("-", 1, safe), 2), op("-", 1, op("*", 2, safe))))
        return c.torch("where", valid, result, math.nan)

    def entropy(self):
        c = self.calls
        ans = op("+", op("+", c.torch("log", self.attrs["scale"]), self.attrs["concentration"]), 1)
        return c.torch("broadcast_to", ans, self.batch_shape)

    @property
    def mode(self):
        return self.attrs["loc"]
