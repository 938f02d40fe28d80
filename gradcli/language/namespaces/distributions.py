"""torch.distributions: Normal and Uniform, the namespace (with Categorical and Bernoulli) and
kl_divergence, each method the same calls of torch functions as torch's Python code makes (so
the graph, the grad_fn labels and the draws from the generator are torch's)."""

from __future__ import annotations

import math

from gradcli.engine import errors
from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import Calls, Distribution, op
from gradcli.language.namespaces.distribution_discrete import Bernoulli, Categorical
from gradcli.language.runtime import protocols
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, type_name

class Normal(Distribution):
    __slots__ = ()
    NAME, has_rsample = "Normal", True

    def __init__(self, runtime, loc, scale, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        self.attrs["loc"], self.attrs["scale"] = base.broadcast_all(self.calls, loc, scale)
        scalars = not isinstance(loc, Tensor) and not isinstance(scale, Tensor)
        self.setup(runtime, () if scalars else self.attrs["loc"].shape, validate_args)

    def arg_constraints(self) -> dict:
        return {"loc": base.REAL, "scale": base.POSITIVE}

    def support(self):
        return base.REAL

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
    def stddev(self):
        return self.attrs["scale"]

    @property
    def variance(self):
        return self.calls.method(self.stddev, "pow", 2)


class Uniform(Distribution):
    __slots__ = ()
    NAME, has_rsample = "Uniform", True

    def __init__(self, runtime, low, high, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        self.attrs["low"], self.attrs["high"] = base.broadcast_all(self.calls, low, high)
        scalars = not isinstance(low, Tensor) and not isinstance(high, Tensor)
        self.setup(runtime, () if scalars else self.attrs["low"].shape, validate_args)

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

    def entropy(self):
        return self.calls.torch("log", self._width())

    @property
    def mean(self):
        return op("/", op("+", self.attrs["high"], self.attrs["low"]), 2)

    @property
    def stddev(self):
        return op("/", self._width(), 12 ** 0.5)

    @property
    def variance(self):
        return op("/", self.calls.method(self._width(), "pow", 2), 12)


def _masked(calls: Calls, t, probs, fill) -> None:
    """t[(probs == 0).expand_as(t)] = fill."""
    mask = calls.method(protocols.compare("==", probs, 0), "expand_as", t)
    protocols.set_item(t, mask, fill)


def kl_divergence(p, q):
    """torch.distributions.kl_divergence for the pairs of families gradcli has."""
    if type(p) is Normal and type(q) is Normal:
        c, ps, qs = p.calls, p.attrs["scale"], q.attrs["scale"]
        var_ratio = c.method(op("/", ps, qs), "pow", 2)
        t1 = c.method(op("/", op("-", p.attrs["loc"], q.attrs["loc"]), qs), "pow", 2)
        return op("*", 0.5, op("-", op("-", op("+", var_ratio, t1), 1),
                               c.method(var_ratio, "log")))
    if type(p) is Categorical and type(q) is Categorical:
        t = op("*", p.probs, op("-", p.logits, q.logits))
        _masked(p.calls, t, q.probs, math.inf)
        _masked(p.calls, t, p.probs, 0)
        return p.calls.method(t, "sum", -1)
    raise errors.TorchError("NotImplementedError", "No KL(p || q) is implemented for p type "
                            f"{_name(p)} and q type {_name(q)}")


def _name(value) -> str:
    return value.NAME if isinstance(value, Distribution) else type_name(value)


_COMMON = (
    entry("sample", lambda d, sample_shape: d.sample(sample_shape), "self, sample_shape=()"),
    entry("rsample", lambda d, sample_shape: d.rsample(sample_shape), "self, sample_shape=()"),
    entry("log_prob", lambda d, value: d.log_prob(value), "self, value"),
    entry("entropy", lambda d: d.entropy(), "self"),
)
_SHAPES = {"batch_shape": lambda d: d.batch_shape, "event_shape": lambda d: d.event_shape,
           "has_rsample": lambda d: d.has_rsample, "mean": lambda d: d.mean,
           "stddev": lambda d: d.stddev, "variance": lambda d: d.variance}

Distribution.TYPE = PyType(f"{base.MODULE}.distribution.Distribution", (Distribution,))


def _family(host, module: str, spec: str, extra_methods=(), extra_properties=None) -> PyType:
    host.METHODS = table(*_COMMON, *extra_methods)
    host.PROPERTIES = _SHAPES | (extra_properties or {})
    host.TYPE = PyType(f"{base.MODULE}.{module}.{host.NAME}", (host,), BoundMethod(None, entry(
        "__init__", lambda runtime, _, *args: host(runtime, *args), f"self, {spec}",
        qualname=f"{host.NAME}.__init__", context=True)))
    return host.TYPE


_DISCRETE = {"probs": lambda d: d.probs, "logits": lambda d: d.logits,
             "param_shape": lambda d: base.attr(d._param(), "shape")}

DISTRIBUTIONS = Namespace(base.MODULE, {
    "Distribution": Distribution.TYPE,
    "Normal": _family(Normal, "normal", "loc, scale, validate_args=None", (
        entry("cdf", lambda d, value: d.cdf(value), "self, value"),
        entry("icdf", lambda d, value: d.icdf(value), "self, value")),
        {"mode": lambda d: d.attrs["loc"]}),
    "Uniform": _family(Uniform, "uniform", "low, high, validate_args=None"),
    "Categorical": _family(Categorical, "categorical", "probs=None, logits=None, "
                           "validate_args=None",
                           extra_properties=_DISCRETE | {"mode": lambda d: d.mode}),
    "Bernoulli": _family(Bernoulli, "bernoulli", "probs=None, logits=None, validate_args=None",
                         extra_properties=_DISCRETE),
    "kl_divergence": entry("kl_divergence", kl_divergence, "p, q"),
})
DISTRIBUTIONS.table["kl"] = Namespace(f"{base.MODULE}.kl", {
    "kl_divergence": DISTRIBUTIONS.table["kl_divergence"]})
