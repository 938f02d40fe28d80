"""dtype conversions of tensors: .to(dtype), .type(...), .float(), .long() and friends, and
.numpy()."""

from __future__ import annotations

from gradcli.engine import devices, dtypes, errors
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.functions import F
from gradcli.engine.functions import export

_BY_LEGACY_NAME = {f"torch.{d.legacy_name}": d for d in dtypes.ALL}


def to_dtype(t: Tensor, dtype: dtypes.DType) -> Tensor:
    """`t` as `dtype`: itself when it already is; a copy that keeps history when the target is a
    floating dtype (ToCopyBackward0); a plain copy otherwise (torch drops grad for integers)."""
    if t.dtype is dtype:
        return t
    if not dtype.is_floating_point:
        out = Tensor(t.data.astype(dtype.np), dtype)
        out._made_at = STATE.origin
        if t._requires_grad:
            out._history = ((f"converted here to torch.{dtype.name}, which cannot require grad",
                             STATE.origin),)
        return out
    return F.cast(t, dtype)


def to(t: Tensor, *args, dtype=None, device=None, **_options) -> Tensor:
    """Tensor.to(dtype), .to(other), .to(device), .to(device, dtype): devices are only 'cpu'."""
    target = dtype
    devices.place(device)
    for arg in args:
        if isinstance(arg, dtypes.DType):
            target = arg
        elif isinstance(arg, Tensor):
            target = arg.dtype
        elif isinstance(arg, (str, int, devices.Device)) and not isinstance(arg, bool):
            devices.place(arg)
        elif arg is not None:
            raise errors.type_error(
                "to() received an invalid combination of arguments - got "
                f"({errors.type_name(arg)}), but expected one of: (torch.dtype dtype) "
                "(torch.device device, torch.dtype dtype) (Tensor tensor)")
    return t if target is None else to_dtype(t, target)


def type_(t: Tensor, dtype=None, non_blocking: bool = False):
    """Tensor.type(): the legacy type name, or a conversion when a dtype (or name) is given."""
    if dtype is None:
        return f"torch.{t.dtype.legacy_name}"
    if isinstance(dtype, str):
        if dtype not in _BY_LEGACY_NAME:
            raise errors.value_error(f"invalid type: '{dtype}'")
        dtype = _BY_LEGACY_NAME[dtype]
    if not isinstance(dtype, dtypes.DType):
        raise errors.type_error("dtype must be a type, str, or dtype object")
    return to_dtype(t, dtype)


def converter(dtype: dtypes.DType):
    """The method behind .float(), .double(), .half(), .long(), .int(), .short(), .bool()..."""
    def convert(t: Tensor) -> Tensor:
        return to_dtype(t, dtype)
    convert.__name__ = dtype.name
    return convert


CONVERTERS = {
    "float": converter(dtypes.float32), "double": converter(dtypes.float64),
    "half": converter(dtypes.float16), "long": converter(dtypes.int64),
    "int": converter(dtypes.int32), "short": converter(dtypes.int16),
    "char": converter(dtypes.int8), "byte": converter(dtypes.uint8),
    "bool": converter(dtypes.bool_),
}


def to_numpy(t: Tensor, force: bool = False):
    """Tensor.numpy(): the tensor's own array (shared memory), refused while it requires grad."""
    if t.requires_grad and not force:
        raise errors.runtime("Can't call numpy() on Tensor that requires grad. Use "
                             "tensor.detach().numpy() instead.")
    return t.data


export(__name__, globals())
