"""Calling, indexing and entering values of the language, each through explicit cases only."""

from __future__ import annotations

from collections import ChainMap, Counter, deque
from collections.abc import Mapping
from gradcli.engine.records import replace

import numpy as np

from gradcli.engine import conversions, devices, errors, indexing
from gradcli.engine.autograd import AccumulateGrad, Node
from gradcli.engine.devices import Device
from gradcli.engine.state import STATE
from gradcli.engine.node_call import call_node
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime import classes, exceptions, protocols, tensor_subclasses
from gradcli.language.runtime.tensor_subclasses import STATUS as SUBCLASSES
from gradcli.language.runtime.coercions import index, length, tensor_float, tensor_scalar, truth
from gradcli.language.runtime.generators import GeneratorObject
from gradcli.language.runtime.objects import TableObject, bare_object
from gradcli.language.runtime.frames import (BoundMethod, ContextManager, Frame, GradRuntimeError,
                                      Runtime, UserFunction)
from gradcli.language.runtime.signatures import Builtin, entry, table
from gradcli.language.runtime.values import DefaultDict, Size, iterate, type_name
from gradcli.language.runtime.pytypes import PyType, TypeForm

__all__ = ["call", "global_name", "iterate", "get_item", "set_item", "delete_item",
           "context_manager"]

def global_name(name: str, span):
    """A name bound nowhere in the program: Python's builtins, else NameError."""
    builtin = protocols.BUILTINS.get(name)
    if builtin is None:
        raise GradRuntimeError("NameError", f"name '{name}' is not defined", span)
    return builtin


def invoke(runtime: Runtime, builtin: Builtin, args: list, kwargs: dict, handed: bool = False):
    """Call a table entry with its arguments bound by its signature; one of torch's functions
    whose arguments do not fit hands the call to a tensor-like argument's __torch_function__,
    and one given an instance of a tensor subclass hands it to the protocol (unless `handed`:
    the protocol found no handler for this call)."""
    if not handed and SUBCLASSES.active and (SUBCLASSES.modes or tensor_subclasses.involved(
            (*args, *kwargs.values()))):
        result = protocols.subclass_call(builtin, args, kwargs, lambda: invoke(
            runtime, builtin, args, kwargs, handed=True))
        if result is not tensor_subclasses.PASS:
            return result
    try:
        positional, keywords = builtin.bind(args, kwargs)
        if not builtin.frames:
            if builtin.needs_context:
                return builtin.fn(runtime, *positional, **keywords)
            return builtin.fn(*positional, **keywords)
        runtime.check_native_call(builtin.frames, builtin.while_doing)
        runtime.depth += 1  # as in Python, a running builtin function counts as a frame
        try:
            if builtin.needs_context:
                return builtin.fn(runtime, *positional, **keywords)
            return builtin.fn(*positional, **keywords)
        finally:
            runtime.depth -= 1
    except errors.TorchError as error:
        if error.kind not in ("TypeError", "AttributeError"):
            raise
        from gradcli.language.runtime import torch_function  # (loaded when a call failed)
        if not torch_function.offered(args, kwargs):
            raise
        return torch_function.dispatch(runtime, builtin, args, kwargs, error)


