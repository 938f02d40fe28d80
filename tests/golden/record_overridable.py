"""Record the names of torch's functions written in Python that hand a call to
__torch_function__ handlers and modes: those whose code calls handle_torch_function (torch.add's
kind, written in C, always do; torch.manual_seed's kind never does).

Run `python tests/golden/record_overridable.py` (torch 2.13.0 installed) to rewrite
gradcli/language/runtime/overridable.json; tests/language/test_overridable.py checks the record
against torch when it is installed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

RECORD = Path(__file__).resolve().parents[2] / "gradcli/language/runtime/overridable.json"
NAMESPACES = ("torch", "torch.Tensor", "torch.nn.functional", "torch.functional",
              "torch.autograd", "torch.linalg", "torch.fft", "torch.special", "torch.nested",
              "torch.sparse", "torch.nn.init")


def python_overridable() -> list[str]:
    """Dotted names (torch.Tensor.backward, torch.autograd.grad) of the Python functions in
    torch's namespaces whose code calls handle_torch_function."""
    import importlib
    import inspect

    import torch
    names = set()
    for path in NAMESPACES:
        owner = torch.Tensor if path == "torch.Tensor" else importlib.import_module(path)
        for name, value in vars(owner).items():
            value = getattr(value, "__func__", value)  # (a staticmethod's function)
            if not inspect.isfunction(value):
                continue
            try:  # (a wrapper's own code, or the code it wraps)
                source = inspect.getsource(value) + inspect.getsource(inspect.unwrap(value))
            except (OSError, TypeError):
                continue
            if "handle_torch_function(" in source:
                names.add(f"{path}.{name}")
    return sorted(names)


if __name__ == "__main__":
    recorded = python_overridable()
    RECORD.write_text(json.dumps(recorded, indent=0) + "\n")
    sys.stdout.write(f"{RECORD}: {len(recorded)} names\n")
