"""torch.distributions.LKJCholesky: Cholesky factors of correlation matrices drawn by the onion
method (a Beta draw per row, then normal directions), the same calls as torch's Python code;
and the corr_cholesky constraint it is supported on."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import errors
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import Calls, Constraint, Distribution, op
from gradcli.language.namespaces.distribution_dirichlet import Beta
from gradcli.language.namespaces.distribution_multivariate import lower_cholesky
from gradcli.language.runtime import protocols


def _corr_cholesky(v):
    """Lower Cholesky factors whose rows have unit norm (within 10 * n * eps)."""
    tol = np.finfo(v.dtype).eps * v.shape[-1] * 10
    unit_rows = np.all(np.abs(np.linalg.norm(v, axis=-1) - 1.0) <= tol, axis=-1)
    return lower_cholesky(v) & unit_rows


CORR_CHOLESKY = Constraint(lambda p: "CorrCholesky()", _corr_cholesky, event_dim=2)


class LKJCholesky(Distribution):
    __slots__ = ()
    NAME = "LKJCholesky"

    def __init__(self, runtime, dim, concentration=1.0, validate_args=None):
        if dim < 2:
            raise errors.value_error("Expected dim to be an integer greater than or equal to 2. "
                                     f"Found dim={dim}.")
        self.calls, self.attrs = Calls(runtime), {"dim": dim}
        c = self.calls
        (concentration,) = base.broadcast_all(c, concentration)
        self.attrs["concentration"] = concentration
        marginal = op("+", concentration, 0.5 * (dim - 2))
        offset = c.torch("arange", dim - 1, dtype=concentration.dtype)
        offset = c.torch("cat", [c.method(offset, "new_zeros", (1,)), offset])
        self.attrs["_beta"] = Beta(runtime, op("+", offset, 0.5), op(
            "-", c.method(marginal, "unsqueeze", -1), op("*", 0.5, offset)))
        self.setup(runtime, concentration.shape, validate_args, (dim, dim))

    def arg_constraints(self) -> dict:
        return {"concentration": base.POSITIVE}

    def support(self):
        return CORR_CHOLESKY

    def expand_into(self, new, batch_shape) -> None:
        new.attrs["dim"] = self.attrs["dim"]
        new.attrs["concentration"] = self.calls.method(self.attrs["concentration"], "expand",
                                                       batch_shape)
        new.attrs["_beta"] = self.attrs["_beta"].expand((*batch_shape, self.attrs["dim"]))

    def sample(self, sample_shape=()):
        c = self.calls
        y = c.method(self.attrs["_beta"].sample(sample_shape), "unsqueeze", -1)
        u_normal = c.method(c.torch("randn", self.extended_shape(sample_shape),
                                    dtype=base.attr(y, "dtype")), "tril", -1)
        u = op("/", u_normal, c.method(u_normal, "norm", dim=-1, keepdim=True))
        protocols.set_item(u, (Ellipsis, 0, slice(None)), 0.0)  # the first row's NaNs
        w = op("*", c.torch("sqrt", y), u)
        tiny = protocols.get_attribute(c.torch("finfo", base.attr(w, "dtype")), "tiny")
        diag = c.method(c.torch("clamp", op("-", 1, c.torch("sum", op("**", w, 2), dim=-1)),
                                min=tiny), "sqrt")
        return op("+", w, c.torch("diag_embed", diag))

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        c, dim, concentration = self.calls, self.attrs["dim"], self.attrs["concentration"]
        diag = protocols.get_item(c.method(value, "diagonal", dim1=-1, dim2=-2),
                                  (Ellipsis, slice(1, None)))
        order = op("-", op("+", op("*", 2, c.method(op("-", concentration, 1), "unsqueeze", -1)),
                           dim), c.torch("arange", 2, dim + 1))
        unnormalized = c.torch("sum", op("*", order, c.method(diag, "log")), dim=-1)
        dm1 = dim - 1
        alpha = op("+", concentration, 0.5 * dm1)
        denominator = op("*", c.torch("lgamma", alpha), dm1)
        numerator = c.torch("mvlgamma", op("-", alpha, 0.5), dm1)
        normalize = op("-", op("+", 0.5 * dm1 * math.log(math.pi), numerator), denominator)
        return op("-", unnormalized, normalize)
