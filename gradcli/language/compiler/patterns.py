"""`match` statements: each case's pattern compiled into a test `(value, bound) -> bool` that
collects the names it captures, with Python's compile-time checks and its matching rules."""

from __future__ import annotations

from collections import deque

from gradcli.language.syntax.lark_standalone import Tree

from gradcli.engine import errors
from gradcli.language.runtime import attributes, classes, protocols
from gradcli.language.runtime.coercions import truth
from gradcli.language.runtime.frames import GradRuntimeError
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.syntax.parser import GradSyntaxError
from gradcli.language.compiler.scopes import pattern_names
from gradcli.language.compiler.spans import USER_ERRORS, condition, raise_at, span_of, syntax_error

_LITERALS = {"number", "string", "unary", "binary"}
_SINGLETONS = {"const_none": None, "const_true": True, "const_false": False}
# builtin classes whose one positional sub-pattern matches the subject itself
_SELF_MATCHING = ("bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list",
                  "set", "str", "tuple")
_SEQUENCES = (list, tuple, range, deque)


def compile_match(compiler, tree: Tree):
    """The statement closure of `match subject: case ...`."""
    _match, subject_tree, *blocks = tree.children
    subject = compiler.expression(subject_tree)
    cases = []
    for index, block in enumerate(blocks):
        pattern_tree, guard_tree, body = block.children
        if index < len(blocks) - 1 and guard_tree is None and _irrefutable(pattern_tree):
            raise syntax_error(_unreachable(pattern_tree), pattern_tree)
        test = _Patterns(compiler).compile(pattern_tree)
        stores = {name: compiler.scope.storer(name) for name in pattern_names(pattern_tree)}
        guard = condition(compiler.expression(guard_tree), span_of(guard_tree)) \
            if guard_tree is not None else None
        cases.append((test, stores, guard, compiler.suite(body), span_of(pattern_tree)))

    def run(frame):
        value = subject(frame)
        for test, stores, guard, block, span in cases:
            bound = {}
            try:
                matched = test(frame, value, bound)
            except USER_ERRORS as error:
                raise_at(error, span)
            if not matched:
                continue
            for name, item in bound.items():
                stores[name](frame, item)
            if guard is None or guard(frame):
                return block(frame)
        return None
    return run


def _irrefutable(tree) -> bool:
    if tree.data == "as_pattern":
        return _irrefutable(tree.children[0])
    if tree.data == "or_pattern":
        return any(_irrefutable(t) for t in tree.children if isinstance(t, Tree))
    return tree.data == "name_pattern" and len(tree.children[0].children) == 1


def _unreachable(tree) -> str:
    while tree.data != "name_pattern":
        tree = tree.children[0] if tree.data == "as_pattern" else next(
            t for t in tree.children if isinstance(t, Tree) and _irrefutable(t))
    name = tree.children[0].children[0].value
    return "wildcard makes remaining patterns unreachable" if name == "_" else \
        f"name capture '{name}' makes remaining patterns unreachable"


