"""Python's private name mangling: inside a class body, an identifier `__name` (not ending in two
underscores) stands for `_Class__name`, as a variable, an attribute, a parameter or a definition.

The class body's tree is rewritten once, before its scopes are collected, so every later step
sees the mangled names. A `def` or nested `class` keeps its written name as its __name__ (Python
mangles only where it is stored): that name is kept in the tree's meta as `plain_name`.
"""

from __future__ import annotations

from gradcli.language.syntax.lark_standalone import Token, Tree

# Names that are not identifiers being read or bound: keyword arguments and keyword patterns
# (their first NAME), gradcli's `let` declarations, and the module paths of imports.
_FIRST_NAME_KEPT = {"kwarg", "keyword_pattern"}
_KEPT = {"let_stmt", "dotted_name", "import_as_name", "dotted_as_name"}


def private_name(name: str, class_name: str) -> str:
    """`name` as Python stores it inside class `class_name`'s body."""
    if not name.startswith("__") or name.endswith("__") or "." in name:
        return name
    stripped = class_name.lstrip("_")
    return f"_{stripped}{name}" if stripped else name


def mangle_tree(tree, class_name: str) -> None:
    """Rewrite, in place, the private identifiers of `tree` (a class body's statement or an
    f-string field); a nested class's body is left for that class's own name."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if not isinstance(node, Tree) or node.data in _KEPT:
            continue
        children = node.children
        start = 1 if node.data in _FIRST_NAME_KEPT else 0
        for index in range(start, len(children)):
            child = children[index]
            if isinstance(child, Token):
                if child.type == "NAME":
                    mangled = private_name(child.value, class_name)
                    if mangled != child.value:
                        if index == 0 and node.data in ("funcdef", "classdef"):
                            node.meta.plain_name = child.value
                        children[index] = child.update(value=mangled)
            elif node.data == "classdef" and index == len(children) - 1:
                continue  # the nested class's body
            else:
                stack.append(child)
