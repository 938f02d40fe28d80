"""Operators of the language: tensors go to torch's functions, Python values keep Python's rules."""

from __future__ import annotations

import collections
import functools
import numbers
import operator
from collections import deque

import numpy as np

from gradcli.engine import conversions, dtypes, errors, memory
from gradcli.engine.functions import F
from gradcli.engine.return_types import ReturnTypes
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.arrays import ARRAY_TYPES, wrapped
from gradcli.language.namespaces.numpy_warnings import numpy_warnings
from gradcli.language.runtime import classes, coercions, protocols, tensor_subclasses
from gradcli.language.runtime.coercions import truth
from gradcli.language.runtime.frames import RECURSION_LIMIT
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.tensor_subclasses import STATUS as SUBCLASSES
from gradcli.language.runtime.pytypes import PyType, TypeForm
from gradcli.language.runtime import values
from gradcli.language.runtime.values import DefaultDict, Size, iterate, type_name

_TENSOR_BINARY = {
    "+": F.add, "-": F.sub, "*": F.mul, "/": F.div, "**": F.pow,
    "@": lambda a, b: F.matmul(a, b), "//": lambda a, b: F.floor_divide(a, b),
    "%": lambda a, b: F.remainder(a, b),
    "&": lambda a, b: F.logical_binary("bitwise_and", a, b),
    "|": lambda a, b: F.logical_binary("bitwise_or", a, b),
    "^": lambda a, b: F.logical_binary("bitwise_xor", a, b),
    "<<": lambda a, b: F.bitwise_left_shift(a, b), ">>": lambda a, b: F.bitwise_right_shift(a, b),
}


def sequence_index(sequence, item) -> int | None:
    """Where `item` first is in a list or tuple, as Python finds it (`is`, then `==`, with the
    language's own ==), or None."""
    for position, member in enumerate(sequence):
        if member is item or truth(compare("==", member, item)):
            return position
    return None


def _multiply(a, b):
    """Python's a * b, a repeated sequence checked against the memory limit first."""
    if isinstance(b, int) and isinstance(a, _SEQUENCES):
        memory.check_repetition(a, b)
    elif isinstance(a, int) and isinstance(b, _SEQUENCES):
        memory.check_repetition(b, a)
    return a * b


_SEQUENCES = (str, bytes, list, tuple)
# The arithmetic operators on a tensor and a tensor or number, as `binary` dispatches them.
TENSOR_ARITHMETIC = {op: _TENSOR_BINARY[op] for op in ("+", "-", "*", "/", "**")}
_PY_BINARY = {
    "+": operator.add, "-": operator.sub, "*": _multiply, "/": operator.truediv,
    "**": operator.pow, "//": operator.floordiv, "%": operator.mod, "&": operator.and_,
    "|": operator.or_, "^": operator.xor, "@": operator.matmul, "<<": operator.lshift,
    ">>": operator.rshift,
}
_PY_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
               "==": operator.eq, "!=": operator.ne}
# Operators on two Python numbers (int or float) that cannot fail but by dividing by zero: the
# compiled expressions' fast path for loops over numbers.
NUMBERS = frozenset((int, float))
NUMBER_OPS = {op: _PY_BINARY[op] for op in ("+", "-", "*", "/", "//", "%")} | _PY_COMPARE
_SAFE_PY_TYPES = (bool, int, float, complex, str, bytes, deque, list, tuple, type(None), range,
                  dict, set,
                  frozenset, type({}.keys()), type({}.values()), type({}.items()),
                  *ARRAY_TYPES)


_TENSOR_OPERANDS = frozenset((Tensor, bool, int, float, complex))


