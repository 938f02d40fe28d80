"""torch.distributions' LowRankMultivariateNormal: covariance cov_factor @ cov_factor.mT +
diag(cov_diag), worked through the capacitance matrix as torch's module does."""

from __future__ import annotations

import math

from gradcli.engine import errors
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import Calls, Distribution, op
from gradcli.language.namespaces.distribution_multivariate import (
    batch_mahalanobis, batch_mv, linalg_call)
from gradcli.language.runtime.values import Size

COV_FACTOR = base.independent(base.REAL, 2)
COV_DIAG = base.independent(base.POSITIVE, 1)


def _plus_identity(c: Calls, K):
    """K with 1 added along its diagonal (torch's K.view(-1, m * m)[:, ::m + 1] += 1)."""
    return op("+", K, c.torch("eye", K.shape[-1], dtype=base.attr(K, "dtype")))


def capacitance_tril(c: Calls, W, D):
    Wt_Dinv = op("/", base.attr(W, "mT"), c.method(D, "unsqueeze", -2))
    K = c.method(c.torch("matmul", Wt_Dinv, W), "contiguous")
    return linalg_call(c, "cholesky", _plus_identity(c, K))


def lowrank_logdet(c: Calls, W, D, tril):
    diagonal = c.method(tril, "diagonal", dim1=-2, dim2=-1)
    return op("+", op("*", 2, c.method(c.method(diagonal, "log"), "sum", -1)),
              c.method(c.method(D, "log"), "sum", -1))


def lowrank_mahalanobis(c: Calls, W, D, x, tril):
    Wt_Dinv = op("/", base.attr(W, "mT"), c.method(D, "unsqueeze", -2))
    Wt_Dinv_x = batch_mv(c, Wt_Dinv, x)
    term1 = c.method(op("/", c.method(x, "pow", 2), D), "sum", -1)
    return op("-", term1, batch_mahalanobis(c, tril, Wt_Dinv_x))


