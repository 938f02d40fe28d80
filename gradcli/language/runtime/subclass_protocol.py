"""torch's __torch_function__ protocol, run for instances of a program's classes derived from
torch.Tensor (runtime/tensor_subclasses.py keeps them) and for entered TorchFunctionModes.

While the protocol is on, a torch function, a Tensor method or an operator given an instance
runs through the handlers of the classes among its arguments: a class's own
__torch_function__, else torch.Tensor's, which runs the call with the protocol off and makes the
tensors it returns instances of the class (aliases, as `as_subclass` makes them). A mode that is
entered sees every such call first, given or not an instance."""

from __future__ import annotations

import functools
import os

from gradcli.engine import errors
from gradcli.engine.ops import selection
from gradcli.engine.return_types import ReturnTypes
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime import classes, protocols
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.tensor_subclasses import (CLASSES, PASS, STATUS, class_of,
                                                         involved, modes_set, protocol_off)


def register(t: Tensor, cls) -> Tensor:
    """`t` made an instance of `cls` (a program's class derived from torch.Tensor)."""
    if cls.find("__torch_dispatch__") is not classes.MISSING:
        raise errors.TorchError("NotImplementedError", "a tensor subclass with "
                                "__torch_dispatch__ is not supported by gradcli yet")
    CLASSES[t] = cls
    STATUS.made = True
    STATUS.update()
    return t


def as_subclass(t: Tensor, cls) -> Tensor:
    """t.as_subclass(cls): an alias of `t` (AliasBackward0 where it requires grad) that is an
    instance of `cls`; torch.Tensor itself gives a plain alias."""
    made = selection.alias(t)
    return made if _is_torch_tensor(cls) else register(made, cls)


def _is_torch_tensor(cls) -> bool:
    """Whether `cls` is torch.Tensor itself (not a program's class)."""
    return not isinstance(cls, classes.UserClass)


def convert(result, cls):
    """torch's _convert: the tensors in `result` (itself, or the members of a tuple, list or
    structseq) made instances of `cls` where they are not already."""
    if _is_torch_tensor(cls):
        return result
    if isinstance(result, Tensor):
        owner = CLASSES.get(result)
        return result if owner is not None and owner.is_subclass_of(cls) else \
            as_subclass(result, cls)
    if isinstance(result, ReturnTypes):
        return ReturnTypes(result.name, *(convert(item, cls) for item in result),
                           fields=result.fields)
    if type(result) in (list, tuple):
        return type(result)(convert(item, cls) for item in result)
    return result


# the functions whose results torch.Tensor's handler leaves as they are (getters of grad,
# _grad and _base)
_UNWRAPPED: list = []


def _wraps(func) -> bool:
    return not any(func is unwrapped for unwrapped in _UNWRAPPED)


def _handles_all(cls, types) -> bool:
    return all(kind is cls or isinstance(cls, classes.UserClass) and cls.is_subclass_of(kind)
               for kind in types)


def _default_handler(ctx, cls, func, types, args=(), kwargs=None):
    """torch.Tensor.__torch_function__: func(*args, **kwargs) with the protocol off, its tensors
    made instances of `cls`; NotImplemented for types that are not all cls's bases."""
    if not _handles_all(cls, types):
        return NotImplemented
    with protocol_off():
        result = ctx.call(func, list(args), dict(kwargs or {}))
    return convert(result, cls) if _wraps(func) else result


DEFAULT_HANDLER = entry("__torch_function__", _default_handler,
                        "cls, func, types, args=(), kwargs=None", context=True,
                        qualname="Tensor.__torch_function__")


def _disabled_handler(ctx, func, types, args, kwargs):
    """torch._C._disabled_torch_function_impl: func called with the protocol off, its results
    left as they are."""
    with protocol_off():
        return ctx.call(func, list(args), dict(kwargs or {}))


DISABLED_HANDLER = entry("_disabled_torch_function_impl", _disabled_handler,
                         "func, types, args, kwargs", context=True)
# torch's classes whose handler is _disabled_torch_function_impl (nn.Parameter): their
# subclasses' instances bring no handler, and their results are plain tensors
PARAMETER_BASES: set = set()


def _brings_handler(value) -> bool:
    """Whether an instance's class takes part in the protocol (it or a base of the program's
    has a handler, or it leaves the call to torch.Tensor's)."""
    cls = CLASSES[value]
    return cls.base not in PARAMETER_BASES or cls.find("__torch_function__") is not \
        classes.MISSING


