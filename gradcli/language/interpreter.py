"""Compiles the parse tree once into closures over frames, then runs them (fast in loops)."""

from __future__ import annotations

from typing import Callable

from lark import Tree

from gradcli.language import calls, targets
from gradcli.language.builtins import truth
from gradcli.language.expressions import ExpressionCompiler, span_of
from gradcli.language.imports import bind_import
from gradcli.language.runtime import BreakLoop, ContinueLoop, Frame, ReturnValue, UserFunction

Statement = Callable[[Frame], None]


class Compiler(ExpressionCompiler):
    """Turns statement trees into closures; expressions come from ExpressionCompiler."""

    def statements(self, trees: list) -> Statement:
        compiled = [self.statement(t) for t in trees]
        if len(compiled) == 1:
            return compiled[0]

        def run(frame):
            for stmt in compiled:
                stmt(frame)
        return run

    def statement(self, tree: Tree) -> Statement:
        method = _STATEMENTS.get(tree.data)
        if method is None:
            return self.statements_of_simple(tree)
        return method(self, tree)

    def statements_of_simple(self, tree: Tree) -> Statement:
        return self.statements([c for c in tree.children if isinstance(c, Tree)])

    def suite(self, tree: Tree) -> Statement:
        return self.statements([c for c in tree.children if isinstance(c, Tree)])

    # ---- simple statements ---------------------------------------------------------------------

    def expr_stmt(self, tree: Tree) -> Statement:
        evaluate, echo = self.expression(tree.children[0]), self.echo

        def run(frame):
            value = evaluate(frame)
            if echo is not None and value is not None:
                echo(value)
        return run

    def assign(self, tree: Tree) -> Statement:
        *lhs, rhs = tree.children
        evaluate = self.expression(rhs)
        stores = [targets.compile_target(self, t) for t in lhs]

        def run(frame):
            value = evaluate(frame)
            for store in stores:
                store(frame, value)
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
        def run(frame):
            raise BreakLoop()
        return run

    def continue_stmt(self, tree: Tree) -> Statement:
        def run(frame):
            raise ContinueLoop()
        return run

    def return_stmt(self, tree: Tree) -> Statement:
        value = tree.children[0]
        evaluate = self.expression(value) if value is not None else (lambda frame: None)

        def run(frame):
            raise ReturnValue(evaluate(frame))
        return run

    def del_stmt(self, tree: Tree) -> Statement:
        return targets.compile_delete(self, tree.children[0])

    def import_name(self, tree: Tree) -> Statement:
        binds = []
        for item in tree.children:
            dotted, alias = item.children
            path = [t.value for t in dotted.children]
            binds.append((path, alias.value if alias is not None else None))
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

    # ---- compound statements -------------------------------------------------------------------

    def if_stmt(self, tree: Tree) -> Statement:
        test, body, *rest = tree.children
        branches = [(self.expression(test), self.suite(body))]
        otherwise = None
        for clause in rest:
            if clause is None:
                continue
            if clause.data == "elif_clause":
                branches.append((self.expression(clause.children[0]),
                                 self.suite(clause.children[1])))
            else:
                otherwise = self.suite(clause.children[0])
        span = span_of(test)

        def run(frame):
            for condition, block in branches:
                if self.guard(lambda: truth(condition(frame)), span):
                    block(frame)
                    return
            if otherwise is not None:
                otherwise(frame)
        return run

    def while_stmt(self, tree: Tree) -> Statement:
        test, body, else_clause = tree.children
        condition, block = self.expression(test), self.suite(body)
        otherwise = self.suite(else_clause.children[0]) if else_clause is not None else None
        span = span_of(test)

        def run(frame):
            while self.guard(lambda: truth(condition(frame)), span):
                try:
                    block(frame)
                except BreakLoop:
                    return
                except ContinueLoop:
                    continue
            if otherwise is not None:
                otherwise(frame)
        return run

    def for_stmt(self, tree: Tree) -> Statement:
        target, iterable, body, else_clause = tree.children
        store = targets.compile_target(self, target)
        source, block = self.expression(iterable), self.suite(body)
        otherwise = self.suite(else_clause.children[0]) if else_clause is not None else None
        span = span_of(iterable)

        def run(frame):
            for item in self.guard(lambda: calls.iterate(source(frame)), span):
                store(frame, item)
                try:
                    block(frame)
                except BreakLoop:
                    return
                except ContinueLoop:
                    continue
            if otherwise is not None:
                otherwise(frame)
        return run

    def with_stmt(self, tree: Tree) -> Statement:
        *items, body = tree.children
        managers = [(self.expression(i.children[0]), i.children[1], span_of(i)) for i in items]
        block = self.suite(body)

        def run(frame, index=0):
            if index == len(managers):
                block(frame)
                return
            evaluate, alias, span = managers[index]
            manager = self.guard(lambda: calls.context_manager(evaluate(frame)), span)
            value = manager.enter()
            if alias is not None:
                frame.vars[alias.value] = value
            try:
                run(frame, index + 1)
            finally:
                manager.exit()
        return run

    def funcdef(self, tree: Tree) -> Statement:
        name, params, _returns, body = tree.children
        names, defaults = self.parameters(params.children if params is not None else [])
        block = self.suite(body)
        fname = name.value

        def run(frame):
            values = {k: d(frame) for k, d in defaults.items()}
            frame.vars[fname] = UserFunction(fname, names, values, block, frame)
        return run

    def parameters(self, params: list) -> tuple[tuple, dict]:
        names, defaults = [], {}
        for param in params:
            if not isinstance(param, Tree):
                continue
            name, *rest = param.children
            default = rest[-1]
            names.append(self.check_name(name))
            if default is not None:
                defaults[name.value] = self.expression(default)
        return tuple(names), defaults

    def lambdef(self, tree: Tree):
        params, body = tree.children
        names, defaults = self.parameters(params.children if params is not None else [])
        evaluate = self.expression(body)

        def block(frame):
            raise ReturnValue(evaluate(frame))

        def make(frame):
            values = {k: d(frame) for k, d in defaults.items()}
            return UserFunction("<lambda>", names, values, block, frame, is_lambda=True)
        return make


_STATEMENTS = {
    "expr_stmt": Compiler.expr_stmt, "assign": Compiler.assign, "augassign": Compiler.augassign,
    "let_stmt": Compiler.let_stmt, "pass_stmt": Compiler.pass_stmt,
    "break_stmt": Compiler.break_stmt, "continue_stmt": Compiler.continue_stmt,
    "return_stmt": Compiler.return_stmt, "del_stmt": Compiler.del_stmt,
    "import_name": Compiler.import_name, "import_from": Compiler.import_from,
    "if_stmt": Compiler.if_stmt, "while_stmt": Compiler.while_stmt,
    "for_stmt": Compiler.for_stmt, "with_stmt": Compiler.with_stmt, "funcdef": Compiler.funcdef,
    "simple_stmt": Compiler.statements_of_simple, "suite": Compiler.suite,
}
