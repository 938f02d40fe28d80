"""List, dict and generator comprehensions: their own scope, loops and conditions as closures."""

from __future__ import annotations

from gradcli.language.syntax.lark_standalone import Tree

from gradcli.engine.errors import TorchError
from gradcli.language.runtime.frames import Frame
from gradcli.language.compiler.scopes import Scope, target_names
from gradcli.language.runtime.values import Generator, iterate
from gradcli.language.compiler.spans import USER_ERRORS, condition, raise_at, span_of
from gradcli.language.compiler.targets import compile_target


def _clauses(tree: Tree) -> list[Tree]:
    """The comp_for clauses of a comprehension, outermost first."""
    clause, found = tree.children[-1], []
    while clause is not None:
        found.append(clause)
        rest = clause.children[2:]
        clause = rest[-1] if rest and isinstance(rest[-1], Tree) and \
            rest[-1].data == "comp_for" else None
    return found


def compile_comprehension(compiler, tree: Tree):
    """`[e for ...]`, `{k: v for ...}` or `(e for ...)` as a closure `frame -> value`.

    As in Python, the first iterable is evaluated in the enclosing scope and the loop
    variables live in the comprehension's own frame.
    """
    clauses, span = _clauses(tree), span_of(tree)
    first_source = compiler.expression(clauses[0].children[1])
    outer = compiler.scope
    name = {"listcomp": "<listcomp>", "genexp": "<genexpr>", "dictcomp": "<dictcomp>",
            "setcomp": "<setcomp>"}[tree.data]
    scope = Scope("comprehension", outer.child_qualname(name), outer)
    for clause in clauses:
        scope.locals.update(target_names(clause.children[0]))
    compiler.scope = scope
    try:
        loops = []
        for number, clause in enumerate(clauses):
            target, source, *rest = clause.children
            tests = [condition(compiler.expression(c.children[0]), span_of(c)) for c in rest
                     if isinstance(c, Tree) and c.data == "comp_if"]
            source = first_source if number == 0 else compiler.expression(source)
            loops.append((compile_target(compiler, target), source, tests))
        produce = [compiler.expression(c) for c in tree.children[:-1]]
    finally:
        compiler.scope = outer

    def walk(frame, level, items):
        store, _, tests = loops[level]
        items = iter(items)
        while True:
            try:
                item = next(items)
            except StopIteration:
                return
            except RuntimeError as error:  # the dict or set it walks changed size
                raise_at(error, span)
            store(frame, item)
            if all(test(frame) for test in tests):
                if level + 1 == len(loops):
                    yield frame
                else:
                    yield from walk(frame, level + 1, _items(loops[level + 1][1], frame))

    def _items(source, frame):
        value = source(frame)
        try:
            return iterate(value)
        except USER_ERRORS as error:
            raise_at(error, span)

    runtime = compiler.runtime
    if tree.data == "genexp":
        element, qualname = produce[0], scope.qualname

        def build_generator(frame):
            steps = walk(Frame(frame), 0, _items(first_source, frame))
            return Generator(_resumed(runtime, steps, element, span), qualname)
        return build_generator
    if tree.data == "dictcomp":
        key, value = produce

        def collect(inner, out):
            out[key(inner)] = value(inner)
        empty = dict
    elif tree.data == "setcomp":
        element = produce[0]

        def collect(inner, out):
            out.add(element(inner))
        empty = set
    else:
        element = produce[0]

        def collect(inner, out):
            out.append(element(inner))
        empty = list

    def build(frame):
        items = _items(first_source, frame)
        _enter(runtime, span)
        try:
            out = empty()
            for inner in walk(Frame(frame), 0, items):
                collect(inner, out)
            return out
        finally:
            runtime.depth -= 1
    return build


def _enter(runtime, span) -> None:
    """Count a comprehension's frame as Python does (RecursionError at the limit)."""
    try:
        runtime.check_frame()
    except TorchError as error:
        raise_at(error, span)
    runtime.depth += 1


def _resumed(runtime, steps, element, span):
    """A generator expression's values; each step counts as a frame while it runs."""
    while True:
        _enter(runtime, span)
        try:
            value = element(next(steps))
        except StopIteration:
            return
        finally:
            runtime.depth -= 1
        yield value
