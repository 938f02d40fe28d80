"""Python's static scopes: which names a function binds, and where each name it uses lives."""

from __future__ import annotations

from gradcli.engine.records import field, record

from gradcli.language.syntax.lark_standalone import Token, Tree

from gradcli.language.runtime.calls import global_name
from gradcli.language.syntax.parser import GradSyntaxError
from gradcli.language.runtime.frames import GradRuntimeError

_MISSING = object()
# Statement and expression rules whose subtrees belong to another scope.
_OWN_SCOPE = {"funcdef", "classdef", "lambdef", "listcomp", "genexp", "dictcomp", "setcomp"}


class _Names(dict):
    """An insertion-ordered set of names: the order of a code object's co_varnames."""

    def add(self, name: str) -> None:
        self[name] = None

    def update(self, names) -> None:
        dict.update(self, dict.fromkeys(names))


@record
class Scope:
    """A function, lambda or comprehension body (`kind`), or the top level ("module")."""

    kind: str
    qualname: str = ""
    parent: "Scope | None" = None
    locals: _Names = field(default_factory=_Names)
    globals: set = field(default_factory=set)
    nonlocals: set = field(default_factory=set)
    declared_at: dict = field(default_factory=dict)  # name -> its global/nonlocal statement
    params: tuple = ()  # a function's parameter names, in order
    used: set = field(default_factory=set)  # names read so far, as the body is collected
    stored: set = field(default_factory=set)  # ids of the `var` trees that are targets
    imported: set = field(default_factory=set)  # names an import binds (global may follow)
    generator: bool = False  # a function whose body yields
    passed: set = field(default_factory=set)  # enclosing names only nested functions read

    def resolve(self, name: str) -> tuple[str, int]:
        """Where `name` lives: ("local", 0), ("enclosing", hops) or ("module", hops).

        Hops count the frames between this scope's frame and the one holding the name; at the
        top level names are looked up through the frame chain, then the builtins.
        """
        if self.kind == "module":
            return "module", 0
        if name in self.globals:
            return "module", self.depth()
        if name in self.locals:
            return "local", 0
        hops, scope = 1, self.parent
        while scope.kind != "module":
            if name in scope.globals:
                break
            if name in scope.locals and scope.kind != "class":  # class bodies hide from methods
                return "enclosing", hops
            hops, scope = hops + 1, scope.parent
        return "module", self.depth()

    def freevars(self) -> tuple:
        """(name, hops) of the enclosing functions' names this code reads or passes on to the
        functions nested in it, sorted by name as co_freevars; each intermediate scope passes
        them on too."""
        found = []
        for name in sorted(self.used | self.nonlocals | self.passed):
            where, hops = self.resolve(name)
            if where != "enclosing":
                continue
            found.append((name, hops))
            scope = self.parent
            for _ in range(hops - 1):
                scope.passed.add(name)
                scope = scope.parent
        return tuple(found)

    def loader(self, name: str, span):
        """A closure reading `name` where it lives, with Python's errors when it is unbound."""
        if self.kind == "class":  # a class body reads its own names, else the enclosing ones
            outer = self.parent.loader(name, span)

            def class_name(frame):
                value = frame.vars.get(name, _MISSING)
                return outer(frame.parent) if value is _MISSING else value
            return class_name
        where, hops = self.resolve(name)
        if where == "local":
            def local(frame):
                value = frame.vars.get(name, _MISSING)
                if value is _MISSING:
                    raise GradRuntimeError("UnboundLocalError", f"cannot access local variable "
                                           f"'{name}' where it is not associated with a value",
                                           span)
                return value
            return local
        if where == "enclosing":
            def enclosing(frame):
                value = frame.up(hops).vars.get(name, _MISSING)
                if value is _MISSING:
                    error = GradRuntimeError("NameError", f"cannot access free variable "
                                             f"'{name}' where it is not associated with a "
                                             "value in enclosing scope", span)
                    raise self.name_error(error, name, frame)
                return value
            return enclosing

        def top_level(frame):
            if hops:
                frame = frame.up(hops)
            value = frame.vars.get(name, _MISSING)
            if value is not _MISSING:
                return value
            try:
                return frame.lookup(name)
            except KeyError:
                try:
                    return global_name(name, span)
                except GradRuntimeError as error:
                    raise self.name_error(error, name, frame) from None
        return top_level

    def name_error(self, error: GradRuntimeError, name: str, frame) -> GradRuntimeError:
        """`error` (a NameError this scope's code raised for `name`, while running in `frame`)
        with what Python's suggestion reads: this code's local names and the top level's."""
        error.looked_up = ("name", name, self.varnames(), frame.root)
        return error

    def varnames(self) -> tuple:
        """The local names of this scope's code, in the order of its co_varnames."""
        if self.kind in ("module", "class"):
            return ()
        return (".0", *self.locals) if self.kind == "comprehension" else tuple(self.locals)

    def storer(self, name: str):
        """A closure `store(frame, value)` binding `name` where it lives."""
        where, hops = self.resolve(name)
        if where == "local" or hops == 0:
            def store_local(frame, value):
                frame.vars[name] = value
            return store_local

        def store_outer(frame, value):
            frame.up(hops).vars[name] = value
        return store_outer

    def depth(self) -> int:
        """How many frames lie between this scope's frame and the top level's."""
        hops, scope = 0, self
        while scope.kind != "module":
            hops, scope = hops + 1, scope.parent
        return hops

    def child_qualname(self, name: str) -> str:
        """Python's __qualname__ for a function or class defined in this scope."""
        if self.kind == "module":
            return name
        if self.kind == "class":
            return f"{self.qualname}.{name}"
        return f"{self.qualname}.<locals>.{name}"


