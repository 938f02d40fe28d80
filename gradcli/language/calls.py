"""Calling, iterating and indexing values of the language, each through explicit cases only."""

from __future__ import annotations

from gradcli.engine import errors, indexing
from gradcli.engine.tensor import Tensor
from gradcli.language.builtins import PY_BUILTINS, Builtin
from gradcli.language.runtime import (BoundMethod, ContextManager, Frame, GradRuntimeError,
                                      ReturnValue, Runtime, UserFunction)
from gradcli.language.values import Size, type_name

_PY_SEQUENCES = (list, tuple, str, range, dict)


def global_name(name: str, span):
    """A name not bound in any frame: Python's builtins, else NameError."""
    builtin = PY_BUILTINS.get(name)
    if builtin is None:
        raise GradRuntimeError("NameError", f"name '{name}' is not defined", span)
    return builtin


def invoke(runtime: Runtime, builtin: Builtin, args: list, kwargs: dict):
    """Call a table entry: positional parameters in order (a *args one unpacked), then the
    keyword-only ones by name."""
    bound = builtin.bind(args, kwargs)
    positional, keywords = [], {}
    for param in builtin.params:
        if param.var_positional:
            positional.extend(bound[param.name])
        elif param.keyword_only:
            keywords[param.name] = bound[param.name]
        else:
            positional.append(bound[param.name])
    if builtin.needs_context:
        return builtin.fn(runtime, *positional, **keywords)
    return builtin.fn(*positional, **keywords)


def call(runtime: Runtime, function, args: list, kwargs: dict):
    if isinstance(function, Builtin):
        return invoke(runtime, function, args, kwargs)
    if isinstance(function, BoundMethod):
        return invoke(runtime, function.builtin, [function.receiver, *args], kwargs)
    if isinstance(function, UserFunction):
        return call_user(runtime, function, args, kwargs)
    raise errors.type_error(f"'{type_name(function)}' object is not callable")


def call_user(runtime: Runtime, function: UserFunction, args: list, kwargs: dict):
    if runtime.depth >= runtime.limits["recursion"]:
        raise errors.TorchError("RecursionError", "maximum recursion depth exceeded")
    frame = Frame(function.closure, function.bind(args, kwargs))
    runtime.depth += 1
    try:
        function.body(frame)
    except ReturnValue as result:
        return result.value
    finally:
        runtime.depth -= 1
    return None


def iterate(value):
    """What `for` walks: a tensor's rows (as torch's unbind), or a Python sequence."""
    if isinstance(value, Tensor):
        if value.ndim == 0:
            raise errors.type_error("iteration over a 0-d tensor")
        return indexing.unbind(value, 0)
    if isinstance(value, _PY_SEQUENCES):
        return value
    raise errors.type_error(f"'{type_name(value)}' object is not iterable")


def _python_index(key):
    if isinstance(key, Tensor) and key.numel() == 1 and not key.dtype.is_floating_point:
        return int(key.data.reshape(()).item())
    return key


def get_item(value, key):
    if isinstance(value, Tensor):
        return indexing.get_item(value, key)
    if isinstance(value, _PY_SEQUENCES):
        if isinstance(value, dict):
            return value[key]
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
            raise errors.index_error(f"{type_name(value)} index out of range") from None
    raise errors.type_error(f"'{type_name(value)}' object is not subscriptable")


def set_item(value, key, item) -> None:
    if isinstance(value, Tensor):
        indexing.set_item(value, key, item)
    elif isinstance(value, (list, dict)):
        value[_python_index(key)] = item
    else:
        raise errors.type_error(f"'{type_name(value)}' object does not support item assignment")


def context_manager(value) -> ContextManager:
    if isinstance(value, ContextManager):
        return value
    raise errors.type_error(
        f"'{type_name(value)}' object does not support the context manager protocol")
