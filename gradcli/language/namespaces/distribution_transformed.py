"""torch.distributions' TransformedDistribution and the families torch builds on it (Gumbel,
HalfNormal, HalfCauchy, Weibull, Pareto, LogisticNormal): a base distribution pushed through
transforms, the same calls as torch's Python code."""

from __future__ import annotations

import math

from gradcli.engine import errors
from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces import distribution_transforms as tf
from gradcli.language.namespaces.distribution_base import Calls, Distribution, op
from gradcli.language.namespaces.distribution_continuous import (
    Cauchy, Exponential, Normal, Uniform)
from gradcli.language.namespaces.distribution_multivariate import Independent, sum_rightmost
from gradcli.language.runtime import protocols
from gradcli.language.runtime.values import Size

EULER = 0.57721566490153286060


class TransformedDistribution(Distribution):
    __slots__ = ()
    NAME = "TransformedDistribution"

    def __init__(self, runtime, base_distribution, transforms, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        self.build(base_distribution, transforms, validate_args)

    def build(self, base_dist, transforms, validate_args) -> None:
        """TransformedDistribution.__init__: the shapes the transforms make of the base's."""
        runtime = self.calls.runtime
        if isinstance(transforms, tf.Transform):
            transforms = [transforms]
        elif isinstance(transforms, list):
            if not all(isinstance(t, tf.Transform) for t in transforms):
                raise errors.value_error("transforms must be a Transform or a list of Transforms")
        else:
            raise errors.value_error("transforms must be a Transform or list, but was "
                                     f"{runtime.printer.str(transforms)}")
        if not isinstance(base_dist, Distribution):
            raise errors.TorchError("AttributeError", f"'{base.type_name(base_dist)}' object has "
                                    "no attribute 'batch_shape'")
        self.attrs["transforms"] = transforms
        compose = tf.ComposeTransform(runtime, transforms)
        base_shape = Size((*base_dist.batch_shape, *base_dist.event_shape))
        base_event_dim = len(base_dist.event_shape)
        domain, codomain = compose.domain(), compose.codomain()
        if len(base_shape) < domain.event_dim:
            raise errors.value_error(
                f"base_distribution needs to have shape with size at least {domain.event_dim}, "
                f"but got {runtime.printer.str(base_shape)}.")
        forward_shape = Size(compose.forward_shape(base_shape))
        expanded = Size(compose.inverse_shape(forward_shape))
        if base_shape != expanded:
            base_dist = base_dist.expand(expanded[:len(expanded) - base_event_dim])
        if domain.event_dim - base_event_dim > 0:
            base_dist = Independent(runtime, base_dist, domain.event_dim - base_event_dim)
        self.attrs["base_dist"] = base_dist
        event_dim = max(codomain.event_dim,
                        base_event_dim + codomain.event_dim - domain.event_dim)
        cut = len(forward_shape) - event_dim
        self.setup(runtime, forward_shape[:cut], validate_args, forward_shape[cut:])

    @property
    def base(self) -> Distribution:
        return self.attrs["base_dist"]

    @property
    def transforms(self) -> list:
        return list(self.attrs["transforms"])

    @property
    def has_rsample(self):
        return self.base.has_rsample

    def support(self):
        if not self.transforms:
            return self.base.support()
        support = self.transforms[-1].codomain()
        if len(self.event_shape) > support.event_dim:
            support = base.independent(support, len(self.event_shape) - support.event_dim)
        return support

    def expand_into(self, new, batch_shape) -> None:
        for name in self.EXPANDED:
            new.attrs[name] = self.calls.method(self.attrs[name], "expand", batch_shape)
        shape = (*batch_shape, *self.event_shape)
        for t in reversed(self.transforms):
            shape = tuple(t.inverse_shape(shape))
        new.attrs["base_dist"] = self.base.expand(shape[:len(shape) - len(self.base.event_shape)])
        new.attrs["transforms"] = self.attrs["transforms"]

    def sample(self, sample_shape=()):
        with grad_mode(False):
            return self._push(self.base.sample(sample_shape))

    def rsample(self, sample_shape=()):
        return self._push(self.base.rsample(sample_shape))

    def _push(self, x):
        for t in self.transforms:
            x = t.apply(x)
        return x

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        event_dim, log_prob, y = len(self.event_shape), 0.0, value
        for t in reversed(self.transforms):
            x = t.invert(y)
            event_dim += t.domain().event_dim - t.codomain().event_dim
            log_prob = op("-", log_prob, sum_rightmost(self.calls, t.ladj(x, y),
                                                       event_dim - t.domain().event_dim))
            y = x
        return op("+", log_prob, sum_rightmost(self.calls, self.base.log_prob(y),
                                               event_dim - len(self.base.event_shape)))

    def _monotonize(self, value):
        sign = 1
        for t in self.transforms:
            sign = op("*", sign, t.sign())
        if isinstance(sign, int) and sign == 1:
            return value
        return op("+", op("*", sign, op("-", value, 0.5)), 0.5)

    def cdf(self, value):
        for t in reversed(self.transforms):
            value = t.invert(value)
        if self.validate:
            self.base.validate_sample(value)
        return self._monotonize(self.base.cdf(value))

    def icdf(self, value):
        return self._push(self.base.icdf(self._monotonize(value)))


class Gumbel(TransformedDistribution):
    __slots__ = ()
    NAME, EXPANDED = "Gumbel", ("loc", "scale")

    def __init__(self, runtime, loc, scale, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        c = self.calls
        self.attrs["loc"], self.attrs["scale"] = base.broadcast_all(c, loc, scale)
        finfo = c.torch("finfo", base.attr(self.attrs["loc"], "dtype"))
        tiny, eps = (protocols.get_attribute(finfo, name) for name in ("tiny", "eps"))
        if not isinstance(loc, Tensor) and not isinstance(scale, Tensor):
            base_dist = Uniform(runtime, tiny, 1 - eps, validate_args=validate_args)
        else:
            base_dist = Uniform(runtime, c.torch("full_like", self.attrs["loc"], tiny),
                                c.torch("full_like", self.attrs["loc"], 1 - eps),
                                validate_args=validate_args)
        transforms = [tf.ExpTransform(runtime).inv(),
                      tf.AffineTransform(runtime, 0, protocols.unary(
                          "-", c.torch("ones_like", self.attrs["scale"]))),
                      tf.ExpTransform(runtime).inv(),
                      tf.AffineTransform(runtime, loc, protocols.unary("-", self.attrs["scale"]))]
        self.build(base_dist, transforms, validate_args)

    def arg_constraints(self) -> dict:
        return {"loc": base.REAL, "scale": base.POSITIVE}

    def support(self):
        return base.REAL

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        scale = self.attrs["scale"]
        y = op("/", op("-", self.attrs["loc"], value), scale)
        return op("-", op("-", y, self.calls.method(y, "exp")), self.calls.method(scale, "log"))

    @property
    def mean(self):
        return op("+", self.attrs["loc"], op("*", self.attrs["scale"], EULER))

    @property
    def mode(self):
        return self.attrs["loc"]

    @property
    def stddev(self):
        return op("*", math.pi / math.sqrt(6), self.attrs["scale"])

    @property
    def variance(self):
        return self.calls.method(self.stddev, "pow", 2)

    def entropy(self):
        return op("+", self.calls.method(self.attrs["scale"], "log"), 1 + EULER)


class _Half(TransformedDistribution):
    """HalfNormal and HalfCauchy: |X| for X centred at 0 with the given scale."""

    __slots__ = ()
    has_rsample = True
    BASE = Normal

    def __init__(self, runtime, scale, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        self.build(self.BASE(runtime, 0, scale, validate_args=False),
                   tf.AbsTransform(runtime), validate_args)

    def arg_constraints(self) -> dict:
        return {"scale": base.POSITIVE}

    def arg_value(self, name: str):
        return self.scale

    @property
    def scale(self):
        return base.attr(self.base, "scale")

    def support(self):
        return base.NONNEGATIVE

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c = self.calls
        log_prob = op("+", self.base.log_prob(value), math.log(2))
        return c.torch("where", protocols.compare(">=", value, 0), log_prob, -math.inf)

    def cdf(self, value):
        if self.validate:
            self.validate_sample(value)
        return op("-", op("*", 2, self.base.cdf(value)), 1)

    def icdf(self, value):
        return self.base.icdf(op("/", op("+", value, 1), 2))

    def entropy(self):
        return op("-", self.base.entropy(), math.log(2))

    @property
    def mode(self):
        return self.calls.torch("zeros_like", self.scale)


class HalfNormal(_Half):
    __slots__ = ()
    NAME = "HalfNormal"

    @property
    def mean(self):
        return op("*", self.scale, math.sqrt(2 / math.pi))

    @property
    def variance(self):
        return op("*", self.calls.method(self.scale, "pow", 2), 1 - 2 / math.pi)


class HalfCauchy(_Half):
    __slots__ = ()
    NAME, BASE = "HalfCauchy", Cauchy

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        value = self.calls.torch("as_tensor", value, dtype=base.attr(self.scale, "dtype"))
        log_prob = op("+", self.base.log_prob(value), math.log(2))
        return self.calls.torch("where", protocols.compare(">=", value, 0), log_prob,
                                -math.inf)

    @property
    def mean(self):
        return self.calls.torch("full", self.extended_shape(), math.inf,
                                dtype=base.attr(self.scale, "dtype"))

    @property
    def variance(self):
        return self.base.variance


class Weibull(TransformedDistribution):
    __slots__ = ()
    NAME = "Weibull"

    def __init__(self, runtime, scale, concentration, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        c = self.calls
        self.attrs["scale"], self.attrs["concentration"] = base.broadcast_all(
            c, scale, concentration)
        self.attrs["concentration_reciprocal"] = c.method(self.attrs["concentration"],
                                                          "reciprocal")
        base_dist = Exponential(runtime, c.torch("ones_like", self.attrs["scale"]),
                                validate_args=validate_args)
        self.build(base_dist, self._transforms(), validate_args)

    def _transforms(self) -> list:
        runtime = self.calls.runtime
        return [tf.PowerTransform(runtime, self.attrs["concentration_reciprocal"]),
                tf.AffineTransform(runtime, 0, self.attrs["scale"])]

    def arg_constraints(self) -> dict:
        return {"scale": base.POSITIVE, "concentration": base.POSITIVE}

    def support(self):
        return base.POSITIVE

    def expand(self, batch_shape):
        """Weibull.expand: the parameters expanded and the transforms made anew from them."""
        batch_shape = self.to_size(batch_shape)
        c = self.calls
        new = object.__new__(Weibull)
        new.calls, new.attrs = c, {}
        for name in ("scale", "concentration"):
            new.attrs[name] = c.method(self.attrs[name], "expand", batch_shape)
        new.attrs["concentration_reciprocal"] = c.method(new.attrs["concentration"],
                                                         "reciprocal")
        new.build(self.base.expand(batch_shape), new._transforms(), False)
        new.validate_args = self.validate
        return new

    def _lgamma(self, value):
        return self.calls.torch("exp", self.calls.torch("lgamma", value))

    @property
    def mean(self):
        return op("*", self.attrs["scale"],
                  self._lgamma(op("+", 1, self.attrs["concentration_reciprocal"])))

    @property
    def mode(self):
        k = self.attrs["concentration"]
        return op("*", self.attrs["scale"], op("**", op("/", op("-", k, 1), k),
                                              self.calls.method(k, "reciprocal")))

    @property
    def variance(self):
        c, r = self.calls, self.attrs["concentration_reciprocal"]
        two = self._lgamma(op("+", 1, op("*", 2, r)))
        one = c.torch("exp", op("*", 2, c.torch("lgamma", op("+", 1, r))))
        return op("*", c.method(self.attrs["scale"], "pow", 2), op("-", two, one))

    def entropy(self):
        r = self.attrs["concentration_reciprocal"]
        return op("+", op("+", op("*", EULER, op("-", 1, r)),
                          self.calls.torch("log", op("*", self.attrs["scale"], r))), 1)


class Pareto(TransformedDistribution):
    __slots__ = ()
    NAME, EXPANDED = "Pareto", ("scale", "alpha")

    def __init__(self, runtime, scale, alpha, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        self.attrs["scale"], self.attrs["alpha"] = base.broadcast_all(self.calls, scale, alpha)
        base_dist = Exponential(runtime, self.attrs["alpha"], validate_args=validate_args)
        transforms = [tf.ExpTransform(runtime), tf.AffineTransform(runtime, 0, self.attrs["scale"])]
        self.build(base_dist, transforms, validate_args)

    def arg_constraints(self) -> dict:
        return {"alpha": base.POSITIVE, "scale": base.POSITIVE}

    def support(self):
        return base.greater_than_eq(self.attrs["scale"])

    @property
    def mean(self):
        a = self.calls.method(self.attrs["alpha"], "clamp", min=1)
        return op("/", op("*", a, self.attrs["scale"]), op("-", a, 1))

    @property
    def mode(self):
        return self.attrs["scale"]

    @property
    def variance(self):
        c, a = self.calls, self.calls.method(self.attrs["alpha"], "clamp", min=2)
        return op("/", op("*", c.method(self.attrs["scale"], "pow", 2), a),
                  op("*", c.method(op("-", a, 1), "pow", 2), op("-", a, 2)))

    def entropy(self):
        c, alpha = self.calls, self.attrs["alpha"]
        return op("+", c.method(op("/", self.attrs["scale"], alpha), "log"),
                  op("+", 1, c.method(alpha, "reciprocal")))


class LogisticNormal(TransformedDistribution):
    """A Normal (of batch shape (1,) at least) pushed onto the simplex by stick breaking:
    loc and scale are the base's, so torch's repr shows neither."""

    __slots__ = ()
    NAME, has_rsample = "LogisticNormal", True

    def __init__(self, runtime, loc, scale, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        base_dist = Normal(runtime, loc, scale, validate_args=validate_args)
        if not base_dist.batch_shape:
            base_dist = base_dist.expand([1])
        self.build(base_dist, tf.StickBreakingTransform(runtime), validate_args)

    def arg_constraints(self) -> dict:
        return {"loc": base.REAL, "scale": base.POSITIVE}

    def arg_value(self, name: str):
        return base.attr(self.base.base, name)

    def support(self):
        return base.SIMPLEX

    @property
    def loc(self):
        return base.attr(self.base.base, "loc")

    @property
    def scale(self):
        return base.attr(self.base.base, "scale")