def function_scope(parent: Scope, qualname: str, params: list[str], body: list,
                   kind: str = "function") -> Scope:
    """The scope of a function (or a class body, `kind` "class") whose body is the statement
    trees `body`."""
    scope = Scope(kind, qualname, parent, _Names.fromkeys(params), params=tuple(params))
    for tree in body:
        _collect(tree, scope)
    for name in scope.globals | scope.nonlocals:
        scope.locals.pop(name, None)
    for name in sorted(scope.nonlocals):
        if _binding_scope(parent, name) is None:
            meta = scope.declared_at[name].meta
            end = meta.end_column if meta.end_line == meta.line else meta.column + 1
            raise GradSyntaxError(f"no binding for nonlocal '{name}' found", meta.line,
                                  meta.column, end)
    return scope


def _binding_scope(scope: Scope, name: str) -> Scope | None:
    while scope.kind != "module":
        if name in scope.locals or name in scope.nonlocals:
            return scope
        scope = scope.parent
    return None


def target_names(tree) -> list[str]:
    """The names an assignment target binds (`a`, `a, (b, c)`); attributes and items bind none."""
    if not isinstance(tree, Tree):
        return []
    if tree.data == "var":
        return [tree.children[0].value]
    if tree.data in ("tuple", "tuple_items", "list", "list_items", "star_expr"):
        return [n for child in tree.children for n in target_names(child)]
    return []


def pattern_names(tree) -> list[str]:
    """The names a pattern captures, in order."""
    if isinstance(tree, Token) or tree is None:
        return []
    if tree.data == "name_pattern":
        parts = tree.children[0].children
        return [parts[0].value] if len(parts) == 1 and parts[0].value != "_" else []
    if tree.data in ("star_pattern", "double_star_pattern"):
        return [tree.children[0].value] if tree.children[0].value != "_" else []
    if tree.data == "as_pattern":
        return pattern_names(tree.children[0]) + [tree.children[1].value]
    if tree.data == "or_pattern":
        return pattern_names(tree.children[0])
    if tree.data in ("mapping_item", "keyword_pattern"):
        return pattern_names(tree.children[1])
    if tree.data == "class_pattern":
        return pattern_names(tree.children[1])
    return [n for child in tree.children for n in pattern_names(child)]


def _collect(tree, scope: Scope) -> None:
    """Add the names bound by the statement or expression `tree` to `scope`."""
    if not isinstance(tree, Tree):
        return
    kind = tree.data
    if kind in ("assign",):
        for target in tree.children[:-1]:
            _bind(target, scope)
    elif kind == "annassign":
        _bind(tree.children[0], scope)
    elif kind == "walrus":
        scope.locals.add(tree.children[0].value)
    elif kind in ("augassign", "for_stmt", "del_stmt"):
        _bind(tree.children[0], scope)
    elif kind == "let_stmt":
        scope.locals.add(tree.children[0].value)
    elif kind in ("with_item", "except_clause") and tree.children[1] is not None:
        scope.locals.add(tree.children[1].value)
    elif kind in ("funcdef", "classdef"):
        scope.locals.add(tree.children[0].value)
    elif kind == "import_name":
        for item in tree.children:
            dotted, alias = item.children
            name = alias.value if alias is not None else dotted.children[0].value
            scope.locals.add(name)
            scope.imported.add(name)
    elif kind == "import_from":
        for item in tree.children[1].children:
            if isinstance(item, Tree):
                name, alias = item.children
                scope.locals.add((alias or name).value)
                scope.imported.add((alias or name).value)
    elif kind == "case_block":
        scope.locals.update(pattern_names(tree.children[0]))
    elif kind in ("global_stmt", "nonlocal_stmt"):
        _declare(tree, scope)
    elif kind in ("yield_expr", "yield_from"):
        scope.generator = True
    elif kind == "var" and id(tree) not in scope.stored:
        scope.used.add(tree.children[0].value)
    if kind in _OWN_SCOPE:
        return
    for child in tree.children:
        _collect(child, scope)


def _bind(target, scope: Scope) -> None:
    """An assignment target's names become locals (its `var` trees are not reads of them)."""
    names = target_names(target)
    scope.locals.update(names)
    stack = [target]
    while stack:
        node = stack.pop()
        if isinstance(node, Tree) and node.data == "var":
            scope.stored.add(id(node))
        elif isinstance(node, Tree) and node.data in ("tuple", "tuple_items", "list",
                                                       "list_items", "star_expr"):
            stack.extend(node.children)


def _declare(tree: Tree, scope: Scope) -> None:
    word = "global" if tree.data == "global_stmt" else "nonlocal"
    names = scope.globals if word == "global" else scope.nonlocals
    for token in tree.children:
        if isinstance(token, Token):
            name = token.value
            problem = (f"is parameter and {word}" if name in scope.params else
                       f"is used prior to {word} declaration" if name in scope.used else
                       f"is assigned to before {word} declaration" if name in scope.locals
                       and name not in scope.imported else None)
            if problem is not None:
                raise GradSyntaxError(f"name '{name}' {problem}", tree.meta.line,
                                      tree.meta.column, tree.meta.end_column)
            names.add(token.value)
            scope.declared_at[token.value] = tree
