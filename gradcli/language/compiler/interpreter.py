"""Compiles statement trees once into closures over frames, then runs them (fast in loops)."""

from __future__ import annotations

import sys
from typing import Callable

from gradcli.language.syntax.lark_standalone import Tree
from gradcli.language.syntax.parser import GradSyntaxError

from gradcli.language.runtime import calls, classes
from gradcli.language.runtime import exceptions
from gradcli.language.compiler import targets
from gradcli.language.compiler.expressions import ExpressionCompiler
from gradcli.language.compiler.spans import (ITERATION_ERRORS, USER_ERRORS, condition, raise_at,
                                             span_of, syntax_error)
from gradcli.language.compiler.functions import compile_function, docstring
from gradcli.language.compiler.mangling import mangle_tree
from gradcli.language.compiler.scopes import function_scope
from gradcli.language.runtime.imports import FUTURE_FEATURES, bind_import, bind_star
from gradcli.language.runtime.frames import BREAK, CONTINUE, Frame, GradRuntimeError, Return

Statement = Callable[[Frame], object]


def _sequence(compiled: list, runtime) -> Statement:
    """Run (line, statement) pairs in order, keeping `runtime.line` on the one running (where a
    warning is reported)."""
    if len(compiled) == 1:
        line, statement = compiled[0]

        def run_one(frame):
            runtime.line = line
            return statement(frame)
        return run_one

    def run(frame):
        for line, statement in compiled:
            runtime.line = line
            signal = statement(frame)
            if signal is not None:
                return signal
        return None
    return run