class _Patterns:
    """Compiles one case's pattern; `seen` keeps Python's one-binding-per-name rule."""

    def __init__(self, compiler):
        self.compiler = compiler
        self.seen: set = set()

    def compile(self, tree):
        kind = tree.data
        if kind in _SINGLETONS:
            constant = _SINGLETONS[kind]
            return lambda frame, value, bound: value is constant
        if kind in _LITERALS:
            return self.literal(tree)
        return _RULES[kind](self, tree)

    def literal(self, tree):
        if tree.data == "string" and any(t.value.lstrip("rRbBuU")[:1] in "fF" for t in
                                         tree.children):
            raise syntax_error("patterns may only match literals and attribute lookups", tree)
        expected = self.compiler.expression(tree)
        return lambda frame, value, bound: truth(protocols.compare("==", value, expected(frame)))

    def bind(self, name: str, tree) -> None:
        if name in self.seen:
            raise syntax_error(f"multiple assignments to name '{name}' in pattern", tree)
        self.seen.add(name)

    def name_pattern(self, tree):
        parts = [t.value for t in tree.children[0].children]
        if len(parts) > 1:
            expected = self.dotted(tree.children[0])
            return lambda frame, value, bound: truth(protocols.compare("==", value,
                                                                       expected(frame)))
        name = parts[0]
        if name == "_":
            return lambda frame, value, bound: True
        self.bind(name, tree)

        def capture(frame, value, bound):
            bound[name] = value
            return True
        return capture

    def dotted(self, tree):
        """The value of `a.b.c` (a value pattern or a class pattern's class)."""
        first, *rest = tree.children
        expression = Tree("var", [first], tree.meta)
        for token in rest:
            expression = Tree("getattr", [expression, token], tree.meta)
        return self.compiler.expression(expression)

    def as_pattern(self, tree):
        inner, name_token = tree.children
        name = name_token.value
        if name == "_":
            raise syntax_error("cannot use '_' as a target", name_token)
        test = self.compile(inner)
        self.bind(name, name_token)

        def capture(frame, value, bound):
            if not test(frame, value, bound):
                return False
            bound[name] = value
            return True
        return capture

    def or_pattern(self, tree):
        alternatives = [t for t in tree.children if isinstance(t, Tree)]
        before, tests, names = set(self.seen), [], None
        for index, alternative in enumerate(alternatives):
            if index < len(alternatives) - 1 and _irrefutable(alternative):
                raise syntax_error(_unreachable(alternative), alternative)
            self.seen = set(before)
            tests.append(self.compile(alternative))
            if names is None:
                names = self.seen
            elif self.seen != names:
                raise syntax_error("alternative patterns bind different names", alternative)
        self.seen = names

        def either(frame, value, bound):
            for test in tests:
                attempt = {}
                if test(frame, value, attempt):
                    bound.update(attempt)
                    return True
            return False
        return either

    def sequence_pattern(self, tree):
        items = [t for t in tree.children if isinstance(t, Tree)]
        stars = [i for i, t in enumerate(items) if t.data == "star_pattern"]
        if len(stars) > 1:
            raise syntax_error("multiple starred names in sequence pattern", items[stars[1]])
        star = stars[0] if stars else None
        tests = [self.star(t) if t.data == "star_pattern" else self.compile(t)
                 for t in items]
        count = len(items)

        def sequence(frame, value, bound):
            if not isinstance(value, _SEQUENCES):
                return False
            values = list(value)
            if star is None:
                if len(values) != count:
                    return False
                return all(test(frame, v, bound) for test, v in zip(tests, values))
            after = count - star - 1
            if len(values) < count - 1:
                return False
            middle = values[star:len(values) - after]
            parts = values[:star] + [middle] + values[len(values) - after:]
            return all(test(frame, v, bound) for test, v in zip(tests, parts))
        return sequence

    def star(self, tree):
        name = tree.children[0].value
        if name == "_":
            return lambda frame, value, bound: True
        self.bind(name, tree)

        def capture(frame, value, bound):
            bound[name] = list(value)
            return True
        return capture

    def mapping_pattern(self, tree):
        items = tree.children[0].children if tree.children and tree.children[0] is not None \
            else []
        keys, tests, rest = [], [], None
        for item in items:
            if item is None:
                continue
            if item.data == "double_star_pattern":
                rest = item.children[0].value
                if rest == "_":
                    raise syntax_error("invalid syntax", item)
                continue
            key_tree, pattern = item.children
            if key_tree.data == "name_or_attr":
                if len(key_tree.children) == 1:  # Python's caret: the colon after the name
                    meta = key_tree.meta
                    raise GradSyntaxError("invalid syntax", meta.end_line, meta.end_column,
                                          meta.end_column + 1)
                keys.append(self.dotted(key_tree))
            else:
                keys.append(self.compiler.expression(key_tree))
            tests.append(self.compile(pattern))
        if rest is not None:
            self.bind(rest, tree)

        def mapping(frame, value, bound):
            if not isinstance(value, dict):
                return False
            wanted = [key(frame) for key in keys]
            for key, test in zip(wanted, tests):
                if key not in value or not test(frame, value[key], bound):
                    return False
            if rest is not None:
                bound[rest] = {k: v for k, v in value.items() if k not in wanted}
            return True
        return mapping

    def class_pattern(self, tree):
        name_tree, arguments = tree.children
        cls_of = self.dotted(name_tree)
        positional, keywords = [], []
        for argument in arguments.children if arguments is not None else []:
            if argument is None:
                continue
            if argument.data == "keyword_pattern":
                keyword, pattern = argument.children
                if keyword.value in [k for k, _ in keywords]:
                    raise syntax_error(f"attribute name repeated in class pattern: "
                                       f"{keyword.value}", keyword)
                keywords.append((keyword.value, self.compile(pattern)))
            elif keywords:
                raise syntax_error("positional patterns follow keyword patterns", argument)
            else:
                positional.append(self.compile(argument))

        call = self.compiler.runtime.call

        def instance(frame, value, bound):
            cls = cls_of(frame)
            if not isinstance(cls, (PyType, classes.UserClass)):
                raise errors.type_error("called match pattern must be a type")
            if not truth(call(protocols.BUILTINS["isinstance"], [value, cls], {})):
                return False
            names = _match_args(cls, len(positional))
            if names is None:  # int(x), str(x): the subject itself
                if not positional[0](frame, value, bound):
                    return False
            else:
                for name, test in zip(names, positional):
                    if not _attribute_matches(frame, value, name, test, bound):
                        return False
            return all(_attribute_matches(frame, value, name, test, bound)
                       for name, test in keywords)
        return instance


def _match_args(cls, count: int):
    """The attribute names `count` positional sub-patterns match (None: the subject itself)."""
    if count == 0:
        return ()
    if isinstance(cls, PyType) and cls.name in _SELF_MATCHING and protocols.BUILTINS.get(
            cls.name) is cls:
        if count > 1:
            raise errors.type_error(f"{cls.name}() accepts 1 positional sub-pattern "
                                    f"({count} given)")
        return None
    try:
        names = attributes.get(cls, "__match_args__")
    except (errors.TorchError, GradRuntimeError) as error:
        if error.kind != "AttributeError":
            raise
        names = ()
    if not isinstance(names, tuple):
        raise errors.type_error(f"{_class_name(cls)}.__match_args__ must be a tuple (got "
                                f"{type(names).__name__})")
    if count > len(names):
        s = "" if len(names) == 1 else "s"
        raise errors.type_error(f"{_class_name(cls)}() accepts {len(names)} positional "
                                f"sub-pattern{s} ({count} given)")
    return names


def _class_name(cls) -> str:
    return cls.name.rsplit(".", 1)[-1]


def _attribute_matches(frame, value, name, test, bound) -> bool:
    try:
        item = attributes.get(value, name)
    except (errors.TorchError, GradRuntimeError) as error:
        if error.kind != "AttributeError":
            raise
        return False
    return test(frame, item, bound)


_RULES = {"name_pattern": _Patterns.name_pattern, "as_pattern": _Patterns.as_pattern,
          "or_pattern": _Patterns.or_pattern, "sequence_pattern": _Patterns.sequence_pattern,
          "mapping_pattern": _Patterns.mapping_pattern, "class_pattern": _Patterns.class_pattern}