def call(runtime: Runtime, function, args: list, kwargs: dict):
    """function(*args, **kwargs) for every kind of callable value."""
    if isinstance(function, UserFunction):
        return call_user(runtime, function, args, kwargs)
    if isinstance(function, Builtin):
        return invoke(runtime, function, args, kwargs)
    if isinstance(function, BoundMethod):
        return invoke(runtime, function.builtin, [function.receiver, *args], kwargs)
    if isinstance(function, classes.UserMethod):
        return call(runtime, function.function, [function.receiver, *args], kwargs)
    if isinstance(function, classes.StaticMethod):  # callable itself, as since Python 3.10
        return call(runtime, function.function, args, kwargs)
    if isinstance(function, classes.UserClass):
        functional = next((classes.METACLASSES[owner].get("functional") for owner in
                           function.mro if owner in classes.METACLASSES), None) \
            if function.runtime is None else None
        if functional is not None:  # Enum('Color', 'RED GREEN'), IntEnum(...)
            return invoke(runtime, functional, [function, *args], kwargs)
        return classes.instantiate(function, args, kwargs)
    if isinstance(function, PyType) and function.construct is not None:
        return call(runtime, function.construct, args, kwargs)
    if isinstance(function, TypeForm) and isinstance(function.origin, classes.UserClass):
        return call(runtime, function.origin, args, kwargs)  # Box[int](4): a Box
    if function is classes.OBJECT:
        return bare_object(*args, **kwargs)
    if isinstance(function, PyType):
        raise errors.type_error(f"cannot create '{function.name}' instances")
    if isinstance(function, TableObject) and function.forward() is not None:
        return call(runtime, function.forward(), args, kwargs)
    if isinstance(function, ContextManager) and len(args) == 1 and not kwargs \
            and isinstance(args[0], UserFunction):
        return _run_inside(function, args[0])
    if isinstance(function, ContextManager) and len(args) == 1 and not kwargs \
            and function.label.startswith("torch.autograd.grad_mode."):
        return _decorating(runtime, function, args[0])
    if isinstance(function, (Node, AccumulateGrad)):
        return call_node(function, tuple(args), kwargs)
    raise errors.type_error(f"'{type_name(function)}' object is not callable")


def _run_inside(manager: ContextManager, function: UserFunction) -> UserFunction:
    """`@torch.no_grad()` on a function: the same function, its body run inside the manager."""
    body = function.body

    def guarded(frame):
        manager.enter()
        try:
            return body(frame)
        finally:
            manager.exit()
    return replace(function, body=guarded)


def _decorating(runtime: Runtime, manager: ContextManager, wrapped) -> UserFunction:
    """A grad mode decorating what is not a def (`torch.no_grad()(print)`, even
    `torch.no_grad(3)`): torch's context_decorator wrapper, calling it inside the manager."""
    def body(frame):
        manager.enter()
        try:
            return call(runtime, wrapped, list(frame.vars["args"]), dict(frame.vars["kwargs"]))
        finally:
            manager.exit()
    return UserFunction("decorate_context", "context_decorator.<locals>.decorate_context", (),
                        {}, body, Frame(), star="args", star_star="kwargs")


def call_user(runtime: Runtime, function: UserFunction, args, kwargs: dict):
    """Run a user function in a new frame inside its defining one."""
    runtime.check_frame()
    if kwargs or len(args) != len(function.params) or function.star or function.star_star \
            or function.kwonly:
        names = function.bind(args, kwargs)
    else:
        names = dict(zip(function.params, args))
    if function.generator:
        return GeneratorObject(function, names, runtime)
    runtime.depth += 1
    runtime.calls.append((function.name, STATE.origin))
    frame = Frame(function.closure, names)
    runtime.frames.append((function, frame))
    try:
        return function.body(frame)
    finally:
        runtime.depth -= 1
        runtime.frames.pop()
        STATE.origin = runtime.calls.pop()[1]  # the call is again what is running


def callable_name(function) -> str:
    """How Python names a callable in `*`/`**` errors (`__main__.f()`, `print()`)."""
    if isinstance(function, UserFunction):
        return "__main__." + function.qualname
    if isinstance(function, Builtin):
        return function.title
    if isinstance(function, BoundMethod):
        return f"{type_name(function.receiver)}.{function.builtin.name}"
    if isinstance(function, classes.UserMethod):
        return "__main__." + function.function.qualname
    if isinstance(function, PyType):
        return function.name
    return type_name(function)


def _python_index(key):
    if isinstance(key, Tensor):  # Python's sequences call its __index__
        return index(key)
    if isinstance(key, np.integer):  # NumPy's integers have __index__ (its bool has not)
        return int(key)
    return _user_index(key)


def _user_index(key):
    """A user class instance with __index__ (an IntEnum member) as the int it stands for."""
    if isinstance(key, tuple):
        return tuple(map(_user_index, key))
    method = classes.special_method(key, "__index__") if isinstance(
        key, classes.UserInstance) else None
    return key if method is None else classes.call_bound(method, [])


def _tensor_key(key):
    """An index as torch's indexing reads it: a user class's __index__ as its int, and another
    sequence (a Subset, a class with __getitem__ and __len__) as the list of its items."""
    if isinstance(key, tuple):
        return tuple(map(_tensor_key, key))
    if _foreign_sequence(key):
        return [get_item(key, i) for i in range(length(key))]
    return _user_index(key)


