"""Complex tensors' own functions: their parts (real, imag, view_as_real, view_as_complex),
building them (complex, polar), angle and conj; rows and declarations. Forward-mode AD
through complex tensors is not offered (forward_ad.propagate refuses it), so these rows have
no jvp."""

from __future__ import annotations

import weakref

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.autograd import RESULT
from gradcli.engine.ops.registry import OPS, apply, defop
from gradcli.engine.tensor import Tensor


def _parts(a: np.ndarray) -> np.ndarray:
    """A complex array's float view with a last dimension of (real, imag), sharing its memory."""
    real = a.real
    return np.lib.stride_tricks.as_strided(real, a.shape + (2,), real.strides + (real.itemsize,))


def _joined(a: np.ndarray) -> np.ndarray:
    """The complex view of a float array whose last dimension (of size 2, stride 1) holds the
    parts, sharing its memory."""
    return a.view(np.result_type(a.dtype, np.complex64))[..., 0]


defop("view_as_real", "ViewAsRealBackward0", _parts, promote="none", view=True, complex=True,
      out_dtype=lambda dtype, params: dtypes.real_of(dtype),
      vjp=lambda g, a: F.view_as_complex(F.contiguous(g)),
      rule=("at::view_as_complex(grad.contiguous())",))
defop("view_as_complex", "ViewAsComplexBackward0", _joined, promote="none", view=True,
      out_dtype=lambda dtype, params: dtypes.complex_of(dtype),
      vjp=lambda g, a: F.view_as_real(F.resolve_conj(g)),
      rule=("at::view_as_real(grad.contiguous().resolve_conj())",))
defop("complex", "ComplexBackward0", lambda re, im: _joined(np.stack((re, im), -1)),
      promote="none", save=(0, 1), out_dtype=lambda dtype, params: dtypes.complex_of(dtype),
      vjp=(lambda g, re, im: F.real(g), lambda g, re, im: F.imag(g)),
      rule=("at::real(grad)", "at::imag(grad)"))
defop("conj", "ConjBackward0", np.conj, promote="none", complex=True,
      vjp=lambda g, a: F.conj(g), rule=("grad.conj()",))
defop("conj_physical", "ConjPhysicalBackward0", np.conj, promote="none", complex=True,
      vjp=lambda g, a: F.conj_physical(g), rule=("grad.conj_physical()",))


def _polar(r, theta):
    """r cos(theta) + i r sin(theta); float32's cosine and sine rounded from double's (as
    torch's are, but for about one element in forty)."""
    wide = theta.astype(np.float64)
    out = np.empty(r.shape, np.result_type(r.dtype, np.complex64))
    out.real = r * np.cos(wide).astype(r.dtype)
    out.imag = r * np.sin(wide).astype(r.dtype)
    return out


def _angle(a):
    """A complex number's argument (atan2 of its parts, computed in double: torch's SLEEF
    atan2 is an ulp away from this now and then); a real one's 0, pi or NaN."""
    if a.dtype.kind == "c":
        wide = a.astype(np.complex128)
        return np.arctan2(wide.imag, wide.real).astype(a.real.dtype)
    return np.where(np.isnan(a), a, np.where(a < 0, np.pi, 0)).astype(a.dtype)


def _angle_backward(g, a):
    if not a.dtype.is_complex:
        return F.zeros_like(a)
    grad = F.mul_scalar(F.div(F.mul(g, a), F.pow(F.abs(a), 2)), 1j)
    return F.where(F.compare("eq", a, 0.0), F.scalar_tensor(0.0, grad.dtype), grad)


defop("polar", "PolarBackward0", _polar, promote="none", save=(RESULT,),
      out_dtype=lambda dtype, params: dtypes.complex_of(dtype),
      vjp=(lambda g, r, theta, out: F.real(F.mul(F.conj(g), F.sgn(out))),
           lambda g, r, theta, out: F.real(F.mul(F.conj(g), F.mul_scalar(out, 1j)))),
      rule=("at::real(grad.conj() * at::sgn(result))",
            "at::real(grad.conj() * (result * 1j))"))
defop("angle", "AngleBackward0", _angle, promote="float", save=(0,), complex=True,
      out_dtype=lambda dtype, params: dtypes.real_of(dtype), vjp=_angle_backward,
      rule=("where(self == 0, 0, grad * self / self.abs().pow(2) * 1j) (zeros for a real self)",))


# The tensors conj() made with torch's conjugate bit set (their values here are conjugated
# already); views of them do not inherit it here, as torch's do
_CONJUGATED = weakref.WeakSet()
# The imaginary parts of conjugated tensors, which torch gives with its negative bit set
_NEGATED = weakref.WeakSet()


def view_as_real(a: Tensor) -> Tensor:
    if not a.dtype.is_complex:
        raise errors.runtime("view_as_real is only supported for complex tensors")
    if a in _CONJUGATED:
        raise errors.runtime(
            "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the "
            "conjugate tensor so you can view it as real, use self.resolve_conj(); however, be "
            "warned that the resulting tensor will NOT alias the original.")
    return apply(OPS["view_as_real"], a)


