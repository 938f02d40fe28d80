"""Call expressions: the callee and its positional, keyword, `*` and `**` arguments as closures."""

from __future__ import annotations

from collections.abc import Mapping

from gradcli.language.syntax.lark_standalone import Tree

from gradcli.engine import errors
from gradcli.language.runtime import classes

from gradcli.engine.errors import TorchError
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime import attributes, calls, exceptions, protocols
from gradcli.language.syntax.parser import GradSyntaxError
from gradcli.language.runtime.frames import GradRuntimeError
from gradcli.language.runtime.shape_notes import call_operands, shape_noted
from gradcli.language.runtime.values import type_name
from gradcli.language.compiler.spans import USER_ERRORS, raise_at, span_of, syntax_error

_SPECIAL = ("kwarg", "star_arg", "star_star_arg")


def compile_call(compiler, tree: Tree):
    """`f(a, k=b, *c, **d)` as a closure `frame -> result`."""
    callee_tree, arguments = tree.children
    if arguments is None and _is_bare_super(compiler, callee_tree):
        return _zero_argument_super(compiler, span_of(tree))
    if arguments is None and _is_scope_call(callee_tree):
        return _scope_call(compiler, callee_tree, span_of(tree))
    if callee_tree.data == "getattr" and (arguments is None or arguments.data != "genexp"):
        receiver = compiler.expression(callee_tree.children[0])
        parts = _arguments(compiler, tree, arguments.children if arguments is not None else [])
        if all(kind == "" for kind, _, _ in parts):
            return _method_call(compiler, callee_tree, receiver, [value for _, _, value in parts],
                                span_of(tree))
        return _general_call(compiler, _attribute_of(compiler, callee_tree, receiver), parts,
                             span_of(tree))
    callee, span = compiler.expression(callee_tree), span_of(tree)
    if arguments is not None and arguments.data == "genexp":
        return _positional_call(compiler, callee, [compiler.expression(arguments)], span)
    parts = _arguments(compiler, tree, arguments.children if arguments is not None else [])
    if all(kind == "" for kind, _, _ in parts):
        return _positional_call(compiler, callee, [value for _, _, value in parts], span)
    return _general_call(compiler, callee, parts, span)


def _arguments(compiler, call: Tree, trees: list) -> list[tuple]:
    """(kind, keyword, closure) per argument, with Python's SyntaxErrors for their order."""
    parts, named = [], set()
    for arg in trees:
        if arg is None:
            continue
        kind = arg.data if arg.data in _SPECIAL else ""
        if kind == "" and any(p[0] in ("kwarg", "star_star_arg") for p in parts):
            close = span_of(call)  # Python points at the call's closing bracket
            raise GradSyntaxError("positional argument follows keyword argument"
                                  if any(p[0] == "kwarg" for p in parts) else
                                  "positional argument follows keyword argument unpacking",
                                  close.end_line, close.end_column - 1, close.end_column)
        if kind == "kwarg":
            name = compiler.check_name(arg.children[0])
            if name in named:
                raise syntax_error(f"keyword argument repeated: {name}", arg)
            named.add(name)
            parts.append((kind, name, compiler.expression(arg.children[1])))
        else:
            parts.append((kind, None, compiler.expression(arg.children[0] if kind else arg)))
    return parts


def _positional_call(compiler, callee, arguments: list, span):
    """A call with positional arguments only (the common, fast case)."""
    runtime, call = compiler.runtime, calls.call
    origin, state = compiler.origin(span), STATE

    def evaluate(frame):
        function = callee(frame)
        args = [a(frame) for a in arguments]
        state.origin = origin
        try:
            return call(runtime, function, args, {})
        except USER_ERRORS as error:
            raise_at(shape_noted(error, call_operands(function, args)), span)
    return evaluate


def read_attribute(value, name: str, origin, span):
    """value.name, its error at the attribute's span (remembering, when an AttributeError, what
    it missed, as Python's attribute lookup does)."""
    STATE.origin = origin
    try:
        return attributes.get(value, name)
    except USER_ERRORS as error:
        raise_at(exceptions.remember_lookup(error, value, name), span)
    except GradRuntimeError as failure:  # from the program's own __getattr__ or property
        raise exceptions.remember_lookup(failure, value, name)


def _attribute_of(compiler, getattr_tree: Tree, receiver):
    """The closure of `receiver.name` (the getattr expression), its receiver compiled already."""
    name, span = compiler.check_name(getattr_tree.children[1]), span_of(getattr_tree)
    origin = compiler.origin(span)
    return lambda frame: read_attribute(receiver(frame), name, origin, span)