class LowRankMultivariateNormal(Distribution):
    __slots__ = ()
    NAME, has_rsample = "LowRankMultivariateNormal", True

    def __init__(self, runtime, loc, cov_factor, cov_diag, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        c, printer = self.calls, runtime.printer
        if c.method(loc, "dim") < 1:
            raise errors.value_error("loc must be at least one-dimensional.")
        event_shape = Size(loc.shape[-1:])
        if c.method(cov_factor, "dim") < 2:
            raise errors.value_error("cov_factor must be at least two-dimensional, with optional "
                                     "leading batch dimensions")
        if Size(cov_factor.shape[-2:-1]) != event_shape:
            raise errors.value_error("cov_factor must be a batch of matrices with shape "
                                     f"{event_shape[0]} x m")
        if Size(base.attr(cov_diag, "shape")[-1:]) != event_shape:
            raise errors.value_error("cov_diag must be a batch of vectors with shape "
                                     f"{printer.str(event_shape)}")
        try:
            loc_, factor, diag_ = c.torch("broadcast_tensors", c.method(loc, "unsqueeze", -1),
                                          cov_factor, c.method(cov_diag, "unsqueeze", -1))
        except errors.TorchError as error:
            if error.kind != "RuntimeError":
                raise
            raise errors.value_error(
                f"Incompatible batch shapes: loc {printer.str(Size(loc.shape))}, cov_factor "
                f"{printer.str(Size(cov_factor.shape))}, cov_diag "
                f"{printer.str(Size(cov_diag.shape))}") from None
        self.attrs["cov_factor"] = factor
        self.attrs["loc"] = c.method(loc_, "select", -1, 0)  # loc_[..., 0]
        self.attrs["cov_diag"] = c.method(diag_, "select", -1, 0)
        self.attrs["_unbroadcasted_cov_factor"] = cov_factor
        self.attrs["_unbroadcasted_cov_diag"] = cov_diag
        self.attrs["_capacitance_tril"] = capacitance_tril(c, cov_factor, cov_diag)
        self.setup(runtime, self.attrs["loc"].shape[:-1], validate_args, event_shape)

    def arg_constraints(self) -> dict:
        return {"loc": base.REAL_VECTOR, "cov_factor": COV_FACTOR, "cov_diag": COV_DIAG}

    def support(self):
        return base.REAL_VECTOR

    @property
    def W(self):
        return self.attrs["_unbroadcasted_cov_factor"]

    @property
    def D(self):
        return self.attrs["_unbroadcasted_cov_diag"]

    @property
    def tril(self):
        return self.attrs["_capacitance_tril"]

    def expand_into(self, new, batch_shape) -> None:
        c = self.calls
        loc_shape = (*batch_shape, *self.event_shape)
        new.attrs["loc"] = c.method(self.attrs["loc"], "expand", loc_shape)
        new.attrs["cov_diag"] = c.method(self.attrs["cov_diag"], "expand", loc_shape)
        new.attrs["cov_factor"] = c.method(self.attrs["cov_factor"], "expand",
                                           (*loc_shape, self.attrs["cov_factor"].shape[-1]))
        for name in ("_unbroadcasted_cov_factor", "_unbroadcasted_cov_diag", "_capacitance_tril"):
            new.attrs[name] = self.attrs[name]

    def _matrix_shape(self):
        return (*self.batch_shape, *self.event_shape, *self.event_shape)

    def lazy(self, name: str):
        """The lazy properties variance, scale_tril, covariance_matrix and precision_matrix."""
        if name not in self.attrs:
            c, W, D = self.calls, self.W, self.D
            if name == "variance":
                value = op("+", c.method(c.method(W, "pow", 2), "sum", -1), D)
                self.attrs[name] = c.method(value, "expand", (*self.batch_shape,
                                                              *self.event_shape))
                return self.attrs[name]
            if name == "scale_tril":
                root = c.method(c.method(D, "sqrt"), "unsqueeze", -1)
                scaled = op("/", W, root)
                K = c.method(c.torch("matmul", scaled, base.attr(scaled, "mT")), "contiguous")
                value = op("*", root, linalg_call(c, "cholesky", _plus_identity(c, K)))
            elif name == "covariance_matrix":
                value = op("+", c.torch("matmul", W, base.attr(W, "mT")),
                           c.torch("diag_embed", D))
            else:
                Wt_Dinv = op("/", base.attr(W, "mT"), c.method(D, "unsqueeze", -2))
                A = linalg_call(c, "solve_triangular", self.tril, Wt_Dinv, upper=False)
                value = op("-", c.torch("diag_embed", c.method(D, "reciprocal")),
                           op("@", base.attr(A, "mT"), A))
            self.attrs[name] = c.method(value, "expand", self._matrix_shape())
        return self.attrs[name]

    def rsample(self, sample_shape=()):
        c = self.calls
        shape = self.extended_shape(sample_shape)
        dtype = base.attr(self.attrs["loc"], "dtype")
        eps_W = c.method(c.torch("empty", (*shape[:-1], self.attrs["cov_factor"].shape[-1]),
                                 dtype=dtype), "normal_")
        eps_D = c.method(c.torch("empty", shape, dtype=dtype), "normal_")
        return op("+", op("+", self.attrs["loc"], batch_mv(c, self.W, eps_W)),
                  op("*", c.method(self.D, "sqrt"), eps_D))

    def _logdet(self):
        return lowrank_logdet(self.calls, self.W, self.D, self.tril)

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        diff = op("-", value, self.attrs["loc"])
        M = lowrank_mahalanobis(self.calls, self.W, self.D, diff, self.tril)
        return op("*", -0.5, op("+", op("+", self.event_shape[0] * math.log(2 * math.pi),
                                        self._logdet()), M))

    def entropy(self):
        H = op("*", 0.5, op("+", self.event_shape[0] * (1.0 + math.log(2 * math.pi)),
                            self._logdet()))
        if len(self.batch_shape) == 0:
            return H
        return self.calls.method(H, "expand", self.batch_shape)

    @property
    def mean(self):
        return self.attrs["loc"]

    @property
    def mode(self):
        return self.attrs["loc"]

    @property
    def variance(self):
        return self.lazy("variance")
