"""torch.distributions' MultivariateNormal (from a covariance, precision or scale_tril matrix)
and Independent, the same calls as torch's Python code (so values, labels and draws match)."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import errors
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import Calls, Constraint, Distribution, op
from gradcli.language.runtime import protocols
from gradcli.language.runtime.values import Size


def _positive_definite(v):
    symmetric = np.all(np.isclose(v, np.swapaxes(v, -1, -2), rtol=1e-5, atol=1e-6), axis=(-2, -1))
    flat = v.reshape(-1, *v.shape[-2:]).astype(np.float64)
    ok = np.array([_has_cholesky(m) for m in flat], dtype=bool).reshape(v.shape[:-2])
    return symmetric & ok


def _has_cholesky(matrix) -> bool:
    try:
        np.linalg.cholesky(matrix)
    except np.linalg.LinAlgError:
        return False
    return True


def lower_cholesky(v):
    lower = np.all(np.tril(v) == v, axis=(-2, -1))
    return lower & np.all(np.diagonal(v, axis1=-2, axis2=-1) > 0, axis=-1)


POSITIVE_DEFINITE = Constraint(lambda p: "PositiveDefinite()", _positive_definite, event_dim=2)
LOWER_CHOLESKY = Constraint(lambda p: "LowerCholesky()", lower_cholesky, event_dim=2)
_MATRICES = ("covariance_matrix", "precision_matrix", "scale_tril")


def broadcast_shapes(printer, *shapes) -> Size:
    """torch.broadcast_shapes, with its message for shapes that do not broadcast."""
    result = [1] * max(len(s) for s in shapes)
    for index, shape in enumerate(shapes):
        for i in range(-1, -1 - len(shape), -1):
            if shape[i] == 1 or shape[i] == result[i]:
                continue
            if result[i] != 1:
                raise errors.runtime(
                    f"Attempting to broadcast a dimension of length {shape[i]} at {i}! "
                    f"Mismatching argument at index {index} had {printer.str(tuple(shape))}; but "
                    f"expected shape should be broadcastable to {printer.str(result)}")
            result[i] = shape[i]
    return Size(result)


def batch_mv(calls: Calls, bmat, bvec):
    return calls.method(calls.torch("matmul", bmat, calls.method(bvec, "unsqueeze", -1)),
                        "squeeze", -1)


def batch_mahalanobis(c: Calls, bL, bx):
    """torch.distributions.multivariate_normal._batch_mahalanobis, step by step."""
    n = bx.shape[-1]
    bx_batch_shape = bx.shape[:-1]
    bx_batch_dims, bL_batch_dims = len(bx_batch_shape), len(bL.shape) - 2
    outer = bx_batch_dims - bL_batch_dims
    old_dims, new_dims = outer + bL_batch_dims, outer + 2 * bL_batch_dims
    new_shape = tuple(bx.shape[:outer])
    for sL, sx in zip(bL.shape[:-2], bx.shape[outer:-1]):
        new_shape += (sx // sL, sL)
    bx = c.method(bx, "reshape", (*new_shape, n))
    permute = (list(range(outer)) + list(range(outer, new_dims, 2))
               + list(range(outer + 1, new_dims, 2)) + [new_dims])
    bx = c.method(bx, "permute", permute)
    flat_L = c.method(bL, "reshape", -1, n, n)
    flat_x = c.method(bx, "reshape", -1, flat_L.shape[0], n)
    swapped = c.method(flat_x, "permute", 1, 2, 0)
    solved = protocols.get_attribute(protocols.MODULES["torch"].lookup("linalg"),
                                     "solve_triangular")
    m_swap = c.method(c.method(c.runtime.call(solved, [flat_L, swapped], {"upper": False}),
                               "pow", 2), "sum", -2)
    permuted = c.method(c.method(m_swap, "t"), "reshape", bx.shape[:-1])
    inverse = list(range(outer))
    for i in range(bL_batch_dims):
        inverse += [outer + i, old_dims + i]
    return c.method(c.method(permuted, "permute", inverse), "reshape", bx_batch_shape)


def linalg_call(c: Calls, name: str, *args, **kwargs):
    function = protocols.get_attribute(protocols.MODULES["torch"].lookup("linalg"), name)
    return c.runtime.call(function, list(args), kwargs)


def _precision_to_scale_tril(c: Calls, P):
    Lf = linalg_call(c, "cholesky", c.torch("flip", P, (-2, -1)))
    L_inv = c.torch("transpose", c.torch("flip", Lf, (-2, -1)), -2, -1)
    eye = c.torch("eye", P.shape[-1], dtype=base.attr(P, "dtype"))
    return linalg_call(c, "solve_triangular", L_inv, eye, upper=False)


class MultivariateNormal(Distribution):
    __slots__ = ()
    NAME, has_rsample = "MultivariateNormal", True

    def __init__(self, runtime, loc, covariance_matrix=None, precision_matrix=None,
                 scale_tril=None, validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        c, printer = self.calls, runtime.printer
        if c.method(loc, "dim") < 1:
            raise errors.value_error("loc must be at least one-dimensional.")
        given = {"scale_tril": scale_tril, "covariance_matrix": covariance_matrix,
                 "precision_matrix": precision_matrix}
        if sum(v is not None for v in given.values()) != 1:
            raise errors.value_error("Exactly one of covariance_matrix or precision_matrix or "
                                     "scale_tril may be specified.")
        name, matrix = next((k, v) for k, v in given.items() if v is not None)
        if c.method(matrix, "dim") < 2:
            raise errors.value_error(f"{name} must be at least two-dimensional, with optional "
                                     "leading batch dimensions")
        batch_shape = broadcast_shapes(printer, matrix.shape[:-2], loc.shape[:-1])
        self.attrs[name] = c.method(matrix, "expand", (*batch_shape, -1, -1))
        self.attrs["loc"] = c.method(loc, "expand", (*batch_shape, -1))
        self.setup(runtime, batch_shape, validate_args, self.attrs["loc"].shape[-1:])
        if name == "scale_tril":
            tril = scale_tril
        elif name == "covariance_matrix":
            tril = linalg_call(c, "cholesky", covariance_matrix)
        else:
            tril = _precision_to_scale_tril(c, precision_matrix)
        self.attrs["_unbroadcasted_scale_tril"] = tril

    def arg_constraints(self) -> dict:
        return {"loc": base.REAL_VECTOR, "covariance_matrix": POSITIVE_DEFINITE,
                "precision_matrix": POSITIVE_DEFINITE, "scale_tril": LOWER_CHOLESKY}

    def support(self):
        return base.REAL_VECTOR

    @property
    def tril(self):
        return self.attrs["_unbroadcasted_scale_tril"]

    def _matrix_shape(self):
        return (*self.batch_shape, *self.event_shape, *self.event_shape)

    def lazy(self, name: str):
        """The lazy properties scale_tril, covariance_matrix and precision_matrix."""
        if name not in self.attrs:
            c = self.calls
            if name == "scale_tril":
                value = self.tril
            elif name == "covariance_matrix":
                value = c.torch("matmul", self.tril, base.attr(self.tril, "mT"))
            else:
                value = c.torch("cholesky_inverse", self.tril)
            self.attrs[name] = c.method(value, "expand", self._matrix_shape())
        return self.attrs[name]

    def expand_into(self, new, batch_shape) -> None:
        c = self.calls
        new.attrs["loc"] = c.method(self.attrs["loc"], "expand", (*batch_shape, *self.event_shape))
        new.attrs["_unbroadcasted_scale_tril"] = self.tril
        matrix_shape = (*batch_shape, *self.event_shape, *self.event_shape)
        for name in _MATRICES:
            if name in self.attrs:
                new.attrs[name] = c.method(self.attrs[name], "expand", matrix_shape)

    def rsample(self, sample_shape=()):
        c = self.calls
        shape = self.extended_shape(sample_shape)
        loc = self.attrs["loc"]
        eps = c.method(c.torch("empty", shape, dtype=base.attr(loc, "dtype")), "normal_")
        return op("+", loc, batch_mv(c, self.tril, eps))

    def _half_log_det(self):
        c = self.calls
        diagonal = c.method(self.tril, "diagonal", dim1=-2, dim2=-1)
        return c.method(c.method(diagonal, "log"), "sum", -1)

    def log_prob(self, value):
        if self.validate:
            self.validate_sample(value)
        diff = op("-", value, self.attrs["loc"])
        M = batch_mahalanobis(self.calls, self.tril, diff)
        inner = op("+", self.event_shape[0] * math.log(2 * math.pi), M)
        return op("-", op("*", -0.5, inner), self._half_log_det())

    def entropy(self):
        H = op("+", 0.5 * self.event_shape[0] * (1.0 + math.log(2 * math.pi)),
               self._half_log_det())
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
        c = self.calls
        return c.method(c.method(c.method(self.tril, "pow", 2), "sum", -1), "expand",
                        (*self.batch_shape, *self.event_shape))


def sum_rightmost(calls: Calls, value, dim: int):
    if dim == 0:
        return value
    return calls.method(calls.method(value, "reshape", (*value.shape[:-dim], -1)), "sum", -1)


class Independent(Distribution):
    __slots__ = ()
    NAME = "Independent"

    def __init__(self, runtime, base_distribution, reinterpreted_batch_ndims,
                 validate_args=None):
        self.calls, self.attrs = Calls(runtime), {}
        n = reinterpreted_batch_ndims
        if not isinstance(base_distribution, Distribution):
            raise errors.TorchError("AttributeError", f"'{base.type_name(base_distribution)}' "
                                    "object has no attribute 'batch_shape'")
        batch = base_distribution.batch_shape
        if n > len(batch):
            raise errors.value_error("Expected reinterpreted_batch_ndims <= "
                                     "len(base_distribution.batch_shape), actual "
                                     f"{n} vs {len(batch)}")
        shape = (*batch, *base_distribution.event_shape)
        event_dim = n + len(base_distribution.event_shape)
        self.attrs["base_dist"] = base_distribution
        self.attrs["reinterpreted_batch_ndims"] = n
        self.setup(runtime, shape[:len(shape) - event_dim], validate_args,
                   shape[len(shape) - event_dim:])

    @property
    def base(self) -> Distribution:
        return self.attrs["base_dist"]

    @property
    def ndims(self) -> int:
        return self.attrs["reinterpreted_batch_ndims"]

    @property
    def has_rsample(self):
        return self.base.has_rsample

    def repr(self, printer) -> str:
        return f"Independent({self.base.repr(printer)}, {printer.str(self.ndims)})"

    def support(self):
        return self.base.support()

    def expand_into(self, new, batch_shape) -> None:
        new.attrs["base_dist"] = self.base.expand((*batch_shape, *self.event_shape[:self.ndims]))
        new.attrs["reinterpreted_batch_ndims"] = self.ndims

    def enumerate_support(self, expand=True):
        if self.ndims > 0:
            raise errors.TorchError("NotImplementedError", "Enumeration over cartesian product "
                                    "is not implemented")
        return self.base.enumerate_support(expand)

    def sample(self, sample_shape=()):
        return self.base.sample(sample_shape)

    def rsample(self, sample_shape=()):
        return self.base.rsample(sample_shape)

    def log_prob(self, value):
        return sum_rightmost(self.calls, self.base.log_prob(value), self.ndims)

    def entropy(self):
        return sum_rightmost(self.calls, self.base.entropy(), self.ndims)

    @property
    def mean(self):
        return self.base.mean

    @property
    def mode(self):
        return self.base.mode

    @property
    def variance(self):
        return self.base.variance
