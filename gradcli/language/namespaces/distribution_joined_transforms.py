"""torch.distributions' transforms that join others along a dimension (CatTransform on slices of
given lengths, StackTransform on each index) and CumulativeDistributionTransform (a
distribution's cdf), with torch's checks and the same calls as torch's Python code."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import attr, op
from gradcli.language.namespaces.distribution_constraints import ConstraintValue
from gradcli.language.namespaces.distribution_multivariate import sum_rightmost
from gradcli.language.namespaces.distribution_transforms import Transform, _kind
from gradcli.language.runtime.values import iterate


def _cat_constraint(parts: list, dim: int, lengths: list) -> base.Constraint:
    """constraints.cat: each part's check on its slice along dim."""
    def check(value):
        bounds = np.cumsum(lengths)[:-1]
        return np.concatenate([c.check(v) for c, v in zip(
            parts, np.split(value, bounds, axis=dim))], axis=dim)
    return base.Constraint(lambda p: "Cat()", check, event_dim=max(c.event_dim for c in parts),
                           is_discrete=any(c.is_discrete for c in parts), kind="Cat")


def _stack_constraint(parts: list, dim: int) -> base.Constraint:
    """constraints.stack: each part's check on its index along dim."""
    def check(value):
        return np.stack([c.check(np.take(value, i, axis=dim)) for i, c in zip(
            range(value.shape[dim]), parts)], axis=dim)
    return base.Constraint(lambda p: "Stack()", check, event_dim=max(c.event_dim for c in parts),
                           is_discrete=any(c.is_discrete for c in parts), kind="Stack")


class _Joined(Transform):
    """A transform made of transforms `tseq`, each on its part of the input along `dim`."""

    __slots__ = ()
    WHAT = "length"

    def __init__(self, runtime, tseq, dim=0, cache_size=0):
        super().__init__(runtime, cache_size)
        tseq = list(iterate(tseq))
        if not all(isinstance(t, Transform) for t in tseq):
            raise errors.TorchError("AssertionError",
                                    "All elements of tseq must be Transform instances")
        self.attrs.update(transforms=tseq, dim=dim)

    @property
    def parts(self) -> list:
        return self.attrs["transforms"]

    @property
    def BIJECTIVE(self):
        return all(t.BIJECTIVE for t in self.parts)

    def _checked(self, value, name: str = "tensor", letter: str = "x"):
        """torch's assertions on `value`'s dims and its size along dim."""
        dim, ndim = self.attrs["dim"], value.ndim
        if not -ndim <= dim < ndim:
            raise errors.TorchError("AssertionError",
                                    f"dim {dim} out of range for {name} with {ndim} dimensions")
        size, wanted = value.shape[dim], self.size()
        if size != wanted:
            raise errors.TorchError("AssertionError", f"{letter}.size({dim}) = {size} must "
                                    f"equal {self.WHAT} {wanted}")
        return value

    def apply(self, x):
        return self.join([t.apply(p) for t, p in zip(self.parts, self.pieces(self._checked(x)))])

    def invert(self, y):
        y = self._checked(y, letter="y")
        return self.join([t.inv().apply(p) for t, p in zip(self.parts, self.pieces(y))])


class CatTransform(_Joined):
    __slots__ = ()
    NAME = "CatTransform"

    def __init__(self, runtime, tseq, dim=0, lengths=None, cache_size=0):
        super().__init__(runtime, tseq, dim, cache_size)
        lengths = [1] * len(self.parts) if lengths is None else list(iterate(lengths))
        if len(lengths) != len(self.parts):
            raise errors.TorchError("AssertionError", f"lengths ({len(lengths)}) must match "
                                    f"transforms ({len(self.parts)})")
        self.attrs["lengths"] = lengths

    def size(self) -> int:
        return sum(self.attrs["lengths"])

    def event_dim(self) -> int:
        return max(t.event_dim() for t in self.parts)

    def pieces(self, value) -> list:
        pieces, start = [], 0
        for length in self.attrs["lengths"]:
            pieces.append(self.calls.method(value, "narrow", self.attrs["dim"], start, length))
            start += length
        return pieces

    def join(self, pieces):
        return self.calls.torch("cat", pieces, dim=self.attrs["dim"])

    def ladj(self, x, y):
        self._checked(x, "x"), self._checked(y, "y", "y")
        event_dim, terms = self.event_dim(), []
        for t, a, b in zip(self.parts, self.pieces(x), self.pieces(y)):
            term = t.ladj(a, b)
            if t.event_dim() < event_dim:
                term = sum_rightmost(self.calls, term, event_dim - t.event_dim())
            terms.append(term)
        dim = self.attrs["dim"]
        dim = (dim - x.ndim if dim >= 0 else dim) + event_dim
        if dim < 0:
            return self.calls.torch("cat", terms, dim=dim)
        total = 0
        for term in terms:
            total = op("+", total, term)
        return total

    def domain(self):
        return _cat_constraint([t.domain() for t in self.parts], self.attrs["dim"],
                               self.attrs["lengths"])

    def codomain(self):
        return _cat_constraint([t.codomain() for t in self.parts], self.attrs["dim"],
                               self.attrs["lengths"])


class StackTransform(_Joined):
    __slots__ = ()
    NAME, WHAT = "StackTransform", "len(transforms)"

    def size(self) -> int:
        return len(self.parts)

    def pieces(self, value) -> list:
        dim = self.attrs["dim"]
        return [self.calls.method(value, "select", dim, i) for i in range(value.shape[dim])]

    def join(self, pieces):
        return self.calls.torch("stack", pieces, dim=self.attrs["dim"])

    def ladj(self, x, y):
        self._checked(x, "x"), self._checked(y, "y", "y")
        return self.join([t.ladj(a, b) for t, a, b in zip(self.parts, self.pieces(x),
                                                          self.pieces(y))])

    def domain(self):
        return _stack_constraint([t.domain() for t in self.parts], self.attrs["dim"])

    def codomain(self):
        return _stack_constraint([t.codomain() for t in self.parts], self.attrs["dim"])


class CumulativeDistributionTransform(Transform):
    """A distribution's cdf (inverse: its icdf; log|dy/dx|: its log_prob)."""

    __slots__ = ()
    NAME, CODOMAIN = "CumulativeDistributionTransform", base.UNIT_INTERVAL

    def __init__(self, runtime, distribution, cache_size=0):
        super().__init__(runtime, cache_size)
        self.attrs["distribution"] = distribution

    def _call(self, name: str, *args):
        return self.calls.runtime.call(attr(self.attrs["distribution"], name), list(args), {})

    def domain(self):
        support = attr(self.attrs["distribution"], "support")
        return support.constraint if isinstance(support, ConstraintValue) else support

    def apply(self, x):
        return self._call("cdf", x)

    def invert(self, y):
        return self._call("icdf", y)

    def ladj(self, x, y):
        return self._call("log_prob", x)


JOINED_TRANSFORMS = {
    "CatTransform": _kind(CatTransform, "tseq, dim=0, lengths=None, cache_size=0"),
    "StackTransform": _kind(StackTransform, "tseq, dim=0, cache_size=0"),
    "CumulativeDistributionTransform": _kind(CumulativeDistributionTransform,
                                             "distribution, cache_size=0"),
}
