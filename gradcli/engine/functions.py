"""F: every torch-level function of the engine by name, bound late.

Rules and functions of one area call those of another through F (`F.mul(grad, other)`), so no
area imports another and the engine has no import cycle. Each area module ends with
`export(__name__, globals())`. Areas load on first use (see gradcli/engine/ops/__init__.py):
a name missing from F, from the OPS table or from the declarations asks `LOADER` for its area.
"""

from __future__ import annotations

from types import ModuleType, SimpleNamespace
from typing import Callable

# (kind, key) -> whether the area holding it was loaded; kind is "function", "row" or
# "declaration". Set by gradcli.engine.ops when it is imported.
LOADER: Callable[[str, object], bool] | None = None


def _load(kind: str, key) -> bool:
    return LOADER is not None and LOADER(kind, key)


class _Functions(SimpleNamespace):
    def __getattr__(self, name: str):
        if not name.startswith("__") and _load("function", name):
            return vars(self)[name]
        raise AttributeError(f"F has no function {name!r}")


class LateTable(dict):
    """A table (OPS, DECLARATIONS) whose missing keys load the area that defines them."""

    def __init__(self, kind: str):
        super().__init__()
        self.kind = kind

    def __missing__(self, key):
        if _load(self.kind, key):
            return dict.__getitem__(self, key)
        raise KeyError(key)


F = _Functions()
_OWNERS: dict[str, str] = {}


def export(module: str, namespace: dict) -> None:
    """Publish a module's public names in F; two areas may not publish different values under
    one name."""
    published = vars(F)
    for name, value in list(namespace.items()):
        if name.startswith("_") or isinstance(value, ModuleType):
            continue
        if name in published and published[name] is not value:
            raise ImportError(f"{name} is defined by both {_OWNERS[name]} and {module}")
        _OWNERS.setdefault(name, module)
        published[name] = value