def dispatch(name: str, func, args: list, kwargs: dict | None, run, in_python: bool,
             plain_types: bool = True):
    """handle_torch_function for a call given instances: the handler of each class among the
    arguments in torch's order (a subclass before its base) until one does not decline; a class
    without its own is torch.Tensor's, which runs the call itself (`run`, no arguments).
    `func` is what handlers get, with the arguments as torch passes them (`kwargs` None for
    torch's C functions called without keywords); `name` is torch's for it in errors. A mode
    sees torch.Tensor among the types for plain tensors, but where `plain_types` is false (an
    operator written in C)."""
    from gradcli.language.runtime import torch_function
    values = [value for value in torch_function.arguments(args, kwargs or {}, not in_python)
              if type(value) is Tensor and value in CLASSES and _brings_handler(value) or
              torch_function.overrides(value)]
    overloaded = torch_function.overloaded(values)
    types = tuple(torch_function.kind(value) for value in overloaded)
    if STATUS.modes:
        plain = plain_types and not types and any(isinstance(value, Tensor) for value in
                                                  torch_function.arguments(args, kwargs or {}))
        result = _mode_handles(func, (_tensor_type(),) if plain else types, args, kwargs)
        if result is not NotImplemented:
            return result
    if not overloaded or STATUS.off_depth:
        with modes_set([]):
            return run()
    if not in_python:  # (torch's Python functions' DeprecationWarning is hidden)
        torch_function.warn_plain_methods(types, False)
    for value in overloaded:
        cls = torch_function.kind(value)
        if isinstance(value, Tensor) and cls.find("__torch_function__") is classes.MISSING:
            if not _handles_all(cls, types):
                continue
            with protocol_off(), modes_set([]):
                result = run()
            return convert(result, cls) if _wraps(func) else result
        result = torch_function.handle(value, [func, types, tuple(args), kwargs])
        if result is not NotImplemented:
            return result
    raise torch_function.declined(name, types, in_python)


def _module_function(builtin) -> bool:
    """Whether `builtin` is one of torch._C's functions bound to the module (is_grad_enabled,
    torch._C._has_torch_function), which torch's argument parser, the one that hands calls to
    handlers, does not bind."""
    from gradcli.language.runtime.torch_homes import home
    found = home(builtin)
    return found is not None and found.kind == "builtin" and found.module in ("torch", "torch._C")


def _tensor_type():
    """torch.Tensor, the class."""
    return protocols.MODULES["torch"].table["Tensor"]


@functools.cache
def _python_overridable() -> frozenset:
    """The names of torch's Python functions that hand calls to handlers (the rest, such as
    torch.manual_seed, never do), recorded by tests/golden/record_overridable.py."""
    import json  # (loaded when a program first meets the protocol)
    with open(os.path.join(os.path.dirname(__file__), "overridable.json")) as record:
        return frozenset(json.load(record))


def _mode_handles(func, types, args, kwargs):
    """The innermost mode's __torch_function__, with that mode popped while it runs."""
    handler = classes.special_method(STATUS.modes[-1], "__torch_function__")
    with modes_set(STATUS.modes[:-1]):
        return classes.call_bound(handler, [func, types, tuple(args), kwargs])


def call(builtin, args: list, kwargs: dict, run):
    """A table entry called with instances among its arguments: through the protocol when it
    is one of torch's overridable functions (`run` calls it as no handler did), else PASS (to
    be called as it is)."""
    from gradcli.language.runtime import torch_function
    label = None if builtin is DEFAULT_HANDLER or builtin.name == "__new__" else \
        torch_function.label(builtin)  # (a class's constructor is no torch function)
    if label is None or label[0] == "torch.Tensor.as_subclass" or _module_function(builtin) or \
            label[1] and label[0] not in _python_overridable():
        return PASS  # (what no handler sees: torch._C's own functions, torch's utilities)
    name, in_python, func = label
    if in_python:
        call_args, call_kwargs = torch_function.by_parameter(builtin, args, kwargs)
    else:
        call_args, call_kwargs = args, (dict(kwargs) if kwargs else None)
    return dispatch(name, func, list(call_args), call_kwargs,
                    run, in_python)


def _own_method(value, dunder: str):
    """An instance's special method `dunder` as its class (the program's) defines it, bound;
    None where the class leaves it to torch.Tensor."""
    cls = class_of(value)
    if cls is None:
        return None
    found = cls.find(dunder)
    return None if found is classes.MISSING else classes.bind(found, value, cls)


def special(dunder: str, operands: list, run, own: bool = True):
    """operands[0].<dunder>(*operands[1:]) (an operator, indexing) for a tensor where an
    instance may be among the operands: the class's own method (unless not `own`: torch.Tensor's
    called itself), else the tensor's through the protocol while it is on (handlers get the
    method torch's operator reaches: Tensor.add for +), else `run`, the operation itself."""
    from gradcli.language.runtime import torch_function
    method = _own_method(operands[0], dunder) if own else None
    if method is not None:
        return classes.call_bound(method, operands[1:])
    if not (STATUS.modes or STATUS.active and involved(operands) or
            torch_function.offered(operands[1:], {})):  # (a tensor-like key or item)
        return run()
    func = protocols.CLASS_METHODS[Tensor][torch_function.SUBCLASS_OPERATORS.get(dunder, dunder)]
    in_python = func.qualname.startswith("Tensor.")
    return dispatch(f"torch.Tensor.{func.name}", func, operands, {} if in_python else None, run,
                    in_python, plain_types=in_python or dunder in _CONVERSIONS)


# the special methods of a tensor's conversions, which a mode sees with torch.Tensor among the
# types (an operator's, written in C, with none)
_CONVERSIONS = frozenset(("__bool__", "__float__", "__index__", "__len__"))