def binary(op: str, a, b, subclassing: bool = True):
    """a <op> b (`subclassing` False: as for plain tensors, whatever their classes)."""
    if subclassing and SUBCLASSES.watching and tensor_subclasses.taken((a, b)):
        return protocols.subclass_binary(op, BINARY_DUNDERS[op], a, b,
                                        lambda: binary(op, a, b, False))
    if type(a) in _TENSOR_OPERANDS and type(b) in _TENSOR_OPERANDS and (
            type(a) is Tensor or type(b) is Tensor) and op != "@":
        return _TENSOR_BINARY[op](a, b)
    if (type(a) is Size or type(b) is Size) and (op == "*" or op == "+" and not (
            isinstance(a, Tensor) or isinstance(b, Tensor))):
        return _size_operator(op, a, b)
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        a, b = dtypes.python_number(a), dtypes.python_number(b)  # NumPy scalars as torch reads them
        if op == "@" and isinstance(a, Tensor) and isinstance(b, Tensor):
            return F.matmul(a, b)
        if _tensor_operand(a) and _tensor_operand(b) and op != "@":
            return _TENSOR_BINARY[op](a, b)
        if isinstance(a, Tensor) and type(b) is np.ndarray:
            return _by_array(op, a, b)
    elif isinstance(a, _SAFE_PY_TYPES) and isinstance(b, _SAFE_PY_TYPES):
        if type(a) in classes.VALUE_KINDS or type(b) in classes.VALUE_KINDS:  # class P(tuple)
            result = _user_operator(BINARY_DUNDERS[op], a, b)
            if result is not classes.MISSING:
                return result
        try:
            if isinstance(a, ARRAY_TYPES) or isinstance(b, ARRAY_TYPES):
                return _array_binary(_PY_BINARY[op], a, b)
            return _PY_BINARY[op](a, b)
        except ZeroDivisionError as error:
            raise errors.TorchError("ZeroDivisionError", str(error)) from None
        except TypeError as error:  # Python's own words for its own types
            raise errors.type_error(_size_named(str(error), a, b)) from None
    result = _user_operator(BINARY_DUNDERS[op], a, b)
    if result is not classes.MISSING:
        return result
    result = _table_operator(op, a, b)
    if result is not NotImplemented:
        return result
    if isinstance(a, _SEQUENCES + (np.ndarray,)) or isinstance(b, _SEQUENCES):
        result = _sequence_and_tensor(op, a, b)
        if result is not classes.MISSING:
            return result
    union = type_union(a, b) if op == "|" else None
    if union is not None:
        return union
    raise errors.type_error(
        f"unsupported operand type(s) for {op}: '{type_name(a)}' and '{type_name(b)}'")


def type_union(a, b):
    """`a | b` of classes (None for NoneType): Python's types.UnionType, its members flattened
    and without repeats (one left is itself); None when an operand is no class."""
    members = []
    for operand in (a, b):
        if operand is not None and not isinstance(operand, (PyType, TypeForm, classes.UserClass)):
            return None
        parts = operand.args if isinstance(operand, TypeForm) and \
            operand.name == "types.UnionType" else (operand,)
        members += [p for p in parts if not any(p is m for m in members)]
    if all(m is None for m in members):
        return None
    return members[0] if len(members) == 1 else TypeForm("types.UnionType", tuple(members))


def _array_binary(function, a, b):
    """A NumPy array's or scalar's operator, with the floating-point warnings NumPy's defaults
    give ('divide by zero encountered in divide'): it runs again under them, for NumPy's own
    words, only when it met one (the engine keeps them off)."""
    try:
        with np.errstate(divide="raise", over="raise", invalid="raise"):
            return function(a, b)
    except FloatingPointError:
        with numpy_warnings():
            return function(a, b)


def _sequence_and_tensor(op: str, a, b):
    """A sequence and a tensor (or an object with __index__), which torch's operators decline:
    Python falls back on the sequence's repetition (by the count's __index__) or concatenation,
    or MISSING."""
    if op == "*" and isinstance(a, Tensor) != isinstance(b, Tensor):
        sequence, count = (b, a) if isinstance(a, Tensor) else (a, b)
        if isinstance(sequence, _SEQUENCES):
            return _multiply(sequence, coercions.index(count))
    if op == "*":  # a count that is the program's object with __index__
        for sequence, count in ((a, b), (b, a)):
            if isinstance(sequence, (list, tuple, str, bytes)) and \
                    classes.special_method(count, "__index__") is not None:
                return _multiply(sequence, coercions.index(count))
    if op == "+" and isinstance(b, Tensor):
        _refuse_concatenation(a, b)
    return classes.MISSING


def _refuse_concatenation(sequence, tensor: Tensor) -> None:
    """`sequence + tensor`: torch's __radd__ declines, so Python falls back on the left
    operand's sequence concatenation, which refuses a tensor in its own words."""
    if type(sequence) is np.ndarray:
        raise errors.type_error(
            "Concatenation operation is not implemented for NumPy arrays, use np.concatenate() "
            "instead. Please do not rely on this error; it may not be given on all Python "
            "implementations.")
    if type(sequence) in (list, tuple, str):
        name = type_name(sequence)
        raise errors.type_error(f'can only concatenate {name} (not "{type_name(tensor)}") to '
                                f'{name}')


