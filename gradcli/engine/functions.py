"""F: every torch-level function of the engine by name, bound late.

Rules and functions of one area call those of another through F (`F.mul(grad, other)`), so no
area imports another and the engine has no import cycle. Each area module ends with
`export(__name__, globals())`; importing gradcli.engine.ops loads every area.
"""

from __future__ import annotations

from types import ModuleType, SimpleNamespace

F = SimpleNamespace()
_OWNERS: dict[str, str] = {}


def export(module: str, namespace: dict) -> None:
    """Publish a module's public names in F; two areas may not publish different values under
    one name."""
    for name, value in list(namespace.items()):
        if name.startswith("_") or isinstance(value, ModuleType):
            continue
        published = vars(F)
        if name in published and published[name] is not value:
            raise ImportError(f"{name} is defined by both {_OWNERS[name]} and {module}")
        _OWNERS.setdefault(name, module)
        published[name] = value
