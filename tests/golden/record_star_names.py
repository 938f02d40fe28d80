"""Record what `from X import *` binds for each module gradcli can import.

Run `python tests/golden/record_star_names.py` (torch 2.13.0 installed) to rewrite
gradcli/language/namespaces/star_names.json: per module path, the names Python binds (the
module's `__all__`, else its names without a leading underscore), and for a name the module only
re-exports (a module, or another module's attribute), where gradcli finds it.
"""

from __future__ import annotations

import importlib
import json
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from gradcli.language.namespaces.star_names import RECORD  # noqa: E402
from gradcli.language.namespaces.torch_table import MODULES  # noqa: E402


def _real(path: str):
    try:
        return importlib.import_module(path)
    except ImportError:
        return None


def _reference(value, name: str, owners: dict) -> str | None:
    """Where gradcli finds a re-exported `value`: `module:<path>` or `<path>:<name>`."""
    if isinstance(value, types.ModuleType):
        return f"module:{value.__name__}" if value.__name__ in MODULES else None
    for path, real in owners.items():
        if name in MODULES[path].table and getattr(real, name, None) is value:
            return f"{path}:{name}"
    return None


def star_names() -> dict:
    owners = {path: real for path in sorted(MODULES, key=lambda p: (p != "torch", p))
              if (real := _real(path)) is not None}
    names, references = {}, {}
    for path, real in sorted(owners.items()):
        exported = getattr(real, "__all__", None)
        listed = (list(dict.fromkeys(exported)) if exported is not None
                  else [n for n in vars(real) if not n.startswith("_")])
        names[path] = sorted(listed)
        table = MODULES[path].table
        found = {n: ref for n in listed if n not in table
                 and (ref := _reference(getattr(real, n, None), n, owners)) is not None}
        if found:
            references[path] = found
    return {"names": names, "references": references}


if __name__ == "__main__":
    with open(RECORD, "w", encoding="utf-8") as handle:
        json.dump(star_names(), handle, indent=0, sort_keys=True)
        handle.write("\n")
    print(f"wrote {RECORD}")
