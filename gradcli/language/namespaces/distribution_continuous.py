"""torch.distributions' Normal, Uniform, Exponential, Laplace, Cauchy, Gamma, Chi2, StudentT and
LogNormal (a Normal pushed through exp, as
torch's TransformedDistribution computes it), the same calls as torch's Python code."""

from __future__ import annotations

import math

from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import Calls, Distribution, op
from gradcli.language.runtime import protocols


class _LocScale(Distribution):
    """A real-valued family with a location and a positive scale, broadcast together."""

    __slots__ = ()

    def __init__(self, runtime, loc, scale, validate_args=None):
        self.setup_broadcast(runtime, validate_args, loc=loc, scale=scale)

    def arg_constraints(self) -> dict:
        return {"loc": base.REAL, "scale": base.POSITIVE}

    def support(self):
        return base.REAL


class Normal(_LocScale):
    __slots__ = ()
    NAME, has_rsample, EXPANDED = "Normal", True, ("loc", "scale")

    def sample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        c, loc, scale = self.calls, self.attrs["loc"], self.attrs["scale"]
        with grad_mode(False):
            return c.torch("normal", c.method(loc, "expand", shape),
                           c.method(scale, "expand", shape))

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        c, loc = self.calls, self.attrs["loc"]
        eps = c.method(c.torch("empty", shape, dtype=base.attr(loc, "dtype")), "normal_")
        return op("+", loc, op("*", eps, self.attrs["scale"]))

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        loc, scale = self.attrs["loc"], self.attrs["scale"]
        var = op("**", scale, 2)
        log_scale = self.calls.method(scale, "log")
        square = protocols.unary("-", op("**", op("-", value, loc), 2))
        return op("-", op("-", op("/", square, op("*", 2, var)), log_scale),
                  math.log(math.sqrt(2 * math.pi)))

    def cdf(self, value):
        if self.validate:
            self.validate_sample(value)
        c, loc, scale = self.calls, self.attrs["loc"], self.attrs["scale"]
        inner = op("/", op("*", op("-", value, loc), c.method(scale, "reciprocal")),
                   math.sqrt(2))
        return op("*", 0.5, op("+", 1, c.torch("erf", inner)))

    def icdf(self, value):
        c, loc, scale = self.calls, self.attrs["loc"], self.attrs["scale"]
        return op("+", loc, op("*", op("*", scale, c.torch(
            "erfinv", op("-", op("*", 2, value), 1))), math.sqrt(2)))

    def entropy(self):
        return op("+", 0.5 + 0.5 * math.log(2 * math.pi),
                  self.calls.torch("log", self.attrs["scale"]))

    @property
    def mean(self):
        return self.attrs["loc"]

    @property
    def mode(self):
        return self.attrs["loc"]

    @property
    def stddev(self):
        return self.attrs["scale"]

    @property
    def variance(self):
        return self.calls.method(self.stddev, "pow", 2)


class Uniform(Distribution):
    __slots__ = ()
    NAME, has_rsample, EXPANDED = "Uniform", True, ("low", "high")

    def __init__(self, runtime, low, high, validate_args=None):
        self.setup_broadcast(runtime, validate_args, low=low, high=high)

    def arg_constraints(self) -> dict:
        return {"low": base.less_than(self.attrs["high"]),
                "high": base.greater_than(self.attrs["low"])}

    def support(self):
        return base.interval(self.attrs["low"], self.attrs["high"])

    def _width(self):
        return op("-", self.attrs["high"], self.attrs["low"])

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        low = self.attrs["low"]
        rand = self.calls.torch("rand", shape, dtype=base.attr(low, "dtype"))
        return op("+", low, op("*", rand, self._width()))

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c, low, high = self.calls, self.attrs["low"], self.attrs["high"]
        lb = c.method(c.method(low, "le", value), "type_as", low)
        ub = c.method(c.method(high, "gt", value), "type_as", low)
        return op("-", c.torch("log", c.method(lb, "mul", ub)), c.torch("log", self._width()))

    def cdf(self, value):
        if self.validate:
            self.validate_sample(value)
        result = op("/", op("-", value, self.attrs["low"]), self._width())
        return self.calls.method(result, "clamp", min=0, max=1)

    def icdf(self, value):
        return op("+", op("*", value, self._width()), self.attrs["low"])

    def entropy(self):
        return self.calls.torch("log", self._width())

    @property
    def mode(self):
        return op("*", math.nan, self.attrs["high"])

    @property
    def mean(self):
        return op("/", op("+", self.attrs["high"], self.attrs["low"]), 2)

    @property
    def stddev(self):
        return op("/", self._width(), 12 ** 0.5)

    @property
    def variance(self):
        return op("/", self.calls.method(self._width(), "pow", 2), 12)