def view_as_complex(a: Tensor) -> Tensor:
    if a.dtype is dtypes.float16:  # torch's complex32
        raise errors.TorchError("NotImplementedError", "gradcli does not support "
                                "torch.complex32 yet")
    if a.dtype not in (dtypes.float32, dtypes.float64):
        raise errors.runtime("view_as_complex is only supported for half, float and double "
                             f"tensors, but got a tensor of scalar type: {a.dtype.scalar_name}")
    if not a.ndim or a.shape[-1] != 2:
        raise errors.runtime("Tensor must have a last dimension of size 2")
    if a.data.strides[-1] != a.data.itemsize:
        raise errors.runtime("Tensor must have a last dimension with stride 1")
    return apply(OPS["view_as_complex"], a)


def real(a: Tensor) -> Tensor:
    """torch.real: a complex tensor's real parts, a view (torch selects them from
    view_as_real, hence SelectBackward0); any other tensor itself. (A conjugated tensor's
    parts are its values here.)"""
    return F.select(apply(OPS["view_as_real"], a), -1, 0) if a.dtype.is_complex else a


def imag(a: Tensor) -> Tensor:
    if not a.dtype.is_complex:
        raise errors.runtime("imag is not implemented for tensors with non-complex dtypes.")
    out = F.select(apply(OPS["view_as_real"], a), -1, 1)
    if a in _CONJUGATED:
        _NEGATED.add(out)
    return out


def _parts_checked(a: Tensor, b: Tensor) -> tuple:
    """torch.complex's and torch.polar's checks: both float32, float64 (or float16, not
    offered) and alike; then both broadcast to one shape."""
    for t in (a, b):
        if t.dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):
            raise errors.runtime("Expected both inputs to be Half, Float or Double tensors but "
                                 f"got {a.dtype.scalar_name} and {b.dtype.scalar_name}")
    if a.dtype is not b.dtype:
        raise errors.runtime(f"Expected object of scalar type {a.dtype.scalar_name} but got "
                             f"scalar type {b.dtype.scalar_name} for second argument")
    shape = F.broadcast_shape(a.shape, b.shape)
    return F.expand(a, shape), F.expand(b, shape)


def complex_(real: Tensor, imag: Tensor) -> Tensor:
    """torch.complex(real, imag)."""
    return apply(OPS["complex"], *_parts_checked(real, imag))


def polar(abs: Tensor, angle: Tensor) -> Tensor:
    """torch.polar(abs, angle): abs * (cos(angle) + i sin(angle))."""
    return apply(OPS["polar"], *_parts_checked(abs, angle))


def angle(a: Tensor) -> Tensor:
    return apply(OPS["angle"], a)


def conj(a):
    """torch.conj: a real tensor itself; a complex one's conjugate (a copy here, where torch
    gives a view with its conjugate bit set). A Python number (a vjp's operand): its
    conjugate."""
    if not isinstance(a, Tensor):
        return a.conjugate() if isinstance(a, complex) else a
    if not a.dtype.is_complex:
        return a
    out = apply(OPS["conj"], a)
    if a not in _CONJUGATED:  # conj of a conjugated tensor clears the bit
        _CONJUGATED.add(out)
    return out


def conj_physical(a: Tensor) -> Tensor:
    return apply(OPS["conj_physical"], a) if a.dtype.is_complex else a


def resolve_conj(a: Tensor) -> Tensor:
    """A conjugated tensor's values in a tensor of their own (torch clones them), else the
    tensor itself."""
    return F.clone(a) if a in _CONJUGATED else a


def is_conj(a: Tensor) -> bool:
    return a in _CONJUGATED


def resolve_neg(a: Tensor) -> Tensor:
    """A negated view's values in a tensor of their own (torch clones them), else the tensor
    itself."""
    return F.clone(a) if a in _NEGATED else a


def is_neg(a: Tensor) -> bool:
    return a in _NEGATED


declare("view_as_real", view_as_real, "view_as_real(Tensor self)", variants="torch")
declare("view_as_complex", view_as_complex, "view_as_complex(Tensor self)", variants="torch")
declare("real", real, "real(Tensor self)", variants="torch")
declare("imag", imag, "imag(Tensor self)", variants="torch")
declare("complex", complex_, "complex(Tensor real, Tensor imag, *, Tensor? out=None)",
        variants="torch")
declare("polar", polar, "polar(Tensor abs, Tensor angle, *, Tensor? out=None)",
        variants="torch")
declare("angle", angle, "angle(Tensor self, *, Tensor? out=None)")
declare("conj", conj, "conj(Tensor self)")
declare("conj_physical", conj_physical, "conj_physical(Tensor self, *, Tensor? out=None)")
declare("resolve_conj", resolve_conj, "resolve_conj(Tensor self)")
declare("is_conj", is_conj, "is_conj(Tensor self)")
declare("resolve_neg", resolve_neg, "resolve_neg(Tensor self)")
declare("is_neg", is_neg, "is_neg(Tensor self)")

export(__name__, globals())
