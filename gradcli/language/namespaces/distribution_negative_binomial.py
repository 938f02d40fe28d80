"""torch.distributions.NegativeBinomial: the successes before total_count failures, drawn as
torch draws them (a Poisson draw at a Gamma draw's rate), with torch's log_prob."""

from __future__ import annotations

from gradcli.engine.state import grad_mode
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import op
from gradcli.language.namespaces.distribution_continuous import Gamma
from gradcli.language.namespaces.distribution_discrete import _Binary
from gradcli.language.runtime import protocols


class NegativeBinomial(_Binary):
    __slots__ = ()
    NAME = "NegativeBinomial"

    def __init__(self, runtime, total_count, probs=None, logits=None, validate_args=None):
        self.counted(runtime, total_count, probs, logits, validate_args)

    def arg_constraints(self) -> dict:
        return {"total_count": base.greater_than_eq(0),
                "probs": base.half_open_interval(0.0, 1.0), "logits": base.REAL}

    def support(self):
        return base.NONNEGATIVE_INTEGER

    def expand_into(self, new, batch_shape) -> None:
        self.expand_counted(new, batch_shape)

    def _gamma(self) -> Gamma:
        """Gamma(total_count, exp(-logits)), unvalidated (total_count may be zero)."""
        c = self.calls
        rate = c.torch("exp", protocols.unary("-", self.logits))
        return Gamma(c.runtime, self.attrs["total_count"], rate, validate_args=False)

    def sample(self, sample_shape=()):
        with grad_mode(False):
            return self.calls.torch("poisson", self._gamma().sample(sample_shape))

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c, n, logits = self.calls, self.attrs["total_count"], self.logits
        unnormalized = op("+", op("*", n, c.functional("logsigmoid", protocols.unary("-", logits))),
                          op("*", value, c.functional("logsigmoid", logits)))
        normalization = op("+", op("+", protocols.unary("-", c.torch("lgamma", op("+", n, value))),
                                   c.torch("lgamma", op("+", 1.0, value))), c.torch("lgamma", n))
        normalization = c.method(normalization, "masked_fill",
                                 protocols.compare("==", op("+", n, value), 0.0), 0.0)
        return op("-", unnormalized, normalization)

    @property
    def mean(self):
        return op("*", self.attrs["total_count"], self.calls.torch("exp", self.logits))

    @property
    def mode(self):
        c = self.calls
        scaled = op("*", op("-", self.attrs["total_count"], 1), c.method(self.logits, "exp"))
        return c.method(c.method(scaled, "floor"), "clamp", min=0.0)

    @property
    def variance(self):
        return op("/", self.mean, self.calls.torch("sigmoid", protocols.unary("-", self.logits)))
