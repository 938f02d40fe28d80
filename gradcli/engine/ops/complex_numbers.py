"""Complex tensors' own functions: their parts (real, imag, view_as_real, view_as_complex),
building them (complex), and conj; rows and declarations. Forward-mode AD through complex
tensors is not offered (forward_ad.propagate refuses it), so these rows have no jvp."""

from __future__ import annotations

import weakref

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
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


# The tensors conj() made with torch's conjugate bit set (their values here are conjugated
# already); views of them do not inherit it here, as torch's do
_CONJUGATED = weakref.WeakSet()


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
    if a.dtype not in (dtypes.float32, dtypes.float64):
        raise errors.runtime("view_as_complex is only supported for float and double tensors, "
                             f"but got a tensor of scalar type: {a.dtype.scalar_name}")
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
    return F.select(apply(OPS["view_as_real"], a), -1, 1)


def complex_(real: Tensor, imag: Tensor) -> Tensor:
    """torch.complex(real, imag): both float32, float64 (or float16, not offered) and alike."""
    for t in (real, imag):
        if t.dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):
            raise errors.runtime("Expected both inputs to be Half, Float or Double tensors but "
                                 f"got {real.dtype.scalar_name} and {imag.dtype.scalar_name}")
    if real.dtype is not imag.dtype:
        raise errors.runtime(f"Expected object of scalar type {real.dtype.scalar_name} but got "
                             f"scalar type {imag.dtype.scalar_name} for second argument")
    shape = F.broadcast_shape(real.shape, imag.shape)
    return apply(OPS["complex"], F.expand(real, shape), F.expand(imag, shape))


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


declare("view_as_real", view_as_real, "view_as_real(Tensor self)", variants="torch")
declare("view_as_complex", view_as_complex, "view_as_complex(Tensor self)", variants="torch")
declare("real", real, "real(Tensor self)", variants="torch")
declare("imag", imag, "imag(Tensor self)", variants="torch")
declare("complex", complex_, "complex(Tensor real, Tensor imag, *, Tensor? out=None)",
        variants="torch")
declare("conj", conj, "conj(Tensor self)")
declare("conj_physical", conj_physical, "conj_physical(Tensor self, *, Tensor? out=None)")
declare("resolve_conj", resolve_conj, "resolve_conj(Tensor self)")
declare("is_conj", is_conj, "is_conj(Tensor self)")

export(__name__, globals())