def _by_array(op: str, tensor: Tensor, array: np.ndarray) -> Tensor:
    """tensor <op> ndarray: torch declines, so the array's reflected operator runs on the
    tensor's own array (refused while it requires grad) and torch's __array_wrap__ makes the
    result a tensor."""
    try:
        return wrapped(_PY_BINARY[op](conversions.to_numpy(tensor), array))
    except (TypeError, ValueError, ZeroDivisionError) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None


def _size_operator(op: str, a, b):
    """torch.Size + tuple, tuple + torch.Size, torch.Size * int and int * torch.Size: Python's
    tuple result as a torch.Size (whose constructor takes ints only), or torch's TypeError."""
    if op == "+":
        if not isinstance(b, tuple) and type(a) is Size:
            raise errors.type_error(f"can only concatenate tuple (not {type_name(b)}) to "
                                    "torch.Size")
        if not isinstance(a, tuple):
            return _python_binary(op, a, b)
        return _size_of(tuple(a) + tuple(b))
    sequence, count = (a, b) if type(a) is Size or isinstance(a, _SEQUENCES) else (b, a)
    count = dtypes.python_number(count)
    if isinstance(count, Tensor) and count.numel() == 1 and \
            not count.dtype.is_floating_point:
        count = int(count.data.reshape(()).item())
    if not isinstance(count, int):
        raise errors.type_error(f"can't multiply sequence by non-int of type "
                                f"'{type_name(count)}'")
    memory.check_repetition(sequence, count)
    return Size(tuple(sequence) * count)


def _size_of(items: tuple) -> Size:
    for position, item in enumerate(items):
        if isinstance(item, Tensor) and item.numel() == 1 and \
                not item.dtype.is_floating_point:
            continue
        if not isinstance(dtypes.python_number(item), int):
            raise errors.type_error(f"torch.Size() takes an iterable of 'int' (item {position} "
                                    f"is '{type_name(item)}')")
        if not -2**63 <= item < 2**63:
            raise errors.value_error("Overflow when unpacking long long")
    return Size(int(i.data.reshape(()).item()) if isinstance(i, Tensor) else int(i)
                for i in items)


def _python_binary(op: str, a, b):
    """a <op> b by Python's own rules, its error naming torch.Size as Python does."""
    try:
        return _PY_BINARY[op](a, b)
    except TypeError as error:
        raise errors.type_error(_size_named(str(error), a, b)) from None


def _size_named(message: str, a, b) -> str:
    """Python's message about its operands, naming a torch.Size and a defaultdict (which gradcli
    holds as classes of its own) by their full class names."""
    for kind, name in ((Size, "Size"), (DefaultDict, "DefaultDict")):
        if type(a) is kind or type(b) is kind:
            full = type_name(a if type(a) is kind else b)
            message = message.replace(f"'{name}'", f"'{full}'").replace(f'"{name}"', f'"{full}"')
    return message


# The special methods a user class may define for each operator: (a's, then b's reflected).
BINARY_DUNDERS = {
    "+": ("__add__", "__radd__"), "-": ("__sub__", "__rsub__"), "*": ("__mul__", "__rmul__"),
    "/": ("__truediv__", "__rtruediv__"), "//": ("__floordiv__", "__rfloordiv__"),
    "%": ("__mod__", "__rmod__"), "**": ("__pow__", "__rpow__"),
    "@": ("__matmul__", "__rmatmul__"), "&": ("__and__", "__rand__"),
    "|": ("__or__", "__ror__"), "^": ("__xor__", "__rxor__"),
    "<<": ("__lshift__", "__rlshift__"), ">>": ("__rshift__", "__rrshift__"),
}
_COMPARE_DUNDERS = {
    "==": ("__eq__", "__eq__"), "!=": ("__ne__", "__ne__"), "<": ("__lt__", "__gt__"),
    "<=": ("__le__", "__ge__"), ">": ("__gt__", "__lt__"), ">=": ("__ge__", "__le__"),
}
_UNARY_DUNDERS = {"-": "__neg__", "+": "__pos__", "~": "__invert__"}


