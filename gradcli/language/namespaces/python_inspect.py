"""Python's inspect, as scripts use it to ask what a callable takes: signature(f).parameters
(nanoGPT's `'fused' in inspect.signature(torch.optim.AdamW).parameters`), each Parameter's name,
kind and default, and the isclass/isfunction/ismethod tests.

gradcli keeps no function's annotations and prints no signature: a Signature's or Parameter's
text, its annotations, and the defaults of torch's own Python functions (which gradcli's tables
spell in their own way) are refused as gradcli's gap."""

from __future__ import annotations

from collections import OrderedDict

from gradcli.engine import errors
from gradcli.language.namespaces import python_frames
from gradcli.language.runtime import classes
from gradcli.language.runtime.frames import BoundMethod, UserFunction
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.protocols import CLASS_METHODS
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import Builtin, DeclaredBuiltin, entry, table
from gradcli.language.runtime.values import Namespace

_KIND_NAMES = ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD", "VAR_POSITIONAL", "KEYWORD_ONLY",
               "VAR_KEYWORD")
_DESCRIPTIONS = ("positional-only", "positional or keyword", "variadic positional",
                 "keyword-only", "variadic keyword")


def _gap(what: str):
    return errors.TorchError("NotImplementedError", f"gradcli does not support {what} yet")


class ParameterKind(TableObject):
    """inspect.Parameter's kinds (an IntEnum in Python): one value each, compared by identity."""

    language_type = PyType("inspect._ParameterKind", ())

    def __init__(self, value: int):
        self.value = value

    def attribute(self, name: str):
        if name == "name":
            return _KIND_NAMES[self.value]
        if name == "value":
            return self.value
        if name == "description":
            return _DESCRIPTIONS[self.value]
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("AttributeError", f"cannot set '{name}' attribute of enum")

    def repr(self, printer) -> str:
        return f"<_ParameterKind.{_KIND_NAMES[self.value]}: {self.value}>"

    def str(self, printer) -> str:
        return _KIND_NAMES[self.value]


KINDS = tuple(ParameterKind(value) for value in range(5))
POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, VAR_POSITIONAL, KEYWORD_ONLY, VAR_KEYWORD = KINDS
_EMPTY = PyType("inspect._empty", ())  # Parameter.empty and Signature.empty: a class


class Parameter(TableObject):
    """One parameter: its name and kind, and its default when gradcli knows it as Python has it
    (`known` is False for torch's own functions, whose defaults gradcli's tables spell)."""

    language_type = PyType("inspect.Parameter", ())

    def __init__(self, name: str, kind: ParameterKind, default=_EMPTY, known: bool = True):
        self.name, self.kind, self.default, self.known = name, kind, default, known

    def attribute(self, name: str):
        if name == "name":
            return self.name
        if name == "kind":
            return self.kind
        if name == "default":
            if not self.known:
                raise _gap("inspect.Parameter.default of torch's functions")
            return self.default
        if name == "empty":
            return _EMPTY
        if name == "annotation":
            raise _gap("inspect.Parameter.annotation")
        if name in _KIND_NAMES:
            return KINDS[_KIND_NAMES.index(name)]
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("AttributeError", f"'Parameter' object attribute '{name}' is "
                                "read-only")

    def repr(self, printer) -> str:
        raise _gap("printing an inspect.Parameter")


class Signature(TableObject):
    """What inspect.signature returns: its parameters, in order, by name."""

    language_type = PyType("inspect.Signature", ())

    def __init__(self, parameters: list[Parameter]):
        self.parameters = OrderedDict((p.name, p) for p in parameters)

    def attribute(self, name: str):
        if name == "parameters":
            return self.parameters
        if name == "empty":
            return _EMPTY
        if name == "return_annotation":
            raise _gap("inspect.Signature.return_annotation")
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("AttributeError", f"'Signature' object has no attribute '{name}'")

    def repr(self, printer) -> str:
        raise _gap("printing an inspect.Signature")