def _method_call(compiler, getattr_tree: Tree, receiver, arguments: list, span):
    """`receiver.name(a, b)`: a tensor's table method is called with the receiver first, as its
    BoundMethod would be, without making one; other attributes are got, then called."""
    name, attr_span = compiler.check_name(getattr_tree.children[1]), span_of(getattr_tree)
    attr_origin, origin = compiler.origin(attr_span), compiler.origin(span)
    runtime, invoke, state, tensor_method = compiler.runtime, calls.invoke, STATE, \
        attributes.tensor_method

    def evaluate(frame):
        value = receiver(frame)
        method = tensor_method(value, name) if type(value) is Tensor else None
        if method is None:
            function = read_attribute(value, name, attr_origin, attr_span)
            return _called(runtime, function, [a(frame) for a in arguments], {}, origin, span)
        state.origin = attr_origin
        args = [value]
        for argument in arguments:
            args.append(argument(frame))
        state.origin = origin
        try:
            return invoke(runtime, method, args, {})
        except USER_ERRORS as error:
            raise_at(shape_noted(error, args), span)
    return evaluate


def _called(runtime, function, args: list, kwargs: dict, origin, span):
    """function(*args, **kwargs), its errors at the call's span with the operands' shapes."""
    STATE.origin = origin
    try:
        return calls.call(runtime, function, args, kwargs)
    except USER_ERRORS as error:
        raise_at(shape_noted(error, call_operands(function, args)), span)


def _general_call(compiler, callee, parts: list, span):
    runtime, origin = compiler.runtime, compiler.origin(span)

    def evaluate(frame):
        function, args, kwargs = callee(frame), [], {}
        for kind, name, value in parts:
            if kind == "":
                args.append(value(frame))
            elif kind == "kwarg":
                kwargs[name] = value(frame)
            else:
                _spread(function, kind, value(frame), args, kwargs, span)
        return _called(runtime, function, args, kwargs, origin, span)
    return evaluate


def _spread(function, kind: str, value, args: list, kwargs: dict, span) -> None:
    """Add `*value` or `**value` to a call's arguments, with Python's errors."""
    name = calls.callable_name(function)
    if kind == "star_arg":
        try:
            args.extend(calls.iterate(value))
        except TorchError:
            raise GradRuntimeError("TypeError", f"{name}() argument after * must be an iterable, "
                                   f"not {type_name(value)}", span) from None
        return
    if not isinstance(value, Mapping):
        raise GradRuntimeError("TypeError", f"{name}() argument after ** must be a mapping, not "
                               f"{type_name(value)}", span)
    for key, item in value.items():
        if key in kwargs:
            raise GradRuntimeError("TypeError", f"{name}() got multiple values for keyword "
                                   f"argument '{key}'", span)
        kwargs[key] = item


def _is_bare_super(compiler, callee_tree) -> bool:
    """`super()` written in a method: a function defined directly in a class body."""
    scope = compiler.scope
    return (isinstance(callee_tree, Tree) and callee_tree.data == "var"
            and callee_tree.children[0].value == "super" and scope.kind == "function"
            and scope.parent is not None and scope.parent.kind == "class")


def _zero_argument_super(compiler, span):
    """super() as Python compiles it: the defining class (kept in the class body's namespace
    as __class__) and the method's first argument."""
    first = compiler.scope.params[0] if compiler.scope.params else None

    def evaluate(frame):
        if first is None or first not in frame.vars:
            raise_at(errors.runtime("super(): no arguments"), span)
        return classes.Super(frame.parent.vars["__class__"], frame.vars[first])
    return evaluate


def _is_scope_call(callee_tree) -> bool:
    """`dir()`, `globals()` or `locals()`: calls that read the scope they are written in."""
    return (isinstance(callee_tree, Tree) and callee_tree.data == "var"
            and callee_tree.children[0].value in ("dir", "globals", "locals"))


def _scope_call(compiler, callee_tree, span):
    """The call of a scope builtin with the running frame, unless the name is rebound."""
    name, callee = callee_tree.children[0].value, compiler.expression(callee_tree)
    top_level = compiler.scope.kind == "module"
    plain = _positional_call(compiler, callee, [], span)

    def evaluate(frame):
        builtin, scope = protocols.SCOPE_CALLS[name]
        if callee(frame) is not builtin:
            return plain(frame)
        return scope(frame, top_level)
    return evaluate