def _table_operator(op: str, a, b):
    """A table object's own operator (nn.Sequential's +), then the other operand's reflected."""
    if isinstance(a, TableObject):
        result = a.operator(op, b, False)
        if result is not NotImplemented:
            return result
    if isinstance(b, TableObject):
        return b.operator(op, a, True)
    return NotImplemented


def _user_operator(names: tuple, a, b):
    """Python's protocol: a.__op__(b), then b.__rop__(a), skipping NotImplemented."""
    forward, reflected = names
    for owner, name, other in ((a, forward, b), (b, reflected, a)):
        if isinstance(owner, Tensor):  # a tensor-like operand's __torch_function__ may take it
            from gradcli.language.runtime import torch_function
            result = torch_function.operator(name, owner, other)
        else:
            method = classes.special_method(owner, name)
            result = NotImplemented if method is None else classes.call_bound(method, [other])
        if result is not NotImplemented:
            return result
    return classes.MISSING


_PY_INPLACE = {
    "+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv,
    "**": operator.ipow, "//": operator.ifloordiv, "%": operator.imod, "&": operator.iand,
    "|": operator.ior, "^": operator.ixor, "@": operator.imatmul, "<<": operator.ilshift,
    ">>": operator.irshift,
}


def inplace_binary(op: str, a, b):
    """`a op= b` for what is not a tensor: the user's __iop__ first, Python's own in-place
    operator for its containers (a list grows in place), else `a op b`."""
    if classes.class_of(a) is not None or isinstance(a, TableObject):
        method = classes.special_method(a, "__i" + BINARY_DUNDERS[op][0][2:])
        if method is not None:
            result = classes.call_bound(method, [b])
            if result is not NotImplemented:
                return result
        if isinstance(a, TableObject):  # the torch class's own (nn.Sequential's +=)
            result = a.operator(op, b, False, inplace=True)
            if result is not NotImplemented:
                return result
    elif isinstance(a, list) and op == "+" and not isinstance(b, _SAFE_PY_TYPES):
        a.extend(iterate(b))  # list.__iadd__ takes any iterable: a tensor's rows too
        return a
    elif isinstance(a, (list, set, dict, deque)) and isinstance(b, _SAFE_PY_TYPES):
        try:
            return _PY_INPLACE[op](a, b)
        except TypeError as error:
            raise errors.type_error(str(error)) from None
    try:
        return binary(op, a, b)
    except errors.TorchError as error:
        prefix = f"unsupported operand type(s) for {op}:"
        if error.kind == "TypeError" and error.message.startswith(prefix):
            raise errors.type_error(f"unsupported operand type(s) for {op}=:"
                                    + error.message[len(prefix):]) from None
        raise


_ARRAY_INPLACE = {op: function for op, function in _PY_INPLACE.items() if op != "@"}
# What `t op= x` computes in place on a tensor or a NumPy array (`@=` rebinds: torch has no
# __imatmul__).
INPLACE_OPS = frozenset(_ARRAY_INPLACE)


def array_inplace(op: str, array, operand):
    """`array <op>= operand` on a NumPy array: written into the array, as NumPy does."""
    if isinstance(operand, Tensor):
        if op == "+":
            _refuse_concatenation(array, operand)
        raise errors.type_error(f"unsupported operand type(s) for {op}=: 'numpy.ndarray' and "
                                "'Tensor'")
    with numpy_warnings():  # (run once: it writes into the array)
        return _ARRAY_INPLACE[op](array, operand)


def _tensor_operand(value) -> bool:
    return isinstance(value, (Tensor, bool, int, float, complex))