def binary(symbol: str, dunders: tuple, a, b, run):
    """a <symbol> b with an instance among them, by Python's protocol: a.__op__(b), then
    b.__rop__(a) (first where b's class derives from a's and defines it), each the program's
    own method or the tensor's (`special`)."""
    from gradcli.language.runtime.values import type_name
    forward, reflected = dunders
    order = [(a, forward, b), (b, reflected, a)]
    a_class, b_class = class_of(a), class_of(b)
    if b_class is not None and b_class is not a_class and _own_method(b, reflected) is not None \
            and (type(a) is Tensor and a_class is None or a_class in b_class.mro):
        order.reverse()
    for owner, dunder, other in order:
        own = _own_method(owner, dunder)
        if own is not None:
            result = classes.call_bound(own, [other])
        elif isinstance(owner, Tensor):
            try:
                return special(dunder, [owner, other], run)
            except errors.TorchError as error:  # torch's operators read it as NotImplemented
                if error.kind != "TypeError":
                    raise
                continue
        else:
            continue
        if result is not NotImplemented:
            return result
    if symbol in ("==", "!="):  # Python's fallback: identity
        return (a is b) == (symbol == "==")
    if symbol in ("+", "*") and any(isinstance(x, (list, tuple, str, bytes)) for x in (a, b)):
        return run()  # a sequence's own operator, as Python tries next (its errors)
    if symbol in ("<", "<=", ">", ">="):
        raise errors.type_error(f"'{symbol}' not supported between instances of "
                                f"'{type_name(a)}' and '{type_name(b)}'")
    raise errors.type_error(f"unsupported operand type(s) for {symbol}: '{type_name(a)}' and "
                            f"'{type_name(b)}'")


def augmented(symbol: str, current: Tensor, operand, run, own: bool = True):
    """`current <symbol>= operand` for tensors with an instance among them: the class's own
    __iop__, else the tensor's in-place method through the protocol (`special`)."""
    from gradcli.language.runtime.operators import BINARY_DUNDERS
    return special("__i" + BINARY_DUNDERS[symbol][0][2:], [current, operand], run, own)


def rows(t: Tensor):
    """What iterating an instance walks: torch's Tensor.__iter__ unbinds it (through the
    protocol), so its rows are instances too."""
    from gradcli.engine import indexing
    if not STATUS.active:
        return indexing.unbind_rows(t, 0)
    unbind = protocols.CLASS_METHODS[Tensor]["unbind"]
    return iter(dispatch("torch.Tensor.unbind", unbind, [t, 0], None,
                         lambda: tuple(indexing.unbind_rows(t, 0)), False))


def getter(name: str, t: Tensor, run):
    """An instance's attribute `name` (one of torch's getters), through the protocol: handlers
    get the getter's __get__."""
    if not (STATUS.modes or STATUS.active and t in CLASSES):
        return run()
    return dispatch(f"torch.Tensor.{name}.__get__", getter_of(name), [t], None, run, False)


_GETTERS: dict = {}
_NOWRAP = ("grad", "_grad", "_base")


def getter_of(name: str):
    """The __get__ of torch.Tensor's getter `name`, one function a name (what handlers get)."""
    if name not in _GETTERS:
        _GETTERS[name] = entry("__get__", lambda instance, owner=None: protocols.get_attribute(
            instance, name), "instance, owner=None, /", qualname="getset_descriptor.__get__")
        if name in _NOWRAP:
            _UNWRAPPED.append(_GETTERS[name])
    return _GETTERS[name]


def default_nowrap() -> set:
    """torch.overrides.get_default_nowrap_functions: the getters whose results torch.Tensor's
    handler leaves as they are."""
    return {getter_of(name) for name in _NOWRAP}


def getter_name(func) -> str | None:
    """The attribute whose getter `func` is (what handlers get for it), else None."""
    return next((name for name, made in _GETTERS.items() if made is func), None)


def repr_of(printer, t: Tensor, own: bool = True) -> str:
    """repr() of an instance: its class's own __repr__ (unless not `own`: torch.Tensor's called
    itself), else torch.Tensor's through the protocol, which names the class where a plain
    tensor has `tensor`."""
    cls = CLASSES.get(t) if STATUS.made else None
    method = _own_method(t, "__repr__") if own else None
    if method is not None:
        return classes.text_of(classes.call_bound(method, []), "__repr__")
    prefix = "tensor" if cls is None else cls.name
    if cls is not None and cls.base in PARAMETER_BASES and own:  # Parameter.__repr__'s head
        return "Parameter containing:\n" + repr_of(printer, t, False)
    if not (STATUS.modes or STATUS.active and cls is not None):
        return printer.plain_tensor(t, prefix)
    return dispatch("torch.Tensor.__repr__", protocols.CLASS_METHODS[Tensor]["__repr__"], [t],
                    {"tensor_contents": None}, lambda: printer.plain_tensor(t, prefix), True)


protocols.subclass_call = call
protocols.subclass_special = special
protocols.subclass_binary = binary
protocols.subclass_rows = rows
protocols.subclass_repr = repr_of
