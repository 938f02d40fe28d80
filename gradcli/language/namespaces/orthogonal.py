"""parametrizations.orthogonal as torch's Python code makes it: an _Orthogonal parametrization
whose forward maps the stored matrix to an orthogonal one (matrix_exp or cayley of its skew
part, or the product of its Householder reflectors), times the `base` buffer its
right_inverse sets (the initial weight made orthogonal by a QR)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import declarations, dtypes, errors
from gradcli.engine.functions import F
from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.modules import Module, ModuleKind, construct
from gradcli.language.namespaces.parametrize import register_parametrization
from gradcli.language.runtime import attributes
from gradcli.language.runtime.signatures import entry, table

PATH = "torch.nn.utils.parametrizations"
_MAPS = ("matrix_exp", "cayley", "householder")


def _call(name: str, *args, **kwargs):
    space = "linalg" if name in ("householder_product", "solve") else "torch"
    return declarations.call(space, name, *args, **kwargs)


def _make_orthogonal(a: Tensor) -> Tensor:
    x, tau = _call("geqrf", a)
    q = _call("householder_product", x, tau)
    return F.mul(q, F.unsqueeze(F.sgn(F.diagonal(x, 0, -2, -1)), -2))


def _is_orthogonal(q: Tensor) -> bool:
    n, k = q.shape[-2], q.shape[-1]
    eps = 10.0 * n * float(np.finfo(dtypes.real_of(q.dtype).np).eps)
    identity = _call("eye", k, dtype=q.dtype)
    return bool(_call("allclose", F.matmul(F.conj(F.transpose(q, -2, -1)), q), identity,
                      atol=eps))


def _forward(ctx, m, x):
    n, k = x.shape[-2], x.shape[-1]
    transposed = n < k
    if transposed:
        x, (n, k) = F.transpose(x, -2, -1), (k, n)
    if m.attrs["map"] in ("matrix_exp", "cayley"):
        x = F.tril(x)
        if n != k:
            zeros = F.expand(F.zeros_of((n, n - k), x.dtype), x.shape[:-2] + (n, n - k))
            x = F.cat([x, zeros], -1)
        a = F.sub(x, F.conj(F.transpose(x, -2, -1)))
        if m.attrs["map"] == "matrix_exp":
            q = _call("matrix_exp", a)
        else:
            identity = _call("eye", n, dtype=a.dtype)
            q = _call("solve", _call("add", identity, a, alpha=-0.5),
                      _call("add", identity, a, alpha=0.5))
        if n != k:
            q = F.narrow(q, -1, 0, k)
    else:
        a = F.tril(x, -1)
        # 2.0 / (1.0 + sum): Tensor.__rtruediv__ is reciprocal() * other
        tau = F.mul_scalar(F.reciprocal(F.add_scalar(F.sum(F.mul(a, a), -2), 1.0)), 2.0)
        q = _call("householder_product", a, tau)
        q = F.mul(q, F.unsqueeze(F.to_dtype(F.diagonal(x, 0, -2, -1), dtypes.int32), -2))
    base = m.buffers.get("base")
    if "base" in m.buffers and base is not None:
        q = F.matmul(base, q)
    return F.transpose(q, -2, -1) if transposed else q


def _right_inverse(m, q):
    with grad_mode(False):
        if tuple(q.shape) != m.attrs["shape"]:
            raise errors.value_error(f"Expected a matrix or batch of matrices of shape "
                                     f"{m.attrs['shape']}. Got a tensor of shape {tuple(q.shape)}.")
        q_init = q
        n, k = q.shape[-2], q.shape[-1]
        if n < k:
            q, (n, k) = F.transpose(q, -2, -1), (k, n)
        if n == k:
            q = F.clone(q) if _is_orthogonal(q) else _make_orthogonal(q)
        else:
            extra = _call("randn", *(tuple(q.shape[:-2]) + (n, n - k)), dtype=q.dtype)
            q = _make_orthogonal(F.cat([q, extra], -1))
        m.buffers["base"] = q
        neg_id = F.zeros_like(q_init)
        F.fill_(F.diagonal(neg_id, 0, -2, -1), -1.0)
        return neg_id


class OrthogonalHost(Module):
    """_Orthogonal: forward(X) and right_inverse(Q)."""

    __slots__ = ()
    METHODS = table(entry("right_inverse", _right_inverse, "self, Q",
                          qualname="_Orthogonal.right_inverse"))


def _build(m, weight, orthogonal_map, use_trivialization):
    m.attrs.update(shape=tuple(weight.shape), map=orthogonal_map)
    if use_trivialization:
        m.buffers["base"] = None


ORTHOGONAL = ModuleKind("_Orthogonal", "", "weight, orthogonal_map, *, use_trivialization=True",
                        _forward, inputs="X", build=_build, host=OrthogonalHost, path=PATH)


def orthogonal(ctx, module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    """parametrizations.orthogonal: register _Orthogonal on `name`, unsafely."""
    weight = attributes.get(module, name) if isinstance(module, Module) else None
    if not isinstance(weight, Tensor):
        raise errors.value_error(f"Module '{ctx.printer.str(module)}' has no parameter or buffer "
                                 f"with name '{name}'")
    if weight.ndim < 2:
        raise errors.value_error("Expected a matrix or batch of matrices. "
                                 f"Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        n, k = weight.shape[-2], weight.shape[-1]
        orthogonal_map = "matrix_exp" if n == k or weight.dtype.is_complex else "householder"
    if orthogonal_map not in _MAPS:
        raise errors.value_error('orthogonal_map has to be one of "matrix_exp", "cayley", '
                                 f'"householder". Got: {orthogonal_map}')
    orth = construct(ORTHOGONAL, weight, orthogonal_map, use_trivialization=use_trivialization)
    return register_parametrization(ctx, module, name, orth, unsafe=True)


PARAMETRIZATIONS = table(entry(
    "orthogonal", orthogonal, "module, name='weight', orthogonal_map=None, *, "
    "use_trivialization=True", context=True))