def unary(op: str, a, subclassing: bool = True):
    if subclassing and SUBCLASSES.watching and tensor_subclasses.taken((a,)):
        return protocols.subclass_special(_UNARY_DUNDERS[op], [a], lambda: unary(op, a, False))
    if isinstance(a, Tensor):
        if op == "-":
            return F.neg(a)
        if op == "+":
            return F.positive(a)
        if a.dtype.is_floating_point:
            raise errors.type_error(
                "~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return F.logical_not(a) if a.dtype.category == 0 else F.bitwise_not(a)
    if isinstance(a, (bool, int, *ARRAY_TYPES)) or (isinstance(a, (float, complex)) and op != "~") \
            or (isinstance(a, collections.Counter) and op != "~"):
        return {"-": operator.neg, "+": operator.pos, "~": operator.invert}[op](a)
    method = classes.special_method(a, _UNARY_DUNDERS[op])
    if method is not None:
        return classes.call_bound(method, [])
    raise errors.type_error(f"bad operand type for unary {op}: '{type_name(a)}'")


def compare(op: str, a, b, room: int = RECURSION_LIMIT - 1, subclassing: bool = True):
    """a <op> b for one comparison of a chain; `room` is how many nested comparisons Python's
    recursion limit leaves (lists in lists compare level by level); `subclassing` as for
    binary()."""
    if op in ("is", "is not"):
        return (a is b) if op == "is" else (a is not b)
    if op in ("in", "not in"):
        found = _contains(b, a)
        return found if op == "in" else not found
    if _container(a) is _container(b) and _container(a) in (list, tuple, dict):
        return _compare_containers(op, a, b, room)
    if subclassing and SUBCLASSES.watching and tensor_subclasses.taken((a, b)):
        return protocols.subclass_binary(op, _COMPARE_DUNDERS[op], a, b,
                                        lambda: compare(op, a, b, room, False))
    if classes.class_of(a) is not None or classes.class_of(b) is not None:
        result = _user_operator(_COMPARE_DUNDERS[op], a, b)
        if result is not classes.MISSING:
            return result
    return F.python_compare(op, a, b)


def _container(value):
    """The built-in container type `value` compares as: a structseq (torch.return_types.max)
    as the tuple it is."""
    return tuple if type(value) is ReturnTypes else type(value)


def _compare_containers(op: str, a, b, room: int):
    """Lists, tuples and dicts compared as CPython does it: item by item (`is`, then ==) to the
    first difference, each level one step deeper towards the recursion limit."""
    if room <= 0:
        raise errors.TorchError("RecursionError", "maximum recursion depth exceeded in comparison")

    def equal(x, y) -> bool:
        return x is y or truth(compare("==", x, y, room - 1))

    if isinstance(a, dict):
        if op not in ("==", "!="):
            raise errors.type_error(f"'{op}' not supported between instances of 'dict' and "
                                    "'dict'")
        same = len(a) == len(b) and all(k in b and equal(v, b[k]) for k, v in a.items())
        return same if op == "==" else not same
    if op in ("==", "!=") and len(a) != len(b):
        return op == "!="
    for x, y in zip(a, b):
        if not equal(x, y):
            if op in ("==", "!="):
                return op == "!="
            return compare(op, x, y, room - 1)
    return _PY_COMPARE[op](len(a), len(b))


def _contains(container, item) -> bool:
    if isinstance(container, Tensor):
        if not isinstance(item, (Tensor, numbers.Number)):
            raise errors.runtime("Tensor.__contains__ only supports Tensor or scalar, but you "
                                 f"passed in a {values.Printer().repr(protocols.type_of(item))}.")
        return truth(F.any(compare("==", item, container)))
    if isinstance(container, (list, tuple)) and (isinstance(item, Tensor) or any(
            isinstance(member, Tensor) for member in container)):
        return sequence_index(container, item) is not None  # torch's == for tensor members
    if isinstance(container, _SAFE_PY_TYPES):
        return item in container
    method = classes.special_method(container, "__contains__")
    if method is not None:
        return truth(classes.call_bound(method, [item]))
    if isinstance(container, TableObject):  # its class's own __contains__ (argparse.Namespace)
        found = container.operator("in", item, True)
        if found is not NotImplemented:
            return truth(found)
    try:
        members = iterate(container)
    except errors.TorchError as error:
        if error.message.endswith("is not iterable"):
            raise errors.type_error(
                f"argument of type '{type_name(container)}' is not iterable") from None
        raise
    for member in members:
        if member is item or truth(compare("==", member, item)):
            return True
    return False


def sort_key(ctx, key):
    """A host sort key (sorted(), list.sort()) comparing the language's values with its own `<`,
    after `key` called through the runtime `ctx`."""
    def order(a, b):
        if truth(compare("<", a, b)):
            return -1
        return 1 if truth(compare("<", b, a)) else 0
    plain = functools.cmp_to_key(order)
    if key is None:
        return plain
    return lambda item: plain(ctx.call(key, [item], {}))


protocols.binary, protocols.unary, protocols.compare = binary, unary, compare
