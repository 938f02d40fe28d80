"""torch.distributions' Dirichlet and Beta (a Dirichlet over [concentration1,
concentration0]), the same calls as torch's Python code."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import Calls, Distribution, op
from gradcli.language.runtime import protocols

POSITIVE_VECTOR = base.independent(base.POSITIVE, 1)


class Dirichlet(Distribution):
    __slots__ = ()
    NAME, has_rsample = "Dirichlet", True

    def __init__(self, runtime, concentration, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        if self.calls.method(concentration, "dim") < 1:
            raise errors.value_error("`concentration` parameter must be at least "
                                     "one-dimensional.")
        self.attrs["concentration"] = concentration
        shape = concentration.shape
        self.setup(runtime, shape[:-1], validate_args, shape[-1:])

    def arg_constraints(self) -> dict:
        return {"concentration": POSITIVE_VECTOR}

    def support(self):
        return base.SIMPLEX

    def expand_into(self, new, batch_shape) -> None:
        new.attrs["concentration"] = self.calls.method(
            self.attrs["concentration"], "expand", (*batch_shape, *self.event_shape))

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        return F.dirichlet_rsample(self.calls.method(self.attrs["concentration"], "expand",
                                                     shape))

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c, k = self.calls, self.attrs["concentration"]
        return op("-", op("+", c.method(c.torch("xlogy", op("-", k, 1.0), value), "sum", -1),
                          c.torch("lgamma", c.method(k, "sum", -1))),
                  c.method(c.torch("lgamma", k), "sum", -1))

    @property
    def mean(self):
        k = self.attrs["concentration"]
        return op("/", k, self.calls.method(k, "sum", -1, True))

    @property
    def mode(self):
        c, k = self.calls, self.attrs["concentration"]
        km1 = c.method(op("-", k, 1), "clamp", min=0.0)
        mode = op("/", km1, c.method(km1, "sum", -1, True))
        mask = c.method(protocols.compare("<", k, 1), "all", dim=-1)
        picked = c.method(protocols.get_item(mode, mask), "argmax", dim=-1)
        protocols.set_item(mode, mask, c.method(c.functional(
            "one_hot", picked, km1.shape[-1]), "to", mode))
        return mode

    @property
    def variance(self):
        c, k = self.calls, self.attrs["concentration"]
        con0 = c.method(k, "sum", -1, True)
        return op("/", op("*", k, op("-", con0, k)),
                  op("*", c.method(con0, "pow", 2), op("+", con0, 1)))

    def entropy(self):
        c, k = self.calls, self.attrs["concentration"]
        n, a0 = k.shape[-1], c.method(k, "sum", -1)
        return op("-", op("-", op("-", c.method(c.torch("lgamma", k), "sum", -1),
                                   c.torch("lgamma", a0)),
                          op("*", op("-", n, a0), c.torch("digamma", a0))),
                  c.method(op("*", op("-", k, 1.0), c.torch("digamma", k)), "sum", -1))


class Beta(Distribution):
    __slots__ = ()
    NAME, has_rsample = "Beta", True

    def __init__(self, runtime, concentration1, concentration0, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        c = self.calls
        if not isinstance(concentration1, Tensor) and not isinstance(concentration0, Tensor):
            both = c.torch("tensor", [float(concentration1), float(concentration0)])
        else:
            both = c.torch("stack", list(base.broadcast_all(c, concentration1,
                                                            concentration0)), -1)
        self.attrs["_dirichlet"] = Dirichlet(runtime, both, validate_args=validate_args)
        self.setup(runtime, self.dirichlet.batch_shape, validate_args)

    @property
    def dirichlet(self) -> Dirichlet:
        return self.attrs["_dirichlet"]

    def arg_constraints(self) -> dict:
        return {"concentration1": base.POSITIVE, "concentration0": base.POSITIVE}

    def arg_value(self, name: str):
        return self.concentration(0 if name == "concentration1" else 1)

    def concentration(self, index: int):
        return self.calls.method(self.dirichlet.attrs["concentration"], "select", -1, index)

    def support(self):
        return base.UNIT_INTERVAL

    def expand_into(self, new, batch_shape) -> None:
        new.attrs["_dirichlet"] = self.dirichlet.expand(batch_shape)

    def rsample(self, sample_shape=()):
        return self.calls.method(self.dirichlet.rsample(sample_shape), "select", -1, 0)

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        heads_tails = self.calls.torch("stack", [value, op("-", 1.0, value)], -1)
        return self.dirichlet.log_prob(heads_tails)

    def entropy(self):
        return self.dirichlet.entropy()

    @property
    def mean(self):
        c1, c0 = self.concentration(0), self.concentration(1)
        return op("/", c1, op("+", c1, c0))

    @property
    def mode(self):
        return self.calls.method(self.dirichlet.mode, "select", -1, 0)

    @property
    def variance(self):
        c1, c0 = self.concentration(0), self.concentration(1)
        total = op("+", c1, c0)
        return op("/", op("*", c1, c0), op("*", self.calls.method(total, "pow", 2),
                                           op("+", total, 1)))
