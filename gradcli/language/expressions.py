"""Compiles expression trees into closures `frame -> value`, attaching spans to runtime errors."""

from __future__ import annotations

from typing import Callable

from lark import Token, Tree

from gradcli.engine.errors import TorchError
from gradcli.language import attributes, calls, literals, operators
from gradcli.language.builtins import truth
from gradcli.language.parser import GradSyntaxError, parse_expression
from gradcli.language.runtime import Frame, GradRuntimeError, Span

Expression = Callable[[Frame], object]

# Python exceptions that numpy or Python raise on bad user input, reported under their own name.
_USER_ERRORS = (ValueError, IndexError, TypeError, ZeroDivisionError, OverflowError, KeyError)


def span_of(node) -> Span | None:
    meta = getattr(node, "meta", None) if isinstance(node, Tree) else None
    if isinstance(node, Token):
        return Span(node.line, node.column, node.end_line or node.line,
                    node.end_column or node.column + len(node))
    if meta is None or getattr(meta, "empty", True):
        return None
    return Span(meta.line, meta.column, meta.end_line, meta.end_column)


def raise_at(error: Exception, span: Span | None):
    """Re-raise an engine or Python error as a GradRuntimeError at `span`."""
    if isinstance(error, TorchError):
        raise GradRuntimeError(error.kind, error.message, span) from None
    message = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
    raise GradRuntimeError(type(error).__name__, message, span) from None


