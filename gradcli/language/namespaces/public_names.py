"""torch's public names (recorded from torch 2.13.0), so that a name gradcli lacks is refused as
gradcli's gap, never as if torch lacked it."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from gradcli.engine import errors

RECORD = Path(__file__).with_name("public_names.json")
NAMESPACES = ("torch", "torch.Tensor", "torch.nn", "torch.nn.functional", "torch.linalg",
              "torch.autograd", "torch.func", "torch.nn.init", "torch.nn.utils", "torch.optim",
              "torch.optim.lr_scheduler", "torch.utils.data")


@cache
def recorded() -> dict[str, frozenset[str]]:
    """namespace -> torch's public names in it (tests/golden/record_public_names.py writes them)."""
    names = json.loads(RECORD.read_text(encoding="utf-8"))
    return {namespace: frozenset(names[namespace]) for namespace in NAMESPACES}


class Unsupported(errors.TorchError):
    """A torch name gradcli lacks: the name exists (hasattr is True, as in torch), using it fails."""


def unsupported(namespace: str, name: str) -> Unsupported | None:
    """The error for `namespace.name` when torch has the name and gradcli does not."""
    if namespace in NAMESPACES and name in recorded()[namespace]:
        return Unsupported("NotImplementedError",
                           f"gradcli does not support {namespace}.{name} yet")
    return None