class Compiler(ExpressionCompiler):
    """Turns statement trees into closures; expressions come from ExpressionCompiler.

    A statement closure returns None, or how it ended early: BREAK, CONTINUE or a Return.
    """

    def __init__(self, runtime, echo=None):
        super().__init__(runtime, echo)
        self.loops = 0  # enclosing loops in the current function body
        self.preamble = 0  # 1 after a docstring, 2 after other code: no __future__ import then

    def statements(self, trees: list) -> Statement:
        return _sequence([(t.meta.line, self.statement(t)) for t in trees if isinstance(t, Tree)],
                         self.runtime)

    def statement(self, tree: Tree) -> Statement:
        if tree.data != "simple_stmt":
            self.check_future(tree)
        return _STATEMENTS.get(tree.data, Compiler.statements_of)(self, tree)

    def check_future(self, tree: Tree) -> None:
        """Python's compile-time rules for `from __future__ import ...`: only after at most a
        docstring, and only of the features it knows."""
        if tree.data in ("import_from", "import_star") and [t.value for t in tree.children[0].children] == [
                "__future__"]:
            if self.preamble == 2:
                raise syntax_error("from __future__ imports must occur at the beginning of the "
                                   "file", tree)
            names = tree.children[1] if tree.data == "import_from" else None
            for name in names.children if isinstance(names, Tree) else ["*"]:
                feature = name.children[0].value if isinstance(name, Tree) else "*"
                if feature not in FUTURE_FEATURES:
                    raise syntax_error("not a chance" if feature == "braces" else
                                       f"future feature {feature} is not defined", tree)
        elif self.preamble == 0 and tree.data == "expr_stmt" and isinstance(
                tree.children[0], Tree) and tree.children[0].data == "string":
            self.preamble = 1
        else:
            self.preamble = 2

    def statements_of(self, tree: Tree) -> Statement:
        return self.statements(tree.children)

    # ---- simple statements ---------------------------------------------------------------------

    def expr_stmt(self, tree: Tree) -> Statement:
        evaluate, echo = self.expression(tree.children[0]), self.echo
        if echo is None:
            def run(frame):
                evaluate(frame)
            return run

        def run_and_echo(frame):
            value = evaluate(frame)
            if value is not None:
                echo(value)
        return run_and_echo

    def yield_stmt(self, tree: Tree) -> Statement:
        evaluate = self.expression(tree.children[0])
        return lambda frame: evaluate(frame) and None

    def assign(self, tree: Tree) -> Statement:
        *lhs, rhs = tree.children
        if len(lhs) == 1:
            targets.check_assignment(tree, lhs[0], rhs)
        evaluate = self.expression(rhs)
        stores = [targets.compile_target(self, t) for t in lhs]
        if len(stores) == 1:
            store = stores[0]

            def run_one(frame):
                store(frame, evaluate(frame))
            return run_one

        def run(frame):
            value = evaluate(frame)
            for store in stores:
                store(frame, value)
        return run

    def annassign(self, tree: Tree) -> Statement:
        """`target: annotation [= value]`: the annotation is evaluated at the top level and in
        class bodies for a plain name (as Python does), never inside functions."""
        target, annotation, value = tree.children
        targets.check_target(target)
        if target.data not in ("var", "getattr", "getitem"):
            raise syntax_error(f"only single target (not {targets.kind_name(target)}) can be "
                               "annotated", target)
        annotate = self.expression(annotation) if self.scope.kind in ("module", "class") and \
            target.data == "var" else None
        if annotate is not None:  # the module's or the class's __annotations__
            annotate = _annotation_recorder(annotate, target.children[0].value)
        if value is None:
            return (lambda frame: annotate(frame) and None) if annotate else \
                (lambda frame: None)
        evaluate, store = self.expression(value), targets.compile_target(self, target)

        def run(frame):
            store(frame, evaluate(frame))
            if annotate is not None:
                annotate(frame)
        return run

    def augassign(self, tree: Tree) -> Statement:
        target, op_token, rhs = tree.children
        return targets.compile_augmented(self, target, op_token.value[:-1], self.expression(rhs),
                                         span_of(tree))

    def let_stmt(self, tree: Tree) -> Statement:
        name, dtype_name, value, flag = tree.children
        return targets.compile_let(self, tree, name, dtype_name, self.expression(value), flag)

    def pass_stmt(self, tree: Tree) -> Statement:
        return lambda frame: None

    def break_stmt(self, tree: Tree) -> Statement:
        if not self.loops:
            raise syntax_error("'break' outside loop", tree)
        return lambda frame: BREAK

    def continue_stmt(self, tree: Tree) -> Statement:
        if not self.loops:
            raise syntax_error("'continue' not properly in loop", tree)
        return lambda frame: CONTINUE

    def return_stmt(self, tree: Tree) -> Statement:
        if self.scope.kind != "function":
            raise syntax_error("'return' outside function", tree)
        value = tree.children[0]
        if value is None:
            return lambda frame: Return(None)
        evaluate = self.expression(value)
        return lambda frame: Return(evaluate(frame))

    def del_stmt(self, tree: Tree) -> Statement:
        return targets.compile_delete(self, tree.children[0])

    def global_stmt(self, tree: Tree) -> Statement:
        return lambda frame: None

    def nonlocal_stmt(self, tree: Tree) -> Statement:
        if self.scope.kind == "module":
            raise syntax_error("nonlocal declaration not allowed at module level", tree)
        return lambda frame: None

    def assert_stmt(self, tree: Tree) -> Statement:
        test_tree, message_tree = tree.children
        test = condition(self.expression(test_tree), span_of(test_tree))
        message = self.expression(message_tree) if message_tree is not None else None
        span, printer = span_of(tree), self.runtime.printer

        def run(frame):
            if not test(frame):
                if message is None:
                    raise GradRuntimeError("AssertionError", "", span)
                value = message(frame)  # AssertionError(value): its args hold the value itself
                raise GradRuntimeError("AssertionError", printer.str(value), span, (value,))
        return run

    def raise_stmt(self, tree: Tree) -> Statement:
        value_tree, cause_tree = tree.children
        span, runtime = span_of(tree), self.runtime
        if value_tree is None:
            def reraise(frame):
                if not runtime.handling:
                    raise GradRuntimeError("RuntimeError", "No active exception to reraise", span)
                raise runtime.handling[-1]
            return reraise
        evaluate = self.expression(value_tree)
        cause = self.expression(cause_tree) if cause_tree is not None else None

        def run(frame):
            value = evaluate(frame)
            reason = exceptions.NO_CAUSE
            if cause is not None:
                reason = cause(frame)
                self.guard(lambda: exceptions.check_cause(reason), span)
            error = self.guard(lambda: exceptions.raised(value, runtime.printer, span), span)
            context = exceptions.caught_value(runtime.handling[-1]) if runtime.handling else None
            self.guard(lambda: exceptions.chain(error.value, reason, context), span)
            raise error
        return run

    def import_name(self, tree: Tree) -> Statement:
        binds = []
        for item in tree.children:
            dotted, alias = item.children
            binds.append(([t.value for t in dotted.children],
                          alias.value if alias is not None else None))
        span = span_of(tree)

        def run(frame):
            for path, alias in binds:
                self.guard(lambda: bind_import(frame, path, alias, None), span)
        return run

    def import_from(self, tree: Tree) -> Statement:
        dotted, names = tree.children
        path = [t.value for t in dotted.children]
        items = [(n.children[0].value, n.children[1].value if n.children[1] else None)
                 for n in names.children if isinstance(n, Tree)]
        span = span_of(tree)

        def run(frame):
            self.guard(lambda: bind_import(frame, path, None, items), span)
        return run

    def import_star(self, tree: Tree) -> Statement:
        if self.scope.kind != "module":  # Python's caret is under the `*`, the last column
            meta = tree.meta
            raise GradSyntaxError("import * only allowed at module level", meta.end_line,
                                  meta.end_column - 1, meta.end_column)
        path = [t.value for t in tree.children[0].children]
        span = span_of(tree)

        def run(frame):
            self.guard(lambda: bind_star(frame, path), span)
        return run

    # ---- compound statements -------------------------------------------------------------------

    def if_stmt(self, tree: Tree) -> Statement:
        test, body, *rest = tree.children
        branches = [(condition(self.expression(test), span_of(test)), self.suite(body))]
        otherwise = None
        for clause in rest:
            if clause is None:
                continue
            if clause.data == "elif_clause":
                branches.append((condition(self.expression(clause.children[0]),
                                           span_of(clause.children[0])),
                                 self.suite(clause.children[1])))
            else:
                otherwise = self.suite(clause.children[0])

        def run(frame):
            for test, block in branches:
                if test(frame):
                    return block(frame)
            if otherwise is not None:
                return otherwise(frame)
            return None
        return run

    def suite(self, tree: Tree) -> Statement:
        return self.statements(tree.children)

    def loop_body(self, tree: Tree) -> Statement:
        self.loops += 1
        try:
            return self.suite(tree)
        finally:
            self.loops -= 1

    def while_stmt(self, tree: Tree) -> Statement:
        test_tree, body, else_clause = tree.children
        test = condition(self.expression(test_tree), span_of(test_tree))
        block = self.loop_body(body)
        otherwise = self.suite(else_clause.children[0]) if else_clause is not None else None

        def run(frame):
            while test(frame):
                signal = block(frame)
                if signal is not None and signal is not CONTINUE:
                    return None if signal is BREAK else signal
            return otherwise(frame) if otherwise is not None else None
        return run

    def for_stmt(self, tree: Tree) -> Statement:
        target, iterable, body, else_clause = tree.children
        store = targets.compile_target(self, target)
        source, span = self.expression(iterable), span_of(iterable)
        block = self.loop_body(body)
        otherwise = self.suite(else_clause.children[0]) if else_clause is not None else None

        def run(frame):
            value = source(frame)
            try:
                items = calls.iterate(value)
            except USER_ERRORS as error:
                raise_at(error, span)
            items = iter(items)
            while True:
                try:  # a lazy iterable fails as it advances: at the loop's iterable
                    item = next(items)
                except StopIteration:
                    break
                except ITERATION_ERRORS as error:
                    raise_at(error, span)
                store(frame, item)
                signal = block(frame)
                if signal is not None and signal is not CONTINUE:
                    return None if signal is BREAK else signal
            return otherwise(frame) if otherwise is not None else None
        return run

    def with_stmt(self, tree: Tree) -> Statement:
        *items, body = tree.children
        managers = []
        for item in items:
            alias = item.children[1]
            store = targets.compile_target(self, Tree("var", [alias], item.meta)) \
                if alias is not None else None
            managers.append((self.expression(item.children[0]), store, span_of(item)))
        block = self.suite(body)

        def run(frame, index=0):
            if index == len(managers):
                return block(frame)
            evaluate, store, span = managers[index]
            manager = self.guard(lambda: calls.context_manager(evaluate(frame)), span)
            value = self.guard(manager.enter, span)
            leave = lambda: self.guard(manager.exit, span)  # noqa: E731
            try:
                if store is not None:
                    store(frame, value)
                signal = run(frame, index + 1)
            except GradRuntimeError as error:
                if manager.exit_with_error is None:
                    leave()
                    raise
                if self.guard(lambda: manager.exit_with_error(error), span):
                    return None
                raise
            except BaseException:
                leave()
                raise
            leave()
            return signal
        return run

    def try_stmt(self, tree: Tree) -> Statement:
        body, *clauses = tree.children
        excepts = [c for c in clauses if c is not None and c.data == "except_clause"]
        for clause in excepts[:-1]:
            if clause.children[0] is None:
                raise syntax_error("default 'except:' must be last", clause)
        handlers = [self._handler(c) for c in excepts]
        otherwise = next((self.suite(c.children[0]) for c in clauses
                          if c is not None and c.data == "else_clause"), None)
        final = next((self.suite(c.children[0]) for c in clauses
                      if c is not None and c.data == "finally_clause"), None)
        block, runtime = self.suite(body), self.runtime

        def run(frame):
            signal = None
            try:
                try:
                    signal = block(frame)
                except GradRuntimeError as error:
                    for handles, handle in handlers:
                        if handles(frame, error):
                            runtime.handling.append(error)
                            try:
                                return handle(frame, error)
                            finally:
                                runtime.handling.pop()
                    raise
                if otherwise is not None:
                    signal = otherwise(frame)
                return signal
            finally:
                if final is not None:
                    ending = self._finally(final, frame, sys.exc_info()[1])
                    if ending is not None:
                        return ending  # noqa: B012  (as Python: the finally block's exit wins)
        return run

    def _finally(self, final, frame, leaving):
        """Run a finally block; an error leaving the try statement is the one being handled
        meanwhile (what a bare raise re-raises, the context of one raised there)."""
        if not isinstance(leaving, GradRuntimeError):
            return final(frame)
        self.runtime.handling.append(leaving)
        try:
            return final(frame)
        finally:
            self.runtime.handling.pop()

    def _handler(self, clause: Tree):
        """(does it catch this error?, run its block) for one `except` clause."""
        class_tree, name, body = clause.children
        block = self.suite(body)
        if class_tree is None:
            handles = lambda frame, error: True  # noqa: E731
        else:
            handled, span = self.expression(class_tree), span_of(class_tree)

            def handles(frame, error):
                return self.guard(lambda: exceptions.matches(error, handled(frame)), span)
        if name is None:
            return handles, lambda frame, error: block(frame)
        var = Tree("var", [name], clause.meta)
        store, unbind = targets.compile_target(self, var), targets.compile_delete(self, var)

        def handle(frame, error):
            store(frame, exceptions.caught_value(error))
            try:
                return block(frame)
            finally:  # Python unbinds the name when the block ends
                store(frame, None)
                unbind(frame)
        return handles, handle

    def funcdef(self, tree: Tree, decorators: tuple = ()) -> Statement:
        """`def`, after its decorators (evaluated first, applied last to first, as Python)."""
        name, params, returns, body = tree.children
        self.check_name(name)
        fname = getattr(tree.meta, "plain_name", name.value)  # a private name: as written
        make = compile_function(self, fname, params, body.children, returns)
        store = targets.compile_target(self, Tree("var", [name], tree.meta))
        if not decorators:
            return lambda frame: store(frame, make(frame))
        compiled = [(self.expression(d.children[0]), span_of(d)) for d in decorators]
        call = self.runtime.call

        def run(frame):
            applied = [(evaluate(frame), span) for evaluate, span in compiled]
            function = make(frame)
            for decorator, span in reversed(applied):
                function = self.guard(lambda: call(decorator, [function], {}), span)
            store(frame, function)
        return run

    def decorated(self, tree: Tree) -> Statement:
        *decorators, definition = tree.children
        if definition.data == "classdef":
            return self.classdef(definition, tuple(decorators))
        return self.funcdef(definition, tuple(decorators))

    def classdef(self, tree: Tree, decorators: tuple = ()) -> Statement:
        """`class Name(bases): body`: the body runs once in the class's own namespace."""
        name, arguments, body = tree.children
        self.check_name(name)
        cname = getattr(tree.meta, "plain_name", name.value)  # a private name: as written
        for statement in body.children:
            mangle_tree(statement, cname)
        given = [arg for arg in (arguments.children if arguments else []) if arg is not None]
        if any(getattr(a, "data", "") in ("star_arg", "star_star_arg") for a in given):
            raise syntax_error("unpacked class bases and keywords are not supported by gradcli",
                               tree)
        bases = [self.expression(a) for a in given if getattr(a, "data", "") != "kwarg"]
        keywords = [(a.children[0].value, self.expression(a.children[1])) for a in given
                    if getattr(a, "data", "") == "kwarg"]
        outer, loops, private = self.scope, self.loops, self.private_class
        qualname = outer.child_qualname(cname)
        self.scope = function_scope(outer, qualname, [], body.children, kind="class")
        self.loops, self.private_class = 0, cname
        try:
            block = self.statements(body.children)
        finally:
            self.scope, self.loops, self.private_class = outer, loops, private
        store = targets.compile_target(self, Tree("var", [name], tree.meta))
        decorating = [(self.expression(d.children[0]), span_of(d)) for d in decorators]
        runtime, span, doc = self.runtime, span_of(tree), docstring(body.children)

        def run(frame):
            applied = [(evaluate(frame), where) for evaluate, where in decorating]
            base_values = [evaluate(frame) for evaluate in bases]
            keyword_values = {name: evaluate(frame) for name, evaluate in keywords}
            namespace = {"__module__": "__main__", "__qualname__": qualname, "__doc__": doc}
            block(Frame(frame, namespace))
            cls = self.guard(lambda: classes.make_class(cname, qualname, base_values, namespace,
                                                        runtime, keyword_values), span)
            namespace["__class__"] = cls  # what a method's zero-argument super() finds
            value = cls
            for decorator, where in reversed(applied):
                value = self.guard(lambda: runtime.call(decorator, [value], {}), where)
            store(frame, value)
        return run

    def match_stmt(self, tree: Tree) -> Statement:
        from gradcli.language.compiler.patterns import compile_match  # (rare: loaded on use)
        return compile_match(self, tree)

    def lambdef(self, tree: Tree):
        params, body = tree.children
        return compile_function(self, "<lambda>", params, body)


