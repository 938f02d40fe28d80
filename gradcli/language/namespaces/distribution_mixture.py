"""torch.distributions' MixtureSameFamily: a Categorical choosing among the rightmost batch
dimension of a component distribution, the same calls as torch's Python code."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.state import grad_mode
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import Calls, Constraint, Distribution, op
from gradcli.language.namespaces.distribution_discrete import Categorical
from gradcli.language.runtime.values import Size


def mixture_constraint(inner: Constraint) -> Constraint:
    """MixtureSameFamilyConstraint: the component's check with the component dim put back."""
    def check(v):
        result = np.asarray(inner.check(np.expand_dims(v, -1 - inner.event_dim)))
        keep = v.ndim - inner.event_dim
        return np.all(result.reshape(*v.shape[:keep], -1), axis=-1)
    return Constraint(lambda p: f"MixtureSameFamilyConstraint({inner.text(p)})", check,
                      event_dim=inner.event_dim, is_discrete=inner.is_discrete,
                      kind="MixtureSameFamilyConstraint")


class MixtureSameFamily(Distribution):
    __slots__ = ()
    NAME = "MixtureSameFamily"

    def __init__(self, runtime, mixture_distribution, component_distribution,
                 validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        self.attrs["_mixture_distribution"] = mixture_distribution
        self.attrs["_component_distribution"] = component_distribution
        if not isinstance(mixture_distribution, Categorical):
            raise errors.value_error(" The Mixture distribution needs to be an  instance of "
                                     "torch.distributions.Categorical")
        if not isinstance(component_distribution, Distribution):
            raise errors.value_error("The Component distribution needs to be an instance of "
                                     "torch.distributions.Distribution")
        printer = runtime.printer
        mdbs = mixture_distribution.batch_shape
        cdbs = Size(component_distribution.batch_shape[:-1])
        for size1, size2 in zip(reversed(mdbs), reversed(cdbs)):
            if size1 != 1 and size2 != 1 and size1 != size2:
                raise errors.value_error(
                    f"`mixture_distribution.batch_shape` ({printer.str(mdbs)}) is not compatible "
                    f"with `component_distribution.batch_shape`({printer.str(cdbs)})")
        km = base.attr(mixture_distribution.logits, "shape")[-1]
        kc = component_distribution.batch_shape[-1]
        if km != kc:
            raise errors.value_error(f"`mixture_distribution component` ({km}) does not equal "
                                     f"`component_distribution.batch_shape[-1]` ({kc})")
        self.attrs["_num_component"] = km
        self.attrs["_event_ndims"] = len(component_distribution.event_shape)
        self.setup(runtime, cdbs, validate_args, component_distribution.event_shape)

    @property
    def mixture(self) -> Categorical:
        return self.attrs["_mixture_distribution"]

    @property
    def component(self) -> Distribution:
        return self.attrs["_component_distribution"]

    @property
    def event_ndims(self) -> int:
        return self.attrs["_event_ndims"]

    def repr(self, printer) -> str:
        return (f"MixtureSameFamily(\n  {self.mixture.repr(printer)},\n  "
                f"{self.component.repr(printer)})")

    def support(self):
        return mixture_constraint(self.component.support())

    def expand(self, batch_shape):
        batch_shape = self.to_size(batch_shape)
        new = object.__new__(MixtureSameFamily)
        new.calls, new.attrs = self.calls, {}
        new.attrs["_component_distribution"] = self.component.expand(
            (*batch_shape, self.attrs["_num_component"]))
        new.attrs["_mixture_distribution"] = self.mixture.expand(batch_shape)
        new.attrs["_num_component"] = self.attrs["_num_component"]
        new.attrs["_event_ndims"] = self.event_ndims
        new.batch_shape, new.event_shape = batch_shape, new.component.event_shape
        new.validate_args = self.validate
        return new

    def _pad(self, x):
        return self.calls.method(x, "unsqueeze", -1 - self.event_ndims)

    def _pad_mixture_dimensions(self, x):
        cat_batch_ndims = len(self.mixture.batch_shape)
        pad = 0 if cat_batch_ndims == 1 else len(self.batch_shape) - cat_batch_ndims
        xs = x.shape
        return self.calls.method(x, "reshape", (*xs[:-1], *[1] * pad, *xs[-1:],
                                                *[1] * self.event_ndims))

    @property
    def mean(self):
        probs = self._pad_mixture_dimensions(self.mixture.probs)
        return self.calls.torch("sum", op("*", probs, self.component.mean),
                                dim=-1 - self.event_ndims)

    @property
    def variance(self):
        c, probs = self.calls, self._pad_mixture_dimensions(self.mixture.probs)
        dim = -1 - self.event_ndims
        mean_cond_var = c.torch("sum", op("*", probs, self.component.variance), dim=dim)
        spread = c.method(op("-", self.component.mean, self._pad(self.mean)), "pow", 2.0)
        return op("+", mean_cond_var, c.torch("sum", op("*", probs, spread), dim=dim))

    def cdf(self, value):
        cdf_x = self.component.cdf(self._pad(value))
        return self.calls.torch("sum", op("*", cdf_x, self.mixture.probs), dim=-1)

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c = self.calls
        log_prob_x = self.component.log_prob(self._pad(value))
        log_mix_prob = c.torch("log_softmax", self.mixture.logits, dim=-1)
        return c.torch("logsumexp", op("+", log_prob_x, log_mix_prob), dim=-1)

    def sample(self, sample_shape=()):
        c, sample_shape = self.calls, self.to_size(sample_shape)
        with grad_mode(False):
            gather_dim = len(sample_shape) + len(self.batch_shape)
            es = self.event_shape
            mix_sample = self.mixture.sample(sample_shape)
            mix_shape = tuple(mix_sample.shape)
            comp_samples = self.component.sample(sample_shape)
            mix_r = c.method(mix_sample, "reshape", mix_shape + (1,) * (len(es) + 1))
            mix_r = c.method(mix_r, "repeat", (1,) * len(mix_shape) + (1,) + tuple(es))
            samples = c.torch("gather", comp_samples, gather_dim, mix_r)
            return c.method(samples, "squeeze", gather_dim)
