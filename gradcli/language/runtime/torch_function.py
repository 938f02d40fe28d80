"""The __torch_function__ protocol for tensor-like values: a torch function, a function of
torch.nn.functional or a Tensor method whose arguments it cannot take as tensors hands the call
to the `__torch_function__` of the user classes among them, as torch's argument parser (C++
functions) or handle_torch_function (Python ones) does."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.triggered import triggered
from gradcli.language.runtime import classes, protocols, tensor_subclasses
from gradcli.language.runtime.frames import GradRuntimeError, UserFunction
from gradcli.language.runtime.torch_homes import home
from gradcli.language.runtime.values import Printer

_DISPATCH_FAILED = ("no implementation found for ", "Multiple dispatch failed for ")
_NOT_IMPLEMENTED_HINT = "For more information, try re-running with TORCH_LOGS=not_implemented"


def overrides(value) -> bool:
    """Whether `value` is a tensor-like value: a user class instance with __torch_function__."""
    return not isinstance(value, Tensor) and classes.class_of(value) is not None and \
        classes.special_method(value, "__torch_function__") is not None


def arguments(args, kwargs, lists: bool = True):
    """The arguments torch looks at: each one, and the members of a tuple or (unless not
    `lists`: torch's Python functions look at the values they are given) of a list."""
    for value in (*args, *kwargs.values()):
        if isinstance(value, tuple) or lists and isinstance(value, list):
            yield from value
        else:
            yield value


def offered(args, kwargs) -> bool:
    """Whether an argument (or a member of a list or tuple one) brings a __torch_function__."""
    return any(overrides(value) for value in arguments(args, kwargs))


def label(builtin) -> tuple[str, bool, object] | None:
    """How torch names the function in its messages, whether it is written in Python, and the
    function its handlers get (a Tensor method as torch.Tensor holds it); None when the
    callable is none of torch's overridable functions."""
    if protocols.TENSOR_METHODS.get(builtin.name) is builtin:
        held = protocols.CLASS_METHODS[Tensor][builtin.name]
        return f"torch.Tensor.{builtin.name}", held.qualname.startswith("Tensor."), held
    found = home(builtin)
    if found is None:
        return None
    if found.kind == "function":
        return found.path, True, builtin
    module = found.module
    if module.startswith("torch._C._"):
        module = "torch." + module[len("torch._C._"):]
    return f"{module}.{found.qualname.rpartition('.')[2]}", False, builtin


def kind(value):
    """The class torch lists in `types` for an overloaded argument."""
    return protocols.type_of(value) if isinstance(value, Tensor) else classes.class_of(value)


def _is_subclass(kind, other) -> bool:
    return isinstance(kind, classes.UserClass) and other in kind.mro


def overloaded(values) -> list:
    """One argument per class, in order, a subclass's before its base's (torch's
    _get_overloaded_args)."""
    chosen, kinds = [], []
    for value in values:
        its = kind(value)
        if its in kinds:
            continue
        at = next((i for i, other in enumerate(kinds) if _is_subclass(its, other)), len(kinds))
        kinds.insert(at, its)
        chosen.insert(at, value)
    return chosen


_PLAIN_METHOD = ("Defining your `__torch_function__` as a plain method is deprecated and will be an "
                 "error in future, please define it as a classmethod.")


def warn_plain_methods(kinds, in_python: bool) -> None:
    """torch's warning for each class whose __torch_function__ is no classmethod: Python's
    DeprecationWarning from handle_torch_function called by the program (`in_python`; called by
    torch's own Python functions, Python's filters hide it), the argument parser's C++
    UserWarning (once a process)."""
    for its in kinds:
        if isinstance(its, classes.UserClass) and isinstance(
                its.find("__torch_function__"), (UserFunction, classes.StaticMethod)):
            if in_python:
                STATE.warn("DeprecationWarning", _PLAIN_METHOD.replace(  # (torch's own text)
                    "`__torch_function__`", "`__torch_function__"))
            else:
                STATE.warn("UserWarning", triggered(
                    _PLAIN_METHOD, "torch/csrc/utils/python_arg_parser.cpp", 359), once=True)


def handle(value, args: list):
    """value's __torch_function__ called with `args` (whatever the class holds there: Python's
    TypeError when it cannot be called)."""
    handler = classes.special_method(value, "__torch_function__")
    if isinstance(handler, classes.StaticSpecial):
        return classes.call_bound(handler, args)
    return classes.class_of(value).runtime.call(handler, args, {})


def by_parameter(builtin, args: list, kwargs: dict) -> tuple[tuple, dict]:
    """What torch's Python functions hand to handle_torch_function: the values of the
    parameters without defaults by position, then those gathered by *args (einsum's, meshgrid's
    tensors), the others by name, defaults included (else as HANDED has it)."""
    params = [param for param in builtin.params if not (param.var_positional or
                                                        param.var_keyword)]
    positional = [param.name for param in params if not param.keyword_only]
    given = {**dict(zip(positional, args)), **kwargs}
    gathered = tuple(args[len(positional):]) if any(
        param.var_positional for param in builtin.params) else ()
    required = [param.name for param in params if param.required and not param.keyword_only]
    handed = (tuple(given[name] for name in required if name in given) + gathered,
              {param.name: given.get(param.name, param.default) for param in params
               if param.name not in required})
    recast = tensor_subclasses.HANDED.get(builtin)
    return handed if recast is None else recast(*handed)


def dispatch(runtime, builtin, args: list, kwargs: dict, failure: errors.TorchError):
    """Call `builtin` through the __torch_function__ of its tensor-like arguments; `failure`
    (why the arguments did not fit) again when the callable is not one of torch's, or when a C
    function failed otherwise than with a TypeError (torch's Python functions check first)."""
    labelled = label(builtin)
    if labelled is None or not labelled[1] and failure.kind != "TypeError" or \
            failure.message.startswith(_DISPATCH_FAILED):  # handlers declined it already
        raise failure
    name, in_python, function = labelled
    chosen = overloaded([value for value in arguments(args, kwargs)
                         if overrides(value) or in_python and isinstance(value, Tensor)])
    types = tuple(kind(value) for value in chosen)
    if not in_python:
        warn_plain_methods(types, False)
    if in_python:
        call_args, call_kwargs = by_parameter(builtin, args, kwargs)
    else:
        call_args, call_kwargs = tuple(args), (dict(kwargs) if kwargs else None)
    for value in chosen:
        if isinstance(value, Tensor):
            continue  # Tensor's own handler declines types that are not its subclasses
        result = handle(value, [function, types, call_args, call_kwargs])
        if result is not NotImplemented:
            return result
    raise declined(name, types, in_python)


def declined(name: str, types: tuple, in_python: bool) -> errors.TorchError:
    """torch's error when every handler returned NotImplemented."""
    printer = Printer()
    if in_python:
        return errors.type_error(f"{_DISPATCH_FAILED[0]}'{name}' on types that implement "
                                 f"__torch_function__: {printer.str(list(types))}")
    listed = "".join(f"  - tensor subclass {printer.str(its)}\n" for its in types)
    return errors.type_error(f"{_DISPATCH_FAILED[1]}'{name}'; all __torch_function__ "
                             f"handlers returned NotImplemented:\n\n{listed}\n"
                             f"{_NOT_IMPLEMENTED_HINT}")


def _held(name: str):
    """torch.Tensor.<name>."""
    return protocols.CLASS_METHODS[Tensor][name]


_C_OPERATORS = {"__add__": "add", "__radd__": "add", "__sub__": "sub", "__mul__": "mul",
                "__rmul__": "mul", "__truediv__": "div", "__mod__": "remainder",
                "__matmul__": "matmul", "__eq__": "eq", "__ne__": "ne", "__lt__": "lt",
                "__le__": "le", "__gt__": "gt", "__ge__": "ge", "__rand__": "bitwise_and",
                "__ror__": "bitwise_or", "__rxor__": "bitwise_xor"}
# what a handler gets for an operator of a tensor subclass's instance: these C methods, else
# torch.Tensor's special method itself
SUBCLASS_OPERATORS = {**{dunder: name for dunder, name in _C_OPERATORS.items() if dunder != "__eq__"},
                      "__neg__": "neg", "__pos__": "positive", "__abs__": "abs",
                      "__iadd__": "add_", "__isub__": "sub_", "__imul__": "mul_",
                      "__itruediv__": "div_", "__ifloordiv__": "floor_divide_",
                      "__ipow__": "pow_"}
_C_DUNDERS = ("__and__", "__or__", "__xor__", "__lshift__", "__rshift__")


def operator(dunder: str, tensor: Tensor, other):
    """Tensor.<dunder>(tensor, other) for a tensor-like `other`: the method torch's operator
    calls, through other's __torch_function__ (the Tensor's type listed too where the operator
    is written in Python); NotImplemented when it declines or has none."""
    if not overrides(other):
        return NotImplemented
    if dunder in _C_OPERATORS:
        method, types = _held(_C_OPERATORS[dunder]), (kind(other),)
    else:
        method = _held("pow" if dunder == "__pow__" else dunder)
        types = None if dunder in _C_DUNDERS else (kind(tensor), kind(other))
        types = types or (kind(other),)
    kwargs = None if len(types) == 1 else {}
    try:
        return handle(other, [method, types, (tensor, other), kwargs])
    except (errors.TorchError, GradRuntimeError) as error:
        if error.kind == "TypeError":  # torch's operators read it as NotImplemented
            return NotImplemented
        raise