def _foreign_sequence(key) -> bool:
    """PySequence_Check for what is not a list, tuple, str or tensor: a sequence-like table
    object, or an instance of a class with __getitem__ (not a dict's subclass) and no __index__."""
    if isinstance(key, TableObject) and not isinstance(key, classes.UserInstance):
        return key.is_sequence and not isinstance(key, Mapping)
    return isinstance(key, classes.UserInstance) and type(key) is classes.Instance and \
        classes.special_method(key, "__index__") is None and \
        classes.special_method(key, "__getitem__") is not None


def _numpy_side(value):
    """What NumPy sees of an index or a value: a tensor as its array (torch's `__array__`,
    refused while it requires grad), inside tuples and lists too."""
    if isinstance(value, Tensor):
        return conversions.to_numpy(value)
    if isinstance(value, (tuple, list)):
        return type(value)(map(_numpy_side, value))
    return value


def _numpy_key(key):
    """An index as NumPy reads it: a one-element integral tensor as an int (its `__index__`)."""
    if isinstance(key, tuple):
        return tuple(map(_numpy_key, key))
    if isinstance(key, slice):  # a tensor bound by its __index__ (data[i:i+block_size])
        return slice(*(index(k) if isinstance(k, Tensor) else k
                       for k in (key.start, key.stop, key.step)))
    if isinstance(key, Tensor) and key.numel() == 1 and not key.dtype.is_floating_point:
        return index(key)
    return _numpy_side(_user_index(key))


def get_item(value, key, subclassing: bool = True):
    """value[key] for tensors (torch's indexing) and Python's containers (`subclassing` False:
    torch.Tensor.__getitem__ itself, for an instance of a tensor subclass too)."""
    if isinstance(value, Tensor):
        if SUBCLASSES.watching and tensor_subclasses.taken((value, key)) or _offers(key):
            return protocols.subclass_special("__getitem__", [value, key], lambda: indexing.get_item(
                value, _tensor_key(key)), subclassing)
        return indexing.get_item(value, _tensor_key(key))
    if isinstance(value, TableObject) and (value.is_sequence or value.subscriptable):
        return value.item(key)
    if isinstance(value, np.ndarray):
        return value[_numpy_key(key)]
    if isinstance(value, classes.ContainerInstance):  # the user's __getitem__ and __missing__
        method = classes.special_method(value, "__getitem__")
        if method is not None:
            return classes.call_bound(method, [key])
        missing = classes.special_method(value, "__missing__")
        if missing is not None and isinstance(value, dict) and key not in value:
            return classes.call_bound(missing, [key])
    if isinstance(value, dict):
        if key not in value and not isinstance(value, (DefaultDict, Counter)):
            raise errors.TorchError("KeyError", key_text(key), (key,))
        return value[key]
    if isinstance(value, ChainMap):  # the first of its maps that holds the key
        if key not in value:
            raise errors.TorchError("KeyError", key_text(key), (key,))
        return value[key]
    if isinstance(value, deque) and not isinstance(key, slice):
        try:
            return value[_python_index(key)]
        except IndexError:
            raise errors.index_error("deque index out of range") from None
    if isinstance(value, (list, tuple, str, bytes, range)):
        key = _python_index(key)
        if isinstance(key, slice):
            key = slice(*(_python_index(k) for k in (key.start, key.stop, key.step)))
            result = value[key]
            return Size(result) if isinstance(value, Size) else result
        if not isinstance(key, int):
            raise errors.type_error(
                f"{type_name(value)} indices must be integers or slices, not {type_name(key)}")
        try:
            return value[key]
        except IndexError:
            raise errors.index_error((_OUT_OF_RANGE.get(type(value), "tuple") + " index out of "
                                     "range").lstrip()) from None
    method = classes.special_method(value, "__getitem__")
    if method is not None:
        return classes.call_bound(method, [key])
    if isinstance(value, TypeForm):
        return value.subscript(key)
    if isinstance(value, PyType) and (value.name in _GENERIC_BUILTINS
                                      or _generic_collection(value)):
        return TypeForm(value.name).subscript(key)  # list[int], collections.OrderedDict[str, int]
    if isinstance(value, PyType) and value in classes.GENERIC_BASES:
        return TypeForm(value.name, origin=value).subscript(key)  # Dataset[int]
    if isinstance(value, classes.UserClass) and value.find("__parameters__") is not classes.MISSING:
        return TypeForm(f"{value.namespace.get('__module__', '__main__')}.{value.qualname}",
                        origin=value).subscript(key)  # a Generic[T] class: Box[int]
    if isinstance(value, classes.UserClass):
        raise errors.type_error(f"type '{value.name}' is not subscriptable")
    raise errors.type_error(f"'{type_name(value)}' object is not subscriptable")