def _neg(value):
    return protocols.unary("-", value)


class Exponential(Distribution):
    __slots__ = ()
    NAME, has_rsample, EXPANDED = "Exponential", True, ("rate",)

    def __init__(self, runtime, rate, validate_args=None):
        self.setup_broadcast(runtime, validate_args, rate=rate)

    def arg_constraints(self) -> dict:
        return {"rate": base.POSITIVE}

    def support(self):
        return base.NONNEGATIVE

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        rate = self.attrs["rate"]
        draws = self.calls.method(base.empty_like_param(self.calls, rate, shape), "exponential_")
        return op("/", draws, rate)

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        rate = self.attrs["rate"]
        return op("-", self.calls.method(rate, "log"), op("*", rate, value))

    def cdf(self, value):
        if self.validate:
            self.validate_sample(value)
        return op("-", 1, self.calls.torch("exp", op("*", _neg(self.attrs["rate"]), value)))

    def icdf(self, value):
        return op("/", _neg(self.calls.torch("log1p", _neg(value))), self.attrs["rate"])

    def entropy(self):
        return op("-", 1.0, self.calls.torch("log", self.attrs["rate"]))

    @property
    def mean(self):
        return self.calls.method(self.attrs["rate"], "reciprocal")

    @property
    def mode(self):
        return self.calls.torch("zeros_like", self.attrs["rate"])

    @property
    def stddev(self):
        return self.calls.method(self.attrs["rate"], "reciprocal")

    @property
    def variance(self):
        return self.calls.method(self.attrs["rate"], "pow", -2)


class Laplace(_LocScale):
    __slots__ = ()
    NAME, has_rsample, EXPANDED = "Laplace", True, ("loc", "scale")

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        c, loc = self.calls, self.attrs["loc"]
        eps = protocols.get_attribute(c.torch("finfo", base.attr(loc, "dtype")), "eps")
        u = c.method(base.empty_like_param(c, loc, shape), "uniform_", eps - 1, 1)
        return op("-", loc, op("*", op("*", self.attrs["scale"], c.method(u, "sign")),
                               c.torch("log1p", _neg(c.method(u, "abs")))))

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c, loc, scale = self.calls, self.attrs["loc"], self.attrs["scale"]
        return op("-", _neg(c.torch("log", op("*", 2, scale))),
                  op("/", c.torch("abs", op("-", value, loc)), scale))

    def cdf(self, value):
        if self.validate:
            self.validate_sample(value)
        c, loc, scale = self.calls, self.attrs["loc"], self.attrs["scale"]
        diff = op("-", value, loc)
        inner = c.torch("expm1", op("/", _neg(c.method(diff, "abs")), scale))
        return op("-", 0.5, op("*", op("*", 0.5, c.method(diff, "sign")), inner))

    def icdf(self, value):
        c, loc, scale = self.calls, self.attrs["loc"], self.attrs["scale"]
        term = op("-", value, 0.5)
        log = c.torch("log1p", op("*", -2, c.method(term, "abs")))
        return op("-", loc, op("*", op("*", scale, c.method(term, "sign")), log))

    def entropy(self):
        return op("+", 1, self.calls.torch("log", op("*", 2, self.attrs["scale"])))

    @property
    def mean(self):
        return self.attrs["loc"]

    @property
    def mode(self):
        return self.attrs["loc"]

    @property
    def variance(self):
        return op("*", 2, self.calls.method(self.attrs["scale"], "pow", 2))

    @property
    def stddev(self):
        return op("*", 2 ** 0.5, self.attrs["scale"])


class Cauchy(_LocScale):
    __slots__ = ()
    NAME, has_rsample, EXPANDED = "Cauchy", True, ("loc", "scale")

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        c, loc = self.calls, self.attrs["loc"]
        eps = c.method(base.empty_like_param(c, loc, shape), "cauchy_")
        return op("+", loc, op("*", eps, self.attrs["scale"]))

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c, loc, scale = self.calls, self.attrs["loc"], self.attrs["scale"]
        square = c.method(op("**", op("/", op("-", value, loc), scale), 2), "log1p")
        return op("-", op("-", -math.log(math.pi), c.method(scale, "log")), square)

    def cdf(self, value):
        if self.validate:
            self.validate_sample(value)
        c, loc, scale = self.calls, self.attrs["loc"], self.attrs["scale"]
        return op("+", op("/", c.torch("atan", op("/", op("-", value, loc), scale)), math.pi),
                  0.5)

    def icdf(self, value):
        c = self.calls
        return op("+", op("*", c.torch("tan", op("*", math.pi, op("-", value, 0.5))),
                          self.attrs["scale"]), self.attrs["loc"])

    def entropy(self):
        return op("+", math.log(4 * math.pi), self.calls.method(self.attrs["scale"], "log"))

    def _full(self, fill):
        return self.calls.torch("full", self.extended_shape(), fill,
                                dtype=base.attr(self.attrs["loc"], "dtype"))

    @property
    def mean(self):
        return self._full(math.nan)

    @property
    def mode(self):
        return self.attrs["loc"]

    @property
    def variance(self):
        return self._full(math.inf)


