"""Record torch's public names per namespace into gradcli's package data.

Run `python tests/golden/record_public_names.py` (torch 2.13.0 installed) to rewrite
gradcli/language/namespaces/public_names.json; tests/language/test_public_names.py reads the
names from torch when it is installed and checks the recorded list against them.
"""

from __future__ import annotations

import inspect
import json
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from gradcli.language.namespaces.public_names import NAMESPACES, RECORD  # noqa: E402


def _foreign(value) -> bool:
    """Modules and helpers torch's namespaces import from outside torch (math, typing, ...)."""
    if isinstance(value, types.ModuleType):
        return not value.__name__.startswith("torch")
    module = getattr(value, "__module__", None)
    routine = inspect.isclass(value) or inspect.isfunction(value) or inspect.isbuiltin(value)
    return routine and isinstance(module, str) and not module.startswith("torch")


def public_names() -> dict[str, list[str]]:
    """namespace -> its public names (no leading underscore, nothing imported from outside)."""
    import importlib
    out = {}
    for namespace in NAMESPACES:
        module_name, _, attr = namespace.rpartition(".")
        owner = (getattr(importlib.import_module(module_name), attr) if attr == "Tensor"
                 else importlib.import_module(namespace))
        out[namespace] = sorted(n for n in dir(owner)
                                if not n.startswith("_") and not _foreign(getattr(owner, n)))
    return out


if __name__ == "__main__":
    RECORD.write_text(json.dumps(public_names(), indent=0) + "\n", encoding="utf-8")
    print(f"wrote {RECORD.relative_to(ROOT)}")
