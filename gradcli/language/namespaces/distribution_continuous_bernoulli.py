"""torch.distributions' ContinuousBernoulli: a density on [0, 1] with Bernoulli's probs and
logits, and torch's Taylor expansions near probs = 0.5."""

from __future__ import annotations

import math

from gradcli.engine import errors
from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import Calls, op
from gradcli.language.namespaces.distribution_discrete import _Binary
from gradcli.language.runtime import protocols


class ContinuousBernoulli(_Binary):
    __slots__ = ()
    NAME, has_rsample = "ContinuousBernoulli", True

    def __init__(self, runtime, probs=None, logits=None, lims=None, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        self._given(probs, logits)
        self.given = "probs" if probs is not None else "logits"
        given = probs if probs is not None else logits
        (value,) = base.broadcast_all(self.calls, given)
        if probs is not None:
            if validate_args is not None and not base.satisfied(base.UNIT_INTERVAL, value):
                raise errors.value_error("The parameter probs has invalid values")
            value = self._clamped(value)
        self.attrs[self.given] = value
        self.attrs["_lims"] = (0.499, 0.501) if lims is None else tuple(lims)
        self.setup(runtime, () if not isinstance(given, Tensor) else value.shape, validate_args)

    def support(self):
        return base.UNIT_INTERVAL

    def logits_to_probs(self, logits):
        return self._clamped(super().logits_to_probs(logits))

    def expand_into(self, new, batch_shape) -> None:
        new.attrs["_lims"] = self.attrs["_lims"]
        super().expand_into(new, batch_shape)

    def _where(self, condition, a, b):
        return self.calls.torch("where", condition, a, b)

    def _outside(self):
        c, (low, high) = self.calls, self.attrs["_lims"]
        return c.torch("max", c.torch("le", self.probs, low), c.torch("gt", self.probs, high))

    def _cut_probs(self):
        low = self.attrs["_lims"][0]
        return self._where(self._outside(), self.probs,
                           op("*", low, self.calls.torch("ones_like", self.probs)))

    def _log_norm(self):
        c, cut = self.calls, self._cut_probs()
        below = self._where(c.torch("le", cut, 0.5), cut, c.torch("zeros_like", cut))
        above = self._where(c.torch("ge", cut, 0.5), cut, c.torch("ones_like", cut))
        log_norm = op("-", c.torch("log", c.torch("abs", op(
            "-", c.torch("log1p", protocols.unary("-", cut)), c.torch("log", cut)))),
            self._where(c.torch("le", cut, 0.5), c.torch("log1p", op("*", -2.0, below)),
                        c.torch("log", op("-", op("*", 2.0, above), 1.0))))
        x = c.torch("pow", op("-", self.probs, 0.5), 2)
        taylor = op("+", math.log(2.0), op("*", op("+", 4.0 / 3.0, op("*", 104.0 / 45.0, x)), x))
        return self._where(self._outside(), log_norm, taylor)

    @property
    def mean(self):
        c, cut = self.calls, self._cut_probs()
        mus = op("+", op("/", cut, op("-", op("*", 2.0, cut), 1.0)), op(
            "/", 1.0, op("-", c.torch("log1p", protocols.unary("-", cut)), c.torch("log", cut))))
        x = op("-", self.probs, 0.5)
        taylor = op("+", 0.5, op("*", op("+", 1.0 / 3.0, op("*", 16.0 / 45.0,
                                                             c.torch("pow", x, 2))), x))
        return self._where(self._outside(), mus, taylor)

    @property
    def stddev(self):
        return self.calls.torch("sqrt", self.variance)

    @property
    def variance(self):
        c, cut = self.calls, self._cut_probs()
        spread = op("/", op("*", cut, op("-", cut, 1.0)),
                    c.torch("pow", op("-", 1.0, op("*", 2.0, cut)), 2))
        log_ratio = op("-", c.torch("log1p", protocols.unary("-", cut)), c.torch("log", cut))
        variances = op("+", spread, op("/", 1.0, c.torch("pow", log_ratio, 2)))
        x = c.torch("pow", op("-", self.probs, 0.5), 2)
        taylor = op("-", 1.0 / 12.0, op("*", op("-", 1.0 / 15.0, op("*", 128.0 / 945.0, x)), x))
        return self._where(self._outside(), variances, taylor)

    def sample(self, sample_shape=()):
        u = self.calls.torch("rand", self.extended_shape(sample_shape),
                             dtype=base.attr(self.probs, "dtype"))
        with grad_mode(False):
            return self.icdf(u)

    def rsample(self, sample_shape=()):
        u = self.calls.torch("rand", self.extended_shape(sample_shape),
                             dtype=base.attr(self.probs, "dtype"))
        return self.icdf(u)

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c = self.calls
        logits, value = base.broadcast_all(c, self.logits, value)
        bce = c.functional("binary_cross_entropy_with_logits", logits, value, reduction="none")
        return op("+", protocols.unary("-", bce), self._log_norm())

    def cdf(self, value):
        if self.validate:
            self.validate_sample(value)
        c, cut = self.calls, self._cut_probs()
        cdfs = op("/", op("-", op("+", op("*", c.torch("pow", cut, value), c.torch(
            "pow", op("-", 1.0, cut), op("-", 1.0, value))), cut), 1.0),
            op("-", op("*", 2.0, cut), 1.0))
        unbounded = self._where(self._outside(), cdfs, value)
        return self._where(c.torch("le", value, 0.0), c.torch("zeros_like", value), self._where(
            c.torch("ge", value, 1.0), c.torch("ones_like", value), unbounded))

    def icdf(self, value):
        c, cut = self.calls, self._cut_probs()
        top = op("-", c.torch("log1p", op("+", protocols.unary("-", cut), op(
            "*", value, op("-", op("*", 2.0, cut), 1.0)))), c.torch("log1p", protocols.unary(
                "-", cut)))
        bottom = op("-", c.torch("log", cut), c.torch("log1p", protocols.unary("-", cut)))
        return self._where(self._outside(), op("/", top, bottom), value)

    def entropy(self):
        c = self.calls
        log_probs0 = c.torch("log1p", protocols.unary("-", self.probs))
        log_probs1 = c.torch("log", self.probs)
        return op("-", op("-", op("*", self.mean, op("-", log_probs0, log_probs1)),
                          self._log_norm()), log_probs0)

    @property
    def mode(self):
        raise errors.TorchError("NotImplementedError", "<class 'torch.distributions."
                                "continuous_bernoulli.ContinuousBernoulli'> does not implement "
                                "mode")
