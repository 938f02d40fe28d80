"""Tables over the engine's declarations that build an entry (and load its area) only when a
program first names it, and `layered`, which stacks tables as `a | b | c` merges them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Callable

from gradcli.engine.declarations import DECLARATIONS, declared
from gradcli.engine.ops import load_all
from gradcli.engine.ops.area_index import declared_names


class DeclaredEntries(Mapping):
    """The table entries of every function declared for `variant`, each made by `make(name,
    declaration)` on first lookup."""

    def __init__(self, variant: str, make: Callable):
        self.variant, self._make, self._entries = variant, make, {}
        self.complete = False  # every area loaded: DECLARATIONS itself says what is declared

    def __contains__(self, name) -> bool:
        if self.complete:
            return (self.variant, name) in DECLARATIONS
        return name in declared_names(self.variant)

    def __getitem__(self, name: str):
        made = self._entries.get(name)
        if made is None:
            if name not in self:
                raise KeyError(name)
            made = self._entries[name] = self._make(name, DECLARATIONS[self.variant, name])
        return made

    def __iter__(self):
        load_all()
        self.complete = True
        return iter(declared(self.variant))

    def __len__(self) -> int:
        return sum(1 for _ in self)


class _Layered(Mapping):
    """The layers never change once stacked, so an entry found is kept for the next lookup (a
    loop calling `t.sum()` looks it up on every step)."""

    def __init__(self, layers: tuple):
        self._layers = layers
        self._found: dict = {}

    def __contains__(self, name) -> bool:
        if name in self._found or any(name in layer for layer in self._layers):
            return True
        return self._after_loading_all(name)

    def __getitem__(self, name: str):
        found = self._found.get(name)
        if found is not None:
            return found
        for layer in reversed(self._layers):
            if name in layer:
                found = layer[name]
                if found is not None:
                    self._found[name] = found
                return found
        if self._after_loading_all(name):
            return self[name]
        raise KeyError(name)

    def get(self, name, default=None):
        found = self._found.get(name)
        if found is not None:
            return found
        try:
            return self[name]
        except KeyError:
            return default

    def _after_loading_all(self, name: str) -> bool:
        """A name declared since area_index.py was generated is found all the same."""
        pending = [layer for layer in self._layers
                   if isinstance(layer, DeclaredEntries) and not layer.complete]
        if not pending:
            return False
        load_all()
        for layer in pending:
            layer.complete = True
        return name in self

    def _merged(self) -> dict:
        merged = {}
        for layer in self._layers:
            merged.update(layer.items())
        return merged

    def __iter__(self):
        return iter(self._merged())

    def __len__(self) -> int:
        return len(self._merged())


def layered(*tables: Mapping) -> Mapping:
    """The tables as one, a later table's entry winning over an earlier one's (as `|` merges
    dicts), without building the entries of a DeclaredEntries until they are named."""
    flat = []
    for table in tables:
        flat += table._layers if isinstance(table, _Layered) else [table]
    return _Layered(tuple(flat))