def _of_user_function(function: UserFunction) -> list[Parameter]:
    params = []
    for index, name in enumerate(function.params):
        kind = POSITIONAL_ONLY if index < function.posonly else POSITIONAL_OR_KEYWORD
        params.append(Parameter(name, kind, function.defaults.get(name, _EMPTY)))
    if function.star is not None:
        params.append(Parameter(function.star, VAR_POSITIONAL))
    params += [Parameter(name, KEYWORD_ONLY, function.defaults.get(name, _EMPTY))
               for name in function.kwonly]
    if function.star_star is not None:
        params.append(Parameter(function.star_star, VAR_KEYWORD))
    return params


def _of_builtin(builtin: Builtin) -> list[Parameter]:
    params = []
    for p in builtin.params:
        kind = (VAR_POSITIONAL if p.var_positional else VAR_KEYWORD if p.var_keyword else
                KEYWORD_ONLY if p.keyword_only else POSITIONAL_ONLY if p.positional_only else
                POSITIONAL_OR_KEYWORD)
        params.append(Parameter(p.name, kind, known=False))
    return params


def _parameters(ctx, value) -> list[Parameter]:
    """The parameters of a callable, as inspect.signature lists them."""
    if isinstance(value, UserFunction):
        return _of_user_function(value)
    if isinstance(value, classes.UserMethod):
        return _parameters(ctx, value.function)[1:]
    if isinstance(value, (classes.StaticMethod, classes.ClassMethod)):
        return _parameters(ctx, value.function)
    if isinstance(value, classes.UserClass):
        init = value.find("__init__")
        if isinstance(init, classes.NativeMethod):
            init = init.written or init.function
        if isinstance(init, UserFunction):
            return _of_user_function(init)[1:]
        if init is classes.MISSING:
            return [] if value.base is None else _parameters(ctx, value.base)
        return _parameters(ctx, init)[1:]
    if isinstance(value, PyType) and isinstance(value.construct, BoundMethod):
        return _parameters(ctx, value.construct.builtin)[1:]
    if isinstance(value, PyType) and isinstance(value.construct, Builtin):
        return _parameters(ctx, value.construct)
    if isinstance(value, BoundMethod):
        return _parameters(ctx, value.builtin)
    if isinstance(value, Builtin) and not isinstance(value, DeclaredBuiltin):
        return _of_builtin(value)
    if isinstance(value, (DeclaredBuiltin, PyType)):
        raise errors.value_error(f"no signature found for builtin {ctx.printer.repr(value)}")
    if isinstance(value, TableObject) and value.forward() is not None:
        raise _gap(f"inspect.signature of a {errors.type_name(value)}")
    raise errors.type_error(f"{ctx.printer.repr(value)} is not a callable object")


def _signature(ctx, obj, *, follow_wrapped=True, globals=None, locals=None, eval_str=False):
    return Signature(_parameters(ctx, obj))


_PARAMETER_TYPE = PyType("inspect.Parameter", (Parameter,))
CLASS_METHODS[Parameter] = {"empty": _EMPTY, **dict(zip(_KIND_NAMES, KINDS))}
CLASS_METHODS[Signature] = {"empty": _EMPTY}

INSPECT = Namespace("inspect", table(
    entry("signature", _signature, "obj, *, follow_wrapped=True, globals=None, locals=None, "
          "eval_str=False", context=True),
    entry("isclass", lambda obj: isinstance(obj, (PyType, classes.UserClass)), "object"),
    entry("isfunction", lambda obj: isinstance(obj, UserFunction), "object"),
    entry("ismethod", lambda obj: isinstance(obj, classes.UserMethod), "object"),
    *python_frames.ENTRIES,
) | {"Parameter": _PARAMETER_TYPE, "Signature": PyType("inspect.Signature", (Signature,))})
