"""Assignment targets: names, unpacking, attributes and items; augmented assignment and `let`."""

from __future__ import annotations

from gradcli.engine import creation, dtypes, errors, inplace
from gradcli.engine.tensor import Tensor
from gradcli.language import attributes, calls, operators
from gradcli.language.parser import GradSyntaxError
from gradcli.language.runtime import GradRuntimeError


def compile_target(compiler, tree):
    """A closure `store(frame, value)` for an assignment target."""
    from gradcli.language.expressions import raise_at, span_of
    kind, span = tree.data, span_of(tree)
    if kind == "var":
        name = compiler.check_name(tree.children[0])

        def store_name(frame, value):
            frame.vars[name] = value
        return store_name
    if kind in ("tuple", "list", "tuple_items"):
        items = tree.children if kind != "list" else (tree.children[0].children
                                                       if tree.children[0] is not None else [])
        stores = [compile_target(compiler, t) for t in items if t is not None]

        def store_many(frame, value):
            values = compiler.guard(lambda: list(calls.iterate(value)), span)
            if len(values) != len(stores):
                few = len(values) < len(stores)
                message = (f"not enough values to unpack (expected {len(stores)}, got "
                           f"{len(values)})" if few else
                           f"too many values to unpack (expected {len(stores)})")
                raise GradRuntimeError("ValueError", message, span)
            for store, item in zip(stores, values):
                store(frame, item)
        return store_many
    if kind == "getattr":
        obj, name_token = tree.children
        owner, name = compiler.expression(obj), compiler.check_name(name_token)

        def store_attr(frame, value):
            target = owner(frame)
            try:
                attributes.set(target, name, value)
            except errors.TorchError as error:
                raise_at(error, span)
        return store_attr
    if kind == "getitem":
        obj, subscripts = tree.children
        owner, key = compiler.expression(obj), compiler.subscript_key(subscripts)

        def store_item(frame, value):
            target, index = owner(frame), key(frame)
            compiler.guard(lambda: calls.set_item(target, index, value), span)
        return store_item
    meta = span or _no_span()
    raise GradSyntaxError("cannot assign to expression", meta.line, meta.column,
                          meta.end_column if meta.end_line == meta.line else meta.column + 1)


def _no_span():
    from gradcli.language.runtime import Span
    return Span(1, 1, 1, 2)


_INPLACE = {"+": "add", "-": "sub", "*": "mul", "/": "div", "**": "pow"}


def compile_augmented(compiler, target, op: str, value, span):
    """`target op= value`: in place for tensors (as torch's __iadd__), rebinding otherwise."""
    load = compiler.expression(target)
    store = compile_target(compiler, target)

    def run(frame):
        current, operand = load(frame), value(frame)

        def combine():
            if isinstance(current, Tensor) and op in _INPLACE:
                return inplace.apply_inplace(
                    current, lambda t: operators.binary(op, t, operand))
            return operators.binary(op, current, operand)
        store(frame, compiler.guard(combine, span))
    return run


def compile_let(compiler, tree, name, dtype_name, value, flag):
    """`let NAME[: DTYPE] = VALUE [requires_grad]`: a floating leaf tensor."""
    from gradcli.language.expressions import span_of
    if flag is not None and flag.value != "requires_grad":
        raise GradSyntaxError("expected 'requires_grad' after a let value", flag.line, flag.column,
                              flag.column + len(flag))
    dtype = None
    if dtype_name is not None:
        dtype = dtypes.BY_NAME.get(dtype_name.value)
        if dtype is None:
            raise GradSyntaxError(f"unknown dtype '{dtype_name.value}'", dtype_name.line,
                                  dtype_name.column, dtype_name.column + len(dtype_name))
    target, requires_grad, span = compiler.check_name(name), flag is not None, span_of(tree)

    def run(frame):
        data = value(frame)

        def declare():
            from gradcli.engine.state import STATE
            chosen = dtype or (data.dtype if isinstance(data, Tensor) and
                               data.dtype.is_floating_point else STATE.default_dtype)
            return creation.tensor(data, dtype=chosen, requires_grad=requires_grad)
        frame.vars[target] = compiler.guard(declare, span)
    return run


def compile_delete(compiler, tree):
    names = [compiler.check_name(t.children[0]) for t in
             (tree.children if tree.data == "tuple" else [tree]) if t.data == "var"]

    def run(frame):
        for name in names:
            frame.vars.pop(name, None)
    return run
