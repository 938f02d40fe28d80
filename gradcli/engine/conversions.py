"""dtype conversions of tensors: .to(dtype), .type(...), .float(), .long() and friends, and
.numpy()."""

from __future__ import annotations

import numpy as np

from gradcli.engine import devices, dtypes, errors, memory_format, schemas, vmap_batched
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.triggered import triggered
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F
from gradcli.engine.functions import export

_BY_LEGACY_NAME = {f"torch.{d.legacy_name}": d for d in dtypes.ALL}
# torch.cuda.FloatTensor ...: the legacy CUDA tensor types a CPU-only torch still names
CUDA_LEGACY_NAMES = tuple(f"torch.cuda.{d.legacy_name}" for d in (
    dtypes.bfloat16, dtypes.bool_, dtypes.uint8, dtypes.int8, dtypes.float64, dtypes.float32,
    dtypes.float16, dtypes.int32, dtypes.int64, dtypes.int16))
NO_CUDA_LIBRARY = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you are "
    "trying to use some CUDA functionality, but the CUDA library has not been loaded by the "
    "dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't directly "
    "use any symbols from the CUDA library! One common culprit is a lack of -Wl,--no-as-needed "
    "in your link arguments; many dynamic linkers will delete dynamic library dependencies if you "
    "don't depend on any of their symbols.  You can check if this has occurred by using ldd on "
    "your binary to see if there is a dependency on *_cuda.so library.")


def cast_values(a: np.ndarray, np_dtype) -> np.ndarray:
    """An array as another dtype stores it: complex values cast to a real dtype keep their
    real parts, with torch's warning (once, as TORCH_WARN_ONCE gives it)."""
    if a.dtype.kind == "c" and np.dtype(np_dtype).kind != "c":
        STATE.warn("UserWarning", triggered("Casting complex values to real discards the "
                                            "imaginary part", "aten/src/ATen/native/Copy.cpp",
                                            307), once=True)
        a = a.real
    return a.astype(np_dtype)


def to_dtype(t: Tensor, dtype: dtypes.DType) -> Tensor:
    """`t` as `dtype`: itself when it already is; a copy that keeps history when the target is a
    floating dtype (ToCopyBackward0); a plain copy otherwise (torch drops grad for integers)."""
    if t.dtype is dtype:
        return t
    if t.sparse is not None:
        return F.sparse_cast(t, dtype)
    if not dtype.differentiable:
        out = Tensor(cast_values(t.data, dtype.np), dtype)
        out._made_at = STATE.origin
        if t._requires_grad:
            out._history = ((f"converted here to torch.{dtype.name}, which cannot require grad",
                             STATE.origin),)
        return out
    return F.cast(t, dtype)


_TO_OPTIONS = "bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None"
_TO = tuple(schemas.parse_schema(text) for text in (
    f"to(Tensor self, Device? device=None, ScalarType? dtype=None, {_TO_OPTIONS})",
    f"to(Tensor self, ScalarType dtype, {_TO_OPTIONS})",
    f"to(Tensor self, Tensor tensor, {_TO_OPTIONS})"))


def to(t: Tensor, *args, **kwargs) -> Tensor:
    """Tensor.to(device, dtype), .to(dtype), .to(other), bound by torch's parser: devices are
    only 'cpu'. A Python number stands for the tensor the parser wraps it in (a float is
    double)."""
    _, bound = schemas.bind(_TO, args, kwargs, False, "to", numbers_as_tensors=True)
    devices.place(bound.get("device"), copying=True)
    dtype, tensor = bound.get("dtype"), bound.get("tensor")
    if tensor is not None:
        dtype = tensor.dtype if isinstance(tensor, Tensor) else (
            dtypes.scalar_dtype(tensor, dtypes.float64))
    fmt = bound.get("memory_format") or memory_format.PRESERVE
    if fmt is not memory_format.PRESERVE and (
            bound["copy"] or dtype not in (None, t.dtype)
            or memory_format.suggest(t.shape, F.strides(t)) is not fmt):
        return _to_format(t, dtype or t.dtype, memory_format.checked(fmt, t.ndim))
    if dtype is None or dtype is t.dtype:
        return F.apply_op("_to_copy", t, dtype=t.dtype) if bound["copy"] else t
    return to_dtype(t, dtype)


