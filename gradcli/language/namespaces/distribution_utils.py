"""torch.distributions.utils: probabilities and logits converted (clamped as torch clamps them),
arguments broadcast together, and lower triangles as vectors, the same calls as torch's code."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import Calls, op
from gradcli.language.runtime import protocols
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

EULER_CONSTANT = 0.57721566490153286060  # Euler Mascheroni Constant


def _finfo(c: Calls, value, name: str):
    return protocols.get_attribute(c.torch("finfo", base.attr(value, "dtype")), name)


def clamp_probs(c: Calls, probs):
    eps = _finfo(c, probs, "eps")
    return c.method(probs, "clamp", min=eps, max=1 - eps)


def logits_to_probs(c: Calls, logits, is_binary=False):
    return c.torch("sigmoid", logits) if is_binary else c.functional("softmax", logits, dim=-1)


def probs_to_logits(c: Calls, probs, is_binary=False):
    clamped = clamp_probs(c, probs)
    if is_binary:
        return op("-", c.torch("log", clamped), c.torch("log1p", protocols.unary("-", clamped)))
    return c.torch("log", clamped)


def _tril_mask(c: Calls, n: int, diag: int, device):
    arange = c.torch("arange", n, device=device)
    return protocols.compare("<", arange, op("+", c.method(arange, "view", -1, 1), diag + 1))


def tril_matrix_to_vec(c: Calls, mat, diag=0):
    n = base.attr(mat, "shape")[-1]
    if diag < -n or diag >= n:
        raise errors.value_error(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return protocols.get_item(mat, (Ellipsis, _tril_mask(c, n, diag, base.attr(mat, "device"))))


def vec_to_tril_matrix(c: Calls, vec, diag=0):
    size = base.attr(vec, "shape")[-1]
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * size + 4 * abs(diag) * (diag + 1)) ** 0.5
         ) / 2
    if round(n) - n > _finfo(c, vec, "eps"):
        raise errors.value_error(f"The size of last dimension is {size} which cannot be "
                                 "expressed as the lower triangular part of a square D x D "
                                 "matrix.")
    n = round(n)
    mat = c.method(vec, "new_zeros", (*base.attr(vec, "shape")[:-1], n, n))
    protocols.set_item(mat, (Ellipsis, _tril_mask(c, n, diag, base.attr(vec, "device"))), vec)
    return mat


def _with_calls(function):
    return lambda runtime, *args: function(Calls(runtime), *args)


UTILS = Namespace(f"{base.MODULE}.utils", {"euler_constant": EULER_CONSTANT, **table(
    entry("broadcast_all", _with_calls(base.broadcast_all), "*values", context=True),
    entry("clamp_probs", _with_calls(clamp_probs), "probs", context=True),
    entry("logits_to_probs", _with_calls(logits_to_probs), "logits, is_binary=False",
          context=True),
    entry("probs_to_logits", _with_calls(probs_to_logits), "probs, is_binary=False",
          context=True),
    entry("tril_matrix_to_vec", _with_calls(tril_matrix_to_vec), "mat, diag=0", context=True),
    entry("vec_to_tril_matrix", _with_calls(vec_to_tril_matrix), "vec, diag=0", context=True),
)})
