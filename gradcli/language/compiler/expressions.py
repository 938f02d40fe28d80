"""Compiles expression trees into closures `frame -> value`, attaching spans to runtime errors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Callable

from gradcli.language.syntax.lark_standalone import Token, Tree

from gradcli.engine.errors import TorchError
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime import calls, generators
from gradcli.language.runtime import operators
from gradcli.language.compiler.arguments import compile_call, read_attribute
from gradcli.language.runtime.coercions import truth
from gradcli.language.runtime.formatting import percent_format
from gradcli.language.runtime.values import iterate, type_name
from gradcli.language.runtime.tensor_subclasses import STATUS as SUBCLASSES
from gradcli.engine.state import STATE
from gradcli.language.runtime.frames import Frame, Origin, Span
from gradcli.language.runtime.shape_notes import shape_noted
from gradcli.language.compiler.scopes import Scope
from gradcli.language.compiler.strings import compile_string
from gradcli.language.syntax import literals
from gradcli.language.compiler.spans import USER_ERRORS, condition, raise_at, span_of, syntax_error

Expression = Callable[[Frame], object]

_NUMBERS, _NUMBER_OPS = operators.NUMBERS, operators.NUMBER_OPS
_TENSOR_OPERANDS = frozenset((Tensor, bool, int, float))


class ExpressionCompiler:
    """Expression rules; `echo` (or None) receives the values of expression statements."""

    def __init__(self, runtime, echo=None):
        self.runtime = runtime
        self.echo = echo
        self.scope = Scope("module")
        self.private_class = None  # the class whose body is being compiled (private names)

    def origin(self, span: Span | None) -> Origin | None:
        """The provenance of operations at `span`, given to the engine as they run."""
        if span is None:
            return None
        return Origin(self.runtime.filename, span, self.runtime.source)

    @staticmethod
    def guard(thunk, span):
        try:
            return thunk()
        except USER_ERRORS as error:
            raise_at(error, span)

    def check_name(self, token: Token) -> str:
        """A name as written. Dunder names are ordinary names here (`__init__`, `__name__`);
        attribute lookup is what keeps builtin objects' dunders out of reach."""
        return token.value

    def expression(self, tree) -> Expression:
        rule = _EXPRESSIONS.get(tree.data)
        if rule is None:
            raise syntax_error("invalid syntax", tree)
        return rule(self, tree)

    # ---- names and atoms -----------------------------------------------------------------------

    def var(self, tree: Tree) -> Expression:
        return self.scope.loader(self.check_name(tree.children[0]), span_of(tree))

    def number(self, tree: Tree) -> Expression:
        value = literals.number(tree.children[0].value)
        return lambda frame: value

    def string(self, tree: Tree) -> Expression:
        return compile_string(self, tree)

    def constant(value):
        return lambda self, tree: (lambda frame: value)

    const_none, const_true, const_false = constant(None), constant(True), constant(False)
    ellipsis, empty_tuple = constant(Ellipsis), constant(())

    def items(self, trees) -> Callable[[Frame], list]:
        """The values of display items, a starred item (`*rest`) spread in place."""
        trees = [t for t in trees if t is not None]
        if not any(t.data == "star_expr" for t in trees):
            evaluators = [self.expression(t) for t in trees]
            return lambda frame: [e(frame) for e in evaluators]
        parts = [(t.data == "star_expr", self.expression(t.children[0] if t.data == "star_expr"
                                                         else t), span_of(t)) for t in trees]

        def spread(frame):
            out = []
            for starred, evaluate, span in parts:
                if starred:
                    value = evaluate(frame)
                    out.extend(self.guard(lambda: _unpacked(value), span))
                else:
                    out.append(evaluate(frame))
            return out
        return spread

    def star_expr(self, tree: Tree) -> Expression:
        raise syntax_error("can't use starred expression here", tree)

    def tuple(self, tree: Tree) -> Expression:
        values = self.items(tree.children)
        return lambda frame: tuple(values(frame))

    def list(self, tree: Tree) -> Expression:
        inner = tree.children[0]
        return self.items(inner.children) if inner is not None else (lambda frame: [])

    def dict(self, tree: Tree) -> Expression:
        inner = tree.children[0]
        pairs = [(None, self.expression(i.children[0])) if i.data == "dict_unpack" else
                 (self.expression(i.children[0]), self.expression(i.children[1]))
                 for i in (inner.children if inner is not None else []) if i is not None]
        span = span_of(tree)

        def build(frame):
            out = {}
            for key, value in pairs:
                if key is None:
                    mapping = value(frame)
                    if not isinstance(mapping, Mapping):
                        raise TypeError(f"'{type_name(mapping)}' object is not a mapping")
                    out.update(mapping)
                else:
                    out[key(frame)] = value(frame)
            return out
        if all(key is not None for key, _ in pairs):
            return lambda frame: self.guard(lambda: {k(frame): v(frame) for k, v in pairs}, span)
        return lambda frame: self.guard(lambda: build(frame), span)

    def set(self, tree: Tree) -> Expression:
        values, span = self.items(tree.children[0].children), span_of(tree)
        return lambda frame: self.guard(lambda: set(values(frame)), span)

    def walrus(self, tree: Tree) -> Expression:
        name, value = tree.children
        store, evaluate = self.scope.storer(self.check_name(name)), self.expression(value)

        def assign(frame):
            result = evaluate(frame)
            store(frame, result)
            return result
        return assign

    def listcomp(self, tree: Tree) -> Expression:
        from gradcli.language.compiler.comprehensions import compile_comprehension
        return compile_comprehension(self, tree)

    genexp = dictcomp = setcomp = listcomp

    # ---- operators -----------------------------------------------------------------------------

    def binary(self, tree: Tree) -> Expression:
        left, op_token, right = tree.children
        return self._binary(left, op_token.value, right, span_of(tree))

    def power(self, tree: Tree) -> Expression:
        left, _, right = tree.children
        return self._binary(left, "**", right, span_of(tree))

    def _binary(self, left, op: str, right, span) -> Expression:
        a, b = self.expression(left), self.expression(right)
        runtime = self.runtime
        apply = _percent_or_binary(runtime.printer) if op == "%" else operators.binary

        fast, divides = _NUMBER_OPS.get(op), op in ("/", "//", "%")
        origin, state = self.origin(span), STATE
        on_tensor = operators.TENSOR_ARITHMETIC.get(op)  # what operators.binary would call
        subclasses = SUBCLASSES  # (instances of a tensor subclass go through binary)

        def evaluate(frame):
            x, y = a(frame), b(frame)
            if fast is not None and type(x) in _NUMBERS and type(y) in _NUMBERS and (
                    y or not divides):
                try:
                    return fast(x, y)
                except USER_ERRORS as error:  # a big int's quotient too large for a float
                    raise_at(error, span)
            state.origin = origin
            try:
                if runtime.depth >= runtime.recursion_limit and (
                        isinstance(x, Tensor) or isinstance(y, Tensor)):
                    runtime.check_native_call()
                if on_tensor is not None and type(x) is Tensor and type(y) in _TENSOR_OPERANDS \
                        and not subclasses.watching:
                    return on_tensor(x, y)
                return apply(op, x, y)
            except USER_ERRORS as error:
                raise_at(shape_noted(error, (x, y)), span)
        return evaluate

    def unary(self, tree: Tree) -> Expression:
        op_token, operand = tree.children
        op = op_token.value
        return self._then(operand, lambda value: operators.unary(op, value), span_of(tree))

    def _then(self, operand, apply, span) -> Expression:
        """`apply` to the value of `operand`, with its errors at `span`."""
        a, origin, state = self.expression(operand), self.origin(span), STATE

        def evaluate(frame):
            value = a(frame)
            state.origin = origin
            try:
                return apply(value)
            except USER_ERRORS as error:
                raise_at(error, span)
        return evaluate

    def comparison(self, tree: Tree) -> Expression:
        operands = [self.expression(c) for c in tree.children[::2]]
        ops = [" ".join(t.value for t in op.children) for op in tree.children[1::2]]
        span, compare, runtime = span_of(tree), operators.compare, self.runtime
        origin, state = self.origin(span), STATE
        if len(ops) == 1:
            a, b, op = operands[0], operands[1], ops[0]
            fast = _NUMBER_OPS.get(op)

            def single(frame):
                x, y = a(frame), b(frame)
                if fast is not None and type(x) in _NUMBERS and type(y) in _NUMBERS:
                    return fast(x, y)
                state.origin = origin
                try:
                    return compare(op, x, y, runtime.recursion_limit - runtime.depth)
                except USER_ERRORS as error:
                    raise_at(error, span)
            return single

        def chain(frame):
            left = operands[0](frame)
            for op, right_eval in zip(ops, operands[1:]):
                right = right_eval(frame)
                state.origin = origin
                try:
                    result = compare(op, left, right, runtime.recursion_limit - runtime.depth)
                    if not truth(result):
                        return result
                except USER_ERRORS as error:
                    raise_at(error, span)
                left = right
            return result
        return chain

    def and_test(self, tree: Tree) -> Expression:
        return self._logical(tree, stop_when=False)

    def or_test(self, tree: Tree) -> Expression:
        return self._logical(tree, stop_when=True)

    def _logical(self, tree: Tree, stop_when: bool) -> Expression:
        parts, span = [self.expression(c) for c in tree.children], span_of(tree)
        last = parts.pop()

        def evaluate(frame):
            for part in parts:
                value = part(frame)
                try:
                    if truth(value) is stop_when:
                        return value
                except TorchError as error:
                    raise_at(error, span)
            return last(frame)
        return evaluate

    def not_(self, tree: Tree) -> Expression:
        test = condition(self.expression(tree.children[0]), span_of(tree))
        return lambda frame: not test(frame)

    def ternary(self, tree: Tree) -> Expression:
        body, test_tree, other = tree.children
        body, other = self.expression(body), self.expression(other)
        test = condition(self.expression(test_tree), span_of(test_tree))
        return lambda frame: body(frame) if test(frame) else other(frame)

    # ---- postfix -------------------------------------------------------------------------------

    def getattr(self, tree: Tree) -> Expression:
        obj, name_token = tree.children
        name, span = self.check_name(name_token), span_of(tree)
        a, origin = self.expression(obj), self.origin(span)
        return lambda frame: read_attribute(a(frame), name, origin, span)

    def getitem(self, tree: Tree) -> Expression:
        obj, subscripts = tree.children
        a, key, span = self.expression(obj), self.subscript_key(subscripts), span_of(tree)
        origin, state = self.origin(span), STATE

        def evaluate(frame):
            value, index = a(frame), key(frame)
            state.origin = origin
            try:
                return calls.get_item(value, index)
            except USER_ERRORS as error:
                raise_at(error, span)
        return evaluate

    def subscript_key(self, subscripts: Tree) -> Expression:
        *items, trailing = subscripts.children
        parts = [self.slice(i) if isinstance(i, Tree) and i.data == "slice" else self.expression(i)
                 for i in items]
        if len(parts) == 1 and trailing is None:
            return parts[0]
        return lambda frame: tuple(p(frame) for p in parts)

    def slice(self, tree: Tree) -> Expression:
        bounds = [self.expression(c) if c is not None else None for c in tree.children]
        while len(bounds) < 3:
            bounds.append(None)
        return lambda frame: slice(*(b(frame) if b is not None else None for b in bounds))

    def call(self, tree: Tree) -> Expression:
        return compile_call(self, tree)

    def yield_expr(self, tree: Tree) -> Expression:
        """`yield value`: hand the value to the generator's consumer, then the value sent."""
        self._inside_function(tree, "yield")
        value = self.expression(tree.children[0]) if tree.children[0] is not None else None
        if value is None:
            return lambda frame: generators.yield_value(frame, None)
        return lambda frame: generators.yield_value(frame, value(frame))

    def yield_from(self, tree: Tree) -> Expression:
        self._inside_function(tree, "yield")
        source, span = self.expression(tree.children[0]), span_of(tree)

        def evaluate(frame):
            iterable = source(frame)
            return self.guard(lambda: generators.yield_from(frame, iterable, iterate), span)
        return evaluate

    def _inside_function(self, tree: Tree, word: str) -> None:
        if self.scope.kind != "function":
            raise syntax_error(f"'{word}' outside function", tree)


