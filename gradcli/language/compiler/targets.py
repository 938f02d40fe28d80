"""Assignment targets: names, unpacking, attributes and items; augmented assignment and `let`."""

from __future__ import annotations

import numpy as np
from gradcli.language.syntax.lark_standalone import Tree

from gradcli.engine import creation, dtypes, errors
from gradcli.engine.ops import inplace as inplace
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime import attributes
from gradcli.language.runtime import (calls, classes, protocols, subclass_protocol,
                                      tensor_subclasses)
from gradcli.language.runtime import operators
from gradcli.language.syntax.parser import GradSyntaxError
from gradcli.language.runtime.frames import GradRuntimeError
from gradcli.language.runtime.tensor_subclasses import STATUS as SUBCLASSES
from gradcli.language.runtime.values import abc_iterable, type_name
from gradcli.language.compiler.spans import USER_ERRORS, raise_at, span_of, syntax_error

_CONTAINERS = ("tuple", "tuple_items", "list")
_VALID = ("var", "getattr", "getitem", "empty_tuple")
# Python's names for expressions that cannot be assigned to (_PyPegen_get_expr_name).
_KIND_NAMES = {
    "number": "literal", "const_none": "None", "const_true": "True", "const_false": "False",
    "ellipsis": "ellipsis", "call": "function call", "binary": "expression",
    "power": "expression", "unary": "expression", "and_test": "expression",
    "or_test": "expression", "not_": "expression", "comparison": "comparison",
    "lambdef": "lambda", "ternary": "conditional expression", "listcomp": "list comprehension",
    "genexp": "generator expression", "dict": "dict literal", "dictcomp": "dict comprehension",
    "set": "set display", "setcomp": "set comprehension", "walrus": "named expression",
}
# Kinds for which an `x = ...` typo gets the "Maybe you meant '=='" hint, if unparenthesised.
_NO_HINT = ("const_none", "const_true", "const_false", "genexp", "comparison", "and_test",
            "or_test", "not_", "lambdef", "ternary")


def kind_name(tree: Tree) -> str:
    if tree.data == "string":
        return "f-string expression" if any(
            "f" in t.value[:2].lower() for t in tree.children) else "literal"
    if tree.data in _CONTAINERS:
        return "tuple" if tree.data != "list" else "list"
    return _KIND_NAMES.get(tree.data, "expression")


def _children(tree: Tree) -> list:
    if tree.data == "list":
        return tree.children[0].children if tree.children[0] is not None else []
    return [c for c in tree.children if c is not None]


def first_invalid(tree: Tree) -> Tree | None:
    """The first part of a target that cannot be assigned to, depth first."""
    if tree.data in _VALID:
        return None
    if tree.data in _CONTAINERS:
        for child in _children(tree):
            if child.data == "star_expr":
                child = child.children[0]
            bad = first_invalid(child)
            if bad is not None:
                return bad
        return None
    return tree


def check_target(tree: Tree, verb: str = "assign to") -> None:
    """Python's SyntaxError for a target that names no place (`1 = x`, `del f()`)."""
    if tree.data == "star_expr":
        raise syntax_error("cannot delete starred" if verb == "delete" else
                           "starred assignment target must be in a list or tuple", tree)
    bad = first_invalid(tree)
    if bad is not None:
        raise syntax_error(f"cannot {verb} {kind_name(bad)}", bad)


def check_assignment(statement: Tree, target: Tree, value: Tree) -> None:
    """A single `target = value`: Python's hints for what may be a mistyped `==`."""
    bad = first_invalid(target)
    if bad is None:
        return
    whole, outer = span_of(target), span_of(statement)
    if target.data == "tuple":
        last = _children(target)[-1]
        parenthesised = span_of(last).end_column < whole.end_column
        if last.data == "var" and bad is not last:
            first_value = _children(value)[0] if value.data == "tuple" else value
            name, end = span_of(last), span_of(first_value)
            raise GradSyntaxError("invalid syntax. Maybe you meant '==' or ':=' instead of '='?",
                                  name.line, name.column, end.end_column)
    else:
        last, parenthesised = target, whole.column > outer.column
    hinted = last.data not in _VALID + _CONTAINERS + _NO_HINT or (
        parenthesised and last.data in _NO_HINT[4:])
    if hinted:
        raise syntax_error(f"cannot assign to {kind_name(last)} here. Maybe you meant '==' "
                           "instead of '='?", last)
    check_target(target)


