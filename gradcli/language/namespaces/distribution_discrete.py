"""torch.distributions' Categorical, OneHotCategorical, Multinomial, Bernoulli, Geometric (one
of probs and logits given, the other made on first use, as torch's lazy properties make them),
Poisson and Binomial."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import errors
from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import Calls, Distribution, op
from gradcli.language.namespaces.distribution_utils import (clamp_probs, logits_to_probs,
                                                          probs_to_logits)
from gradcli.language.runtime import protocols

_BOTH = "Either `probs` or `logits` must be specified, but not both."


class _Discrete(Distribution):
    """Categorical and Bernoulli: one of probs and logits given, the other made on first use."""

    __slots__ = ()

    def _given(self, probs, logits):
        if (probs is None) == (logits is None):
            raise errors.value_error(_BOTH)

    @property
    def probs(self):
        if "probs" not in self.attrs:
            self.attrs["probs"] = self.logits_to_probs(self.attrs["logits"])
        return self.attrs["probs"]

    @property
    def logits(self):
        if "logits" not in self.attrs:
            self.attrs["logits"] = self.probs_to_logits(self.attrs["probs"])
        return self.attrs["logits"]

    def _param(self):
        return self.attrs["probs" if self.given == "probs" else "logits"]

    def expand_into(self, new, batch_shape) -> None:
        """probs then logits, each if made, expanded; the last one is new's _param."""
        shape = self.param_batch(batch_shape)
        for name in ("probs", "logits"):
            if name in self.attrs:
                new.attrs[name] = self.calls.method(self.attrs[name], "expand", shape)
                new.given = name

    def enumerate_support(self, expand=True):
        c = self.calls
        values = c.torch("arange", self.support_size(), **self.support_dtype())
        values = c.method(values, "view", (-1,) + (1,) * len(self.batch_shape))
        if expand:
            values = c.method(values, "expand", (-1, *self.batch_shape))
        return values

    def _clamped(self, probs):
        return clamp_probs(self.calls, probs)


