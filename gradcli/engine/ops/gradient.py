"""torch.gradient: ATen's composite of slices and arithmetic (second-order central differences
inside, first- or second-order one-sided ones at the edges), so autograd flows through it."""

from __future__ import annotations

from gradcli.engine import dtypes, errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.tensor import Tensor

_LENGTHS = ("torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
            "arguments to have the same length, but got a spacing argument of length {} and a dim "
            "argument of length {}.")


def _slice(t: Tensor, dim: int, start: int, end: int | None = None) -> Tensor:
    """at::slice(t, dim, start, end): negative bounds count from the end."""
    size = t.shape[dim]
    start = start + size if start < 0 else start
    end = size if end is None else (end + size if end < 0 else end)
    return F.slice_dim(t, dim, start, end, 1)


def _check(a: Tensor, spacing_size, dims, edge_order: int) -> None:
    if a.dtype is dtypes.uint8:
        raise errors.runtime("torch.gradient does not support uint8 input.")
    if spacing_size is not None and dims is None and spacing_size != a.ndim:
        raise errors.runtime(
            "torch.gradient expected spacing to be unspecified, a scalar, or a list of length "
            f"equal to 'self.dim() = {a.ndim}', since dim argument was not given, but got a list "
            f"of length {spacing_size}")
    if spacing_size is not None and dims is not None and spacing_size != len(dims):
        raise errors.runtime(_LENGTHS.format(spacing_size, len(dims)))
    if edge_order not in (1, 2):
        raise errors.runtime("torch.gradient only supports edge_order=1 and edge_order=2.")
    if dims is not None:
        F.normalize_dims(dims, a.ndim)
    for d in (range(a.ndim) if dims is None else dims):
        if a.shape[d] < edge_order + 1:
            raise errors.runtime(
                "torch.gradient expected each dimension size to be at least edge_order+1")


def _along_scalar(a: Tensor, dx, d: int, edge_order: int) -> Tensor:
    center = F.div(F.sub(_slice(a, d, 2), _slice(a, d, 0, -2)), dx)
    if edge_order == 1:
        prepend = F.div(F.sub(_slice(a, d, 1, 2), _slice(a, d, 0, 1)), dx)
        append = F.div(F.sub(_slice(a, d, -1), _slice(a, d, -2, -1)), dx)
    else:
        prepend = F.div(F.sub(F.add(F.mul(_slice(a, d, 0, 1), -1.5), F.mul(_slice(a, d, 1, 2), 2)),
                              F.mul(_slice(a, d, 2, 3), 0.5)), dx)
        append = F.div(F.add(F.sub(F.mul(_slice(a, d, -3, -2), 0.5), F.mul(_slice(a, d, -2, -1), 2)),
                             F.mul(_slice(a, d, -1), 1.5)), dx)
    return F.cat([prepend, F.div(center, 2), append], d)


def _along_coordinates(a: Tensor, coordinates: Tensor, d: int, edge_order: int) -> Tensor:
    if coordinates.ndim != 1:
        raise errors.runtime("torch.gradient expected each element of spacing to have one "
                             f"dimension, but got an element with {coordinates.ndim} dimensions!")
    shape = [1] * a.ndim
    shape[d] = -1
    dx = F.diff(coordinates, 1, 0)
    dx1, dx2 = _slice(dx, 0, 0, -1), _slice(dx, 0, 1)
    c_a = F.reshape(F.div(F.neg(dx2), F.mul(dx1, F.add(dx1, dx2))), shape)
    c_b = F.reshape(F.div(F.sub(dx2, dx1), F.mul(dx1, dx2)), shape)
    c_c = F.reshape(F.div(dx1, F.mul(dx2, F.add(dx1, dx2))), shape)
    center = F.add(F.add(F.mul(c_a, _slice(a, d, 0, -2)), F.mul(c_b, _slice(a, d, 1, -1))),
                   F.mul(c_c, _slice(a, d, 2)))
    first, last = F.select(dx, 0, 0), F.select(dx, 0, dx.shape[0] - 1)
    if edge_order == 1:
        prepend = F.div(F.sub(_slice(a, d, 1, 2), _slice(a, d, 0, 1)), first)
        append = F.div(F.sub(_slice(a, d, -1), _slice(a, d, -2, -1)), last)
    else:
        second, before = F.select(dx, 0, 1), F.select(dx, 0, dx.shape[0] - 2)
        s01 = F.add(first, second)
        p_a = F.div(F.neg(F.add(F.mul(first, 2.0), second)), F.mul(first, s01))
        p_b = F.div(s01, F.mul(first, second))
        p_c = F.div(F.neg(first), F.mul(second, s01))
        prepend = F.add(F.add(F.mul(p_a, _slice(a, d, 0, 1)), F.mul(p_b, _slice(a, d, 1, 2))),
                        F.mul(p_c, _slice(a, d, 2, 3)))
        s21 = F.add(last, before)
        q_a = F.div(last, F.mul(before, s21))
        q_b = F.div(F.neg(s21), F.mul(last, before))
        q_c = F.div(F.add(F.mul(last, 2), before), F.mul(last, s21))
        append = F.add(F.add(F.mul(q_a, _slice(a, d, -3, -2)), F.mul(q_b, _slice(a, d, -2, -1))),
                       F.mul(q_c, _slice(a, d, -1)))
    return F.cat([prepend, center, append], d)


def gradient(a: Tensor, spacing=None, dim=None, edge_order: int = 1) -> tuple:
    """torch.gradient: one tensor per dimension in `dim` (every dimension when it is None)."""
    listed = isinstance(dim, (list, tuple))
    dims = None if dim is None else list(dim) if listed else [dim]
    along = list(range(a.ndim)) if dims is None else dims
    if isinstance(spacing, (list, tuple)):
        spacing = list(spacing)
        size = len(spacing)
    else:
        size = None if spacing is None and not listed else len(along)
        spacing = [1.0 if spacing is None else spacing] * len(along)
    _check(a, size, dims, edge_order)
    results = []
    for step, d in zip(spacing, along):
        d = F.wrap_dim(d, a.ndim)
        results.append(_along_coordinates(a, step, d, edge_order) if isinstance(step, Tensor)
                       else _along_scalar(a, step, d, edge_order))
    return tuple(results)


__all__ = ["gradient"]

declare("gradient", gradient,
        "gradient(Tensor self, *, int[] dim, int edge_order=1)",
        "gradient(Tensor self, *, Scalar spacing, int[] dim, int edge_order=1)",
        "gradient(Tensor self, *, Scalar? spacing=None, int? dim=None, int edge_order=1)",
        "gradient(Tensor self, *, Scalar[] spacing, int? dim=None, int edge_order=1)",
        "gradient(Tensor self, *, Scalar[] spacing, int[] dim, int edge_order=1)",
        "gradient(Tensor self, *, Tensor[] spacing, int? dim=None, int edge_order=1)",
        "gradient(Tensor self, *, Tensor[] spacing, int[] dim, int edge_order=1)",
        variants="torch")

export(__name__, globals())