def compile_target(compiler, tree):
    """A closure `store(frame, value)` for an assignment target."""
    check_target(tree)
    kind, span = tree.data, span_of(tree)
    if kind == "var":
        return compiler.scope.storer(compiler.check_name(tree.children[0]))
    if kind in _CONTAINERS or kind == "empty_tuple":
        parts = _children(tree) if kind != "empty_tuple" else []
        starred = [i for i, t in enumerate(parts) if t.data == "star_expr"]
        if len(starred) > 1:
            raise syntax_error("multiple starred expressions in assignment", parts[starred[1]])
        stores = [compile_target(compiler, t.children[0] if t.data == "star_expr" else t)
                  for t in parts]
        return _store_many(stores, span, starred[0] if starred else None)
    if kind == "getattr":
        obj, name_token = tree.children
        owner, name = compiler.expression(obj), compiler.check_name(name_token)
        origin = compiler.origin(span)

        def store_attr(frame, value):
            target = owner(frame)
            STATE.origin = origin  # `x.requires_grad = True`, `x.data = ...`: for notes
            try:
                attributes.set(target, name, value)
            except USER_ERRORS as error:
                raise_at(error, span)
        return store_attr
    obj, subscripts = tree.children
    owner, key = compiler.expression(obj), compiler.subscript_key(subscripts)
    origin = compiler.origin(span)

    def store_item(frame, value):
        target, index = owner(frame), key(frame)
        STATE.origin = origin
        try:
            calls.set_item(target, index, value)
        except USER_ERRORS as error:
            raise_at(error, span)
    return store_item


def _store_many(stores: list, span, star: int | None = None):
    expected = len(stores)

    def store_many(frame, value):
        try:
            values = list(calls.iterate(value))
        except errors.TorchError:
            if abc_iterable(value) or classes.special_method(value, "__getitem__") is not None:
                raise  # an error of its iteration (a 0-d tensor's, a user __iter__'s)
            raise GradRuntimeError("TypeError", f"cannot unpack non-iterable {type_name(value)} "
                                   "object", span) from None
        if star is not None:
            after = expected - star - 1
            if len(values) < expected - 1:
                raise GradRuntimeError("ValueError", f"not enough values to unpack (expected at "
                                       f"least {expected - 1}, got {len(values)})", span)
            values = [*values[:star], values[star:len(values) - after],
                      *values[len(values) - after:]]
        if len(values) != expected:
            message = (f"not enough values to unpack (expected {expected}, got {len(values)})"
                       if len(values) < expected else
                       f"too many values to unpack (expected {expected})")
            raise GradRuntimeError("ValueError", message, span)
        for store, item in zip(stores, values):
            store(frame, item)
    return store_many




def compile_augmented(compiler, target, op: str, value, span):
    """`target op= value`: in place for tensors (as torch's __iadd__), rebinding otherwise."""
    if target.data not in ("var", "getattr", "getitem"):
        raise syntax_error(f"'{kind_name(target)}' is an illegal expression for augmented "
                           "assignment", target)
    load = compiler.expression(target)
    store = compile_target(compiler, target)
    fast = operators.NUMBER_OPS[op] if op in ("+", "-", "*") else None  # cannot fail
    numbers = operators.NUMBERS
    origin = compiler.origin(span)

    def run(frame):
        current, operand = load(frame), value(frame)
        if fast is not None and type(current) in numbers and type(operand) in numbers:
            store(frame, fast(current, operand))
            return
        STATE.origin = origin
        store(frame, compiler.guard(lambda: augmented(op, current, operand), span))
    return run