def check_memory_format(value) -> None:
    """Module.to's memory_format, refused as Tensor.to's parser refuses it."""
    if not isinstance(value, memory_format.MemoryFormat):
        schemas.bind(_TO, (), {"memory_format": value}, False, "to", numbers_as_tensors=True)


def _to_format(t: Tensor, dtype: dtypes.DType, fmt) -> Tensor:
    """A copy of `t` as `dtype` laid out in memory format `fmt` (ToCopyBackward0 when it keeps
    history)."""
    if dtype.is_floating_point or dtype is t.dtype:
        return F.apply_op("_to_copy", t, dtype=dtype, memory_format=fmt)
    out = to_dtype(t, dtype)
    out.data = memory_format.laid_out(out.data, fmt)
    return out


declare("to", to, variants="method", python="self, *args, **kwargs")


def type_(t: Tensor, dtype=None, non_blocking: bool = False):
    """Tensor.type(): the legacy type name, or a conversion when a dtype (or name) is given."""
    if dtype is None:
        return f"torch.{'sparse.' if t.sparse is not None else ''}{t.dtype.legacy_name}"
    if isinstance(dtype, str):
        if dtype in CUDA_LEGACY_NAMES:
            raise errors.runtime(NO_CUDA_LIBRARY)
        if dtype not in _BY_LEGACY_NAME:
            raise errors.value_error(f"invalid type: '{dtype}'")
        dtype = _BY_LEGACY_NAME[dtype]
    if not isinstance(dtype, dtypes.DType):
        raise errors.type_error("dtype must be a type, str, or dtype object")
    return to_dtype(t, dtype)


def converter(dtype: dtypes.DType):
    """The method behind .float(), .double(), .half(), .long(), .int(), .short(), .bool(),
    .cfloat(), .cdouble()..."""
    def convert(t: Tensor) -> Tensor:
        return to_dtype(t, dtype)
    convert.__name__ = dtype.name
    return convert


CONVERTERS = {
    "float": converter(dtypes.float32), "double": converter(dtypes.float64),
    "half": converter(dtypes.float16), "bfloat16": converter(dtypes.bfloat16), "long": converter(dtypes.int64),
    "int": converter(dtypes.int32), "short": converter(dtypes.int16),
    "char": converter(dtypes.int8), "byte": converter(dtypes.uint8),
    "bool": converter(dtypes.bool_), "cfloat": converter(dtypes.complex64),
    "cdouble": converter(dtypes.complex128),
}


def to_numpy(t: Tensor, force: bool = False):
    """Tensor.numpy(): the tensor's own array (shared memory), refused (unless forced) while it
    requires grad and grad mode is on, or while its conjugate or negative bit is set; NumPy has
    no bfloat16, forced or not."""
    vmap_batched.refuse(t, vmap_batched.STORAGE)
    if t.sparse is not None:
        raise errors.type_error("can't convert Sparse layout tensor to numpy. Use "
                                "Tensor.to_dense() first.")
    if t.requires_grad and STATE.grad_enabled and not force:
        raise errors.runtime("Can't call numpy() on Tensor that requires grad. Use "
                             "tensor.detach().numpy() instead.")
    if t.dtype is dtypes.bfloat16:
        raise errors.type_error("Got unsupported ScalarType BFloat16")
    if force:
        return t.data
    for bit, name in ((F.is_conj, "conjugate"), (F.is_neg, "negative")):
        if bit(t):
            fix = "resolve_conj" if name == "conjugate" else "resolve_neg"
            raise errors.runtime(f"Can't call numpy() on Tensor that has {name} bit set. Use "
                                 f"tensor.{fix}().numpy() instead.")
    return t.data


def can_cast(from_: dtypes.DType, to: dtypes.DType) -> bool:
    """torch.can_cast: casting never goes down a category (float to integral, or to bool)."""
    return from_.category <= to.category


def result_type(*operands) -> dtypes.DType:
    return dtypes.result_type(list(operands), STATE.default_dtype)


declare("can_cast", can_cast, "can_cast(ScalarType from_, ScalarType to)", variants="torch")
declare("promote_types", dtypes.promote, "promote_types(ScalarType type1, ScalarType type2)",
        variants="torch")
declare("result_type", result_type, "result_type(Tensor tensor, Tensor other)",
        "result_type(Scalar scalar, Tensor tensor)", "result_type(Tensor tensor, Scalar other)",
        "result_type(Scalar scalar1, Scalar scalar2)", variants="torch")

export(__name__, globals())