_C = ExpressionCompiler
_EXPRESSIONS = {
    "var": _C.var, "number": _C.number, "string": _C.string, "const_none": _C.const_none,
    "const_true": _C.const_true, "const_false": _C.const_false, "ellipsis": _C.ellipsis,
    "empty_tuple": _C.empty_tuple, "tuple": _C.tuple, "list": _C.list,
    "tuple_items": _C.tuple, "dict": _C.dict, "listcomp": _C.listcomp, "genexp": _C.genexp,
    "dictcomp": _C.dictcomp, "set": _C.set, "setcomp": _C.setcomp, "walrus": _C.walrus,
    "star_expr": _C.star_expr, "binary": _C.binary, "power": _C.power, "unary": _C.unary,
    "comparison": _C.comparison, "and_test": _C.and_test, "or_test": _C.or_test, "not_": _C.not_,
    "ternary": _C.ternary, "getattr": _C.getattr, "getitem": _C.getitem, "call": _C.call,
    "yield_expr": _C.yield_expr, "yield_from": _C.yield_from,
    "lambdef": lambda self, tree: self.lambdef(tree),  # defined with the statements
}


def _unpacked(value) -> list:
    """The items `*value` spreads, with Python's error for what cannot be iterated."""
    try:
        return list(iterate(value))
    except TorchError as error:
        if error.kind == "TypeError" and error.message.endswith("is not iterable"):
            raise TypeError(f"Value after * must be an iterable, not {type_name(value)}") \
                from None
        raise


def _percent_or_binary(printer):
    """`%`: printf-style formatting when the left operand is a string, else the operator."""
    def apply(op, x, y):
        if isinstance(x, str):
            return percent_format(printer, x, y)
        return operators.binary(op, x, y)
    return apply