class Categorical(_Discrete):
    __slots__ = ("given",)
    NAME, has_enumerate_support = "Categorical", True

    def __init__(self, runtime, probs=None, logits=None, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        self._given(probs, logits)
        c = self.calls
        if probs is not None:
            if c.method(probs, "dim") < 1:
                raise errors.value_error("`probs` parameter must be at least one-dimensional.")
            self.attrs["probs"] = op("/", probs, c.method(probs, "sum", -1, keepdim=True))
            self.given = "probs"
        else:
            if c.method(logits, "dim") < 1:
                raise errors.value_error("`logits` parameter must be at least one-dimensional.")
            self.attrs["logits"] = op("-", logits, c.method(logits, "logsumexp", dim=-1,
                                                            keepdim=True))
            self.given = "logits"
        shape = self._param().shape
        self.setup(runtime, shape[:-1] if len(shape) > 1 else (), validate_args)

    def arg_constraints(self) -> dict:
        return {"probs": base.SIMPLEX, "logits": base.REAL_VECTOR}

    def param_batch(self, batch_shape):
        return (*batch_shape, base.attr(self._param(), "shape")[-1])

    def support_size(self):
        return base.attr(self._param(), "shape")[-1]

    def support_dtype(self) -> dict:
        return {"dtype": protocols.MODULES["torch"].lookup("long")}

    def support(self):
        return base.integer_interval(0, base.attr(self._param(), "shape")[-1] - 1)

    def logits_to_probs(self, logits):
        return logits_to_probs(self.calls, logits)

    def probs_to_logits(self, probs):
        return probs_to_logits(self.calls, probs)

    def sample(self, sample_shape=()):
        c = self.calls
        shape = self.extended_shape(sample_shape)
        count = math.prod(shape[:len(shape) - len(self.batch_shape)])
        probs_2d = c.method(self.probs, "reshape", -1,
                            base.attr(self._param(), "shape")[-1])
        samples_2d = c.method(c.torch("multinomial", probs_2d, count, True), "t")
        return c.method(samples_2d, "reshape", shape)

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c = self.calls
        value = c.method(c.method(value, "long"), "unsqueeze", -1)
        value, log_pmf = c.torch("broadcast_tensors", value, self.logits)
        value = c.method(value, "narrow", -1, 0, 1)
        return c.method(c.method(log_pmf, "gather", -1, value), "squeeze", -1)

    def entropy(self):
        c = self.calls
        min_real = protocols.get_attribute(c.torch("finfo", base.attr(self.logits, "dtype")), "min")
        logits = c.torch("clamp", self.logits, min=min_real)
        return protocols.unary("-", c.method(op("*", logits, self.probs), "sum", -1))

    def _nan(self):
        return self.calls.torch("full", self.extended_shape(), math.nan,
                                dtype=base.attr(self.probs, "dtype"))

    @property
    def mean(self):
        return self._nan()

    @property
    def variance(self):
        return self._nan()

    @property
    def mode(self):
        return self.calls.method(self.probs, "argmax", dim=-1)


class _Binary(_Discrete):
    """Bernoulli and Geometric: one success probability (or its log-odds) per batch element."""

    __slots__ = ("given",)

    def __init__(self, runtime, probs=None, logits=None, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        self._given(probs, logits)
        self.given = "probs" if probs is not None else "logits"
        given = probs if probs is not None else logits
        (self.attrs[self.given],) = base.broadcast_all(self.calls, given)
        shape = () if not isinstance(given, Tensor) else self._param().shape
        self.setup(runtime, shape, validate_args)

    def arg_constraints(self) -> dict:
        return {"probs": base.UNIT_INTERVAL, "logits": base.REAL}

    def param_batch(self, batch_shape):
        return batch_shape

    def counted(self, runtime, total_count, probs, logits, validate_args) -> None:
        """Binomial's and NegativeBinomial's start: total_count broadcast with the one of probs
        and logits given, as its dtype."""
        self.calls, self.attrs = Calls(runtime), {}
        self._given(probs, logits)
        self.given = "probs" if probs is not None else "logits"
        total, param = base.broadcast_all(self.calls, total_count,
                                          probs if probs is not None else logits)
        self.attrs["total_count"] = self.calls.method(total, "type_as", param)
        self.attrs[self.given] = param
        self.setup(runtime, param.shape, validate_args)

    def expand_counted(self, new, batch_shape) -> None:
        new.attrs["total_count"] = self.calls.method(self.attrs["total_count"], "expand",
                                                     batch_shape)
        _Binary.expand_into(self, new, batch_shape)

    def logits_to_probs(self, logits):
        return logits_to_probs(self.calls, logits, is_binary=True)

    def probs_to_logits(self, probs):
        return probs_to_logits(self.calls, probs, is_binary=True)

    def _bce(self):
        return self.calls.functional("binary_cross_entropy_with_logits", self.logits,
                                     self.probs, reduction="none")


class Bernoulli(_Binary):
    __slots__ = ()
    NAME, has_enumerate_support = "Bernoulli", True

    def support(self):
        return base.BOOLEAN

    def support_size(self):
        return 2

    def support_dtype(self) -> dict:
        return {"dtype": base.attr(self._param(), "dtype")}

    def sample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        with grad_mode(False):
            return self.calls.torch("bernoulli", self.calls.method(self.probs, "expand", shape))

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        logits, value = base.broadcast_all(self.calls, self.logits, value)
        return protocols.unary("-", self.calls.functional(
            "binary_cross_entropy_with_logits", logits, value, reduction="none"))

    def entropy(self):
        return self._bce()

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return op("*", self.probs, op("-", 1, self.probs))

    @property
    def mode(self):
        c, probs = self.calls, self.probs
        mode = c.method(protocols.compare(">=", probs, 0.5), "to", probs)
        protocols.set_item(mode, protocols.compare("==", probs, 0.5), math.nan)
        return mode


class Geometric(_Binary):
    """The number of failures before the first success; probs must be positive too."""

    __slots__ = ()
    NAME = "Geometric"

    def __init__(self, runtime, probs=None, logits=None, validate_args=None):
        super().__init__(runtime, probs, logits, validate_args)
        if not (self.validate and probs is not None):
            return
        value = self.attrs["probs"]
        valid = protocols.compare(">", value, 0)
        if not bool(valid.data.all()):
            printer = self.calls.runtime.printer
            invalid = protocols.get_item(value, protocols.unary("~", valid))
            raise errors.value_error(
                f"Expected parameter probs (Tensor of shape {tuple(value.shape)}) of "
                f"distribution {self.repr(printer)} to be positive but found invalid "
                f"values:\n{printer.format(invalid, '')}")

    def support(self):
        return base.NONNEGATIVE_INTEGER

    def sample(self, sample_shape=()):
        c, probs = self.calls, self.probs
        shape = self.extended_shape(sample_shape)
        tiny = protocols.get_attribute(c.torch("finfo", base.attr(probs, "dtype")), "tiny")
        with grad_mode(False):
            u = c.method(base.empty_like_param(c, probs, shape), "uniform_", tiny, 1)
            return c.method(op("/", c.method(u, "log"),
                               c.method(protocols.unary("-", probs), "log1p")), "floor")

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c = self.calls
        value, probs = base.broadcast_all(c, value, self.probs)
        probs = c.method(probs, "clone")
        protocols.set_item(probs, op("&", protocols.compare("==", probs, 1),
                                     protocols.compare("==", value, 0)), 0)
        return op("+", op("*", value, c.method(protocols.unary("-", probs), "log1p")),
                  c.method(self.probs, "log"))

    def entropy(self):
        return op("/", self._bce(), self.probs)

    @property
    def mean(self):
        return op("-", op("/", 1.0, self.probs), 1.0)

    @property
    def mode(self):
        return self.calls.torch("zeros_like", self.probs)

    @property
    def variance(self):
        return op("/", op("-", op("/", 1.0, self.probs), 1.0), self.probs)


class _OverCategorical(Distribution):
    """A family over a Categorical of the same probs/logits (OneHotCategorical and
    ExpRelaxedCategorical): its event is the categories."""

    __slots__ = ()

    def _start(self, runtime, probs, logits) -> None:
        self.calls, self.attrs = Calls(runtime), {}
        self.attrs["_categorical"] = Categorical(runtime, probs, logits)

    def _finish(self, validate_args) -> None:
        shape = base.attr(self.categorical._param(), "shape")
        self.setup(self.calls.runtime, self.categorical.batch_shape, validate_args, shape[-1:])

    @property
    def categorical(self) -> Categorical:
        return self.attrs["_categorical"]

    def arg_constraints(self) -> dict:
        return {"probs": base.SIMPLEX, "logits": base.REAL_VECTOR}

    def arg_value(self, name: str):
        return self.probs if name == "probs" else self.logits

    @property
    def probs(self):
        return self.categorical.probs

    @property
    def logits(self):
        return self.categorical.logits

    def _param(self):
        return self.categorical._param()

    def expand_into(self, new, batch_shape) -> None:
        for name, value in self.attrs.items():
            new.attrs[name] = value.expand(batch_shape) if name == "_categorical" else value


class OneHotCategorical(_OverCategorical):
    __slots__ = ()
    NAME, has_enumerate_support = "OneHotCategorical", True

    def __init__(self, runtime, probs=None, logits=None, validate_args=None):
        self._start(runtime, probs, logits)
        self._finish(validate_args)

    def support(self):
        return base.ONE_HOT

    def sample(self, sample_shape=()):
        probs = self.probs  # made before the draws, as torch's sample does
        indices = self.categorical.sample(self.to_size(sample_shape))
        return self.calls.method(self.calls.functional(
            "one_hot", indices, base.attr(probs, "shape")[-1]), "to", probs)

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        indices = protocols.get_item(self.calls.method(value, "max", -1), 1)
        return self.categorical.log_prob(indices)

    def entropy(self):
        return self.categorical.entropy()

    def enumerate_support(self, expand=True):
        c, n = self.calls, self.event_shape[0]
        values = c.torch("eye", n, dtype=base.attr(self._param(), "dtype"))
        values = c.method(values, "view", (n,) + (1,) * len(self.batch_shape) + (n,))
        if expand:
            values = c.method(values, "expand", (n, *self.batch_shape, n))
        return values

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        probs = self.probs
        return self.calls.method(self.calls.functional(
            "one_hot", self.calls.method(probs, "argmax", dim=-1),
            num_classes=base.attr(probs, "shape")[-1]), "to", probs)

    @property
    def variance(self):
        return op("*", self.probs, op("-", 1, self.probs))


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """A OneHotCategorical whose rsample passes gradients to the probabilities (the
    straight-through estimator): the sample plus probs - probs.detach()."""
    __slots__ = ()
    NAME, has_rsample = "OneHotCategoricalStraightThrough", True

    def rsample(self, sample_shape=()):
        samples = self.sample(sample_shape)
        probs = self.probs
        return op("+", samples, op("-", probs, self.calls.method(probs, "detach")))


def multinomial_support(total_count: int) -> base.Constraint:
    """constraints.multinomial(n): nonnegative counts summing to at most n."""
    return base.Constraint(lambda p: "Multinomial()", lambda v: np.all(v >= 0, axis=-1) & (
        np.sum(v, axis=-1) <= total_count), event_dim=1, is_discrete=True)


class Multinomial(_OverCategorical):
    """total_count draws of a Categorical, counted per category."""

    __slots__ = ()
    NAME = "Multinomial"

    def __init__(self, runtime, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise errors.TorchError("NotImplementedError",
                                    "inhomogeneous total_count is not supported")
        self.calls, self.attrs = Calls(runtime), {"total_count": total_count}
        self.attrs["_categorical"] = Categorical(runtime, probs=probs, logits=logits)
        self.probs  # torch makes probs here, for its Binomial(total_count, probs=self.probs)
        self._finish(validate_args)

    def support(self):
        return multinomial_support(self.attrs["total_count"])

    def sample(self, sample_shape=()):
        c, sample_shape = self.calls, self.to_size(sample_shape)
        samples = self.categorical.sample(self.to_size((self.attrs["total_count"],
                                                        *sample_shape)))
        order = list(range(samples.ndim))
        order.append(order.pop(0))
        samples = c.method(samples, "permute", *order)
        counts = c.torch("zeros", self.extended_shape(sample_shape), dtype=samples.dtype)
        c.method(counts, "scatter_add_", -1, samples, c.torch("ones_like", samples))
        return c.method(counts, "type_as", self.probs)

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c = self.calls
        logits, value = base.broadcast_all(c, self.logits, value)
        logits = c.method(logits, "clone")
        log_factorial_n = c.torch("lgamma", op("+", c.method(value, "sum", -1), 1))
        log_factorial_xs = c.method(c.torch("lgamma", op("+", value, 1)), "sum", -1)
        protocols.set_item(logits, op("&", protocols.compare("==", value, 0),
                                      protocols.compare("==", logits, -math.inf)), 0)
        log_powers = c.method(op("*", logits, value), "sum", -1)
        return op("+", op("-", log_factorial_n, log_factorial_xs), log_powers)

    def entropy(self):
        raise errors.TorchError("NotImplementedError", "gradcli does not support "
                                "Multinomial.entropy() yet (it needs Binomial)")

    @property
    def mean(self):
        return op("*", self.probs, self.attrs["total_count"])

    @property
    def variance(self):
        probs = self.probs
        return op("*", op("*", self.attrs["total_count"], probs), op("-", 1, probs))


class Poisson(Distribution):
    """Counts at a nonnegative rate; torch.poisson draws them."""

    __slots__ = ()
    NAME, EXPANDED = "Poisson", ("rate",)

    def __init__(self, runtime, rate, validate_args=None):
        self.setup_broadcast(runtime, validate_args, rate=rate)

    def arg_constraints(self) -> dict:
        return {"rate": base.NONNEGATIVE}

    def support(self):
        return base.NONNEGATIVE_INTEGER

    def sample(self, sample_shape=()):
        c, shape = self.calls, self.extended_shape(sample_shape)
        with grad_mode(False):
            return c.torch("poisson", c.method(self.attrs["rate"], "expand", shape))

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c = self.calls
        rate, value = base.broadcast_all(c, self.attrs["rate"], value)
        return op("-", op("-", c.method(value, "xlogy", rate), rate),
                  c.method(op("+", value, 1), "lgamma"))

    @property
    def mean(self):
        return self.attrs["rate"]

    @property
    def mode(self):
        return self.calls.method(self.attrs["rate"], "floor")

    @property
    def variance(self):
        return self.attrs["rate"]


class Binomial(_Binary):
    """total_count Bernoulli trials counted; torch.binomial draws them."""

    __slots__ = ()
    NAME, has_enumerate_support = "Binomial", True

    def __init__(self, runtime, total_count=1, probs=None, logits=None, validate_args=None):
        self.counted(runtime, total_count, probs, logits, validate_args)

    def arg_constraints(self) -> dict:
        return {"total_count": base.NONNEGATIVE_INTEGER, "probs": base.UNIT_INTERVAL,
                "logits": base.REAL}

    def support(self):
        return base.integer_interval(0, self.attrs["total_count"])

    def expand_into(self, new, batch_shape) -> None:
        self.expand_counted(new, batch_shape)

    def sample(self, sample_shape=()):
        c, shape = self.calls, self.extended_shape(sample_shape)
        with grad_mode(False):
            return c.torch("binomial", c.method(self.attrs["total_count"], "expand", shape),
                           c.method(self.probs, "expand", shape))

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c, n, logits = self.calls, self.attrs["total_count"], self.logits
        log_factorial_n = c.torch("lgamma", op("+", n, 1))
        log_factorial_k = c.torch("lgamma", op("+", value, 1))
        log_factorial_nmk = c.torch("lgamma", op("+", op("-", n, value), 1))
        clamped = op("/", op("-", op("+", c.method(logits, "clamp", min=0), logits),
                             c.method(logits, "clamp", max=0)), 2)
        normalize = op("-", op("+", op("*", n, clamped), op("*", n, c.torch(
            "log1p", c.torch("exp", protocols.unary("-", c.torch("abs", logits)))))),
            log_factorial_n)
        return op("-", op("-", op("-", op("*", value, logits), log_factorial_k),
                          log_factorial_nmk), normalize)

    def _homogeneous(self, what: str) -> int:
        """The one total count of every batch element, else torch's NotImplementedError."""
        c, n = self.calls, self.attrs["total_count"]
        total = int(c.method(n, "max").data)
        if not bool(protocols.compare("==", c.method(n, "min"), total).data):
            raise errors.TorchError("NotImplementedError",
                                    f"Inhomogeneous total count not supported by `{what}`.")
        return total

    def support_size(self) -> int:
        return self._homogeneous("enumerate_support") + 1

    def support_dtype(self) -> dict:
        return {"dtype": base.attr(self._param(), "dtype")}

    def entropy(self):
        self._homogeneous("entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        product = op("*", self.calls.torch("exp", log_prob), log_prob)
        return protocols.unary("-", self.calls.method(product, "sum", 0))

    @property
    def mean(self):
        return op("*", self.attrs["total_count"], self.probs)

    @property
    def mode(self):
        c, n = self.calls, self.attrs["total_count"]
        return c.method(c.method(op("*", op("+", n, 1), self.probs), "floor"), "clamp", max=n)

    @property
    def variance(self):
        return op("*", op("*", self.attrs["total_count"], self.probs), op("-", 1, self.probs))
