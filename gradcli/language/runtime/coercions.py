"""Python's conversions of the language's values: truth, len, and the number in an int or a
one-element tensor. The runtime, the compiler and the builtins share them from here."""

from __future__ import annotations

from collections import ChainMap, deque

from gradcli.engine import errors, vmap_batched
from gradcli.engine.creation import TO_SCALAR_WARNING
from gradcli.engine.functions import F
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.arrays import ARRAY_TYPES
from gradcli.language.runtime import classes, protocols
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.values import DICT_VIEWS, MAPPING_VIEWS, type_name


def truth(value) -> bool:
    """Python truthiness, with torch's errors for a tensor of zero or several elements."""
    if isinstance(value, Tensor):
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


def length(obj):
    """len(obj)."""
    if isinstance(obj, Tensor):
        if obj.ndim == 0:
            raise errors.type_error("len() of a 0-d tensor")
        return obj.shape[0]
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


def index(value) -> int:
    """An int from an int or a one-element integral tensor (range bounds, list indices)."""
    if isinstance(value, Tensor):  # torch's Tensor.__index__
        if value.numel() != 1 or value.dtype.is_floating_point or value.dtype.is_complex:
            raise errors.type_error("only integer tensors of a single element can be converted "
                                    "to an index")
        return int(value.data.reshape(()).item())
    if isinstance(value, int):
        return value
    method = classes.special_method(value, "__index__")  # a user class's (an IntEnum member)
    if method is not None:
        result = classes.call_bound(method, [])
        if isinstance(result, int):
            return result
        raise errors.type_error(f"__index__ returned non-int (type {type_name(result)})")
    raise errors.type_error(f"'{type_name(value)}' object cannot be interpreted as an integer")


def tensor_scalar(t: Tensor):
    """The Python number in a one-element tensor (float(t), int(t), '%f' % t)."""
    vmap_batched.check_item(t)
    if t.numel() != 1:
        raise errors.value_error("only one element tensors can be converted to Python scalars")
    return t.data.reshape(()).item()


def tensor_float(t: Tensor) -> float:
    """float(t) (Tensor.__float__): its number, with torch's one-time warning when t requires
    grad (int() and .item() do not warn)."""
    if t.requires_grad:
        STATE.warn("UserWarning", TO_SCALAR_WARNING, once=True)
    return float(tensor_scalar(t))


protocols.truth = truth
