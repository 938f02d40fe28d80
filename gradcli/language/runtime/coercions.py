"""Python's conversions of the language's values: truth, len, and the number in an int or a
one-element tensor. The runtime, the compiler and the builtins share them from here."""

from __future__ import annotations

import operator
from collections import ChainMap, deque

from gradcli.engine import errors, vmap_batched
from gradcli.engine.creation import TO_SCALAR_WARNING
from gradcli.engine.functions import F
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.arrays import ARRAY_TYPES
from gradcli.language.runtime import classes, protocols
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.tensor_subclasses import STATUS as SUBCLASSES
from gradcli.language.runtime.values import DICT_VIEWS, MAPPING_VIEWS, type_name


def truth(value, own: bool = True) -> bool:
    """Python truthiness, with torch's errors for a tensor of zero or several elements (`own`
    False: torch.Tensor.__bool__ itself, past a subclass's own)."""
    if isinstance(value, Tensor):
        if SUBCLASSES.watching:  # a subclass's own __bool__, or torch's through the protocol
            return protocols.subclass_special("__bool__", [value], lambda: F.truth(value), own)
        return F.truth(value)
    if isinstance(value, TableObject) and value.user_class() is not None:
        for name in ("__bool__", "__len__"):
            method = classes.special_method(value, name)
            if method is not None:
                result = classes.call_bound(method, [])
                if name == "__bool__":
                    if not isinstance(result, bool):
                        raise errors.type_error("__bool__ should return bool, returned "
                                                f"{type_name(result)}")
                    return result
                return length(value) != 0
    return bool(value)


def length(obj, own: bool = True):
    """len(obj) (`own` as for truth())."""
    if isinstance(obj, Tensor):
        if SUBCLASSES.watching:
            return protocols.subclass_special("__len__", [obj], lambda: _tensor_length(obj), own)
        return _tensor_length(obj)
    if isinstance(obj, (list, tuple, str, bytes, dict, range, set, frozenset, deque, ChainMap,
                        *ARRAY_TYPES)) or \
            isinstance(obj, (*DICT_VIEWS, *MAPPING_VIEWS)):
        return len(obj)
    if isinstance(obj, TableObject) and (obj.is_sequence or obj.sized):
        return obj.length()
    method = classes.special_method(obj, "__len__")
    if method is not None:
        result = classes.call_bound(method, [])
        if isinstance(result, Tensor):  # Python asks its __index__
            result = index(result)
        if not isinstance(result, int):
            raise errors.type_error(f"'{type_name(result)}' object cannot be interpreted as an "
                                    "integer")
        if result < 0:
            raise errors.value_error("__len__() should return >= 0")
        return int(result)
    raise errors.type_error(f"object of type '{type_name(obj)}' has no len()")


def _tensor_length(t: Tensor) -> int:
    if t.ndim == 0:
        raise errors.type_error("len() of a 0-d tensor")
    return t.shape[0]


def index(value, own: bool = True) -> int:
    """An int from an int or a one-element integral tensor (range bounds, list indices; `own`
    as for truth())."""
    if isinstance(value, Tensor):  # torch's Tensor.__index__
        if SUBCLASSES.watching:
            return protocols.subclass_special("__index__", [value], lambda: _tensor_index(value),
                                             own)
        return _tensor_index(value)
    if isinstance(value, int):
        return value
    if isinstance(value, ARRAY_TYPES):  # NumPy's integers and 0-d integer arrays have __index__
        try:
            return operator.index(value)
        except TypeError as error:
            raise errors.type_error(str(error)) from None
    method = classes.special_method(value, "__index__")  # a user class's (an IntEnum member)
    if method is not None:
        result = classes.call_bound(method, [])
        if isinstance(result, int):
            return result
        raise errors.type_error(f"__index__ returned non-int (type {type_name(result)})")
    raise errors.type_error(f"'{type_name(value)}' object cannot be interpreted as an integer")


def _tensor_index(t: Tensor) -> int:
    if t.numel() != 1 or t.dtype.is_floating_point or t.dtype.is_complex:
        raise errors.type_error("only integer tensors of a single element can be converted "
                                "to an index")
    return int(t.data.reshape(()).item())


def tensor_scalar(t: Tensor):
    """The Python number in a one-element tensor (float(t), int(t), '%f' % t)."""
    vmap_batched.check_item(t)
    if t.numel() != 1:
        raise errors.value_error("only one element tensors can be converted to Python scalars")
    return t.data.reshape(()).item()


def tensor_float(t: Tensor, own: bool = True) -> float:
    """float(t) (Tensor.__float__): its number, with torch's one-time warning when t requires
    grad (int() and .item() do not warn; `own` as for truth())."""
    if SUBCLASSES.watching:
        return protocols.subclass_special("__float__", [t], lambda: _float_of(t), own)
    return _float_of(t)


def _float_of(t: Tensor) -> float:
    if t.requires_grad:
        STATE.warn("UserWarning", TO_SCALAR_WARNING, once=True)
    return float(tensor_scalar(t))


protocols.truth = truth