def _generic_collection(value: PyType) -> bool:
    """Whether a collections class is one Python subscripts as a generic alias (deque[int])."""
    return value.name.startswith("collections.") and all(
        hasattr(host, "__class_getitem__") for host in value.hosts)


_OUT_OF_RANGE = {list: "list", str: "string", range: "range object", bytes: "", tuple: "tuple"}
_GENERIC_BUILTINS = ("list", "dict", "tuple", "set", "frozenset", "type")


def key_text(key) -> str:
    """A missing key as KeyError's message shows it: its repr (a tuple of plain keys too)."""
    return repr(key) if _plain_key(key) else type_name(key)


def _plain_key(key) -> bool:
    return isinstance(key, (int, float, str, bool, bytes, type(None))) or (
        type(key) is tuple and all(_plain_key(k) for k in key))


def _offers(value) -> bool:
    """Whether `value` (or a member of it, a tuple or list) is a program's tensor-like object,
    which brings __torch_function__ (the protocol's module loaded only then)."""
    members = value if type(value) in (list, tuple) else (value,)
    if not any(isinstance(member, TableObject) for member in members):
        return False
    from gradcli.language.runtime import torch_function
    return torch_function.offered([value], {})


def set_item(value, key, item, subclassing: bool = True) -> None:
    """value[key] = item (`subclassing` as for get_item)."""
    if isinstance(value, Tensor):
        if SUBCLASSES.watching and tensor_subclasses.taken((value, key, item)) or \
                _offers(key) or _offers(item):
            protocols.subclass_special("__setitem__", [value, key, item], lambda: indexing.set_item(
                value, _tensor_key(key), item), subclassing)
        else:
            indexing.set_item(value, _tensor_key(key), item)
    elif isinstance(value, classes.ContainerInstance) and \
            classes.special_method(value, "__setitem__") is not None:
        classes.call_bound(classes.special_method(value, "__setitem__"), [key, item])
    elif isinstance(value, (dict, list, ChainMap)):
        _set_container_item(value, key, item)
    elif isinstance(value, np.ndarray):
        key = _numpy_key(key)
        if isinstance(item, Tensor) and np.ndim(value[key]) == 0:  # one element: float(t)
            item = tensor_float(item) if value.dtype.kind == "f" else tensor_scalar(item)
        value[key] = _numpy_side(item)
    elif classes.special_method(value, "__setitem__") is not None:
        classes.call_bound(classes.special_method(value, "__setitem__"), [key, item])
    elif isinstance(value, TableObject):
        value.set_item(key, item)
    else:
        raise errors.type_error(f"'{type_name(value)}' object does not support item assignment")


def _set_container_item(value, key, item) -> None:
    if isinstance(value, (dict, ChainMap)):
        value[key] = item
        return
    key = _list_key(key)
    try:
        value[key] = list(iterate(item)) if isinstance(key, slice) else item
    except IndexError:
        raise errors.index_error("list assignment index out of range") from None


def _list_key(key):
    """A list's index or slice (their __index__ read), else Python's TypeError."""
    key = _python_index(key)
    if isinstance(key, slice):
        return slice(*(_python_index(k) for k in (key.start, key.stop, key.step)))
    if not isinstance(key, int):
        raise errors.type_error(f"list indices must be integers or slices, not {type_name(key)}")
    return key