def augmented(op: str, current, operand, subclassing: bool = True):
    """The value of `current op= operand` (operator.iadd's): tensors and arrays change in
    place, as torch's and NumPy's __iadd__ do (`subclassing` as for operators.binary)."""
    if isinstance(current, Tensor) and op in operators.INPLACE_OPS:
        if SUBCLASSES.watching and tensor_subclasses.taken((current, operand)):
            return subclass_protocol.augmented(op, current, operand, lambda: inplace.apply_inplace(
                current, lambda t: operators.binary(op, t, operand, False)), subclassing)
        return inplace.apply_inplace(current, lambda t: operators.binary(op, t, operand))
    if isinstance(current, np.ndarray) and op in operators.INPLACE_OPS:
        return operators.array_inplace(op, current, operand)
    return operators.inplace_binary(op, current, operand)


def compile_let(compiler, tree, name, dtype_name, value, flag):
    """`let NAME[: DTYPE] = VALUE [requires_grad]`: a floating leaf tensor."""
    if flag is not None and flag.value != "requires_grad":
        raise GradSyntaxError("expected 'requires_grad' after a let value", flag.line, flag.column,
                              flag.column + len(flag))
    dtype = None
    if dtype_name is not None:
        dtype = dtypes.BY_NAME.get(dtype_name.value)
        if dtype is None:
            raise GradSyntaxError(f"unknown dtype '{dtype_name.value}'", dtype_name.line,
                                  dtype_name.column, dtype_name.column + len(dtype_name))
    store = compiler.scope.storer(compiler.check_name(name))
    requires_grad, span = flag is not None, span_of(tree)

    def run(frame):
        data = value(frame)

        def declare():
            from gradcli.engine.state import STATE
            chosen = dtype or (data.dtype if isinstance(data, Tensor) and
                               data.dtype.is_floating_point else STATE.default_dtype)
            return creation.tensor(data, dtype=chosen, requires_grad=requires_grad)
        store(frame, compiler.guard(declare, span))
    return run


def compile_delete(compiler, tree):
    """`del a, b[0], c.d`: names are unbound, items deleted from lists and dicts."""
    check_target(tree, "delete")
    parts = _children(tree) if tree.data in _CONTAINERS else [tree]
    actions = []
    for part in parts:
        check_target(part, "delete")
        if part.data == "var":
            actions.append(_delete_name(compiler, compiler.check_name(part.children[0]),
                                        span_of(part)))
        elif part.data == "getitem":
            owner, key = compiler.expression(part.children[0]), compiler.subscript_key(
                part.children[1])
            actions.append(_delete_item(compiler, owner, key, span_of(part)))
        elif part.data in ("empty_tuple", "list") and not _children(part):
            continue  # `del ()` and `del []` delete nothing
        else:
            actions.append(compile_delete(compiler, part) if part.data in _CONTAINERS
                           else _delete_attribute(compiler, part))

    def run(frame):
        for action in actions:
            action(frame)
    return run


def _delete_name(compiler, name: str, span):
    scope = compiler.scope
    where, hops = scope.resolve(name)

    def delete(frame):
        holder = frame.up(hops) if where != "local" else frame
        if name not in holder.vars:
            error = GradRuntimeError("NameError", f"name '{name}' is not defined", span)
            raise scope.name_error(error, name, frame)
        del holder.vars[name]
    return delete


def _delete_item(compiler, owner, key, span):
    def delete(frame):
        container, index = owner(frame), key(frame)
        compiler.guard(lambda: protocols.delete_item(container, index), span)
    return delete


def _delete_attribute(compiler, part):
    owner, name, span = compiler.expression(part.children[0]), part.children[1].value, \
        span_of(part)

    def delete(frame):
        value = owner(frame)
        compiler.guard(lambda: attributes.delete(value, name), span)
    return delete


protocols.augmented = augmented
