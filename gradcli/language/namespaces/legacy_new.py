"""torch's legacy tensor constructors: torch.Tensor(...), torch.FloatTensor(...) and
Tensor.new(...), each from data, from sizes (uninitialised memory in torch; zeros here) or from
another tensor (an alias of it)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import creation, devices, errors, schemas
from gradcli.engine.dtypes import DType
from gradcli.engine.ops import selection
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.values import Size, type_name


def reading_sequences(make):
    """A tensor constructor `make(data, ...)`, again on `data` read into lists where it failed
    on a sequence that is no list or tuple (a range, a deque, a user class's)."""
    def run(data, *options):
        try:
            return make(data, *options)
        except errors.TorchError:
            from gradcli.language.runtime.sequence_data import as_lists  # (loaded only then)
            converted = as_lists(data)
            if converted is None:
                raise
            return make(converted, *options)
    return run


_tensor = reading_sequences(creation.tensor)


# the overloads of torch's legacy_tensor_new, as its messages show them
_OVERLOADS = ["(*, torch.device device = None)", "(torch.Storage storage)", "(Tensor other)",
              "(tuple of ints size, *, torch.device device = None)",
              "(object data, *, torch.device device = None)"]


def legacy_new(args: tuple, kwargs: dict, dtype: DType | None, checked: bool) -> Tensor:
    """A new tensor of `dtype` (the default dtype when None) from `args`; `checked` when the
    constructor names its dtype (a typed constructor, or Tensor.new), so that another tensor
    must have it."""
    if set(kwargs) - {"device"} or len(args) > 1 and not _is_int(args[0]):
        raise errors.type_error(schemas.invalid_combination(_OVERLOADS, args, kwargs, "new"))
    devices.place(kwargs.get("device"))
    target = dtype or STATE.default_dtype
    if len(args) == 1 and isinstance(args[0], Tensor):
        if checked and args[0].dtype is not target:
            raise errors.type_error(f"expected {_options(target)} (got {_options(args[0].dtype)})")
        return selection.alias(args[0])
    if len(args) == 1 and isinstance(args[0], Size):
        args = tuple(args[0])
    if len(args) == 1 and not isinstance(args[0], (list, tuple, np.ndarray, Tensor, int, str)):
        from gradcli.language.runtime.sequence_data import as_lists
        read = as_lists(args[0])
        if read is not None:  # a range, a deque, a user class's sequence (lists of them: _tensor)
            args = (read,)
    if len(args) == 1 and isinstance(args[0], (list, tuple, np.ndarray)):
        return _tensor(args[0], target)
    if not args or _is_int(args[0]):
        for position, size in enumerate(args[1:], 2):  # a later True reads as 1
            if not isinstance(size, int):
                raise errors.type_error(
                    f"new(): argument 'size' failed to unpack the object at pos {position} "
                    f"with error \"type must be tuple of ints,but got {type_name(size)}\"")
        return creation.empty(*(int(a) for a in args or (0,)), dtype=target)
    if len(args) == 1 and not isinstance(args[0], str):
        raise errors.type_error(f"new(): data must be a sequence (got {type_name(args[0])})")
    raise errors.type_error(f"new(): invalid data type '{type_name(args[0])}'")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _options(dtype: DType) -> str:
    """c10's TensorOptions as its error messages print it."""
    return (f"TensorOptions(dtype={dtype.cpp_name}, device=cpu, layout=Strided, "
            "requires_grad=false (default), pinned_memory=false (default), "
            "memory_format=(nullopt))")
