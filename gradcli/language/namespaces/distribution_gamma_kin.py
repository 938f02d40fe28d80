"""torch.distributions' InverseGamma (a Gamma pushed through x ** -1), FisherSnedecor (a ratio
of two Gammas) and Kumaraswamy (a Uniform pushed through powers), the same calls as torch's
Python code."""

from __future__ import annotations

import math

from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces import distribution_transforms as tf
from gradcli.language.namespaces.distribution_base import Calls, Distribution, op
from gradcli.language.namespaces.distribution_continuous import Gamma, Uniform
from gradcli.language.namespaces.distribution_transformed import EULER, TransformedDistribution
from gradcli.language.runtime import protocols


def _where_above(calls: Calls, k, bound, value):
    """torch.where(k > bound, value, inf)."""
    return calls.torch("where", protocols.compare(">", k, bound), value, math.inf)


class InverseGamma(TransformedDistribution):
    __slots__ = ()
    NAME, has_rsample = "InverseGamma", True

    def __init__(self, runtime, concentration, rate, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        base_dist = Gamma(runtime, concentration, rate, validate_args=validate_args)
        neg_one = protocols.unary("-", self.calls.method(base_dist.attrs["rate"], "new_ones", ()))
        self.build(base_dist, tf.PowerTransform(runtime, neg_one), validate_args)

    def arg_constraints(self) -> dict:
        return {"concentration": base.POSITIVE, "rate": base.POSITIVE}

    def arg_value(self, name: str):
        return self.base.attrs[name]

    def support(self):
        return base.POSITIVE

    @property
    def concentration(self):
        return self.base.attrs["concentration"]

    @property
    def rate(self):
        return self.base.attrs["rate"]

    @property
    def mean(self):
        k = self.concentration
        return _where_above(self.calls, k, 1, op("/", self.rate, op("-", k, 1)))

    @property
    def mode(self):
        return op("/", self.rate, op("+", self.concentration, 1))

    @property
    def variance(self):
        c, k = self.calls, self.concentration
        result = op("/", c.method(self.rate, "square"),
                    op("*", c.method(op("-", k, 1), "square"), op("-", k, 2)))
        return _where_above(c, k, 2, result)

    def entropy(self):
        c, k = self.calls, self.concentration
        return op("-", op("+", op("+", k, c.method(self.rate, "log")), c.method(k, "lgamma")),
                  op("*", op("+", 1, k), c.method(k, "digamma")))


class FisherSnedecor(Distribution):
    __slots__ = ()
    NAME, has_rsample = "FisherSnedecor", True

    def __init__(self, runtime, df1, df2, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        a, b = base.broadcast_all(self.calls, df1, df2)
        self.attrs.update(df1=a, df2=b, _gamma1=Gamma(runtime, op("*", a, 0.5), a),
                          _gamma2=Gamma(runtime, op("*", b, 0.5), b))
        scalars = not isinstance(df1, Tensor) and not isinstance(df2, Tensor)
        self.setup(runtime, () if scalars else a.shape, validate_args)

    def arg_constraints(self) -> dict:
        return {"df1": base.POSITIVE, "df2": base.POSITIVE}

    def support(self):
        return base.POSITIVE

    def expand_into(self, new, batch_shape) -> None:
        for name in ("df1", "df2"):
            new.attrs[name] = self.calls.method(self.attrs[name], "expand", batch_shape)
        for name in ("_gamma1", "_gamma2"):
            new.attrs[name] = self.attrs[name].expand(batch_shape)

    def _df2_above(self, bound):
        """df2 with nan where it is at most `bound`."""
        df2 = self.calls.method(self.attrs["df2"], "clone")
        protocols.set_item(df2, protocols.compare("<=", df2, bound), math.nan)
        return df2

    @property
    def mean(self):
        df2 = self._df2_above(2)
        return op("/", df2, op("-", df2, 2))

    @property
    def mode(self):
        df1, df2 = self.attrs["df1"], self.attrs["df2"]
        mode = op("/", op("*", op("/", op("-", df1, 2), df1), df2), op("+", df2, 2))
        protocols.set_item(mode, protocols.compare("<=", df1, 2), math.nan)
        return mode

    @property
    def variance(self):
        c, df1, df2 = self.calls, self.attrs["df1"], self._df2_above(4)
        top = op("*", op("*", 2, c.method(df2, "pow", 2)), op("-", op("+", df1, df2), 2))
        bottom = op("*", op("*", df1, c.method(op("-", df2, 2), "pow", 2)), op("-", df2, 4))
        return op("/", top, bottom)

    def rsample(self, sample_shape=()):
        c, shape = self.calls, self.extended_shape(sample_shape)
        x1 = c.method(self.attrs["_gamma1"].rsample(sample_shape), "view", shape)
        x2 = c.method(self.attrs["_gamma2"].rsample(sample_shape), "view", shape)
        tiny = protocols.get_attribute(c.torch("finfo", base.attr(x2, "dtype")), "tiny")
        c.method(x2, "clamp_", min=tiny)
        y = op("/", x1, x2)
        c.method(y, "clamp_", min=tiny)
        return y

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c = self.calls
        ct1, ct2 = op("*", self.attrs["df1"], 0.5), op("*", self.attrs["df2"], 0.5)
        ct3 = op("/", self.attrs["df1"], self.attrs["df2"])
        t1 = op("-", op("-", c.method(op("+", ct1, ct2), "lgamma"), c.method(ct1, "lgamma")),
                c.method(ct2, "lgamma"))
        t2 = op("+", op("*", ct1, c.method(ct3, "log")),
                op("*", op("-", ct1, 1), c.torch("log", value)))
        t3 = op("*", op("+", ct1, ct2), c.torch("log1p", op("*", ct3, value)))
        return op("-", op("+", t1, t2), t3)


class Kumaraswamy(TransformedDistribution):
    __slots__ = ()
    NAME, has_rsample = "Kumaraswamy", True
    EXPANDED = ("concentration1", "concentration0")

    def __init__(self, runtime, concentration1, concentration0, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        c = self.calls
        a, b = base.broadcast_all(c, concentration1, concentration0)
        self.attrs.update(concentration1=a, concentration0=b)
        base_dist = Uniform(runtime, c.torch("full_like", b, 0), c.torch("full_like", b, 1),
                            validate_args=validate_args)
        transforms = [tf.PowerTransform(runtime, c.method(b, "reciprocal")),
                      tf.AffineTransform(runtime, 1.0, -1.0),
                      tf.PowerTransform(runtime, c.method(a, "reciprocal"))]
        self.build(base_dist, transforms, validate_args)

    def arg_constraints(self) -> dict:
        return {"concentration1": base.POSITIVE, "concentration0": base.POSITIVE}

    def support(self):
        return base.UNIT_INTERVAL

    def _moment(self, n):
        c, a, b = self.calls, self.attrs["concentration1"], self.attrs["concentration0"]
        arg1 = op("+", 1, op("/", n, a))
        log_value = op("-", op("+", c.torch("lgamma", arg1), c.torch("lgamma", b)),
                       c.torch("lgamma", op("+", arg1, b)))
        return op("*", b, c.torch("exp", log_value))

    @property
    def mean(self):
        return self._moment(1)

    @property
    def mode(self):
        c, a, b = self.calls, self.attrs["concentration1"], self.attrs["concentration0"]
        log_mode = op("-", op("*", c.method(b, "reciprocal"),
                              c.method(protocols.unary("-", b), "log1p")),
                      c.method(op("*", protocols.unary("-", b), a), "log1p"))
        protocols.set_item(log_mode, op("|", protocols.compare("<", b, 1),
                                        protocols.compare("<", a, 1)), math.nan)
        return c.method(log_mode, "exp")

    @property
    def variance(self):
        return op("-", self._moment(2), self.calls.torch("pow", self.mean, 2))

    def entropy(self):
        c, a, b = self.calls, self.attrs["concentration1"], self.attrs["concentration0"]
        t1, t0 = op("-", 1, c.method(a, "reciprocal")), op("-", 1, c.method(b, "reciprocal"))
        h0 = op("+", c.torch("digamma", op("+", b, 1)), EULER)
        return op("-", op("-", op("+", t0, op("*", t1, h0)), c.torch("log", a)),
                  c.torch("log", b))