def delete_item(value, key) -> None:
    """del value[key] (also operator.delitem and value.__delitem__(key)), as Python's
    PyObject_DelItem: a user class's __delitem__ first (one derived from dict or list too), then
    the containers' own, torch's refusal for a tensor, else Python's TypeError."""
    method = classes.special_method(value, "__delitem__")
    if method is not None:
        classes.call_bound(method, [key])
    elif isinstance(value, (dict, list, deque)):
        _delete_container_item(value, key)
    elif isinstance(value, ChainMap):  # from its first map only
        if key not in value.maps[0]:
            text = f"Key not found in the first mapping: {key_text(key)}"
            raise errors.TorchError("KeyError", repr(text), (text,))
        del value.maps[0][key]
    elif isinstance(value, Tensor):
        raise errors.type_error("Tensor does not support deleting items")
    elif isinstance(value, np.ndarray):
        raise errors.value_error("cannot delete array elements")
    elif isinstance(value, TableObject) and type(value).delete_item is not \
            TableObject.delete_item:  # torch's containers (nn.Sequential)
        value.delete_item(key)
    else:  # a sequence of Python's (any class written in Python), given an index, says "doesn't"
        sequence = isinstance(value, _SEQUENCES) and (
            isinstance(key, (int, Tensor)) or classes.special_method(key, "__index__"))
        verb = "doesn't" if sequence else "does not"
        raise errors.type_error(f"'{type_name(value)}' object {verb} support item deletion")


_SEQUENCES = (tuple, str, bytes, range, set, frozenset, deque, TableObject)  # with sq methods


def _delete_container_item(value, key) -> None:
    if isinstance(value, dict):
        if key in value:
            del value[key]
        elif not isinstance(value, Counter):  # a Counter ignores a missing key
            raise errors.TorchError("KeyError", key_text(key), (key,))
        return
    if isinstance(value, deque):
        key = _python_index(key)
        if not isinstance(key, int):
            raise errors.type_error(f"sequence index must be integer, not '{type_name(key)}'")
    else:
        key = _list_key(key)
    try:
        del value[key]
    except IndexError:
        where = "deque index" if isinstance(value, deque) else "list assignment index"
        raise errors.index_error(f"{where} out of range") from None


# What super().__getitem__ and friends reach in a user class derived from dict or list: the
# container's own behaviour, past the user's special methods.
classes.CONTAINER_DUNDERS.update(table(
    entry("__getitem__", lambda obj, key: get_item(obj.HOST(obj), key), "self, key, /"),
    entry("__setitem__", _set_container_item, "self, key, value, /"),
    entry("__delitem__", _delete_container_item, "self, key, /"),
    entry("__len__", lambda obj: obj.HOST.__len__(obj), "self, /"),
    entry("__contains__", lambda obj, key: obj.HOST.__contains__(obj, key), "self, key, /"),
    entry("__iter__", lambda obj: iter(obj.HOST(obj)), "self, /"),
    entry("__eq__", lambda obj, other: obj.HOST.__eq__(obj, other), "self, value, /"),
    entry("__repr__", lambda ctx, obj: ctx.printer.repr(obj.HOST(obj)), "self, /", context=True),
    entry("__str__", lambda ctx, obj: ctx.printer.repr(obj.HOST(obj)), "self, /", context=True),
))


def context_manager(value) -> ContextManager:
    if isinstance(value, ContextManager):
        return value
    manager = value.context() if isinstance(value, TableObject) else None
    if manager is not None:
        return manager
    if isinstance(value, Device):  # torch.device: the default device inside the block
        before: list = []
        return ContextManager(lambda: before.append(devices.enter_default(value)) or value,
                              lambda: devices.restore_default(before.pop()), label="device")
    enter, leave = (classes.special_method(value, n) for n in ("__enter__", "__exit__"))
    if enter is not None and leave is not None:
        def exit_with_error(error) -> bool:
            caught = exceptions.caught_value(error)
            return truth(classes.call_bound(
                leave, [exceptions.exception_type(caught), caught, None]))
        return ContextManager(lambda: classes.call_bound(enter, []),
                              lambda: classes.call_bound(leave, [None, None, None]),
                              label=type_name(value), exit_with_error=exit_with_error)
    raise errors.type_error(
        f"'{type_name(value)}' object does not support the context manager protocol")


protocols.get_item, protocols.set_item, protocols.delete_item = get_item, set_item, delete_item