def _annotation_recorder(evaluate, name: str):
    """Evaluate a module's or class body's annotation into its __annotations__ (dataclasses
    read a class's fields from there, in order)."""
    def record(frame):
        frame.vars.setdefault("__annotations__", {})[name] = evaluate(frame)
    return record


_C = Compiler
_STATEMENTS = {
    "expr_stmt": _C.expr_stmt, "assign": _C.assign, "augassign": _C.augassign,
    "annassign": _C.annassign,
    "let_stmt": _C.let_stmt, "pass_stmt": _C.pass_stmt, "break_stmt": _C.break_stmt,
    "continue_stmt": _C.continue_stmt, "return_stmt": _C.return_stmt, "del_stmt": _C.del_stmt,
    "global_stmt": _C.global_stmt, "nonlocal_stmt": _C.nonlocal_stmt,
    "assert_stmt": _C.assert_stmt, "import_name": _C.import_name,
    "import_from": _C.import_from, "import_star": _C.import_star, "if_stmt": _C.if_stmt, "while_stmt": _C.while_stmt,
    "for_stmt": _C.for_stmt, "with_stmt": _C.with_stmt, "funcdef": _C.funcdef,
    "classdef": _C.classdef, "suite": _C.suite, "yield_stmt": _C.yield_stmt,
    "raise_stmt": _C.raise_stmt, "try_stmt": _C.try_stmt, "decorated": _C.decorated,
    "match_stmt": _C.match_stmt,
}
