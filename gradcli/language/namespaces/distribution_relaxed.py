"""torch.distributions' relaxed families: RelaxedBernoulli (a LogitRelaxedBernoulli through a
sigmoid) and RelaxedOneHotCategorical (an ExpRelaxedCategorical through exp)."""

from __future__ import annotations

from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces import distribution_transforms as tf
from gradcli.language.namespaces.distribution_base import op
from gradcli.language.namespaces.distribution_discrete import _Binary, _OverCategorical
from gradcli.language.namespaces.distribution_transformed import TransformedDistribution
from gradcli.language.runtime import protocols


class LogitRelaxedBernoulli(_Binary):
    __slots__ = ()
    NAME, has_rsample = "LogitRelaxedBernoulli", True

    def __init__(self, runtime, temperature, probs=None, logits=None, validate_args=None):
        super().__init__(runtime, probs, logits, validate_args)
        self.attrs = {"temperature": temperature} | self.attrs

    def support(self):
        return base.REAL

    def expand_into(self, new, batch_shape) -> None:
        new.attrs["temperature"] = self.attrs["temperature"]
        super().expand_into(new, batch_shape)

    def rsample(self, sample_shape=()):
        c, shape = self.calls, self.extended_shape(sample_shape)
        probs = self._clamped(c.method(self.probs, "expand", shape))
        uniforms = self._clamped(c.torch("rand", shape, dtype=base.attr(probs, "dtype")))
        logit_u = op("-", c.method(uniforms, "log"), c.method(protocols.unary("-", uniforms),
                                                              "log1p"))
        logit_p = op("-", c.method(probs, "log"), c.method(protocols.unary("-", probs), "log1p"))
        return op("/", op("+", logit_u, logit_p), self.attrs["temperature"])

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c, temperature = self.calls, self.attrs["temperature"]
        logits, value = base.broadcast_all(c, self.logits, value)
        diff = op("-", logits, c.method(value, "mul", temperature))
        return op("-", op("+", c.method(temperature, "log"), diff),
                  op("*", 2, c.method(c.method(diff, "exp"), "log1p")))


class ExpRelaxedCategorical(_OverCategorical):
    __slots__ = ()
    NAME, has_rsample = "ExpRelaxedCategorical", True

    def __init__(self, runtime, temperature, probs=None, logits=None, validate_args=None):
        self._start(runtime, probs, logits)
        self.attrs["temperature"] = temperature
        self._finish(validate_args)

    def support(self):
        return base.REAL_VECTOR

    def rsample(self, sample_shape=()):
        c, shape = self.calls, self.extended_shape(sample_shape)
        logits = self.logits
        uniforms = self._clamp(c.torch("rand", shape, dtype=base.attr(logits, "dtype")))
        gumbels = protocols.unary("-", c.method(protocols.unary("-", c.method(uniforms, "log")),
                                                "log"))
        scores = op("/", op("+", self.logits, gumbels), self.attrs["temperature"])
        return op("-", scores, c.method(scores, "logsumexp", dim=-1, keepdim=True))

    def _clamp(self, probs):
        return self.categorical._clamped(probs)

    def log_prob(self, value):
        k = self.event_shape[0]
        if self.validate:
            self.validate_sample(value)
        c, temperature = self.calls, self.attrs["temperature"]
        logits, value = base.broadcast_all(c, self.logits, value)
        log_scale = op("-", c.method(c.torch("full_like", temperature, float(k)), "lgamma"),
                       c.method(c.method(temperature, "log"), "mul", -(k - 1)))
        score = op("-", logits, c.method(value, "mul", temperature))
        score = c.method(op("-", score, c.method(score, "logsumexp", dim=-1, keepdim=True)),
                         "sum", -1)
        return op("+", score, log_scale)


class _Relaxed(TransformedDistribution):
    """A relaxed family: probs, logits and temperature are its base distribution's."""

    __slots__ = ()
    has_rsample = True

    def arg_value(self, name: str):
        return self.base.probs if name == "probs" else self.base.logits

    @property
    def temperature(self):
        return self.base.attrs["temperature"]


class RelaxedBernoulli(_Relaxed):
    __slots__ = ()
    NAME = "RelaxedBernoulli"

    def __init__(self, runtime, temperature, probs=None, logits=None, validate_args=None):
        self.calls, self.attrs = base.Calls(runtime), {}
        self.build(LogitRelaxedBernoulli(runtime, temperature, probs, logits),
                   tf.SigmoidTransform(runtime), validate_args)

    def arg_constraints(self) -> dict:
        return {"probs": base.UNIT_INTERVAL, "logits": base.REAL}

    def support(self):
        return base.UNIT_INTERVAL


class RelaxedOneHotCategorical(_Relaxed):
    __slots__ = ()
    NAME = "RelaxedOneHotCategorical"

    def __init__(self, runtime, temperature, probs=None, logits=None, validate_args=None):
        self.calls, self.attrs = base.Calls(runtime), {}
        self.build(ExpRelaxedCategorical(runtime, temperature, probs, logits,
                                         validate_args=validate_args),
                   tf.ExpTransform(runtime), validate_args)

    def arg_constraints(self) -> dict:
        return {"probs": base.SIMPLEX, "logits": base.REAL_VECTOR}

    def support(self):
        return base.SIMPLEX
