"""Record what `dir(module)` lists for the modules whose listing gradcli gives.

Run `python tests/golden/record_dir_names.py` (torch 2.13.0 installed, CPython 3.11) to rewrite
gradcli/language/namespaces/dir_names.json: per module path, `dir()` of the module in a fresh
process that has imported torch and then the module, as a script does; under MODULE_CLASSES,
what nn.Module.__dir__ lists for torch.nn's classes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from gradcli.language.namespaces.public_names import NAMESPACES  # noqa: E402
from gradcli.language.namespaces.python_dir import MODULE_CLASSES, RECORD  # noqa: E402

STANDARD = ("math", "random", "json", "itertools", "functools", "collections", "copy", "time",
            "string", "re", "logging", "contextlib", "abc", "enum", "typing", "warnings")
# torch modules listed though gradcli records no public names for them
LISTED_TORCH = ("torch.distributions",)
_LIST = "import importlib, json, sys, torch; print(json.dumps(dir(importlib.import_module(" \
        "sys.argv[1]))))"
# nn.Module.__dir__'s parts: dir(nn.Module), a bare module's __dict__ and, per torch.nn class,
# the names its dir() adds to nn.Module's
_MODULE_CLASSES = """
import json
from torch import nn
base = dir(nn.Module)
print(json.dumps({"Module": base, "Module()": list(vars(nn.Module())),
                  **{name: sorted(set(dir(cls)) - set(base)) for name, cls in vars(nn).items()
                     if isinstance(cls, type) and issubclass(cls, nn.Module)
                     and cls is not nn.Module}}))
"""


def main() -> None:
    paths = [p for p in NAMESPACES if p != "torch.Tensor"] + list(LISTED_TORCH) + list(STANDARD)
    listed = {path: json.loads(subprocess.run([sys.executable, "-c", _LIST, path], check=True,
                                              capture_output=True, text=True).stdout)
              for path in paths}
    listed[MODULE_CLASSES] = json.loads(subprocess.run(
        [sys.executable, "-c", _MODULE_CLASSES], check=True, capture_output=True,
        text=True).stdout)
    Path(RECORD).write_text(json.dumps(listed, indent=0, sort_keys=True) + "\n",
                            encoding="utf-8")


if __name__ == "__main__":
    main()