class ExpressionCompiler:
    """Expression rules; `echo` (or None) receives the values of expression statements."""

    def __init__(self, runtime, echo=None):
        self.runtime = runtime
        self.echo = echo

    @staticmethod
    def guard(thunk, span):
        try:
            return thunk()
        except (TorchError, *_USER_ERRORS) as error:
            raise_at(error, span)

    def check_name(self, token: Token) -> str:
        name = token.value
        if name.startswith("__") and name.endswith("__"):
            raise GradSyntaxError(f"dunder names do not exist in gradcli: {name}", token.line,
                                  token.column, token.column + len(name))
        return name

    def expression(self, tree) -> Expression:
        rule = _EXPRESSIONS.get(tree.data)
        if rule is None:
            raise GradSyntaxError("invalid syntax", *_start(tree))
        return rule(self, tree)

    # ---- atoms ---------------------------------------------------------------------------------

    def var(self, tree: Tree) -> Expression:
        name, span = self.check_name(tree.children[0]), span_of(tree)

        def evaluate(frame):
            try:
                return frame.lookup(name)
            except KeyError:
                return calls.global_name(name, span)
        return evaluate

    def number(self, tree: Tree) -> Expression:
        value = literals.number(tree.children[0].value)
        return lambda frame: value

    def string(self, tree: Tree) -> Expression:
        pieces = []
        for token in tree.children:
            try:
                pieces.append(literals.string(token.value))
            except ValueError as error:
                raise GradSyntaxError(str(error), token.line, token.column,
                                      token.column + len(token)) from None
        if all(isinstance(p, str) for p in pieces):
            text = "".join(pieces)
            return lambda frame: text
        parts = []
        for token, piece in zip(tree.children, pieces):
            parts.extend([piece] if isinstance(piece, str) else
                         [self.fstring_part(p, token) for p in piece])
        return self.joined(parts)

    def fstring_part(self, part, token: Token):
        if isinstance(part, str):
            return part
        try:
            value = self.expression(parse_expression(part.expression.strip()))
        except GradSyntaxError as error:
            raise GradSyntaxError(f"f-string: {error.message}", token.line,
                                  token.column + part.offset,
                                  token.column + part.offset + len(part.expression)) from None
        spec = self.joined([self.fstring_part(p, token) for p in part.spec])
        printer, conversion, span = self.runtime.printer, part.conversion, span_of(token)

        def evaluate(frame):
            item = value(frame)
            if conversion == "r":
                item = printer.repr(item)
            elif conversion == "s":
                item = printer.str(item)
            return self.guard(lambda: printer.format(item, spec(frame)), span)
        return evaluate

    @staticmethod
    def joined(parts: list) -> Expression:
        def evaluate(frame):
            return "".join(p if isinstance(p, str) else p(frame) for p in parts)
        return evaluate

    def constant(value):
        return lambda self, tree: (lambda frame: value)

    const_none, const_true, const_false = constant(None), constant(True), constant(False)
    ellipsis, empty_tuple = constant(Ellipsis), constant(())

    def items(self, trees) -> Callable[[Frame], list]:
        evaluators = [self.expression(t) for t in trees if t is not None]
        return lambda frame: [e(frame) for e in evaluators]

    def tuple(self, tree: Tree) -> Expression:
        values = self.items(tree.children)
        return lambda frame: tuple(values(frame))

    def list(self, tree: Tree) -> Expression:
        inner = tree.children[0]
        values = self.items(inner.children) if inner is not None else (lambda frame: [])
        return values

    def tuple_items(self, tree: Tree) -> Expression:
        return self.tuple(tree)

    def dict(self, tree: Tree) -> Expression:
        inner = tree.children[0]
        pairs = [(self.expression(i.children[0]), self.expression(i.children[1]))
                 for i in (inner.children if inner is not None else []) if i is not None]
        span = span_of(tree)
        return lambda frame: self.guard(lambda: {k(frame): v(frame) for k, v in pairs}, span)

    def listcomp(self, tree: Tree) -> Expression:
        from gradcli.language.targets import compile_target
        element, clause = tree.children
        loops = []
        while clause is not None:
            target, iterable, *rest = clause.children
            following = rest[-1] if rest and rest[-1] is not None and rest[-1].data == "comp_for" \
                else None
            conditions = [self.expression(c.children[0]) for c in rest
                          if c is not None and c.data == "comp_if"]
            loops.append((compile_target(self, target), self.expression(iterable), conditions))
            clause = following
        produce, span = self.expression(element), span_of(tree)

        def evaluate(frame):
            scope, out = Frame(frame), []
            self._comprehend(loops, 0, scope, produce, out, span)
            return out
        return evaluate

    def _comprehend(self, loops, level, scope, produce, out, span):
        if level == len(loops):
            out.append(produce(scope))
            return
        store, source, conditions = loops[level]
        for item in self.guard(lambda: calls.iterate(source(scope)), span):
            store(scope, item)
            if all(self.guard(lambda: truth(c(scope)), span) for c in conditions):
                self._comprehend(loops, level + 1, scope, produce, out, span)

    # ---- operators -----------------------------------------------------------------------------

    def binary(self, tree: Tree) -> Expression:
        left, op_token, right = tree.children
        a, b, op, span = self.expression(left), self.expression(right), op_token.value, \
            span_of(tree)

        def evaluate(frame):
            x, y = a(frame), b(frame)
            try:
                return operators.binary(op, x, y)
            except (TorchError, *_USER_ERRORS) as error:
                raise_at(error, span)
        return evaluate

    def power(self, tree: Tree) -> Expression:
        left, _, right = tree.children
        a, b, span = self.expression(left), self.expression(right), span_of(tree)

        def evaluate(frame):
            x, y = a(frame), b(frame)
            try:
                return operators.binary("**", x, y)
            except (TorchError, *_USER_ERRORS) as error:
                raise_at(error, span)
        return evaluate

    def unary(self, tree: Tree) -> Expression:
        op_token, operand = tree.children
        a, op, span = self.expression(operand), op_token.value, span_of(tree)
        return lambda frame: self.guard(lambda: operators.unary(op, a(frame)), span)

    def comparison(self, tree: Tree) -> Expression:
        operands = [self.expression(c) for c in tree.children[::2]]
        ops = [" ".join(t.value.split()) for t in tree.children[1::2]]
        span = span_of(tree)

        def evaluate(frame):
            left = operands[0](frame)
            result = True
            for op, right_eval in zip(ops, operands[1:]):
                right = right_eval(frame)
                result = self.guard(lambda: operators.compare(op, left, right), span)
                if len(ops) > 1 and not self.guard(lambda: truth(result), span):
                    return result
                left = right
            return result
        return evaluate

    def and_test(self, tree: Tree) -> Expression:
        parts, span = [self.expression(c) for c in tree.children], span_of(tree)

        def evaluate(frame):
            value = None
            for part in parts:
                value = part(frame)
                if not self.guard(lambda: truth(value), span):
                    return value
            return value
        return evaluate

    def or_test(self, tree: Tree) -> Expression:
        parts, span = [self.expression(c) for c in tree.children], span_of(tree)

        def evaluate(frame):
            value = None
            for part in parts:
                value = part(frame)
                if self.guard(lambda: truth(value), span):
                    return value
            return value
        return evaluate

    def not_(self, tree: Tree) -> Expression:
        a, span = self.expression(tree.children[0]), span_of(tree)
        return lambda frame: not self.guard(lambda: truth(a(frame)), span)

    def ternary(self, tree: Tree) -> Expression:
        body, test, other = (self.expression(c) for c in tree.children)
        span = span_of(tree.children[1])
        return lambda frame: body(frame) if self.guard(lambda: truth(test(frame)), span) \
            else other(frame)

    # ---- postfix -------------------------------------------------------------------------------

    def getattr(self, tree: Tree) -> Expression:
        obj, name_token = tree.children
        a, name, span = self.expression(obj), self.check_name(name_token), span_of(tree)

        def evaluate(frame):
            value = a(frame)
            try:
                return attributes.get(value, name)
            except (TorchError, *_USER_ERRORS) as error:
                raise_at(error, span)
        return evaluate

    def getitem(self, tree: Tree) -> Expression:
        obj, subscripts = tree.children
        a, key, span = self.expression(obj), self.subscript_key(subscripts), span_of(tree)

        def evaluate(frame):
            value, index = a(frame), key(frame)
            try:
                return calls.get_item(value, index)
            except (TorchError, *_USER_ERRORS) as error:
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
        callee_tree, arguments = tree.children
        callee, span = self.expression(callee_tree), span_of(tree)
        positional, keywords = [], []
        for arg in arguments.children if arguments is not None else []:
            if arg is None:
                continue
            if isinstance(arg, Tree) and arg.data == "kwarg":
                keywords.append((self.check_name(arg.children[0]),
                                 self.expression(arg.children[1])))
            elif isinstance(arg, Tree) and arg.data == "star_arg":
                positional.append((True, self.expression(arg.children[0])))
            else:
                positional.append((False, self.expression(arg)))
        runtime = self.runtime

        def evaluate(frame):
            function = callee(frame)
            args = []
            for starred, value in positional:
                if starred:
                    args.extend(self.guard(lambda: calls.iterate(value(frame)), span))
                else:
                    args.append(value(frame))
            kwargs = {k: v(frame) for k, v in keywords}
            try:
                return calls.call(runtime, function, args, kwargs)
            except (TorchError, *_USER_ERRORS) as error:
                raise_at(error, span)
        return evaluate



def _start(tree) -> tuple[int, int, int]:
    span = span_of(tree) or Span(1, 1, 1, 2)
    return span.line, span.column, span.column + 1


_C = ExpressionCompiler
_EXPRESSIONS = {
    "var": _C.var, "number": _C.number, "string": _C.string, "const_none": _C.const_none,
    "const_true": _C.const_true, "const_false": _C.const_false, "ellipsis": _C.ellipsis,
    "empty_tuple": _C.empty_tuple, "tuple": _C.tuple, "list": _C.list,
    "tuple_items": _C.tuple_items, "dict": _C.dict, "listcomp": _C.listcomp, "binary": _C.binary,
    "power": _C.power, "unary": _C.unary, "comparison": _C.comparison, "and_test": _C.and_test,
    "or_test": _C.or_test, "not_": _C.not_, "ternary": _C.ternary, "getattr": _C.getattr,
    "getitem": _C.getitem, "call": _C.call,
    "lambdef": lambda self, tree: self.lambdef(tree),  # defined with the statements
}