class Gamma(Distribution):
    __slots__ = ()
    NAME, has_rsample, EXPANDED = "Gamma", True, ("concentration", "rate")

    def __init__(self, runtime, concentration, rate, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        self.attrs["concentration"], self.attrs["rate"] = base.broadcast_all(
            self.calls, concentration, rate)
        scalars = not isinstance(concentration, Tensor) and not isinstance(rate, Tensor)
        self.setup(runtime, () if scalars else self.attrs["concentration"].shape, validate_args)

    def arg_constraints(self) -> dict:
        return {"concentration": base.POSITIVE, "rate": base.POSITIVE}

    def support(self):
        return base.NONNEGATIVE

    def rsample(self, sample_shape=()):
        c, shape = self.calls, self.extended_shape(sample_shape)
        value = op("/", c.torch("_standard_gamma", c.method(self.attrs["concentration"],
                                                             "expand", shape)),
                   c.method(self.attrs["rate"], "expand", shape))
        tiny = protocols.get_attribute(c.torch("finfo", base.attr(value, "dtype")), "tiny")
        c.method(c.method(value, "detach"), "clamp_", min=tiny)
        return value

    def log_prob(self, value):
        c, k, rate = self.calls, self.attrs["concentration"], self.attrs["rate"]
        value = c.torch("as_tensor", value, dtype=base.attr(rate, "dtype"))
        if self.validate:
            self.validate_sample(value)
        return op("-", op("-", op("+", c.torch("xlogy", k, rate),
                                  c.torch("xlogy", op("-", k, 1), value)),
                          op("*", rate, value)), c.torch("lgamma", k))

    def entropy(self):
        c, k = self.calls, self.attrs["concentration"]
        return op("+", op("+", op("-", k, c.torch("log", self.attrs["rate"])),
                          c.torch("lgamma", k)), op("*", op("-", 1.0, k), c.torch("digamma", k)))

    @property
    def mean(self):
        return op("/", self.attrs["concentration"], self.attrs["rate"])

    @property
    def mode(self):
        return self.calls.method(op("/", op("-", self.attrs["concentration"], 1),
                                    self.attrs["rate"]), "clamp", min=0)

    @property
    def variance(self):
        return op("/", self.attrs["concentration"], self.calls.method(self.attrs["rate"], "pow", 2))


class Chi2(Gamma):
    """Gamma(0.5 * df, 0.5)."""

    __slots__ = ()
    NAME, EXPANDED = "Chi2", ("concentration", "rate")

    def __init__(self, runtime, df, validate_args=None):
        super().__init__(runtime, op("*", 0.5, df), 0.5, validate_args)

    def arg_constraints(self) -> dict:
        return {"df": base.POSITIVE}

    def arg_value(self, name: str):
        return self.df

    @property
    def df(self):
        return op("*", self.attrs["concentration"], 2)


class StudentT(Distribution):
    __slots__ = ()
    NAME, has_rsample = "StudentT", True

    def __init__(self, runtime, df, loc=0.0, scale=1.0, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        self.attrs["df"], self.attrs["loc"], self.attrs["scale"] = base.broadcast_all(
            self.calls, df, loc, scale)
        self.attrs["_chi2"] = Chi2(runtime, self.attrs["df"])
        self.setup(runtime, self.attrs["df"].shape, validate_args)

    def arg_constraints(self) -> dict:
        return {"df": base.POSITIVE, "loc": base.REAL, "scale": base.POSITIVE}

    def support(self):
        return base.REAL

    def expand_into(self, new, batch_shape) -> None:
        for name in ("df", "loc", "scale"):
            new.attrs[name] = self.calls.method(self.attrs[name], "expand", batch_shape)
        new.attrs["_chi2"] = self.attrs["_chi2"].expand(batch_shape)

    def rsample(self, sample_shape=()):
        c, df = self.calls, self.attrs["df"]
        shape = self.extended_shape(sample_shape)
        X = c.method(base.empty_like_param(c, df, shape), "normal_")
        Z = self.attrs["_chi2"].rsample(sample_shape)
        Y = op("*", X, c.torch("rsqrt", op("/", Z, df)))
        return op("+", self.attrs["loc"], op("*", self.attrs["scale"], Y))

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c, df, scale = self.calls, self.attrs["df"], self.attrs["scale"]
        y = op("/", op("-", value, self.attrs["loc"]), scale)
        Z = op("-", op("+", op("+", op("+", c.method(scale, "log"), op(
            "*", 0.5, c.method(df, "log"))), 0.5 * math.log(math.pi)),
            c.torch("lgamma", op("*", 0.5, df))), c.torch("lgamma", op("*", 0.5, op("+", df, 1.0))))
        return op("-", op("*", op("*", -0.5, op("+", df, 1.0)), c.torch(
            "log1p", op("/", op("**", y, 2.0), df))), Z)

    def entropy(self):
        c, df = self.calls, self.attrs["df"]
        half_up = op("*", 0.5, op("+", df, 1))
        lbeta = op("-", op("+", c.torch("lgamma", op("*", 0.5, df)), math.lgamma(0.5)),
                   c.torch("lgamma", half_up))
        spread = op("-", c.torch("digamma", half_up), c.torch("digamma", op("*", 0.5, df)))
        return op("+", op("+", op("+", c.method(self.attrs["scale"], "log"), op(
            "*", op("*", 0.5, op("+", df, 1)), spread)), op("*", 0.5, c.method(df, "log"))), lbeta)

    @property
    def mean(self):
        c, df = self.calls, self.attrs["df"]
        m = c.method(self.attrs["loc"], "clone")
        protocols.set_item(m, protocols.compare("<=", df, 1), math.nan)
        return m

    @property
    def mode(self):
        return self.attrs["loc"]

    @property
    def variance(self):
        c, df, scale = self.calls, self.attrs["df"], self.attrs["scale"]
        m = c.method(df, "clone")
        big = protocols.compare(">", df, 2)
        big_df = protocols.get_item(df, big)
        big_scale2 = c.method(protocols.get_item(scale, big), "pow", 2)
        protocols.set_item(m, big, op("/", op("*", big_scale2, big_df), op("-", big_df, 2)))
        protocols.set_item(m, op("&", protocols.compare("<=", df, 2),
                                 protocols.compare(">", df, 1)), math.inf)
        protocols.set_item(m, protocols.compare("<=", df, 1), math.nan)
        return m


class LogNormal(Distribution):
    """TransformedDistribution(Normal(loc, scale), ExpTransform()): loc and scale are the base
    distribution's, so torch's repr shows neither."""

    __slots__ = ()
    NAME, has_rsample = "LogNormal", True

    def __init__(self, runtime, loc, scale, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        self.attrs["base_dist"] = Normal(runtime, loc, scale, validate_args=validate_args)
        self.setup(runtime, self.base.batch_shape, validate_args)

    @property
    def base(self):
        return self.attrs["base_dist"]

    def arg_constraints(self) -> dict:
        return {}

    def repr(self, printer) -> str:
        return "LogNormal()"

    def support(self):
        return base.POSITIVE

    def expand_into(self, new, batch_shape) -> None:
        new.attrs["base_dist"] = self.base.expand(batch_shape)

    def sample(self, sample_shape=()):
        with grad_mode(False):
            return self.calls.method(self.base.sample(sample_shape), "exp")

    def rsample(self, sample_shape=()):
        return self.calls.method(self.base.rsample(sample_shape), "exp")

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        x = self.calls.method(value, "log")
        return op("+", op("-", 0.0, x), self.base.log_prob(x))

    def cdf(self, value):
        """TransformedDistribution.cdf: the base's cdf at log(value) (exp keeps the order)."""
        value = self.calls.method(value, "log")
        if self.validate:
            self.base.validate_sample(value)
        return self.base.cdf(value)

    def icdf(self, value):
        return self.calls.method(self.base.icdf(value), "exp")

    def entropy(self):
        return op("+", self.base.entropy(), self.loc)

    @property
    def loc(self):
        return base.attr(self.base, "loc")

    @property
    def scale(self):
        return base.attr(self.base, "scale")

    @property
    def mean(self):
        return self.calls.method(op("+", self.loc, op("/", self.calls.method(
            self.scale, "pow", 2), 2)), "exp")

    @property
    def mode(self):
        return self.calls.method(op("-", self.loc, self.calls.method(self.scale, "square")), "exp")

    @property
    def variance(self):
        c, scale2 = self.calls, self.calls.method(self.scale, "pow", 2)
        return op("*", op("-", c.method(scale2, "exp"), 1),
                  c.method(op("+", op("*", 2, self.loc), scale2), "exp"))
