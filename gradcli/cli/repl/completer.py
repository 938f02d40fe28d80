"""Tab completion from the interpreter's own name tables and the session's variables, never eval."""

from __future__ import annotations

import re
from typing import Callable

from prompt_toolkit.completion import Completer, Completion

_DOTTED = re.compile(r"(?<![\w.'\")\]])([^\W\d]\w*(?:\.[^\W\d]\w*)*)\.(\w*)$")
_WORD = re.compile(r"(?<![\w.])([^\W\d]\w*)?$")
_IMPORT = re.compile(r"^\s*(?:import|from)\s+([\w.]*)$")
_COMMAND = re.compile(r"^\s*%(\w*)$")
# Tensor attributes read without running anything, so completion can continue after them.
_TENSOR_FIELDS = {
    "grad": lambda t: t.grad,
    "grad_fn": lambda t: t.grad_fn,
    "data": lambda t: t,
    "dtype": lambda t: t.dtype,
    "shape": lambda t: _size(t.shape),
}


def _size(shape):
    from gradcli.language.runtime.values import Size
    return Size(shape)


def attribute_names(value) -> dict:
    """name -> kind for what `attributes.get` resolves `value.name` through, by the value's kind."""
    from gradcli.language.runtime import attributes
    from gradcli.language.runtime.values import Namespace
    if isinstance(value, Namespace):
        return {name: describe(item) for name, item in value.table.items()}
    tables = attributes.tables_of(value)
    if tables is None:
        return {}
    attrs, methods = tables
    return {name: "attribute" for name in attrs} | {name: "method" for name in methods}


def resolve(path: list[str], names: dict):
    """The value a dotted path names, following modules and tensor fields only; None if unknown."""
    from gradcli.engine.tensor import Tensor
    from gradcli.language.runtime.values import Namespace
    value = names.get(path[0])
    for part in path[1:]:
        if isinstance(value, Namespace):
            value = value.table.get(part)
        elif isinstance(value, Tensor) and part in _TENSOR_FIELDS:
            value = _TENSOR_FIELDS[part](value)
        else:
            return None
    return value


def describe(value) -> str:
    """A one-word kind shown next to a completion."""
    from gradcli.engine.dtypes import DType
    from gradcli.language.namespaces.builtins import Builtin
    from gradcli.language.runtime.values import Namespace, type_name
    if isinstance(value, Builtin):
        return "function"
    if isinstance(value, Namespace):
        return "module"
    if isinstance(value, DType):
        return "dtype"
    return type_name(value)


class GradCompleter(Completer):
    """Completes names, `name.` attributes, module paths after import, and %commands."""

    def __init__(self, variables: Callable[[], dict], commands: Callable[[], list[str]]) -> None:
        self.variables = variables
        self.commands = commands

    def get_completions(self, document, complete_event):
        before = document.text_before_cursor
        command = _COMMAND.match(before)
        if command:
            yield from _matching(command.group(1), {n: "command" for n in self.commands()})
            return
        module = _IMPORT.match(before)
        if module:
            yield from self._modules(module.group(1))
            return
        dotted = _DOTTED.search(before)
        if dotted:
            value = resolve(dotted.group(1).split("."), self.variables())
            yield from _matching(dotted.group(2), attribute_names(value))
            return
        word = _WORD.search(before)
        if word and word.group(1):
            yield from _matching(word.group(1), self._top_level())

    def _top_level(self) -> dict:
        from gradcli.cli.repl.lexer import scanner
        from gradcli.language.namespaces.builtins import PY_BUILTINS
        candidates = {name: "keyword" for name in scanner().keywords}
        candidates.update({name: "function" for name in PY_BUILTINS})
        candidates.update({name: describe(v) for name, v in self.variables().items()})
        return candidates

    def _modules(self, prefix: str):
        from gradcli.language.namespaces.torch_table import MODULES
        head, _, partial = prefix.rpartition(".")
        names = {path[len(head) + 1 if head else 0:]: "module" for path in MODULES
                 if path.startswith(head + ".") or not head}
        yield from _matching(partial, {n: k for n, k in names.items() if "." not in n})


def _matching(partial: str, candidates: dict):
    hidden = not partial.startswith("_")
    for name in sorted(candidates, key=lambda n: (n.startswith("_"), n.lower())):
        if name.startswith(partial) and name != partial and not (hidden and name.startswith("_")):
            yield Completion(name, start_position=-len(partial), display_meta=candidates[name])
